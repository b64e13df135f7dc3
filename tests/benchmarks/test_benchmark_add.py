"""``benchie benchmark add`` and ``benchie benchmark list``: external benchmarks (Re-OIE2016,
WiRe57) that benchie may not redistribute, added by the user from the published file.

The published files have no licence: they are never in the repository nor in these tests.
Every test here adds small hand-made stand-ins, whose sha256 is put in place of the
published one (the registry's ``Published.sha256``), and the manifest pin likewise
(``Benchmark.shipped``). Only the last test reads the real files, from the directory
``$BENCHIE_EXTERNAL_DATA`` names, and is skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold import external
from benchie_cli.registry import BENCHMARKS, EXTERNAL, Published
from tests.conftest import REPO, RunCli

ENV_DATA = "BENCHIE_EXTERNAL_DATA"


def _reoie_tuple(pred: str, arg0: str = "", arg1: str = "") -> dict[str, object]:
    return {
        "arg0": arg0,
        "arg0_index": [],
        "pred": pred,
        "pred_index": [],
        "arg1": arg1,
        "arg1_index": [],
        "arg2": "",
        "arg3": "",
        "loc": "",
        "temp": "",
        "context": "",
    }


#: A Re-OIE2016-style gold: three sentences with tuples (one without: not a gold sentence).
REOIE = {
    "Ann likes Bob , a teacher .": [
        _reoie_tuple("likes", "Ann", "Bob"),
        _reoie_tuple("<be>", "Ann", "a teacher"),
    ],
    "Carl sleeps .": [_reoie_tuple("sleeps", "Carl")],
    "Nothing happens here .": [],
    "Dan met Eve .": [_reoie_tuple("met", "Dan", "Eve")],
}


def _part(words: list[str], indexes: list[object]) -> dict[str, object]:
    return {"text": " ".join(words), "words": words, "words_indexes": indexes}


#: A WiRe57-style reference: two documents, three sentences, four tuples.
WIRE = {
    "doc A": [
        {
            "id": "A 1",
            "sent": "Tokyo is the capital of Japan .",
            "tuples": [
                {
                    "attrib/spec?": "",
                    "arg1": _part(["Tokyo"], [0]),
                    "rel": _part(["is", "the", "capital", "of"], [1, 2, 3, 4]),
                    "arg2": _part(["Japan"], [5]),
                    "arg3+": [],
                },
                {
                    "attrib/spec?": "",
                    "arg1": _part(["Tokyo"], [0]),
                    "rel": _part(["is", "in"], ["inf", "inf"]),
                    "arg2": _part(["Japan"], [5]),
                    "arg3+": [],
                },
            ],
        },
        {"id": "A 2", "sent": "It is big .", "tuples": []},
    ],
    "doc B": [
        {
            "id": "B 1",
            "sent": "Ann met Bob in Paris .",
            "tuples": [
                {
                    "attrib/spec?": "",
                    "arg1": _part(["Ann"], [0]),
                    "rel": _part(["met"], [1]),
                    "arg2": _part(["Bob"], [2]),
                    "arg3+": [_part(["in", "Paris"], [3, 4])],
                }
            ],
        }
    ],
}

#: name -> (stand-in document, gold sentences, tuples, a document its reader refuses)
STAND_INS: dict[str, tuple[object, int, int, object]] = {
    "reoie2016": (REOIE, 3, 4, {"Carl sleeps .": [{"pred": "sleeps"}]}),
    "wire57": (WIRE, 3, 3, {"doc A": [{"id": "A 1", "tuples": [{"arg1": 3}]}]}),
}
NAMES = sorted(STAND_INS)


def _write(path: Path, doc: object) -> bytes:
    data = json.dumps(doc, ensure_ascii=False, indent=1).encode()
    path.write_bytes(data)
    return data


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` (hidden ones too), with a file's bytes."""
    return {
        p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


PinFile = Callable[[str, bytes], None]


def _published(name: str) -> Published:
    """``name``'s first published gold (Re-OIE2016's and WiRe57's only one)."""
    return BENCHMARKS[name].published[0]


def _lookalikes() -> dict[str, str]:
    return {
        k: v for n in EXTERNAL for p in BENCHMARKS[n].published for k, v in p.lookalikes.items()
    }


def _set_published(monkeypatch: pytest.MonkeyPatch, name: str, **changes: object) -> None:
    """The registry's entry of ``name`` with its published file changed (for this test)."""
    published = _published(name)._replace(**changes)
    rest = BENCHMARKS[name].published[1:]
    monkeypatch.setitem(BENCHMARKS, name, BENCHMARKS[name]._replace(published=(published, *rest)))


def _set_shipped(monkeypatch: pytest.MonkeyPatch, name: str, pins: dict[str, str]) -> None:
    """The registry's entry of ``name`` with other manifest pins (for this test)."""
    monkeypatch.setitem(BENCHMARKS, name, BENCHMARKS[name]._replace(shipped=pins))


@pytest.fixture
def pin(monkeypatch: pytest.MonkeyPatch) -> PinFile:
    """Put a stand-in's sha256 in place of the published file's, and the sha256 of the
    manifest ``add`` writes for it in place of the pinned manifest's."""

    def set_pin(name: str, data: bytes) -> None:
        _set_published(monkeypatch, name, sha256=_sha(data))

    return set_pin


@pytest.fixture
def stand_in(
    tmp_path: Path, pin: PinFile, monkeypatch: pytest.MonkeyPatch
) -> Callable[[str], tuple[Path, bytes]]:
    """A valid stand-in of ``name``'s published file, under its published name, pinned,
    and the manifest ``add`` writes for it pinned too."""

    def make(name: str) -> tuple[Path, bytes]:
        src = tmp_path / "download" / _published(name).file
        src.parent.mkdir(exist_ok=True)
        data = _write(src, STAND_INS[name][0])
        pin(name, data)
        manifest = external.manifest_bytes_for(name, _sha(data), len(data), STAND_INS[name][1])
        _set_shipped(monkeypatch, name, {"1.0.0": _sha(manifest)})
        return src, data

    return make


def _gold(tmp_path: Path, name: str = "gold") -> Path:
    root = tmp_path / name
    root.mkdir()
    return root


# --------------------------------------------------------------------------- add


EXPECTED_MANIFEST = """{
  "schema": 1,
  "version": "1.0.0",
  "benchmark": "reoie2016",
  "description": "Re-OIE2016's gold (test split), the user's copy of the file its authors published; benchie does not redistribute it",
  "license": "no licence: not redistributed by benchie; added by the user from https://github.com/zhanjunlang/Span_OIE",
  "splits": [
    "test"
  ],
  "files": [
    {
      "path": "test/Re-OIE2016.json",
      "language": "en",
      "facet": "test",
      "kind": "gold",
      "sha256": "SHA",
      "bytes": SIZE,
      "sentences": 3,
      "synsets": null,
      "upstream_path": "evaluate/Re-OIE2016.json"
    }
  ]
}
"""  # noqa: E501


def test_add_writes_exactly_the_version_its_manifest_and_gitignore(
    cli: RunCli, tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, data = stand_in("reoie2016")
    root = _gold(tmp_path)
    res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    assert "added Re-OIE2016 1.0.0" in res.stderr
    assert "3 sentences, 4 tuples" in res.stderr and _sha(data) in res.stderr
    tree = _tree(root)
    assert sorted(tree) == [
        "reoie2016",
        "reoie2016/.gitignore",
        "reoie2016/1.0.0",
        "reoie2016/1.0.0/ATTRIBUTION.md",
        "reoie2016/1.0.0/manifest.json",
        "reoie2016/1.0.0/test",
        "reoie2016/1.0.0/test/Re-OIE2016.json",
    ]
    assert tree["reoie2016/.gitignore"] == b"*\n"
    assert tree["reoie2016/1.0.0/test/Re-OIE2016.json"] == data
    expected = EXPECTED_MANIFEST.replace("SHA", _sha(data)).replace("SIZE", str(len(data)))
    assert tree["reoie2016/1.0.0/manifest.json"] == expected.encode()
    attribution = (tree["reoie2016/1.0.0/ATTRIBUTION.md"] or b"").decode()
    assert "https://github.com/zhanjunlang/Span_OIE" in attribution
    assert "Zhan and Hai Zhao" in attribution and "this copy is yours" in attribution
    # readable by others whatever the umask
    assert (root / "reoie2016" / "1.0.0").stat().st_mode & 0o777 == 0o755
    assert (root / "reoie2016" / "1.0.0" / "manifest.json").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("name", NAMES)
def test_the_same_file_gives_the_same_bytes_in_two_stores(
    cli: RunCli, tmp_path: Path, name: str, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, _ = stand_in(name)
    one, two = _gold(tmp_path, "one"), _gold(tmp_path, "two")
    (two / name).mkdir()  # the second store builds inside an existing <name>/ directory
    for root in (one, two):
        res = cli("benchmark", "add", name, src, "--gold-dir", root)
        assert res.exit_code == 0, res.stderr
    assert _tree(one) == _tree(two)
    manifest = orjson.loads((one / name / "1.0.0" / "manifest.json").read_bytes())
    assert manifest["benchmark"] == name and manifest["splits"] == ["test"]
    assert manifest["files"][0]["sentences"] == STAND_INS[name][1]


def test_a_file_that_is_not_the_published_one_is_refused(
    cli: RunCli, tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, data = stand_in("wire57")
    changed = data + b"\n"  # one byte more than the "published" file
    src.write_bytes(changed)
    root = _gold(tmp_path)
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", root)
    assert res.exit_code == ExitCode.FAILED
    line = res.stderr.strip()
    assert "\n" not in line and "Traceback" not in res.stderr
    assert line.startswith(f"benchie: {src}: error: sha256 {_sha(changed)}")
    assert _sha(data) in line and "https://github.com/rali-udem/WiRe57" in line
    assert "not the published one" in line
    assert _tree(root) == {}


def test_the_real_pins_refuse_a_stand_in(cli: RunCli, tmp_path: Path) -> None:
    src = tmp_path / "Re-OIE2016.json"
    _write(src, REOIE)
    root = _gold(tmp_path)
    res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    assert res.exit_code == ExitCode.FAILED
    assert _published("reoie2016").sha256 in res.stderr
    assert _tree(root) == {}


def test_the_other_benchmarks_file_is_named(cli: RunCli, tmp_path: Path, pin: PinFile) -> None:
    """The sha256 of the other external benchmark's published file: say which it is."""
    src = tmp_path / "x.json"
    src.write_bytes(b"{}")
    pin("reoie2016", b"{}")
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", _gold(tmp_path))
    assert res.exit_code == ExitCode.FAILED
    assert f"it is Re-OIE2016's: `benchie benchmark add reoie2016 {src}`" in res.stderr


OIE2016_TEST = "7b2137fd993c8e241ecd1c7c724d12cb90e0e38152c40afb4b933c158ccb6aa3"
WIRE57_EXPORT = "5e01d4551ea089af0dae38d9e9551e1160f5c5d9574ee162bc754eb88814f4aa"


@pytest.mark.parametrize(
    ("known", "name", "says"),
    [
        (
            OIE2016_TEST,
            "reoie2016",
            "this is OIE2016's test split (Span_OIE's evaluate/OIE2016.txt), shipped with "
            "benchie as gold/oie2016/2.0.0/test/test.oie: score against it with `benchie score "
            "--benchmark oie2016 --split test SUBMISSION` (sha256 {sha}, 23 bytes: not "
            "Re-OIE2016's Re-OIE2016.json, which is evaluate/Re-OIE2016.json there)",
        ),
        (
            WIRE57_EXPORT,
            "wire57",
            "this is WiRe57's systems' export, a submission: score it with `benchie score "
            "--benchmark wire57 {src}` (sha256 {sha}, 23 bytes: not WiRe57's "
            "WiRe57_343-manual-oie.json, which is data/WiRe57_343-manual-oie.json there)",
        ),
    ],
    ids=["oie2016-test-split", "wire57-systems-export"],
)
def test_a_file_mistaken_for_the_published_one_is_named(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    known: str,
    name: str,
    says: str,
) -> None:
    """The files people take for the published ones are said to be what they are, not a
    download to try again (the real files may not be in tests: a stand-in takes the hash)."""
    src = tmp_path / "mistaken.json"
    src.write_bytes(b"not the published file\n")
    assert known in _lookalikes()
    holder = next(n for n in EXTERNAL if known in _published(n).lookalikes)
    lookalikes = {**_published(holder).lookalikes, _sha(src.read_bytes()): _lookalikes()[known]}
    _set_published(monkeypatch, holder, lookalikes=lookalikes)
    root = _gold(tmp_path)
    res = cli("benchmark", "add", name, src, "--gold-dir", root)
    assert res.exit_code == ExitCode.FAILED
    line = res.stderr.strip()
    assert "\n" not in line and line.startswith(f"benchie: {src}: error: this is ")
    assert line.endswith(says.format(src=src, sha=_sha(src.read_bytes())))
    assert "download it again" not in line
    assert _tree(root) == {}


def test_the_shipped_oie2016_test_split_is_named(cli: RunCli, tmp_path: Path) -> None:
    """The real file: OIE2016's test split, which benchie ships (when it is pulled)."""
    shipped = REPO / "gold/oie2016/2.0.0/test/test.oie"
    if not shipped.is_file() or _sha(shipped.read_bytes()) != OIE2016_TEST:
        pytest.skip("gold/oie2016/2.0.0 is not pulled")
    res = cli("benchmark", "add", "reoie2016", shipped, "--gold-dir", _gold(tmp_path))
    assert res.exit_code == ExitCode.FAILED
    assert res.stderr.startswith(f"benchie: {shipped}: error: this is OIE2016's test split")
    assert f"(sha256 {OIE2016_TEST}, " in res.stderr


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing-dir"])
def test_content_its_reader_refuses_is_refused_and_nothing_written(
    cli: RunCli, tmp_path: Path, pin: PinFile, name: str, existing: bool
) -> None:
    src = tmp_path / _published(name).file
    pin(name, _write(src, STAND_INS[name][3]))
    root = _gold(tmp_path)
    if existing:
        (root / name).mkdir()
        (root / name / ".gitignore").write_bytes(b"*\n")
    before = _tree(root)
    res = cli("benchmark", "add", name, src, "--gold-dir", root)
    assert res.exit_code == ExitCode.USAGE
    line = res.stderr.strip()
    assert "\n" not in line and "Traceback" not in res.stderr
    label = BENCHMARKS[name].label
    assert line.startswith(f"benchie: {src}: error: not {label}'s format: $[")
    assert ".add-" not in line  # the temporary copy is never named
    assert _tree(root) == before


def test_a_json_error_names_its_line(cli: RunCli, tmp_path: Path, pin: PinFile) -> None:
    src = tmp_path / "Re-OIE2016.json"
    src.write_bytes(b'{\n  "a": [\n  oops\n')
    pin("reoie2016", src.read_bytes())
    root = _gold(tmp_path)
    res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    assert res.exit_code == ExitCode.USAGE
    assert res.stderr.startswith(f"benchie: {src}:3: error: not Re-OIE2016's format: not JSON")
    assert _tree(root) == {}


def test_bytes_that_are_not_utf8_are_refused(cli: RunCli, tmp_path: Path, pin: PinFile) -> None:
    src = tmp_path / "w.json"
    src.write_bytes(b'{"d\xff": []}')
    pin("wire57", src.read_bytes())
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", _gold(tmp_path))
    assert res.exit_code == ExitCode.USAGE and "not UTF-8" in res.stderr


@pytest.mark.parametrize("name", NAMES)
def test_adding_again_writes_nothing(
    cli: RunCli, tmp_path: Path, name: str, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, _ = stand_in(name)
    root = _gold(tmp_path)
    assert cli("benchmark", "add", name, src, "--gold-dir", root).exit_code == 0
    before = _tree(root)
    stamps = {p: p.stat().st_mtime_ns for p in root.rglob("*")}
    res = cli("benchmark", "add", name, src, "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    assert "is already in" in res.stderr and "nothing written" in res.stderr
    assert _tree(root) == before
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == stamps


def test_another_copy_already_present_is_refused(
    cli: RunCli, tmp_path: Path, pin: PinFile, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, _ = stand_in("reoie2016")
    root = _gold(tmp_path)
    assert cli("benchmark", "add", "reoie2016", src, "--gold-dir", root).exit_code == 0
    before = _tree(root)
    other = tmp_path / "other" / "Re-OIE2016.json"
    other.parent.mkdir()
    pin("reoie2016", _write(other, {"Carl sleeps .": [_reoie_tuple("sleeps", "Carl")]}))
    res = cli("benchmark", "add", "reoie2016", other, "--gold-dir", root)
    assert res.exit_code == ExitCode.USAGE
    where = root / "reoie2016" / "1.0.0"
    assert res.stderr.startswith(f"benchie: {where}: error: Re-OIE2016 1.0.0 is already added")
    assert "another file" in res.stderr and "never replaced" in res.stderr
    assert _tree(root) == before


def test_a_damaged_copy_already_present_is_refused(
    cli: RunCli, tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, _ = stand_in("wire57")
    root = _gold(tmp_path)
    assert cli("benchmark", "add", "wire57", src, "--gold-dir", root).exit_code == 0
    (root / "wire57" / "1.0.0" / "test" / src.name).write_bytes(b"{}")
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", root)
    assert res.exit_code == ExitCode.USAGE
    where = root / "wire57" / "1.0.0"
    assert res.stderr.startswith(f"benchie: {where}: error: WiRe57 1.0.0 is already added")
    assert "cannot be used" in res.stderr and "differs from its manifest" in res.stderr
    assert res.stderr.count("error:") == 1


def test_unknown_benchmark_and_missing_file(cli: RunCli, tmp_path: Path) -> None:
    root = _gold(tmp_path)
    res = cli("benchmark", "add", "oie2016", tmp_path / "x", "--gold-dir", root)
    assert res.exit_code == 2 and "reoie2016" in res.stderr
    res = cli("benchmark", "add", "wire57", tmp_path / "absent.json", "--gold-dir", root)
    assert res.exit_code == 2
    assert res.stderr == f"benchie: {tmp_path / 'absent.json'}: error: no such file\n"
    with pytest.raises(BenchieError, match="unknown external benchmark"):
        external.add("oie2016", tmp_path / "x", root)


# --------------------------------------------------------------------------- the store


@pytest.mark.parametrize("name", NAMES)
def test_the_store_serves_the_added_file_checked(
    tmp_path: Path,
    name: str,
    stand_in: Callable[[str], tuple[Path, bytes]],
) -> None:
    src, data = stand_in(name)
    root = _gold(tmp_path)
    said: list[str] = []
    version_dir = external.add(name, src, root, say=said.append)
    assert version_dir == root / name / "1.0.0" and len(said) == 1
    store = external.store(root, name)
    assert store.benchmark == name and store.versions() == ["1.0.0"]
    assert store.verify() == []
    gold = store.listed("1.0.0", "gold", "test")
    assert gold.data == data and gold.sha256 == _sha(data)
    assert gold.display_path == f"1.0.0/test/{src.name}"
    resolved = external.resolve(root, name)
    assert resolved.sha256 == gold.sha256
    parsed = external.read_gold(name, resolved)
    assert len(parsed) == STAND_INS[name][1]
    assert sum(len(v) for v in parsed.values()) == STAND_INS[name][2]


def test_a_tampered_file_is_refused_by_the_store(
    tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, _ = stand_in("reoie2016")
    root = _gold(tmp_path)
    external.add("reoie2016", src, root)
    path = root / "reoie2016" / "1.0.0" / "test" / "Re-OIE2016.json"
    path.write_bytes(path.read_bytes().replace(b"Carl", b"Karl"))
    with pytest.raises(BenchieError, match="differs from its manifest") as caught:
        external.store(root, "reoie2016").listed("1.0.0", "gold", "test")
    assert caught.value.exit_code == ExitCode.FAILED


def test_a_hand_edited_manifest_is_refused_by_the_store(
    tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    """The manifest ``add`` writes is pinned: a manifest rewritten to match a changed
    file (or with another licence) is not the one benchie wrote."""
    src, _ = stand_in("wire57")
    root = _gold(tmp_path)
    external.add("wire57", src, root)
    manifest = root / "wire57" / "1.0.0" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b"no licence", b"CC0"))
    with pytest.raises(BenchieError, match="the added copy's manifest was edited") as caught:
        external.store(root, "wire57").listed("1.0.0", "gold", "test")
    assert caught.value.exit_code == ExitCode.FAILED
    message = caught.value.message
    assert f"remove {root / 'wire57' / '1.0.0'} and add the published file again" in message
    assert "`benchie benchmark add wire57 FILE`" in message and "gold new" not in message


def test_the_manifest_pins_are_those_of_the_published_files() -> None:
    """The registry pins the manifest ``add`` writes for the published file: a function
    of its sha256, size and sentences, all published facts (a benchmark's first part, in
    the store itself; the other parts' pins are computed from the same facts)."""
    for name in EXTERNAL:
        first = external.get(name)
        if first.part:  # (CaRB's: its store holds the shipped English gold)
            continue
        e = first.published
        manifest = external.manifest_bytes_for(name, e.sha256, e.size, e.sentences)
        assert _sha(manifest) == BENCHMARKS[name].shipped[e.version], name


def test_not_added_says_where_to_get_it(tmp_path: Path) -> None:
    root = _gold(tmp_path)
    message = external.missing_message("reoie2016")
    assert "`benchie benchmark add reoie2016 Re-OIE2016.json`" in message
    assert "https://github.com/zhanjunlang/Span_OIE" in message and "no licence" in message
    assert "`benchie benchmark add wire57 WiRe57_343-manual-oie.json`" in (
        external.missing_message("wire57")
    )
    with pytest.raises(BenchieError) as caught:
        external.resolve(root, "wire57")
    assert caught.value.message == external.missing_message("wire57")
    assert caught.value.exit_code == ExitCode.USAGE


# --------------------------------------------------------------------------- writing


def test_a_read_only_gold_dir_is_a_clean_error(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],
) -> None:
    src, _ = stand_in("reoie2016")
    root = _gold(tmp_path)
    root.chmod(0o555)
    try:
        if os.geteuid() == 0:  # root writes anywhere: make the check see what a user would
            real_access = os.access
            monkeypatch.setattr(
                os,
                "access",
                lambda p, mode, **kw: False if Path(p) == root else real_access(p, mode, **kw),
            )
        res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    finally:
        root.chmod(0o755)
    assert res.exit_code == ExitCode.USAGE
    assert res.stderr == (
        f"benchie: {root}: error: the gold directory is not writable: add the benchmark to a "
        "gold directory you can write (--gold-dir DIR or $BENCHIE_GOLD_DIR), and score with "
        "the same one\n"
    )
    assert _tree(root) == {}


def test_messages_about_a_path_start_with_it(
    cli: RunCli, tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    src, _ = stand_in("wire57")
    root = _gold(tmp_path)
    (root / "wire57").write_bytes(b"not a directory")
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", root)
    assert res.exit_code == ExitCode.USAGE
    assert res.stderr == (
        f"benchie: {root / 'wire57'}: error: not a directory: remove it, or give another gold "
        "directory (--gold-dir)\n"
    )


def test_a_failed_write_keeps_nothing(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],
) -> None:
    src, _ = stand_in("wire57")
    root = _gold(tmp_path)
    real = os.rename

    def full_disk(a: object, b: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "rename", full_disk)
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", root)
    monkeypatch.setattr(os, "rename", real)
    assert res.exit_code == ExitCode.USAGE
    assert "cannot write the benchmark: No space left on device; nothing was kept" in res.stderr
    assert "Traceback" not in res.stderr
    assert _tree(root) == {}


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing-dir"])
def test_an_interrupted_add_keeps_nothing(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],
    existing: bool,
) -> None:
    """Ctrl-C (SystemExit(130) from the entry point's handler) just before the rename: the
    temporary directory is removed, the store is as it was."""
    src, _ = stand_in("reoie2016")
    root = _gold(tmp_path)
    if existing:
        (root / "reoie2016").mkdir()
    before = _tree(root)

    def interrupted(a: object, b: object) -> None:
        raise SystemExit(130)

    monkeypatch.setattr(os, "rename", interrupted)
    res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    assert res.exit_code == 130
    assert _tree(root) == before


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing-dir"])
def test_losing_the_race_to_the_same_file_is_success(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],
    existing: bool,
) -> None:
    """Two adds of the published file at once: the one whose rename comes second finds the
    same file and manifest in place, which is what it wanted: exit 0, "nothing written"."""
    src, data = stand_in("wire57")
    root = _gold(tmp_path)
    if existing:
        (root / "wire57").mkdir()
    real = os.rename

    def the_other_run_renames_first(a: object, b: object) -> None:
        monkeypatch.setattr(os, "rename", real)
        external.add("wire57", src, root)  # the other run, started at the same time
        real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", the_other_run_renames_first)
    res = cli("benchmark", "add", "wire57", src, "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.startswith("benchie: WiRe57 1.0.0 is already in ")
    assert f"same file (sha256 {_sha(data)}); nothing written" in res.stderr
    alone = _gold(tmp_path, "alone")
    external.add("wire57", src, alone)
    assert _tree(root) == _tree(alone)  # the other run's version, and no temporary left


def test_losing_the_race_to_another_file_is_refused(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    pin: PinFile,
    stand_in: Callable[[str], tuple[Path, bytes]],
) -> None:
    src, _ = stand_in("reoie2016")
    other = tmp_path / "other" / "Re-OIE2016.json"
    other.parent.mkdir()
    other_data = _write(other, {"Carl sleeps .": [_reoie_tuple("sleeps", "Carl")]})
    root = _gold(tmp_path)
    real = os.rename

    def another_file_arrives_first(a: object, b: object) -> None:
        monkeypatch.setattr(os, "rename", real)
        pin("reoie2016", other_data)
        manifest = external.manifest_bytes_for("reoie2016", _sha(other_data), len(other_data), 1)
        _set_shipped(monkeypatch, "reoie2016", {"1.0.0": _sha(manifest)})
        external.add("reoie2016", other, root)
        real(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "rename", another_file_arrives_first)
    res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    assert res.exit_code == ExitCode.USAGE
    where = root / "reoie2016" / "1.0.0"
    assert res.stderr.startswith(f"benchie: {where}: error: Re-OIE2016 1.0.0 is already added")
    assert "another file" in res.stderr and "never replaced" in res.stderr
    assert (where / "test" / "Re-OIE2016.json").read_bytes() == other_data  # left alone
    assert not list(root.rglob(".add-*"))


@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing-dir"])
def test_a_ctrl_c_as_the_temporary_directory_is_made_leaves_nothing(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stand_in: Callable[[str], tuple[Path, bytes]],
    existing: bool,
) -> None:
    """A real SIGINT arriving the moment ``mkdtemp`` has made the directory, before it
    returns: handled as benchie's entry point does (SystemExit(130)), it must not leave the
    empty ``.add-*`` directory behind."""
    src, _ = stand_in("reoie2016")
    root = _gold(tmp_path)
    if existing:
        (root / "reoie2016").mkdir()
    before = _tree(root)
    real = tempfile.mkdtemp

    def made_then_interrupted(*args: str, **kwargs: str) -> str:
        made = real(*args, **kwargs)
        # To this thread: sent to the process, the signal may go to another thread that an
        # earlier test left running, which does not block it (a real run has none).
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        return str(made)

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    monkeypatch.setattr(tempfile, "mkdtemp", made_then_interrupted)
    previous = signal.signal(signal.SIGINT, stop)
    try:
        res = cli("benchmark", "add", "reoie2016", src, "--gold-dir", root)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert res.exit_code == 130
    assert _tree(root) == before


# --------------------------------------------------------------------------- list


def test_list_shows_added_and_missing_benchmarks(
    cli: RunCli, tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]], alone: None
) -> None:
    src, data = stand_in("reoie2016")
    root = _gold(tmp_path)
    assert cli("benchmark", "add", "reoie2016", src, "--gold-dir", root).exit_code == 0
    res = cli("benchmark", "list", "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["benchmark", "version", "state", "detail"]
    rows = {line.split()[0]: line.split() for line in reversed(lines[2:])}  # first row kept
    spaced = [" ".join(line.split()) for line in lines]
    assert any(
        line.startswith("reoie2016 (es, test) - missing `benchie benchmark add reoie2016 ")
        for line in spaced
    )
    assert (
        "docoie (en, transportation) - missing `benchie benchmark add docoie extractions.tsv` "
        "(from https://github.com/daviddongkc/DocOIE data/test/transport/extractions.tsv)"
    ) in spaced
    assert rows["benchie"][:3] == ["benchie", "-", "absent"]
    assert rows["carb"][:3] == ["carb", "-", "absent"]
    assert rows["oie2016"][:3] == ["oie2016", "-", "absent"]
    assert rows["reoie2016"] == ["reoie2016", "1.0.0", "added", "sha256", _sha(data)]
    assert rows["wire57"][:3] == ["wire57", "-", "missing"]
    assert "`benchie benchmark add wire57 WiRe57_343-manual-oie.json`" in res.stdout

    res = cli("benchmark", "list", "--gold-dir", root, "--format", "json")
    assert res.exit_code == 0, res.stderr
    doc = {(d["benchmark"], d["version"]): d for d in reversed(json.loads(res.stdout))}
    assert doc["reoie2016", "1.0.0"] == {
        "benchmark": "reoie2016",
        "label": "Re-OIE2016",
        "external": True,
        "language": "en",
        "split": "test",
        "version": "1.0.0",
        "state": "added",
        "sha256": _sha(data),
        "path": "reoie2016/1.0.0/test/Re-OIE2016.json",
    }
    missing = doc["wire57", None]
    assert missing["state"] == "missing" and missing["external"] is True
    assert missing["add"] == "benchie benchmark add wire57 WiRe57_343-manual-oie.json"
    assert missing["url"] == "https://github.com/rali-udem/WiRe57"
    assert doc["carb", None]["state"] == "absent"


def test_list_checks_an_added_copy_against_its_manifest(
    cli: RunCli, tmp_path: Path, stand_in: Callable[[str], tuple[Path, bytes]]
) -> None:
    """A copy changed after it was added is "damaged", never "added" with the changed
    file's hash; the listing is a report and still exits 0."""
    src, data = stand_in("reoie2016")
    root = _gold(tmp_path)
    external.add("reoie2016", src, root)
    version_dir = root / "reoie2016" / "1.0.0"
    path = version_dir / "test" / "Re-OIE2016.json"
    tampered = data.replace(b"Carl", b"Karl")
    path.write_bytes(tampered)
    res = cli("benchmark", "list", "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if line.startswith("reoie2016"))
    assert row.split()[:3] == ["reoie2016", "1.0.0", "damaged"]
    assert row.endswith(
        "added, but differs from its manifest: `benchie gold verify --benchmark reoie2016`"
    )
    assert _sha(tampered) not in res.stdout
    res = cli("benchmark", "list", "--gold-dir", root, "--format", "json")
    assert res.exit_code == 0, res.stderr
    entry = next(d for d in json.loads(res.stdout) if d["benchmark"] == "reoie2016")
    assert entry["state"] == "damaged" and "sha256" not in entry
    assert entry["problems"] == [
        f"1.0.0/test/Re-OIE2016.json: sha256 {_sha(tampered)} != manifest {_sha(data)}"
    ]
    assert entry["verify"] == "benchie gold verify --benchmark reoie2016"

    path.write_bytes(data)  # the file restored, the manifest edited (its pin differs)
    manifest = version_dir / "manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b"no licence", b"CC0"))
    res = cli("benchmark", "list", "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    row = next(line for line in res.stdout.splitlines() if line.startswith("reoie2016"))
    assert row.split()[2] == "damaged" and "its manifest was edited" in row


def test_list_shows_the_shipped_benchmarks_of_the_checkout(cli: RunCli, gold_dir: Path) -> None:
    res = cli("benchmark", "list", "--format", "json")
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    states = {(d["benchmark"], d["version"]): d["state"] for d in doc}
    assert states["benchie", "1.0.0"] == "present"
    assert states["carb", "1.0.0"] == "present"
    assert {d["benchmark"] for d in doc} >= {"benchie", "carb", "oie2016", "reoie2016", "wire57"}
    text = cli("benchmark", "list").stdout
    assert "(default)" in text


def test_list_shows_versions_dvc_tracks_but_not_pulled(
    cli: RunCli, tmp_path: Path, alone: None
) -> None:
    root = _gold(tmp_path)
    (root / "carb").mkdir()
    (root / "gold.dvc").write_text("outs:\n- md5: 0\n  path: carb/1.0.0\n  remote: private\n")
    res = cli("benchmark", "list", "--gold-dir", root, "--format", "json")
    entry = next(d for d in json.loads(res.stdout) if d["benchmark"] == "carb")
    assert entry["state"] == "not pulled"
    assert entry["pull"] == f"dvc pull {root / 'carb' / '1.0.0'}"
    assert "(remote private)" in cli("benchmark", "list", "--gold-dir", root).stdout


# --------------------------------------------------------------------------- the real files


def _real_file(name: str, published: Published) -> Path:
    """Where ``$BENCHIE_EXTERNAL_DATA`` holds a published file: under its name, or, for a
    name another published file of its benchmark shares (DocOIE's two extractions.tsv), in
    a directory named by its part."""
    data = Path(os.environ[ENV_DATA])
    shared = sum(1 for p in BENCHMARKS[name].published if p.file == published.file) > 1
    return data / published.part / published.file if shared else data / published.file


#: Every published file of every benchmark: (benchmark, part, file).
EVERY_PUBLISHED = [(n, p.part, p.file) for n in EXTERNAL for p in BENCHMARKS[n].published]


@pytest.mark.skipif(
    not os.environ.get(ENV_DATA),
    reason=f"${ENV_DATA} does not name a directory with the published files (which may not "
    "be redistributed: Re-OIE2016.json, WiRe57_343-manual-oie.json, Multi2OIE's, ...; "
    "DocOIE's two extractions.tsv in healthcare/ and transportation/)",
)
@pytest.mark.parametrize(("name", "part", "file"), EVERY_PUBLISHED)
def test_the_published_files(cli: RunCli, tmp_path: Path, name: str, part: str, file: str) -> None:
    """Each published file the registry names, added with the files of its part, reads as
    the registry says (sentences, tuples, bytes), and its manifest is the part's pin."""
    e = external.part(name, part)
    sources = [_real_file(name, f) for f in e.files]
    if not all(src.is_file() for src in sources):
        pytest.skip(f"not every file of {e.add_command} is in ${ENV_DATA}")
    g = e.published
    root = _gold(tmp_path)
    res = cli("benchmark", "add", name, *sources, "--gold-dir", root)
    assert res.exit_code == 0, res.stderr
    assert f"{g.sentences:,} sentences, {g.tuples:,} tuples" in res.stderr
    version_dir = e.directory(root) / g.version
    manifest = (version_dir / "manifest.json").read_bytes()
    assert _sha(manifest) == e.pins()[g.version]  # the pin, unpatched
    gold = external.store(root, name, part).listed(g.version, "gold", g.split)
    assert gold.sha256 == g.sha256 and len(gold.data) == g.size
    again = cli("benchmark", "add", name, *sources, "--gold-dir", root)
    assert again.exit_code == 0 and "nothing written" in again.stderr
    listed = cli("benchmark", "list", "--gold-dir", root).stdout
    assert f"sha256 {g.sha256}" in listed
