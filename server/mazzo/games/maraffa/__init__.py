"""Maraffa / Marafone Beccacino for 2, 3 (with a dummy) and 4 players (maraffa.md)."""
