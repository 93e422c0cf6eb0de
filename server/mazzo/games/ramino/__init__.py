"""Ramino pokerato with the imaginary joker (docs/rules/ramino.md)."""
