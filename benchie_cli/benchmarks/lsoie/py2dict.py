"""CPython 2.7's ``dict`` iteration order of byte-string keys, emulated (docs/lsoie.md).

LSOIE's scorer groups extractions by their raw sentence text in a Python 2 ``dict``, then
re-keys that dict by a normalised key with ``dict(d.items())``: where two texts share a
key, the one that comes later in the first dict's iteration order wins, and the other's
extractions are dropped. That order is the order of the hash table's slots, which depends
on every key inserted and on when the table was resized, so the only way to know which
text wins is to rebuild the table. This module does, for the interpreter that made
LSOIE's published curves: CPython 2.7 with hash randomisation off (its default), 64-bit.

* :func:`str_hash` is ``string_hash`` of ``Objects/stringobject.c`` with a zero secret:
  ``x = s[0] << 7``, then ``x = (1000003 * x) ^ byte`` for each byte, ``x ^= len(s)``, in
  a wrapping signed 64-bit ``long``; -1 becomes -2; the empty string hashes to 0.
* :func:`slot_order` inserts the keys, in the order given, into a table as
  ``Objects/dictobject.c`` keeps it: 8 slots at first; a key goes to slot
  ``i = h & mask``, else along the probe ``i = 5 * i + perturb + 1`` (slot ``i & mask``;
  ``perturb`` starts at ``h`` as an unsigned word and is shifted right by 5 after each
  probe) to the first free slot; after an insertion that
  fills two thirds of the table (``fill * 3 >= size * 2``), the table is rebuilt with the
  smallest power of two above ``4 * used`` (``2 * used`` past 50,000 keys) slots, the old
  slots' keys reinserted in slot order. Keys are never deleted here, so no slot holds a
  dummy.

Only the order of distinct keys is modelled (inserting a key again changes nothing).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from benchie_cli.disk_cache import DiskMemo, clear_on_bypass, source_fingerprint

__all__ = ["slot_order", "str_hash"]

_MASK64 = (1 << 64) - 1
_MULTIPLIER = 1000003
_MINSIZE = 8
_PERTURB_SHIFT = 5


#: Hashes kept between runs: the gold's texts and a file's are hashed at every run, a loop
#: over every byte of them (~0.1 s for LSOIE's science split).
_MEMO: DiskMemo[int] = DiskMemo(
    "lsoie-py2-hashes",
    lambda: source_fingerprint(Path(__file__)),
    int,
    max_entries=1 << 16,
    max_bytes=16 << 20,
    valid=lambda values: not values or -(1 << 63) <= min(values) <= max(values) < 1 << 63,
)  # (every value a signed 64-bit hash, or the file is forged)


@lru_cache(maxsize=1 << 15)
def str_hash(key: bytes) -> int:
    """``hash(key)`` of a Python 2.7 ``str`` (hash randomisation off), as a signed 64-bit
    integer. A loop over every byte, most of the time a run of LSOIE takes: memoised (a
    run orders the same sentence texts more than once), within a bound, and kept between
    runs (:data:`_MEMO`)."""
    text = key.decode("latin-1")  # (the memo's keys are text: one character a byte)
    known = _MEMO.get(text)
    if known is not None:
        return known
    value = _str_hash(key)
    _MEMO.put(text, value)
    return value


clear_on_bypass(str_hash.cache_clear)


def _str_hash(key: bytes) -> int:
    """:func:`str_hash`, computed four bytes a step, masked once: multiplying and XORing a
    byte commute with reducing modulo 2**64, so the step's result is that of masking after
    each byte, and the loop's own overhead is most of its cost."""
    if not key:
        return 0
    m = _MULTIPLIER
    x = (key[0] << 7) & _MASK64
    quads = iter(key)
    for a, b, c, d in zip(quads, quads, quads, quads, strict=False):  # (the rest: below)
        x = ((m * ((m * ((m * ((m * x) ^ a)) ^ b)) ^ c)) ^ d) & _MASK64
    for byte in key[len(key) - len(key) % 4 :]:
        x = ((m * x) & _MASK64) ^ byte
    x ^= len(key)
    if x >= 1 << 63:
        x -= 1 << 64
    return -2 if x == -1 else x


def _place(table: list[int | None], h: int) -> int:
    """The slot a new key of hash ``h`` takes in ``table`` (a power of two of slots, none
    of them a dummy): its first free slot along the probe sequence."""
    mask = len(table) - 1
    perturb = h & _MASK64
    i = slot = perturb & mask
    while table[slot] is not None:
        i = (5 * i + perturb + 1) & _MASK64
        perturb >>= _PERTURB_SHIFT
        slot = i & mask
    return slot


def slot_order(keys: Iterable[bytes]) -> list[bytes]:
    """The keys as a Python 2.7 ``dict`` (or ``defaultdict``) into which they were
    inserted, in this order, iterates them (``d.keys()``)."""
    table: list[int | None] = [None] * _MINSIZE  # the index into ``known`` of each slot
    known: list[bytes] = []
    hashes: list[int] = []
    seen: set[bytes] = set()
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        h = str_hash(key)
        table[_place(table, h)] = len(known)
        known.append(key)
        hashes.append(h)
        used = len(known)  # the fill too: nothing is ever deleted
        if used * 3 >= len(table) * 2:
            minused = (2 if used > 50000 else 4) * used
            size = _MINSIZE
            while size <= minused:
                size <<= 1
            old, table = table, [None] * size
            for index in old:
                if index is not None:
                    table[_place(table, hashes[index])] = index
    return [known[index] for index in table if index is not None]
