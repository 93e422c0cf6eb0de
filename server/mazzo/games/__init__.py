"""One package per game; each is pure Python and knows nothing of the wire."""
