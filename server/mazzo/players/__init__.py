"""The builtin players: strategy, not rules and not refereeing.

A player chooses among legal moves; it never decides what is legal (the games do)
nor judges anyone (the referee does). The referee seats them as ``builtin:NAME``
bots, and the service's ``Simulate`` plays its playouts with them:

- ``random``: uniformly among the legal moves, never a move the game says a random
  player should avoid (a Maraffa claim);
- ``heuristic``: each game's simple, deterministic player (``heuristic_<game>``);
- ``pimc``: perfect-information Monte Carlo over the view's determinizations
  (``pimc.py``), playouts by ``playout.py``.
"""
