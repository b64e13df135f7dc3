"""Which layout of a format a file is in, where a format has several and an original
scorer's reader reads only one (OLLIE: its tab output, which CaRB's and oie-benchmark's
readers read, and its plain lines, which neither does and benchie's reader reads). Kept apart
from :mod:`benchie_cli.inputs.native` so that a benchmark asks it without loading every
reader."""

from __future__ import annotations

import re

#: OLLIE's plain layout, ``0.870: (a; r; b)`` (its default output), which CaRB's OLLIE
#: reader (of the tab layout) cannot read: benchie's reader reads it.
OLLIE_PLAIN_LINE = re.compile(rb"^\s*\d*\.?\d+:\s*[(\[]")


def ollie_plain(data: bytes) -> bool:
    """Whether the file is of OLLIE's plain layout: its first 20 non-blank lines hold no
    TAB (the tab layout's columns), and some are ``conf: (a; r; b)`` lines."""
    head = [line for line in data[: 64 << 10].splitlines() if line.strip()][:20]
    return all(b"\t" not in line for line in head) and any(
        OLLIE_PLAIN_LINE.match(line) for line in head
    )


#: The formats with a layout the original scorers' readers of them do not read, and how to
#: tell a file of that layout.
_UNREAD_LAYOUTS = {"ollie": ollie_plain}


def read_by_original(fmt: str, data: bytes) -> bool:
    """Whether an original scorer's reader of ``fmt`` reads this file's layout (else
    benchie's reader reads it, and meets its sentences by their text)."""
    unread = _UNREAD_LAYOUTS.get(fmt)
    return unread is None or not unread(data)
