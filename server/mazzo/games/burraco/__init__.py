"""Burraco (FIBUR Italian rules): a pure engine, per docs/rules/burraco.md."""
