"""CPython 2.7's dict order, emulated (benchie_cli/benchmarks/lsoie/py2dict.py): the
expected hashes and orders were printed by CPython 2.7.18 (hash randomisation off), and the
emulation was also checked there on thousands of random key sets and on every sentence of
LSOIE's gold and system outputs."""

from __future__ import annotations

from benchie_cli.benchmarks.lsoie.py2dict import slot_order, str_hash


def test_the_hash_is_python_2_s() -> None:
    # python2.7 -c "print [hash(k) for k in ['', 'a', 'abc', '\xff\xfe', 'The cat sat .']]"
    keys = [b"", b"a", b"abc", b"\xff\xfe", b"The cat sat ."]
    assert [str_hash(k) for k in keys] == [
        0,
        12416037344,
        1453079729188098211,
        32640195839293889,
        9177337889504883938,
    ]


def test_small_dicts_iterate_in_slot_order() -> None:
    # {'b': 1, 'a': 2, 'c': 3}.keys()
    assert slot_order([b"b", b"a", b"c"]) == [b"a", b"c", b"b"]
    # d['Birds sing .'] = 1; d['Birds sing'] = 1; d.keys(): the later text first
    assert slot_order([b"Birds sing .", b"Birds sing"]) == [b"Birds sing", b"Birds sing ."]
    assert slot_order([b"Fire burns .", b"Fire burns"]) == [b"Fire burns .", b"Fire burns"]


def test_resizes_reorder_the_slots() -> None:
    # for i in range(30): d['s%d' % i] = 1 (the table grows from 8 to 32 to 128 slots)
    expected = (
        "s9 s8 s3 s2 s1 s0 s7 s6 s5 s4 s19 s18 s13 s12 s11 s10 s17 s16 s15 s14 "
        "s22 s23 s20 s21 s26 s27 s24 s25 s28 s29"
    )
    assert slot_order(f"s{i}".encode() for i in range(30)) == [k.encode() for k in expected.split()]


def test_a_key_inserted_again_changes_nothing() -> None:
    assert slot_order([b"b", b"a", b"b", b"c", b"a"]) == [b"a", b"c", b"b"]
