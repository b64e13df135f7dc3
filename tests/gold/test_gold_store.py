"""The versioned gold store: ``benchie --version``, ``benchie gold list|info|stats|verify|path|
manifest``, gold directory resolution, and the refusal to score a gold that differs from its
manifest. Corruption is only ever done to a copy in tmp_path, never to the repository's gold.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import version as dist_version
from pathlib import Path

import orjson
import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__
from benchie_cli.compiled import compiled_modules
from benchie_cli.textio import sha256_file
from tests.conftest import GOLD_DIR, RunCli, example

ProcessRunner = Callable[..., subprocess.CompletedProcess[str]]

#: The version commands use when none is asked for; the corruption tests damage this one.
V = DEFAULT_GOLD_VERSION
UPSTREAM = "1.0.0"  # byte for byte what the BenchIE authors published
VERSIONS = ("1.0.0", "1.1.0")
COMMITTED_MANIFEST = GOLD_DIR / V / "manifest.json"
GOLD_FILES = {
    "en": "en/default/benchie_gold_annotations_en.txt",
    "de": "de/default/benchie_gold_annotations_de.txt",
    "zh": "zh/default/benchie_gold_annotations_zh.txt",
}
ALL_FILES = [*GOLD_FILES.values(), "en/reference/carb_explicit.txt"]
# 1.1.0 restores the corrupted header of Chinese sentence 206 (one more synset) and the
# missing '[' of two German subjects (more forms).
SYNSETS = {
    "1.0.0": {"en": 1350, "de": 1086, "zh": 994},
    "1.1.0": {"en": 1350, "de": 1086, "zh": 995},
}
# Distinct expanded forms per synset, summed, default facet (gold_stats docstring; a little
# below the paper's 136,357 / 82,260 / 5,318 because slots are whitespace-normalised).
EXTRACTIONS = {
    "1.0.0": {"en": 135947, "de": 81744, "zh": 5317},
    "1.1.0": {"en": 135947, "de": 81772, "zh": 5317},
}


def copy_store(tmp_path: Path) -> Path:
    """A private copy of the repository's gold store, safe to corrupt."""
    root = tmp_path / "gold"
    shutil.copytree(GOLD_DIR, root)
    return root


def flip_one_byte(path: Path) -> None:
    """Change one ASCII letter in place (the file stays valid UTF-8 and keeps its size)."""
    data = bytearray(path.read_bytes())
    i = next(i for i in range(len(data) // 2, len(data)) if 0x61 <= data[i] <= 0x7A)
    data[i] = ord("x") if data[i] != ord("x") else ord("y")
    path.write_bytes(bytes(data))


def run_process(*args: str | Path, env: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
    """``python -m benchie_cli`` with environment overrides (None removes a variable)."""
    full = dict(os.environ)
    for key, value in env.items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    return subprocess.run(
        [sys.executable, "-m", "benchie_cli", *map(str, args)],
        capture_output=True,
        text=True,
        env=full,
        check=False,
    )


def assert_one_clear_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Non-zero exit, exactly one ``benchie: ... error: ...`` line on stderr, no traceback."""
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("benchie: ") and "error: " in lines[0]
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


# --------------------------------------------------------------------------- version, list, info


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_names_package_and_default_gold(cli: RunCli, flag: str) -> None:
    result = cli(flag)
    assert result.exit_code == 0
    build = "; compiled" if compiled_modules() else ""  # (tox -e compiled; conftest checks all)
    assert result.stdout.strip() == (
        f"benchie {__version__} (default gold {DEFAULT_GOLD_VERSION}{build})"
    )
    assert __version__ == dist_version("benchie-cli")
    assert DEFAULT_GOLD_VERSION == "1.1.0"


def test_gold_list_table(cli: RunCli) -> None:
    result = cli("gold", "list")
    assert result.exit_code == 0
    header, rule, *rows, carb, oie2016_paper, oie2016, oie2016_2018 = result.stdout.splitlines()
    assert header.split() == ["version", "language", "facets"]
    assert set(rule) <= {"-", " "}
    assert carb.split() == ["carb", "1.0.0", "en", "splits:", "test,", "dev"]  # after BenchIE's
    for row, version in ((oie2016_paper, "1.0.0"), (oie2016, "2.0.0")):  # then OIE2016's
        assert row.split() == [
            "oie2016",
            version,
            "en",
            "splits:",
            "all,",
            "test,",
            "dev,",
            "train",
        ]
    # then OIE2016's as scored before July 2019
    assert oie2016_2018.split() == ["oie2016-2018", "1.0.0", "en", "splits:", "test"]
    cells = [r.replace(" (default)", "").split()[:2] for r in rows]
    assert cells == [[v, lang] for v in VERSIONS for lang in ("en", "de", "zh")]
    assert [("(default)" in r) for r in rows] == [v == V for v in VERSIONS for _ in range(3)]
    for row in rows:
        assert row.endswith("default, concat (from default), minimal (from default)")
        assert "entity" not in row  # upstream has not published BenchIE-E


def test_gold_list_json(cli: RunCli) -> None:
    result = cli("gold", "list", "--format", "json")
    assert result.exit_code == 0
    facets = [
        {"facet": "default", "derived_from": None},
        {"facet": "concat", "derived_from": "default"},
        {"facet": "minimal", "derived_from": "default"},
    ]
    assert orjson.loads(result.stdout) == [
        *(
            {"version": v, "default": v == V, "released": True, "language": lang, "facets": facets}
            for v in VERSIONS
            for lang in ("en", "de", "zh")
        ),
        {
            "benchmark": "carb",
            "version": "1.0.0",
            "released": True,
            "language": "en",
            "splits": ["test", "dev"],
        },
        *(
            {
                "benchmark": "oie2016",
                "version": version,
                "released": True,
                "language": "en",
                "splits": ["test", "dev", "train"],
            }
            for version in ("1.0.0", "2.0.0")
        ),
        {
            "benchmark": "oie2016-2018",
            "version": "1.0.0",
            "released": True,
            "language": "en",
            "splits": ["test"],
        },
    ]


def test_gold_info_json_is_the_manifest(cli: RunCli) -> None:
    result = cli("gold", "info", "--format", "json")
    assert result.exit_code == 0
    committed = orjson.loads((GOLD_DIR / V / "manifest.json").read_bytes())
    assert orjson.loads(result.stdout) == committed


def test_gold_info_table(cli: RunCli) -> None:
    result = cli("gold", "info", "--gold-version", V)
    assert result.exit_code == 0
    manifest = orjson.loads((GOLD_DIR / V / "manifest.json").read_bytes())
    first, *rest = result.stdout.splitlines()
    assert first.startswith(f"gold {V} (released): ") and manifest["license"] in first
    for entry in manifest["files"]:
        [row] = [r for r in rest if r.startswith(entry["path"] + " ")]
        assert entry["sha256"] in row
        if entry["kind"] == "gold":
            assert row.split()[-2:] == [str(entry["sentences"]), str(entry["synsets"])]


# --------------------------------------------------------------------------- stats


@pytest.mark.parametrize("version", VERSIONS)
def test_gold_stats_json(cli: RunCli, version: str) -> None:
    """Paper Table 3 for 1.0.0: 300 sentences and 1,350 / 1,086 / 994 synsets; our
    expanded counts."""
    result = cli("gold", "stats", "--gold-version", version, "--format", "json")
    assert result.exit_code == 0
    doc = orjson.loads(result.stdout)
    assert [(d["language"], d["facet"]) for d in doc] == [
        (lang, facet) for lang in ("en", "de", "zh") for facet in ("default", "concat", "minimal")
    ]
    synsets = SYNSETS[version]
    for d in doc:
        assert d["version"] == version and d["exact"] is True
        assert (d["sentences"], d["synsets"]) == (300, synsets[d["language"]])
    by = {(d["language"], d["facet"]): d for d in doc}
    for lang, count in EXTRACTIONS[version].items():
        assert by[lang, "default"]["extractions"] == count
        # Concatenation merges forms, the minimal facet keeps one per triple line.
        assert by[lang, "concat"]["extractions"] <= count
        assert synsets[lang] <= by[lang, "minimal"]["extractions"]
        assert by[lang, "minimal"]["extractions"] <= by[lang, "minimal"]["triple_lines"]


def _slot_forms(slot: str) -> set[str]:
    """Forms of one slot, written independently of the package: every kept/dropped
    combination of the outer ``[...]`` groups; a ``]`` without partner is dropped."""
    units: list[tuple[list[str], bool]] = []
    current: list[str] = []
    depth = 0
    for piece in re.findall(r"\[|\]|[^\s\[\]]+", slot):
        if piece == "[":
            if depth == 0 and current:
                units.append((current, False))
                current = []
            depth += 1
        elif piece == "]":
            if depth == 0:
                continue
            depth -= 1
            if depth == 0 and current:
                units.append((current, True))
                current = []
        else:
            current.append(piece)
    if current:
        units.append((current, False))
    forms: list[list[str]] = [[]]
    for tokens, optional in units:
        grown = [f + tokens for f in forms]
        forms = forms + grown if optional else grown
    return {" ".join(f) for f in forms}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_gold_stats_extractions_match_an_independent_count(
    cli: RunCli, lang: str, version: str
) -> None:
    """Distinct (subject, relation, object) forms per synset, summed, counted from the raw
    file with SPEC §1 read literally (a line with ``Cluster`` opens a synset)."""
    total = 0
    synset: set[tuple[str, ...]] = set()
    text = (GOLD_DIR / version / GOLD_FILES[lang]).read_text(encoding="utf-8")
    for line in text.split("\n"):
        if line.startswith("sent_id:") or "Cluster" in line:
            total, synset = total + len(synset), set()
        elif line.count(" --> ") == 2:
            slots = [_slot_forms(s) for s in line.split(" --> ")]
            synset |= set(itertools.product(*slots))
    total += len(synset)
    args = ("gold", "stats", "--gold-version", version, "--lang", lang, "--format", "json")
    doc = orjson.loads(cli(*args).stdout)
    assert doc[0]["facet"] == "default"
    assert doc[0]["extractions"] == total == EXTRACTIONS[version][lang]


def test_gold_stats_close_to_the_paper(cli: RunCli) -> None:
    """Whitespace normalisation may only merge forms: at most 1% below Table 3, never above."""
    paper = {"en": 136357, "de": 82260, "zh": 5318}
    doc = orjson.loads(cli("gold", "stats", "--gold-version", UPSTREAM, "--format", "json").stdout)
    for d in doc:
        if d["facet"] == "default":
            ours, theirs = d["extractions"], paper[d["language"]]
            assert 0.99 * theirs <= ours <= theirs


def test_gold_stats_table_one_language(cli: RunCli) -> None:
    result = cli("gold", "stats", "--lang", "zh")
    assert result.exit_code == 0
    rows = result.stdout.splitlines()[2:]
    assert [r.split()[0] for r in rows] == ["zh", "zh", "zh"]
    assert rows[0].split() == ["zh", "default", "300", "995", "1368", "5317"]


# --------------------------------------------------------------------------- verify


def test_verify_repository_gold(cli: RunCli) -> None:
    result = cli("gold", "verify")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "1.1.0: released, shipped with benchie-cli, 4 file(s)",
        "carb 1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "oie2016 1.0.0: released, shipped with benchie-cli, 4 file(s)",
        "oie2016 2.0.0: released, shipped with benchie-cli, 4 file(s)",
        "oie2016-2018 1.0.0: released, shipped with benchie-cli, 1 file(s)",
        "ok: 21 file(s) in 6 version(s) of 4 benchmark(s) match their manifests",
    ]


@pytest.mark.parametrize("rel", ALL_FILES)
def test_verify_detects_one_changed_byte(cli: RunCli, tmp_path: Path, rel: str) -> None:
    """Same size, one byte different: verify exits 1 and names that file, and only it."""
    root = copy_store(tmp_path)
    flip_one_byte(root / V / rel)
    result = cli("gold", "verify", "--gold-dir", root)
    assert result.exit_code == 1
    named = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(named) == 1
    assert named[0].startswith(f"{root / V / rel}: error: ")
    assert "1 of 8 gold file(s) differ" in result.stderr
    assert "ok:" not in result.stdout


def test_verify_reports_a_missing_file(cli: RunCli, tmp_path: Path) -> None:
    root = copy_store(tmp_path)
    (root / V / GOLD_FILES["de"]).unlink()
    result = cli("gold", "verify", "--gold-dir", root, "--gold-version", V)
    assert result.exit_code == 1
    assert f"{root / V / GOLD_FILES['de']}: error: missing" in result.stderr


def test_verify_reports_an_unlisted_file(cli: RunCli, tmp_path: Path) -> None:
    """A file the manifest does not describe would be gold without provenance."""
    root = copy_store(tmp_path)
    stray = root / V / "en" / "default" / "extra_gold.txt"
    stray.write_text("sent_id:1\tA sentence .\n", encoding="utf-8")
    result = cli("gold", "verify", "--gold-dir", root)
    assert result.exit_code == 1
    assert f"{stray}: error: not listed in the manifest" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ("score", "--lang", "en", example("en", "clausie")),
        ("validate", "--lang", "en", example("en", "clausie")),
        ("strip-implicit", "--lang", "en", example("en", "clausie")),
    ],
    ids=["score", "validate", "strip-implicit"],
)
def test_altered_gold_is_refused(cli: RunCli, tmp_path: Path, command: tuple[str, ...]) -> None:
    """Reading a gold file that differs from its manifest is refused, pointing at verify."""
    root = copy_store(tmp_path)
    flip_one_byte(root / V / GOLD_FILES["en"])
    result = cli(*command, "--gold-dir", root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "benchie gold verify" in lines[0]
    assert "differs from its manifest" in lines[0]
    assert result.stdout == ""


def test_other_languages_still_score_when_one_file_is_altered(cli: RunCli, tmp_path: Path) -> None:
    """The check is per file: altering the English gold does not block German scoring."""
    root = copy_store(tmp_path)
    flip_one_byte(root / V / GOLD_FILES["en"])
    result = cli("score", "--lang", "de", "--gold-dir", root, example("de", "m2oie_de"))
    assert result.exit_code == 0, result.stderr


def test_missing_gold_file_points_at_verify(cli: RunCli, tmp_path: Path) -> None:
    root = copy_store(tmp_path)
    (root / V / GOLD_FILES["en"]).unlink()
    result = cli("score", "--lang", "en", "--gold-dir", root, example("en", "clausie"))
    assert result.exit_code != 0
    assert "benchie gold verify" in result.stderr


# --------------------------------------------------------------------------- manifest


def test_manifest_rebuild_reproduces_committed_bytes(cli: RunCli, tmp_path: Path) -> None:
    version_dir = tmp_path / V
    shutil.copytree(GOLD_DIR / V, version_dir)
    result = cli("gold", "manifest", "--force", version_dir)
    assert result.exit_code == 0, result.stderr
    assert (version_dir / "manifest.json").read_bytes() == COMMITTED_MANIFEST.read_bytes()


def test_manifest_rebuild_recomputes_hashes_and_counts(cli: RunCli, tmp_path: Path) -> None:
    """Starting from a manifest with wrong hashes, sizes and counts, the rebuilt one is the
    committed one: every recorded number is recomputed, only prose and provenance are kept."""
    version_dir = tmp_path / V
    shutil.copytree(GOLD_DIR / V, version_dir)
    stale = orjson.loads((version_dir / "manifest.json").read_bytes())
    for entry in stale["files"]:
        entry.update(sha256="0" * 64, bytes=1)
        if entry["kind"] == "gold":
            entry.update(sentences=1, synsets=1)
    (version_dir / "manifest.json").write_bytes(orjson.dumps(stale))
    assert cli("gold", "manifest", "--force", version_dir).exit_code == 0
    assert (version_dir / "manifest.json").read_bytes() == COMMITTED_MANIFEST.read_bytes()


def test_shipped_version_never_changes(cli: RunCli, tmp_path: Path) -> None:
    """A shipped version's manifest is not rewritten over an edited file, with or without
    --force (exit 2, bytes unchanged), and score refuses the edited file."""
    root = copy_store(tmp_path)
    manifest = root / V / "manifest.json"
    shipped = manifest.read_bytes()
    flip_one_byte(root / V / GOLD_FILES["zh"])
    assert cli("gold", "verify", "--gold-dir", root).exit_code == 1
    for force in ((), ("--force",)):
        refused = cli("gold", "manifest", *force, root / V)
        assert refused.exit_code == 2, refused.stderr
        assert "is shipped with benchie-cli: it never changes" in refused.stderr
        assert manifest.read_bytes() == shipped
    score = cli("score", "--gold-dir", root, "--lang", "zh", example("zh", "m2oie_zh"))
    assert score.exit_code == 1 and "differs from its manifest" in score.stderr


def test_shipped_manifest_edited_by_hand_is_refused(cli: RunCli, tmp_path: Path) -> None:
    """A shipped version whose manifest was rewritten to match an edited file (by hand, or by
    an older benchie) is not scored: the report would name 1.1.0 for other gold."""
    root = copy_store(tmp_path)
    flip_one_byte(root / V / GOLD_FILES["en"])
    manifest = root / V / "manifest.json"
    doc = orjson.loads(manifest.read_bytes())
    edited = sha256_file(root / V / GOLD_FILES["en"])
    for entry in doc["files"]:
        if entry["path"] == GOLD_FILES["en"]:
            entry["sha256"] = edited
    manifest.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
    score = cli("score", "--gold-dir", root, "--lang", "en", example("en", "clausie"))
    assert score.exit_code == 1 and score.stdout == ""
    assert (
        f"gold {V}: manifest sha256" in score.stderr and "is not that of the gold" in score.stderr
    )
    verify = cli("gold", "verify", "--gold-dir", root)
    assert verify.exit_code == 1 and f"the manifest of {V} is not the released one" in verify.stderr


def test_released_version_of_ones_own_is_rewritten_only_with_force(
    cli: RunCli, tmp_path: Path
) -> None:
    """A released version that is not shipped: refused without --force, rewritten with it,
    and verify passes again."""
    root = tmp_path / "gold"
    shutil.copytree(GOLD_DIR / V, root / "9.0.0")
    (root / "9.0.0" / "manifest.json").unlink()
    assert cli("gold", "manifest", root / "9.0.0").exit_code == 0  # a draft
    assert (
        cli(
            "gold",
            "release",
            "9.0.0",
            "--no-dvc",
            "--gold-dir",
            root,
            "--description",
            "own",
            "--license",
            "CC BY 4.0",
        ).exit_code
        == 0
    )
    manifest = root / "9.0.0" / "manifest.json"
    released = manifest.read_bytes()
    flip_one_byte(root / "9.0.0" / GOLD_FILES["zh"])
    refused = cli("gold", "manifest", root / "9.0.0")
    assert refused.exit_code == 2 and manifest.read_bytes() == released
    assert cli("gold", "manifest", "--force", root / "9.0.0").exit_code == 0
    assert manifest.read_bytes() != released
    assert cli("gold", "verify", "--gold-dir", root).exit_code == 0


# --------------------------------------------------------------------------- resolution


def test_gold_path_from_environment(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_store(tmp_path)
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(root))
    result = cli("gold", "path")
    assert result.exit_code == 0
    assert result.stdout.strip() == str(root.resolve())
    assert "$BENCHIE_GOLD_DIR" in result.stderr


def test_gold_dir_option_beats_environment(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--gold-dir > $BENCHIE_GOLD_DIR, even when the environment points nowhere."""
    root = copy_store(tmp_path)
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(tmp_path / "nowhere"))
    result = cli("gold", "path", "--gold-dir", root)
    assert result.exit_code == 0
    assert result.stdout.strip() == str(root.resolve())
    assert "--gold-dir" in result.stderr


def test_gold_dir_option_beats_environment_when_scoring(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The environment's store is altered (would be refused); --gold-dir's is not: it wins."""
    bad = copy_store(tmp_path)
    flip_one_byte(bad / V / GOLD_FILES["en"])
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(bad))
    clausie = example("en", "clausie")
    assert cli("score", "--lang", "en", clausie).exit_code == 1
    assert cli("score", "--lang", "en", "--gold-dir", GOLD_DIR, clausie).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ("gold", "path"),
        ("gold", "list"),
        ("gold", "info"),
        ("gold", "stats"),
        ("gold", "verify"),
        ("score", example("en", "clausie")),
        ("validate", example("en", "clausie")),
        ("strip-implicit", example("en", "clausie")),
    ],
    ids=lambda a: "-".join(str(x) for x in a[:2] if not str(x).endswith(".tsv")),
)
def test_missing_gold_dir_option(
    cli_process: ProcessRunner, args: tuple[str, ...], tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing")  # (not /nonexistent: some machines have one)
    proc = cli_process(*args, "--gold-dir", missing)
    line = assert_one_clear_error(proc, missing, "--gold-dir")
    assert proc.returncode == 2, line


@pytest.mark.parametrize(
    "args", [("gold", "list"), ("score", example("en", "clausie"))], ids=["gold-list", "score"]
)
def test_missing_gold_dir_from_environment(args: tuple[str, ...], tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    proc = run_process(*args, env={"BENCHIE_GOLD_DIR": missing})
    assert_one_clear_error(proc, missing, "BENCHIE_GOLD_DIR")
    assert proc.returncode == 2


@pytest.mark.parametrize(
    "args",
    [
        ("gold", "info", "--gold-version", "9.9.9"),
        ("gold", "stats", "--gold-version", "9.9.9"),
        ("gold", "verify", "--gold-version", "9.9.9"),
        ("score", "--gold-version", "9.9.9", example("en", "clausie")),
        ("strip-implicit", "--gold-version", "9.9.9", example("en", "clausie")),
    ],
    ids=["info", "stats", "verify", "score", "strip-implicit"],
)
def test_unknown_version(cli_process: ProcessRunner, args: tuple[str, ...]) -> None:
    """One line naming the version asked for and the versions there are."""
    proc = cli_process(*args)
    assert_one_clear_error(proc, "9.9.9", "available: 1.0.0")
    assert proc.returncode == 2


CORRUPT_MANIFESTS = {
    "not-json": b'{"schema": 1, ',
    "not-utf8": b"\xff\xfe{}",
    "empty": b"",
    "array": b"[]",
    "wrong-schema": b'{"schema": 2, "version": "1.0.0", "files": []}',
    "no-schema": b'{"version": "1.0.0", "files": []}',
    "wrong-version": b'{"schema": 1, "version": "2.0.0", "files": []}',
    "files-not-list": b'{"schema": 1, "version": "1.0.0", "files": {}}',
    "entry-missing-keys": (b'{"schema": 1, "version": "1.0.0", "files": [{"path": "x"}]}'),
    "entry-not-object": b'{"schema": 1, "version": "1.0.0", "files": ["x"]}',
    "entry-bad-bytes": (
        b'{"schema": 1, "version": "1.0.0", "files": [{"path": "x", "language": '
        b'"en", "sha256": "00", "bytes": "many"}]}'
    ),
    "entry-escapes": (
        b'{"schema": 1, "version": "1.0.0", "files": [{"path": "../../etc/passwd", '
        b'"language": "en", "sha256": "00", "bytes": 1}]}'
    ),
}


@pytest.mark.parametrize("content", CORRUPT_MANIFESTS.values(), ids=CORRUPT_MANIFESTS.keys())
def test_corrupt_manifest(cli_process: ProcessRunner, tmp_path: Path, content: bytes) -> None:
    """Invalid JSON or a wrong schema: one line naming the manifest, exit 2, no traceback."""
    root = copy_store(tmp_path)
    manifest = root / V / "manifest.json"
    manifest.write_bytes(content)
    proc = cli_process("gold", "info", "--gold-dir", root)
    assert_one_clear_error(proc, str(manifest), "manifest")
    assert proc.returncode == 2


@pytest.mark.parametrize("content", ["not-json", "wrong-schema", "entry-missing-keys"])
@pytest.mark.parametrize(
    "args",
    [
        ("gold", "list"),
        ("gold", "stats"),
        ("gold", "verify"),
        ("score", example("en", "clausie")),
        ("validate", example("en", "clausie")),
    ],
    ids=["list", "stats", "verify", "score", "validate"],
)
def test_corrupt_manifest_every_command(
    cli_process: ProcessRunner, tmp_path: Path, content: str, args: tuple[str, ...]
) -> None:
    """Every command that reads the manifest fails the same clean way."""
    root = copy_store(tmp_path)
    manifest = root / V / "manifest.json"
    manifest.write_bytes(CORRUPT_MANIFESTS[content])
    proc = cli_process(*args, "--gold-dir", root)
    assert_one_clear_error(proc, str(manifest), "manifest")
    assert proc.returncode == 2


def test_missing_manifest(cli_process: ProcessRunner, tmp_path: Path) -> None:
    root = copy_store(tmp_path)
    (root / V / "manifest.json").unlink()
    proc = cli_process("gold", "verify", "--gold-dir", root)
    assert_one_clear_error(proc, "manifest.json")


def test_unreadable_manifest_is_one_line(cli_process: ProcessRunner, tmp_path: Path) -> None:
    """A manifest.json that cannot be read (here: a directory) is an error line, not a crash."""
    root = copy_store(tmp_path)
    (root / V / "manifest.json").unlink()
    (root / V / "manifest.json").mkdir()
    proc = cli_process("gold", "info", "--gold-dir", root)
    assert_one_clear_error(proc, "manifest.json")


def test_an_empty_gold_dir_adds_nothing_to_the_order(cli: RunCli, tmp_path: Path) -> None:
    """An empty --gold-dir is the first store of the order and holds nothing: every version
    comes from the next stores, and `gold path --all` says so."""
    result = cli("gold", "verify", "--gold-dir", tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "1.1.0: released, shipped with benchie-cli" in result.stdout
    listed = cli("gold", "path", "--all", "--gold-dir", tmp_path)
    first = listed.stdout.splitlines()[2].split()
    assert first[:3] == ["1", "--gold-dir", str(tmp_path)] and first[-1] == "empty"


def _nowhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, checkout: Path | None) -> None:
    """No store but a checkout (or none) without gold: no user data, no installed gold."""
    from benchie_cli.gold import dirs

    found = None if checkout is None else dirs.GoldDir(checkout, dirs.CHECKOUT)
    monkeypatch.setattr(dirs, "checkout_gold_dir", lambda: found)
    package = tmp_path / "site-packages" / "benchie_cli" / "data" / "gold"
    monkeypatch.setattr(dirs, "package_gold_dir", lambda: package)
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(tmp_path / "data"))


def test_no_gold_in_checkout_mentions_dvc_pull(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout without ``dvc pull`` and no installed copy: the error says how to get it."""
    monkeypatch.delenv("BENCHIE_GOLD_DIR")
    (tmp_path / "checkout" / "gold").mkdir(parents=True)
    _nowhere(monkeypatch, tmp_path, tmp_path / "checkout" / "gold")
    for args in (("gold", "path"), ("score", "--lang", "en", example("en", "clausie"))):
        result = cli(*args)
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "`dvc pull`" in lines[0], result.stderr
        assert str(tmp_path / "checkout" / "gold") in lines[0]


def test_no_gold_anywhere_mentions_dvc_pull(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed package (no checkout) without its gold also points at ``dvc pull``."""
    monkeypatch.setenv("BENCHIE_GOLD_DIR", "")
    _nowhere(monkeypatch, tmp_path, None)
    result = cli("gold", "list")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "`dvc pull`" in lines[0] and "BENCHIE_GOLD_DIR" in lines[0]


def test_checkout_gold_is_used_without_environment() -> None:
    """With no option and no environment, this editable checkout's gold/ is found."""
    proc = run_process("gold", "path", env={"BENCHIE_GOLD_DIR": None})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(GOLD_DIR.resolve())
    assert "checkout" in proc.stderr


def test_entity_facet_is_a_clear_error(cli_process: ProcessRunner) -> None:
    """SPEC §4: BenchIE-E gold is unpublished; asking for it says so in one line."""
    proc = cli_process("score", "--lang", "en", "--facet", "entity", example("en", "clausie"))
    assert_one_clear_error(proc, "entity")
    assert proc.returncode == 2
