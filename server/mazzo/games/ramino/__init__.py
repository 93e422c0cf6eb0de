"""Ramino pokerato with the imaginary joker (shared/rules/ramino.md)."""
