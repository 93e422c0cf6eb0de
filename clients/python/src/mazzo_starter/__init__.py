"""A standalone Mazzo starter in Python: a bot, a client example and the
conformance runner, on code generated from ../../proto (make build)."""
