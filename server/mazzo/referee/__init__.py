"""The referee: bot-vs-bot matches and tournaments for every game of the registry.

Bots speak only the ``mazzo.v1.Bot/Act`` contract (over gRPC, over stdin/stdout
as proto3 JSON lines, or in-process); the rules come from the registry and travel
through the codecs, so no module here but ``games`` knows a particular game. The
builtin players are strategy, in ``mazzo.players``.
"""
