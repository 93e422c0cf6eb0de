"""Trionfo, Maraffa for five (docs/rules/maraffa-forms.md, A): its own state, auction,
scoring, view and sampler on Maraffa's cards, moves and trick rules; ``rules`` is the
engine, the other modules its parts."""
