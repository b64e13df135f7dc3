"""A bounded fuzz of the untrusted inputs of ``benchie verify REPORT.json`` and ``benchie
platform score INPUT OUTPUT``.

Every mutant must end as the CLI documents it: no traceback (no exception but SystemExit out
of the command), exit status 0, 1 or 2, every stderr line a ``benchie: `` line (the error
one line, the last), and nothing written on failure (``verify``: no file created; ``platform
score``: no ``OUTPUT/scores.json`` and ``INPUT`` untouched).

The mutants are drawn from ``random.Random`` seeded by the test's id, so a run is
reproducible; each mutation class is its own test id, and a failure lists every mutant of its
class that broke a rule, with the exception and the last frame of ``benchie_cli`` it was
raised in. The valid inputs are built once per module from the repository's gold.
"""

from __future__ import annotations

import contextlib
import copy
import faulthandler
import functools
import gzip
import io
import json
import os
import random
import shutil
import stat
import struct
import threading
import traceback
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from benchie_cli.cli import main
from tests.conftest import DATA, EXAMPLES, GOLD_DIR, REPO

CARB_DATA = DATA / "carb"
#: The variable that lets an internal error's traceback through (benchie_cli.cli.group), and
#: the exit status of an internal error otherwise (a bug, said in one line).
TRACEBACK_ENV = "BENCHIE_TRACEBACK"
INTERNAL_EXIT = 70
#: A run still going after this long is a hang: the session ends, with its stacks.
HANG_SECONDS = 120
#: How long a run may wait on a FIFO of the input before it is given an end of file.
FIFO_PATIENCE = 5.0
#: A small BenchIE submission: enough lines to score, quick to score.
SMALL_EN_LINES = 40
#: A small OpenIE 4 output (sentences of BenchIE, CaRB and OIE2016).
SMALL_OPENIE4_LINES = 300

Key = str | int
JsonPath = tuple[Key, ...]
Build = Callable[[Path], None]


# --- JSON text with what a dict cannot hold -----------------------------------------------


@dataclass(frozen=True)
class Raw:
    """JSON text written verbatim: deep nesting, numbers beyond a double, lone surrogates,
    bytes that are not UTF-8 (as ``\\udcXX`` surrogate escapes, written as the byte XX)."""

    text: str


@dataclass(frozen=True)
class Pairs:
    """A JSON object written with these keys in this order, duplicates included."""

    items: tuple[tuple[str | Raw, Any], ...]


def encode(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs):
        inner = ", ".join(f"{encode(k)}: {encode(v)}" for k, v in value.items)
        return "{" + inner + "}"
    if isinstance(value, dict):
        return encode(Pairs(tuple(value.items())))
    if isinstance(value, list):
        return "[" + ", ".join(encode(v) for v in value) + "]"
    return json.dumps(value)


def to_bytes(value: Any) -> bytes:
    return encode(value).encode("utf-8", "surrogateescape")


def nested_lists(depth: int) -> Raw:
    return Raw("[" * depth + "]" * depth)


def nested_objects(depth: int) -> Raw:
    return Raw('{"a": ' * depth + "1" + "}" * depth)


def summary(value: Any) -> str:
    text = encode(value)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text):,} chars)"


#: Replacement values by JSON type: a mutation class per type.
VALUES: dict[str, list[Any]] = {
    "null": [None],
    "bool": [True, False],
    "int": [0, -1, 1, 2, 255, 2**63 - 1, -(2**63)],
    "float": [0.5, -0.0, 1e308, 5e-324, -1.5],
    "hugeint": [2**64, -(2**64) - 1, 10**30, Raw("1" + "0" * 400), Raw("1e400"), Raw("-1e400")],
    "string": [
        "",
        "x",
        "-",
        ".",
        "/",
        "/dev/zero",
        "a\nb",
        "\x00",
        "..",
        "carb",
        "benchie",
        "auto",
        "1.1.0",
        "en",
        "default",
        "\u00e9\u2028\x1b[2J",
        "x" * 10_000,
        Raw('"\\ud800"'),
    ],
    "list": [[], [None], [1, 2], ["x"], [{}], [[]]],
    "object": [{}, {"a": 1}, {"name": "x", "file": "x", "sha256": "x"}, {"version": "1.1.0"}],
    "deep": [
        nested_lists(254),
        nested_lists(300),
        nested_lists(1_000),
        nested_lists(30_000),
        nested_objects(300),
        nested_objects(2_000),
    ],
    "constant": [Raw("NaN"), Raw("Infinity"), Raw("-Infinity")],
}
ANY_VALUE: list[Any] = [v for values in VALUES.values() for v in values]
#: Classes whose every value is tried (they fail fast: the others are sampled).
ALL_VALUES = {"deep", "hugeint", "constant", "null", "bool"}
#: Keys the readers consume: paths ending in one are chosen more often.
HOT_KEYS = {
    "schema",
    "benchie_version",
    "benchmark",
    "metric",
    "suite",
    "gold",
    "options",
    "systems",
    "rows",
    "file",
    "input_format",
    "version",
    "language",
    "facet",
    "split",
    "files",
    "sha256",
    "lang",
    "strip_implicit",
    "case_sensitive",
    "per_sentence",
    "retokenize",
    "name",
    "path",
    "skipped",
    "failures",
    "gold_version",
    "gold_sha256",
    "languages",
    "facets",
    "metrics",
    "en",
    "kind",
}
#: Keys added by ``add-key``: the ones some reader looks for.
ADDED_KEYS = [
    "failures",
    "retokenize",
    "input_format",
    "metric",
    "benchmark",
    "suite",
    "skipped",
    "warnings",
    "per_sentence",
    "schema",
    "systems",
    "rows",
    "file",
    "gold",
    "options",
    "split",
    "derived_facets",
    "draft",
]
#: Keys with control characters (``control-key``): each must stay inside one stderr line.
CONTROL_KEYS = ["x\ny", "x\nbenchie: error: injected", "x\r", "x\x1b[2J", "x\ty", "x\u2028y"]
#: Bytes that are not UTF-8, as surrogate escapes (``to_bytes`` writes each as its byte).
BAD_UTF8 = ["\udcff", "\udcc3(", "\udced\udca0\udc80", "\udcc0\udcaf", "\udcf8\udc88\udc80"]


def walk(value: Any, path: JsonPath = ()) -> Iterator[JsonPath]:
    """Every path below ``value`` (not the root)."""
    if isinstance(value, dict):
        for key, sub in value.items():
            yield (*path, key)
            yield from walk(sub, (*path, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            yield (*path, index)
            yield from walk(sub, (*path, index))


def objects(value: Any) -> list[JsonPath]:
    """Paths of every object, the root's included."""
    return [p for p in [(), *walk(value)] if isinstance(get(value, p), dict)]


def get(doc: Any, path: JsonPath) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def put(doc: Any, path: JsonPath, value: Any) -> Any:
    """``doc`` with ``value`` at ``path`` (the root replaced when ``path`` is empty)."""
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


def pick_path(rng: random.Random, doc: Any) -> JsonPath:
    paths = list(walk(doc))
    hot = [p for p in paths if len(p) <= 2 or p[-1] in HOT_KEYS]
    return rng.choice(hot if hot and rng.random() < 0.6 else paths)


def show(path: JsonPath) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path) or "(top)"


Mutant = tuple[str, bytes]


def json_mutants(cls: str, doc: Any, raw: bytes, rng: random.Random, cap: int) -> list[Mutant]:
    """The mutants of class ``cls`` of the JSON document ``doc`` (whose bytes are ``raw``):
    each a description and the bytes."""
    out: list[Mutant] = []
    if cls.startswith("replace-"):
        values = VALUES[cls.removeprefix("replace-")]
        every = cls.removeprefix("replace-") in ALL_VALUES
        chosen = values if every or len(values) <= cap else rng.sample(values, cap)
        for value in chosen:
            path = pick_path(rng, doc)
            out.append(
                (f"{show(path)} = {summary(value)}", to_bytes(put(copy.deepcopy(doc), path, value)))
            )
    elif cls == "delete":
        for _ in range(cap):
            path = pick_path(rng, doc)
            mutant = copy.deepcopy(doc)
            parent = get(mutant, path[:-1])
            del parent[path[-1]]
            out.append((f"del {show(path)}", to_bytes(mutant)))
    elif cls == "add-key":
        for _ in range(cap):
            where = () if rng.random() < 0.5 else rng.choice(objects(doc))
            key, value = rng.choice(ADDED_KEYS), rng.choice(ANY_VALUE)
            mutant = copy.deepcopy(doc)
            get(mutant, where)[key] = value
            out.append((f"{show((*where, key))} = {summary(value)}", to_bytes(mutant)))
    elif cls == "control-key":
        for key in CONTROL_KEYS[:cap]:
            where = rng.choice(objects(doc))
            mutant = copy.deepcopy(doc)
            get(mutant, where)[key] = 1
            out.append((f"{show(where)} gets key {key!r}", to_bytes(mutant)))
    elif cls == "dup-key":
        for _ in range(cap):
            where = rng.choice([p for p in objects(doc) if get(doc, p)])
            obj = get(doc, where)
            key = rng.choice(list(obj))
            value = rng.choice(ANY_VALUE)
            items = list(obj.items())
            index = [k for k, _ in items].index(key)
            first = rng.random() < 0.5
            items.insert(index if first else len(items), (key, value))
            mutant = put(copy.deepcopy(doc), where, Pairs(tuple(items)))
            order = "before" if first else "after"
            out.append((f"{show((*where, key))} again {order}: {summary(value)}", to_bytes(mutant)))
    elif cls == "invalid-utf8":
        strings = [p for p in walk(doc) if isinstance(get(doc, p), str)]
        for bad in BAD_UTF8[:cap]:
            path = rng.choice(strings)
            text = json.dumps(get(doc, path))[1:-1]
            cut = rng.randrange(len(text) + 1)
            value = Raw('"' + text[:cut] + bad + text[cut:] + '"')
            out.append(
                (
                    f"{show(path)} with bytes {bad.encode('utf-8', 'surrogateescape')!r}",
                    to_bytes(put(copy.deepcopy(doc), path, value)),
                )
            )
        at = rng.randrange(len(raw))
        out.append((f"byte 0xff inserted at {at}", raw[:at] + b"\xff" + raw[at:]))
        out.append(("a key of bytes c3 28", to_bytes(Pairs(((Raw('"\udcc3("'), 1), *doc.items())))))
    elif cls == "truncate":
        for _ in range(cap):
            at = rng.randrange(len(raw))
            out.append((f"cut at {at} of {len(raw)}", raw[:at]))
    elif cls == "flip":
        for _ in range(cap):
            flipped = bytearray(raw)
            flips = []
            for _ in range(rng.randint(1, 3)):
                at, bit = rng.randrange(len(flipped)), 1 << rng.randrange(8)
                flipped[at] ^= bit
                flips.append(f"{at}^{bit:#x}")
            out.append((f"flipped {','.join(flips)}", bytes(flipped)))
    elif cls == "bom":
        text = raw.decode("utf-8")
        out += [
            ("UTF-8 BOM", b"\xef\xbb\xbf" + raw),
            ("two UTF-8 BOMs", b"\xef\xbb\xbf\xef\xbb\xbf" + raw),
            ("UTF-16 with BOM", text.encode("utf-16")),
            ("UTF-16-LE without BOM", text.encode("utf-16-le")),
            ("UTF-32", text.encode("utf-32")),
            ("BOM after the first byte", raw[:1] + b"\xef\xbb\xbf" + raw[1:]),
        ]
    elif cls == "top-level":
        for data in [
            b"",
            b" \n",
            b"null",
            b"[]",
            b"{}",
            b"1",
            b'"x"',
            b"[" * 30_000,
            to_bytes(nested_lists(30_000)),
            b'{"suite": true}',
            b'{"schema": 1, "systems": []}',
            b"\x00" * 64,
            gzip.compress(raw),
        ]:
            out.append((f"whole file {data[:24]!r} ({len(data):,} bytes)", data))
    else:
        raise AssertionError(cls)
    return out


JSON_CLASSES = [
    *(f"replace-{t}" for t in VALUES),
    "delete",
    "add-key",
    "control-key",
    "dup-key",
    "invalid-utf8",
    "truncate",
    "flip",
    "bom",
    "top-level",
]


# --- running a command and judging it ------------------------------------------------------


def where_raised(result: Result) -> str:
    """``Type: message`` and the last frame in benchie_cli (and the frame it raised in,
    when elsewhere)."""
    assert result.exc_info is not None
    exc = result.exc_info[1]
    frames = traceback.extract_tb(result.exc_info[2])
    ours = [f for f in frames if "benchie_cli" in f.filename]

    def name(frame: traceback.FrameSummary) -> str:
        path = Path(frame.filename)
        shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path.name
        return f"{shown}:{frame.lineno} in {frame.name}"

    message = str(exc).splitlines()[0][:100] if str(exc) else ""
    place = name(ours[-1]) if ours else "(no benchie_cli frame)"
    if frames and (not ours or frames[-1] is not ours[-1]):
        place += f" -> {name(frames[-1])}"
    return f"{type(exc).__name__}: {message} @ {place}"


def problems(result: Result, allowed_prefixes: tuple[str, ...] = ()) -> list[str]:
    """What ``result`` breaks of the documented behaviour (empty: nothing)."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return [f"traceback: {where_raised(result)}"]
    found = []
    status = result.exit_code
    if status == INTERNAL_EXIT:
        found.append(f"internal error (exit 70): {result.stderr.strip()[:160]!r}")
    elif status not in (0, 1, 2):
        found.append(f"exit status {status}")
    lines = result.stderr.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    prefixes = ("benchie: ", *allowed_prefixes)
    stray = [line for line in lines if not line.startswith(prefixes)]
    if stray:
        found.append(f"stderr line not starting with 'benchie: ': {stray[0][:80]!r}")
    if "Traceback" in result.stderr:
        found.append("a traceback on stderr")
    if status != 0:
        last = lines[-1] if lines else ""
        if not last.startswith("benchie: "):
            found.append(f"exit {status}, the last stderr line is {last[:80]!r}")
        elif status == 2 and "error: " not in last:
            found.append(f"exit 2 without an error line: {last[:80]!r}")
    return found


def tree(root: Path) -> set[tuple[str, int, float]]:
    """Every entry below ``root`` (links not followed): name, size and mtime."""
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            info = os.lstat(os.path.join(dirpath, name))
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            out.add((rel, info.st_size, info.st_mtime))
    return out


def report_failures(failures: list[str]) -> None:
    if failures:
        shown = "\n".join(failures[:12])
        more = f"\n... and {len(failures) - 12} more" if len(failures) > 12 else ""
        pytest.fail(f"{len(failures)} mutant(s) broke the contract:\n{shown}{more}", pytrace=False)


def seed(name: str) -> random.Random:
    return random.Random(zlib.crc32(name.encode()))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str | Path, traced: bool = False) -> Result:
    """``benchie ARGS`` in-process; ``traced``: with the traceback of an internal error let
    through (``BENCHIE_TRACEBACK``) instead of its one line and exit 70. A run that hangs
    ends the test session (with every thread's stack) after :data:`HANG_SECONDS`."""
    env = {TRACEBACK_ENV: "1"} if traced else {TRACEBACK_ENV: None}
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    try:
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=True, env=env)
    finally:
        faulthandler.cancel_dump_traceback_later()


@contextlib.contextmanager
def fifo_watchdog(root: Path) -> Iterator[list[str]]:
    """Each FIFO below ``root`` that a run opens for reading (and would wait on forever) is
    opened for writing and closed after :data:`FIFO_PATIENCE` seconds, so the reader sees
    its end; the list yielded then names it."""
    fifos = [
        os.path.join(d, n)
        for d, dirs, names in os.walk(root)
        for n in dirs + names
        if stat.S_ISFIFO(os.lstat(os.path.join(d, n)).st_mode)
    ]
    blocked: list[str] = []

    def release() -> None:
        for fifo in fifos:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader: nobody waits on it
                continue
            os.close(fd)
            blocked.append(os.path.relpath(fifo, root))

    timer = threading.Timer(FIFO_PATIENCE, release)
    if fifos:
        timer.start()
    try:
        yield blocked
    finally:
        timer.cancel()


def internal(result: Result) -> bool:
    """Whether ``result`` is a crash: an exception out of the command, or exit 70 (the one
    line the CLI gives an exception no check foresaw)."""
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    return crashed or result.exit_code == INTERNAL_EXIT


def diagnose(runner: CliRunner, *args: str | Path) -> str:
    """Where a crash was raised: the same command again with the traceback let through."""
    traced = invoke(runner, *args, traced=True)
    if traced.exception is not None and not isinstance(traced.exception, SystemExit):
        return f" [raised {where_raised(traced)}]"
    return f" [not raised again: exit {traced.exit_code}]"


# --- benchie verify ------------------------------------------------------------------------

#: Mutants per class for each kind of report (the suite's re-derivation is the slowest).
REPORT_KINDS = {"benchie": 6, "benchie-carb": 3, "carb": 6, "oie2016": 4, "suite": 2}
REPORT_CLASSES = [
    *JSON_CLASSES,
    "benchmark-type",
    "failures-type",
    "suite-row-type",
    "suite-row-fields",
]


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory, index_cache_dir: Path) -> dict[str, bytes]:
    """A fresh report of each kind, scored once: its bytes (its files are absolute paths)."""
    root = tmp_path_factory.mktemp("fuzz-reports")
    clausie = root / "clausie.tsv"
    shutil.copy(EXAMPLES / "en" / "clausie.tsv", clausie)
    openie4 = root / "openie4.txt"
    lines = gzip.decompress((CARB_DATA / "openie4_output.txt.gz").read_bytes()).splitlines(True)
    openie4.write_bytes(b"".join(lines[:SMALL_OPENIE4_LINES]))
    args: dict[str, list[str | Path]] = {
        "benchie": ["--lang", "en", clausie],
        "benchie-carb": ["--lang", "en", "--metric", "benchie,carb", clausie],
        "carb": ["--benchmark", "carb", "--metric", "carb,carb-ss", "--input-format", "openie4"],
        "oie2016": ["--benchmark", "oie2016", "--input-format", "openie4", openie4],
        "suite": ["--suite", openie4],
    }
    args["carb"].append(openie4)
    env = {"BENCHIE_GOLD_DIR": str(GOLD_DIR), "BENCHIE_CACHE_DIR": str(index_cache_dir)}
    out: dict[str, bytes] = {}
    for kind, given in args.items():
        path = root / f"{kind}.json"
        result = CliRunner().invoke(
            main, ["score", *map(str, given), "-o", str(path)], env=env, catch_exceptions=True
        )
        assert result.exit_code == 0 and result.exception is None, (kind, result.stderr)
        out[kind] = path.read_bytes()
    return out


def report_cases() -> list[Any]:
    cases = []
    for kind in REPORT_KINDS:
        for cls in REPORT_CLASSES:
            if cls.startswith("suite-") and kind != "suite":
                continue
            if cls in ("benchmark-type", "failures-type") and kind == "suite":
                continue
            cases.append(pytest.param(kind, cls, id=f"verify-{kind}-{cls}"))
    return cases


BENCHMARK_VALUES: list[Any] = [["carb"], [], {"carb": 1}, {}, None, 1, "benchie", "carb\n"]
#: A suite report's first row, as anything but an object.
ROW_VALUES: list[Any] = [7, None, "x", [], [1], {}, True, 1.5]
#: ``failures``, which verify copies from the report into the re-derived one.
FAILURES_VALUES: list[Any] = [
    1,
    None,
    "x",
    {"a": 1},
    [1],
    nested_lists(200),
    nested_lists(300),
    nested_lists(1_000),
]


def report_mutants(kind: str, cls: str, raw: bytes, rng: random.Random) -> list[Mutant]:
    doc = json.loads(raw)
    cap = REPORT_KINDS[kind]
    if cls == "benchmark-type":
        return [
            (f".benchmark = {summary(v)}", to_bytes({**doc, "benchmark": v}))
            for v in BENCHMARK_VALUES
        ]
    if cls == "failures-type":
        return [
            (f".failures = {summary(v)}", to_bytes({**doc, "failures": v})) for v in FAILURES_VALUES
        ]
    if cls == "suite-row-type":
        return [
            (f".rows[0] = {summary(v)}", to_bytes(put(copy.deepcopy(doc), ("rows", 0), v)))
            for v in ROW_VALUES
        ]
    if cls == "suite-row-fields":
        out = []
        for _ in range(2 * cap):
            row = rng.randrange(len(doc["rows"]))
            key = rng.choice(["benchmark", "skipped", "gold", "metric", "facet", "split"])
            value = rng.choice([*BENCHMARK_VALUES, *ANY_VALUE])
            mutant = copy.deepcopy(doc)
            mutant["rows"][row][key] = value
            out.append((f".rows[{row}].{key} = {summary(value)}", to_bytes(mutant)))
        return out
    return json_mutants(cls, doc, raw, rng, cap)


def test_each_report_verifies_unmutated(
    reports: dict[str, bytes], runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: every base report re-derives (exit 0), so a mutant's failure is its own."""
    monkeypatch.chdir(tmp_path)
    for kind, raw in reports.items():
        Path("report.json").write_bytes(raw)
        result = invoke(runner, "verify", "report.json")
        assert result.exit_code == 0 and not problems(result), (kind, result.stderr)


@pytest.mark.parametrize(("kind", "cls"), report_cases())
def test_verify_survives_mutated_reports(
    reports: dict[str, bytes],
    runner: CliRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    cls: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "report.json"
    failures = []
    for n, (desc, data) in enumerate(report_mutants(kind, cls, reports[kind], seed(kind + cls))):
        report.write_bytes(data)
        before = tree(tmp_path)
        result = invoke(runner, "verify", "report.json")
        found = problems(result, ("report.json: mismatch: ", "report.json: ... and "))
        created = {name for name, _, _ in tree(tmp_path) - before} - {"report.json"}
        if created:
            found.append(f"created {sorted(created)[:3]}")
        if found:
            cause = diagnose(runner, "verify", "report.json") if internal(result) else ""
            failures.append(f"#{n} {desc}: exit {result.exit_code}: {'; '.join(found)}{cause}")
    report_failures(failures)


# --- benchie platform score ----------------------------------------------------------------


@dataclass(frozen=True)
class Platform:
    spec: dict[str, Any]
    spec_bytes: bytes
    en: bytes  # a small valid en.tsv
    store: Path  # a directory holding a copy of gold/1.1.0, for a private store


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Platform:
    manifest = json.loads((GOLD_DIR / "1.1.0" / "manifest.json").read_bytes())
    (sha,) = [
        f["sha256"]
        for f in manifest["files"]
        if f["language"] == "en" and f["facet"] == "default" and f["kind"] == "gold"
    ]
    spec = {
        "gold_version": "1.1.0",
        "gold_sha256": {"en": sha},
        "languages": ["en"],
        "facets": ["default"],
        "metrics": ["benchie"],
    }
    lines = (EXAMPLES / "en" / "clausie.tsv").read_bytes().splitlines(True)
    store = tmp_path_factory.mktemp("fuzz-store")
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    return Platform(spec, to_bytes(spec), b"".join(lines[:SMALL_EN_LINES]), store)


def base_input(inp: Path, p: Platform, *, spec: bytes | None = None, en: bool = True) -> None:
    """INPUT with ref/benchie.json and res/ holding the worker's metadata (and en.tsv)."""
    (inp / "ref").mkdir(parents=True)
    (inp / "res").mkdir()
    (inp / "ref" / "benchie.json").write_bytes(p.spec_bytes if spec is None else spec)
    (inp / "res" / "metadata").write_text("submitted-by: fuzz\n")
    if en:
        (inp / "res" / "en.tsv").write_bytes(p.en)


def zip_bytes(members: list[tuple[str | zipfile.ZipInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names, on purpose
        with zipfile.ZipFile(buf, "w") as zf:
            for name, data in members:
                zf.writestr(name, data)
    return buf.getvalue()


def patch_headers(data: bytes, fix: Callable[[bytearray, int, bool], None]) -> bytes:
    """``data`` with ``fix(buffer, offset, central)`` applied to each local (``central``
    False) and central directory header."""
    buf = bytearray(data)
    for signature, central in ((b"PK\x03\x04", False), (b"PK\x01\x02", True)):
        at = buf.find(signature)
        while at != -1:
            fix(buf, at, central)
            at = buf.find(signature, at + 4)
    return bytes(buf)


def with_name_bytes(data: bytes, placeholder: str, name: bytes, *, utf8_flag: bool) -> bytes:
    """A zip whose member ``placeholder`` is renamed to the raw bytes ``name`` (of the same
    length) in both headers, flagged UTF-8 (bit 0x800) or not."""
    assert len(placeholder.encode()) == len(name) and data.count(placeholder.encode()) == 2
    data = data.replace(placeholder.encode(), name)

    def flag(buf: bytearray, at: int, central: bool) -> None:
        offset = at + (8 if central else 6)
        (bits,) = struct.unpack_from("<H", buf, offset)
        bits = bits | 0x800 if utf8_flag else bits & ~0x800
        struct.pack_into("<H", buf, offset, bits)

    return patch_headers(data, flag)


def link_member(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def put_zip(p: Platform, data: bytes, name: str = "submission.zip") -> Build:
    def build(inp: Path) -> None:
        base_input(inp, p, en=False)
        (inp / "res" / name).write_bytes(data)

    return build


def spec_cases(cls: str, p: Platform, rng: random.Random) -> list[tuple[str, Build]]:
    out: list[tuple[str, Build]] = []
    for desc, data in json_mutants(cls, p.spec, p.spec_bytes, rng, 8):
        out.append((desc, functools.partial(base_input, p=p, spec=data)))
    return out


def symlink(target: str | Path, at: Path) -> None:
    at.symlink_to(target)


def ref_cases(p: Platform) -> list[tuple[str, Build]]:
    """The reference directory: the spec and the private gold store as other file types."""

    def spec_as(make: Callable[[Path], object]) -> Build:
        def build(inp: Path) -> None:
            base_input(inp, p)
            (inp / "ref" / "benchie.json").unlink()
            make(inp / "ref" / "benchie.json")

        return build

    def gold_as(make: Callable[[Path], object]) -> Build:
        def build(inp: Path) -> None:
            base_input(inp, p)
            make(inp / "ref" / "gold")

        return build

    def store(version_dir: Callable[[Path], object]) -> Callable[[Path], None]:
        def make(gold: Path) -> None:
            gold.mkdir()
            version_dir(gold / "1.1.0")

        return make

    def no_ref(inp: Path) -> None:
        base_input(inp, p)
        shutil.rmtree(inp / "ref")

    padded = p.spec_bytes + b" " * (64 * 1024 - len(p.spec_bytes))
    return [
        ("ref/benchie.json a directory", spec_as(lambda at: at.mkdir())),
        ("ref/benchie.json a dangling link", spec_as(lambda at: symlink("nowhere", at))),
        ("ref/benchie.json a link to itself", spec_as(lambda at: symlink(at.name, at))),
        ("ref/benchie.json a link to /dev/zero", spec_as(lambda at: symlink("/dev/zero", at))),
        ("ref/benchie.json a FIFO", spec_as(lambda at: os.mkfifo(at))),
        ("ref/benchie.json exactly 64 KiB", spec_as(lambda at: at.write_bytes(padded))),
        ("ref/benchie.json 64 KiB + 1", spec_as(lambda at: at.write_bytes(padded + b" "))),
        ("ref/ missing", no_ref),
        ("ref/gold a dangling link", gold_as(lambda at: symlink("nowhere", at))),
        ("ref/gold a link to itself", gold_as(lambda at: symlink("gold", at))),
        ("ref/gold a link to /dev/null", gold_as(lambda at: symlink("/dev/null", at))),
        ("ref/gold a regular file", gold_as(lambda at: at.write_text("x"))),
        ("ref/gold an empty directory", gold_as(lambda at: at.mkdir())),
        ("ref/gold/1.1.0 a file", gold_as(store(lambda at: at.write_text("x")))),
        ("ref/gold/1.1.0 empty", gold_as(store(lambda at: at.mkdir()))),
        ("ref/gold/1.1.0 a dangling link", gold_as(store(lambda at: symlink("nowhere", at)))),
    ]


def manifest_cases(p: Platform, rng: random.Random) -> list[tuple[str, Build]]:
    """A private gold store (ref/gold/1.1.0) whose manifest.json is mutated."""
    raw = (p.store / "1.1.0" / "manifest.json").read_bytes()
    doc = json.loads(raw)
    out: list[tuple[str, Build]] = []
    for cls in ("replace-string", "replace-int", "replace-list", "replace-null", "delete"):
        for desc, data in json_mutants(cls, doc, raw, rng, 3):

            def build(inp: Path, data: bytes = data) -> None:
                base_input(inp, p)
                shutil.copytree(p.store / "1.1.0", inp / "ref" / "gold" / "1.1.0")
                (inp / "ref" / "gold" / "1.1.0" / "manifest.json").write_bytes(data)

            out.append((f"manifest {cls} {desc}", build))
    for desc, data in [
        ("manifest 30,000 nested arrays", to_bytes(nested_lists(30_000))),
        ("manifest not UTF-8", b"\xff" + raw),
        ("manifest with a BOM", b"\xef\xbb\xbf" + raw),
    ]:

        def build(inp: Path, data: bytes = data) -> None:
            base_input(inp, p)
            shutil.copytree(p.store / "1.1.0", inp / "ref" / "gold" / "1.1.0")
            (inp / "ref" / "gold" / "1.1.0" / "manifest.json").write_bytes(data)

        out.append((desc, build))
    return out


def zip_cases(cls: str, p: Platform, rng: random.Random) -> list[tuple[str, Build]]:
    good = zip_bytes([("en.tsv", p.en)])
    cases: list[tuple[str, bytes]] = []
    if cls == "utf8-name":
        for name, flag in [
            (b"\xff\xfe.tsv", True),
            (b"en\xff.tsv", True),
            (b"\xc3(/en.tsv", True),
            (b"en.\xed\xa0\x80", True),
            (b"\xff\xfe.tsv", False),
        ]:
            holder = "Q" * len(name)
            data = zip_bytes([("en.tsv", p.en), (holder, p.en)])
            cases.append(
                (
                    f"member {name!r} flag 0x800={flag}",
                    with_name_bytes(data, holder, name, utf8_flag=flag),
                )
            )
    elif cls == "deep-member":
        for depth in (2_000, 1_500, 900):
            cases.append(
                (f"en.tsv {depth} directories deep", zip_bytes([("d/" * depth + "en.tsv", p.en)]))
            )
        dirs = [("d/" * n, b"") for n in range(1, 990)]
        cases.append(
            ("989 nested directory members", zip_bytes([*dirs, ("d/" * 989 + "en.tsv", p.en)]))
        )
        cases.append(("a 300-character name", zip_bytes([("a" * 300 + "/en.tsv", p.en)])))
    elif cls == "duplicate-member":
        cases += [
            ("en.tsv twice", zip_bytes([("en.tsv", p.en), ("en.tsv", p.en)])),
            ("en.tsv and ./en.tsv", zip_bytes([("en.tsv", p.en), ("./en.tsv", p.en)])),
            ("en.tsv and en.tsv/", zip_bytes([("en.tsv", p.en), ("en.tsv/", b"")])),
            ("en.tsv/ then en.tsv", zip_bytes([("en.tsv/", b""), ("en.tsv", p.en)])),
            ("en.tsv then en.tsv/x", zip_bytes([("en.tsv", p.en), ("en.tsv/x", b"x")])),
            ("d/en.tsv and d\\en.tsv", zip_bytes([("d/en.tsv", p.en), ("d\\en.tsv", p.en)])),
            ("1,001 members", zip_bytes([(f"{n}.txt", b"") for n in range(1_001)])),
        ]
    elif cls == "symlink":
        cases += [
            ("en.tsv a link to /etc/passwd", zip_bytes([link_member("en.tsv", "/etc/passwd")])),
            ("d a link, then d/en.tsv", zip_bytes([link_member("d", "/tmp"), ("d/en.tsv", p.en)])),
            ("en.tsv a link to ../x", zip_bytes([link_member("en.tsv", "../x")])),
        ]
        for mode in (stat.S_IFIFO, stat.S_IFCHR, stat.S_IFDIR, stat.S_IFSOCK):
            info = zipfile.ZipInfo("en.tsv")
            info.create_system = 3
            info.external_attr = (mode | 0o644) << 16
            cases.append((f"en.tsv with mode {mode:#o}", zip_bytes([(info, p.en)])))
    elif cls == "empty":
        cases += [
            ("a zip of no member", zip_bytes([])),
            ("a zero-byte .zip", b""),
            ("a zip of one empty directory", zip_bytes([("d/", b"")])),
            ("a zip of an empty en.tsv", zip_bytes([("en.tsv", b"")])),
            ("a zip holding only a zip", zip_bytes([("inner.zip", good)])),
        ]
    elif cls == "truncated":
        for _ in range(6):
            at = rng.randrange(len(good))
            cases.append((f"cut at {at} of {len(good)}", good[:at]))
        for _ in range(4):
            damaged = bytearray(good)
            at = rng.randrange(len(damaged))
            damaged[at] ^= 1 << rng.randrange(8)
            cases.append((f"byte {at} flipped", bytes(damaged)))

        def method(buf: bytearray, at: int, central: bool) -> None:
            struct.pack_into("<H", buf, at + (10 if central else 8), 99)

        def encrypted(buf: bytearray, at: int, central: bool) -> None:
            offset = at + (8 if central else 6)
            struct.pack_into("<H", buf, offset, struct.unpack_from("<H", buf, offset)[0] | 1)

        def huge(buf: bytearray, at: int, central: bool) -> None:
            struct.pack_into("<I", buf, at + (24 if central else 22), 0xFFFFFFFE)

        def small(buf: bytearray, at: int, central: bool) -> None:
            struct.pack_into("<I", buf, at + (24 if central else 22), 1)

        deflated = io.BytesIO()
        with zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("en.tsv", p.en)
        cases += [
            ("compression method 99", patch_headers(good, method)),
            ("encrypted flag", patch_headers(good, encrypted)),
            ("uncompressed size 4 GiB", patch_headers(good, huge)),
            ("uncompressed size 1 (deflated)", patch_headers(deflated.getvalue(), small)),
            (
                "end record only, claiming 5 members",
                b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 5, 5, 46 * 5, 0, 0),
            ),
            ("a gzip named .zip", gzip.compress(p.en)),
        ]
    elif cls == "member-names":
        cases += [
            ("member ../en.tsv", zip_bytes([("../en.tsv", p.en)])),
            ("member /en.tsv", zip_bytes([("/en.tsv", p.en)])),
            ("member C:en.tsv", zip_bytes([("C:en.tsv", p.en)])),
            ("member ..\\en.tsv", zip_bytes([("..\\en.tsv", p.en)])),
            ("member en.tsv\\x00x", zip_bytes([("en.tsv\x00x", p.en)])),
            ("member de.t\\nsv beside en.tsv", zip_bytes([("en.tsv", p.en), ("de.t\nsv", b"")])),
            ("member e\\nn.tsv", zip_bytes([("e\nn.tsv", p.en)])),
            ("member en.tsv\\x1b[2J", zip_bytes([("en.tsv\x1b[2J", p.en)])),
            ("member __MACOSX/en.tsv only", zip_bytes([("__MACOSX/en.tsv", p.en)])),
        ]
    else:
        raise AssertionError(cls)
    return [(desc, put_zip(p, data)) for desc, data in cases]


def res_cases(cls: str, p: Platform, rng: random.Random) -> list[tuple[str, Build]]:
    def files(entries: dict[str, bytes], *, en: bool = False) -> Build:
        def build(inp: Path) -> None:
            base_input(inp, p, en=en)
            for name, data in entries.items():
                path = Path(os.fsdecode(os.path.join(os.fsencode(inp / "res"), os.fsencode(name))))
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)

        return build

    def raw_named(names: list[bytes], data: bytes) -> Build:
        def build(inp: Path) -> None:
            base_input(inp, p, en=False)
            for name in names:
                path = os.path.join(os.fsencode(inp / "res"), name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(data)

        return build

    def linked(name: str, target: Callable[[Path], str | Path]) -> Build:
        def build(inp: Path) -> None:
            base_input(inp, p, en=False)
            (inp / "res" / name).symlink_to(target(inp))

        return build

    out: list[tuple[str, Build]] = []
    if cls == "bytes":
        text = p.en
        variants: list[tuple[str, bytes]] = [
            ("empty", b""),
            ("one newline", b"\n"),
            ("UTF-8 BOM", b"\xef\xbb\xbf" + text),
            ("UTF-16", text.decode().encode("utf-16")),
            ("CR line ends", text.replace(b"\n", b"\r")),
            ("NUL bytes", text.replace(b"\t", b"\t\x00", 3)),
            ("0xff in a line", text.replace(b"\t", b"\t\xff", 1)),
            ("overlong UTF-8", text.replace(b"\t", b"\t\xc0\xaf", 1)),
            ("surrogate UTF-8", text.replace(b"\t", b"\t\xed\xa0\x80", 1)),
            ("cut mid-line", text[: len(text) // 2 + 3]),
            ("a 2 MiB line", b"1\t" + b"a" * (2 << 20) + b"\tb\tc\n"),
            ("100,000 tabs", b"1" + b"\t" * 100_000 + b"\n"),
            (
                "\\x1c \\x85 \\u2028 in a slot",
                text.replace(b"\t", b"\t\x1c\xc2\x85\xe2\x80\xa8", 2),
            ),
            ("gzip", gzip.compress(text)),
            ("random bytes", bytes(rng.randrange(256) for _ in range(2048))),
        ]
        for _ in range(4):
            data = bytearray(text)
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
            variants.append((f"byte {at} flipped", bytes(data)))
        out = [(desc, files({"en.tsv": data})) for desc, data in variants]
    elif cls == "names":
        out = [
            ("res/en.\\xff", raw_named([b"en.\xff"], p.en)),
            ("res/\\xff\\xfe/en.tsv", raw_named([b"\xff\xfe/en.tsv"], p.en)),
            ("res/en.tsv and res/de.\\xff", raw_named([b"en.tsv", b"de.\xff"], p.en)),
            ("res/en.tsv and res/de.t\\nsv", files({"de.t\nsv": b""}, en=True)),
            ("res/en.tsv and res/zh.\\x1b[2J", files({"zh.\x1b[2J": b""}, en=True)),
            ("res/e\\nn.tsv", files({"e\nn.tsv": p.en})),
            ("res/en.tsv and res/x\\ny.txt", files({"x\ny.txt": b""}, en=True)),
            ("res/sub/en.\\xff", raw_named([b"sub/en.\xff"], p.en)),
            ("res/en.tsv and res/en.txt", files({"en.txt": p.en}, en=True)),
            ("res/a/b/c/en.tsv", files({"a/b/c/en.tsv": p.en})),
        ]
    elif cls == "links":
        clausie = EXAMPLES / "en" / "clausie.tsv"

        def sub_dir(inp: Path) -> Path:
            target = inp.parent / "elsewhere"
            target.mkdir()
            (target / "en.tsv").write_bytes(p.en)
            return target

        def a_zip(inp: Path) -> Path:
            target = inp.parent / "s.zip"
            target.write_bytes(zip_bytes([("en.tsv", p.en)]))
            return target

        def res_link(inp: Path) -> None:
            base_input(inp, p)
            target = inp.parent / "real-res"
            (inp / "res").rename(target)
            (inp / "res").symlink_to(target)

        def fifo(inp: Path) -> None:
            base_input(inp, p, en=False)
            os.mkfifo(inp / "res" / "en.tsv")

        def res_file(inp: Path) -> None:
            base_input(inp, p, en=False)
            shutil.rmtree(inp / "res")
            (inp / "res").write_bytes(p.en)

        out = [
            ("res/en.tsv a link to a file", linked("en.tsv", lambda inp: clausie)),
            ("res/en.tsv a dangling link", linked("en.tsv", lambda inp: "nowhere")),
            ("res/en.tsv a link to /dev/zero", linked("en.tsv", lambda inp: "/dev/zero")),
            ("res/en.tsv a link to itself", linked("en.tsv", lambda inp: "en.tsv")),
            ("res/sub a link to a directory", linked("sub", sub_dir)),
            ("res/s.zip a link to a zip", linked("s.zip", a_zip)),
            ("res a link to a directory", res_link),
            ("res/en.tsv a FIFO", fifo),
            ("res a regular file", res_file),
        ]
    else:
        raise AssertionError(cls)
    return out


PLATFORM_CLASSES: dict[str, Callable[[Platform, random.Random], list[tuple[str, Build]]]] = {
    **{f"spec-{cls}": functools.partial(spec_cases, cls) for cls in JSON_CLASSES},
    "ref-file-types": lambda p, rng: ref_cases(p),
    "ref-gold-manifest": manifest_cases,
    **{
        f"zip-{cls}": functools.partial(zip_cases, cls)
        for cls in (
            "utf8-name",
            "deep-member",
            "duplicate-member",
            "symlink",
            "empty",
            "truncated",
            "member-names",
        )
    },
    **{f"res-{cls}": functools.partial(res_cases, cls) for cls in ("bytes", "names", "links")},
}


def test_platform_scores_the_unmutated_input(
    platform: Platform, runner: CliRunner, tmp_path: Path
) -> None:
    """The control: the base input scores (exit 0, scores.json written)."""
    base_input(tmp_path / "input", platform)
    (tmp_path / "output").mkdir()
    result = invoke(runner, "platform", "score", tmp_path / "input", tmp_path / "output")
    assert result.exit_code == 0 and not problems(result), result.stderr
    assert (tmp_path / "output" / "scores.json").is_file()


@pytest.mark.parametrize("cls", [pytest.param(c, id=f"platform-{c}") for c in PLATFORM_CLASSES])
def test_platform_score_survives_mutated_inputs(
    platform: Platform, runner: CliRunner, tmp_path: Path, cls: str
) -> None:
    failures = []
    for n, (desc, build) in enumerate(PLATFORM_CLASSES[cls](platform, seed(cls))):
        inp, out = tmp_path / f"m{n}" / "input", tmp_path / f"m{n}" / "output"
        inp.parent.mkdir()
        out.mkdir()
        build(inp)
        before = tree(inp)
        with fifo_watchdog(inp) as blocked:
            result = invoke(runner, "platform", "score", inp, out)
        found = problems(result)
        if blocked:
            found.append(f"waited on the FIFO {blocked[0]} until given an end of file")
        if result.exit_code != 0 and (out / "scores.json").exists():
            found.append("scores.json written by a failed run")
        if tree(inp) != before:
            found.append("INPUT changed")
        if found:
            cause = ""
            if internal(result) and not blocked:
                (again := out.parent / "output-traced").mkdir()
                cause = diagnose(runner, "platform", "score", inp, again)
            failures.append(f"#{n} {desc}: exit {result.exit_code}: {'; '.join(found)}{cause}")
    report_failures(failures)
