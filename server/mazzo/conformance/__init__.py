"""The conformance vectors' machinery (scripts/gen_conformance.py): what the generic
runner and each game's ``conformance`` role build vectors with.

Not imported when serving. It sits below the games' roles (tests/test_layers.py), so a
game's ``conformance`` module can use it: it sees the service only through the small
``Service`` protocol, which the runner fills with the real servicer called in-process.
"""
