"""Burraco (FIBUR Italian rules): a pure engine, per shared/rules/burraco.md."""
