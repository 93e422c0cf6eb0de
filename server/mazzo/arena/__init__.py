"""The arena (issue 34): a standing, rated competition that keeps every game.

So far only its storage: the tables (``models``), their migrations (``migrations``,
run by ``schema.upgrade``) and the operations a scheduler and its workers will need
(``store.Store``). SQLite by default, PostgreSQL by URL; see docs/arena.md.
"""
