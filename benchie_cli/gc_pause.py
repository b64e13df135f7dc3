"""Pausing Python's cyclic garbage collector while a run builds large acyclic structures
(a gold's index, a submission's extractions): the collector's repeated passes over ~10^5
small tuples cost a third of the time and collect nothing. Here, below every scorer, so that
each may use it without importing another's module."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """The collector paused for the block, and restored as it was (a caller that had it
    off keeps it off)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
