"""LSOIE's published gold, added by sha256 and scored (docs/lsoie.md). The published files
have no licence to be shipped: hand-made stand-ins take their place, their sha256 and
counts put in the registry's entries for the test. The real files are checked by
``test_benchmark_add.py::test_the_published_files`` when they are at hand, and the
numbers against the original scorer by ``perf/bench_lsoie.py``."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest

from benchie_cli.registry import BENCHMARKS
from tests.benchmarks.lsoie.test_lsoie import GOLD, SYSTEM
from tests.conftest import RunCli


def add_stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, split: str = "wiki") -> Path:
    """The small gold of test_lsoie.py under the published name of ``split``'s file,
    pinned in the registry in its place (4 sentences, 6 tuples)."""
    entry = BENCHMARKS["lsoie"]
    published = next(p for p in entry.published if p.split == split)
    data = GOLD.encode()
    src = tmp_path / "download" / published.file
    src.parent.mkdir(exist_ok=True)
    src.write_bytes(data)
    pinned = published._replace(
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        sentences=4,
        tuples=6,
    )
    files = tuple(pinned if p is published else p for p in entry.published)
    monkeypatch.setitem(BENCHMARKS, "lsoie", entry._replace(published=files))
    return src


def test_a_split_is_added_scored_and_verified(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "gold"
    root.mkdir()
    system = tmp_path / "sys.txt"
    system.write_text(SYSTEM, encoding="utf-8")
    absent = cli("score", "--benchmark", "lsoie", "--split", "sci", "--gold-dir", root, system)
    assert absent.exit_code == 2
    assert "`benchie benchmark add lsoie science_eval.oie.correct.head`" in absent.stderr
    src = add_stand_in(tmp_path, monkeypatch, "sci")
    added = cli("benchmark", "add", "lsoie", src, "--gold-dir", root)
    assert added.exit_code == 0, added.stderr
    assert "added LSOIE (en, sci) 1.0.0" in added.stderr and "4 sentences, 6 tuples" in added.stderr
    stored = root / "lsoie" / "sci" / "1.0.0" / "sci" / "science_eval.oie.correct.head"
    assert stored.read_bytes() == src.read_bytes()
    out = tmp_path / "r.json"
    scored = cli(
        "score", "--benchmark", "lsoie", "--split", "sci", "--gold-dir", root, system, "-o", out
    )
    assert scored.exit_code == 0, scored.stderr
    assert "1 of its sentences are not in lsoie's sci split" in scored.stderr
    report = orjson.loads(out.read_bytes())
    numbers = report["systems"][0]["lsoie"]
    assert numbers.pop("curve") == {  # the .dat's points, in ascending confidence
        "threshold": [0.5, 0.7, 0.8, 0.9],
        "precision": [0.75, 0.6666666666666666, 1.0, 1.0],
        "recall": [0.375, 0.25, 0.25, 0.125],
    }
    assert numbers == {
        "auc": 0.2135416666666875,
        "precision": 0.75,
        "recall": 0.375,
        "f1": 0.5,
        "confidence": 0.5,
        "points": 4,
        "gold": 6,
        "denominator": 8,
        "matched": 3,
    }
    assert "|split:sci|metric:lsoie|gold:1.0.0@" in report["signature"]
    verified = cli("verify", out, system, "--gold-dir", root)
    assert verified.exit_code == 0, verified.stderr
    wiki = cli("score", "--benchmark", "lsoie", "--gold-dir", root, system)
    assert wiki.exit_code == 2 and "eval.oie.correct.head" in wiki.stderr


def test_the_gold_without_heads_is_named(cli: RunCli, tmp_path: Path) -> None:
    plain = tmp_path / "eval.oie"
    plain.write_bytes(b"x")
    entry = BENCHMARKS["lsoie"]
    sha = hashlib.sha256(b"x").hexdigest()
    wiki = entry.published[0]._replace(lookalikes={sha: "the plain gold"})
    with pytest.MonkeyPatch.context() as m:
        m.setitem(BENCHMARKS, "lsoie", entry._replace(published=(wiki, *entry.published[1:])))
        refused = cli("benchmark", "add", "lsoie", plain, "--gold-dir", tmp_path)
    assert refused.exit_code == 1 and "the plain gold" in refused.stderr
    real = entry.published[0].lookalikes
    assert any("without the syntactic heads" in v for v in real.values())


@pytest.mark.parametrize(
    ("args", "message"),
    [(("--split", "test"), "lsoie has the splits wiki, sci"), (("--lang", "de"), "LSOIE")],
)
def test_splits_and_languages_it_has_not_are_refused(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = cli("score", "--benchmark", "lsoie", *args, tmp_path / "x.tsv")
    assert result.exit_code == 2 and message in result.stderr
