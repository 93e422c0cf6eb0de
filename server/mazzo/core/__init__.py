"""Game-independent pieces: cards, the seeded shuffle, errors, the rules protocol."""
