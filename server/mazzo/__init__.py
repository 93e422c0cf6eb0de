"""Mazzo: a stateless rules service for Italian card games."""

__version__ = "0.1.0"
