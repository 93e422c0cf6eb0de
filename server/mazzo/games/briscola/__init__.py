"""Briscola (docs/rules/briscola.md): the trick-taking game with a turned-up trump."""
