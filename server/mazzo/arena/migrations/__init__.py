"""Alembic's script folder for the arena's schema (``schema.upgrade`` runs it)."""
