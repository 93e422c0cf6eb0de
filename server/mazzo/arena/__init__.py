"""The arena (issue 34): a standing, rated competition that keeps every game.

Its storage: the tables (``models``), their migrations (``migrations``, run by
``schema.upgrade``) and the operations on them (``store.Store``), SQLite by default,
PostgreSQL by URL. On it: who sits at the next table (``matchmaking``), the queue kept
topped up (``scheduler``), the matches played through the referee (``worker``), the
loop of both (``run``) and ``mazzo arena`` (``cli``). Builtin bots only so far; see
docs/arena.md.
"""
