"""``mazzo bench``: speed figures as JSON, each compared inside one run.

Absolute times depend on the machine; ratios measured side by side in one run do
not (much), so the RPC figures are given against ``grpc.health.v1.Health/Check``
on the same server and channel.

One module per benchmark family (``engines``, ``rpc``, ``referee``, ``search``,
``sealing``, ``layers``, ``rl``, ``anchors``, ``builds``), what they share in
``common``, and ``runner``, which names them all for ``mazzo bench``.
"""
