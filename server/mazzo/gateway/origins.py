"""The origins a page may call the gateway's HTTP door from (``--cors-origin``),
checked as the command line reads them: a light module, so the CLI's parser needs
none of the door's web stack."""

from __future__ import annotations

import argparse


def cors_origin(text: str) -> str:
    """An origin a page may call the door from: ``*``, or ``scheme://host[:port]``,
    written as a browser sends it in ``Origin`` (no path, no trailing slash)."""
    if text == "*":
        return text
    scheme, sep, rest = text.partition("://")
    host, _, port = rest.rpartition(":") if ":" in rest.rsplit("]", 1)[-1] else (rest, "", "")
    if (
        scheme not in ("http", "https")
        or not sep
        or not host
        or (port and not port.isdigit())
        or any(c in rest for c in "/?#@ ")
    ):
        raise ValueError(
            f"{text!r} is not an origin: give scheme://host[:port], as a browser sends it "
            f"(https://bots.example.org, http://localhost:5173), or * for any"
        )
    default = {"http": "80", "https": "443"}[scheme]
    # as a browser writes it: lower case, and no port when it is the scheme's own
    return f"{scheme}://{host if port in ('', default) else rest}".lower()


def origin_argument(text: str) -> str:
    """``cors_origin`` as an argparse ``type``: its reason is the error printed."""
    try:
        return cors_origin(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
