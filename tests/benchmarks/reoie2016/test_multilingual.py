"""Re-OIE2016 in Spanish and Portuguese, and its binary variants (Multi2OIE's files), added by
sha256 and scored by Span_OIE's metric as Multi2OIE scores them (docs/reoie2016.md).

The published files have no licence to be shipped: hand-made stand-ins take their place,
their sha256 and counts put in the registry's entries for the test. The real files are
checked by ``test_benchmark_add.py::test_the_published_files`` when they are at hand, and
the numbers against Multi2OIE's own code by ``perf/bench_reoie2016.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import orjson
import pytest

from benchie_cli.benchmarks.reoie2016 import metric
from benchie_cli.registry import BENCHMARKS
from tests.conftest import RunCli


def _tuple(pred: str, arg0: str = "", arg1: str = "", arg2: str = "") -> dict[str, object]:
    fields: dict[str, object] = {"pred": pred, "arg0": arg0, "arg1": arg1, "arg2": arg2}
    fields.update({"arg3": "", "temp": "", "loc": "", "context": ""})
    return fields


#: A Spanish stand-in: <Ser> is a gold word (the reader rewrites English <be> only).
SPANISH = {
    "Ana quiere a Beto , un maestro .": [
        _tuple("quiere", "Ana", "a Beto"),
        _tuple("<Ser>", "Beto", "un maestro"),
    ],
    "Carlos duerme en casa .": [_tuple("duerme", "Carlos", "", "en casa")],
}
SYSTEM = (
    "Ana quiere a Beto, un maestro.\t0.9\tquiere\tAna\ta Beto\n"
    "Ana quiere a Beto, un maestro.\t0.6\tes\tBeto\tun maestro\n"
    "Carlos duerme en casa .\t0.5\tduerme\tCarlos\ten casa\n"
)


@pytest.fixture
def spanish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in, under the published file's name, pinned as Multi2OIE's Spanish
    n-ary file."""
    data = json.dumps(SPANISH, ensure_ascii=True).encode()
    src = tmp_path / "download" / "Re-OIE2016-Spanish.json"
    src.parent.mkdir()
    src.write_bytes(data)
    entry = BENCHMARKS["reoie2016"]
    published = tuple(
        p._replace(sha256=hashlib.sha256(data).hexdigest(), size=len(data), sentences=2, tuples=3)
        if p.file == src.name
        else p
        for p in entry.published
    )
    monkeypatch.setitem(BENCHMARKS, "reoie2016", entry._replace(published=published))
    return src


def test_a_language_is_added_and_scored_by_span_oie_s_metric(
    cli: RunCli, tmp_path: Path, spanish: Path
) -> None:
    root = tmp_path / "gold"
    root.mkdir()
    system = tmp_path / "es.tsv"
    system.write_text(SYSTEM)
    absent = cli("score", "--benchmark", "reoie2016", "--lang", "es", "--gold-dir", root, system)
    assert absent.exit_code == 2
    assert "the Re-OIE2016 (es, test) benchmark is not in the gold store" in absent.stderr
    assert "`benchie benchmark add reoie2016 Re-OIE2016-Spanish.json`" in absent.stderr
    assert "https://github.com/youngbin-ro/Multi2OIE" in absent.stderr

    added = cli("benchmark", "add", "reoie2016", spanish, "--gold-dir", root)
    assert added.exit_code == 0, added.stderr
    assert "added Re-OIE2016 (es, test) 1.0.0" in added.stderr
    version = root / "reoie2016" / "es" / "1.0.0"
    assert (version / "test" / "Re-OIE2016-Spanish.json").read_bytes() == spanish.read_bytes()
    assert (root / "reoie2016" / "es" / ".gitignore").read_text() == "*\n"

    out = tmp_path / "r.json"
    scored = cli(
        "score", "--benchmark", "reoie2016", "--lang", "es", "--gold-dir", root, system, "-o", out
    )
    assert scored.exit_code == 0, scored.stderr
    report = orjson.loads(out.read_bytes())
    result = metric.score(metric.read_gold_json(str(spanish)), metric.read_system(str(system)))
    expected = {**metric.to_json(result), "curve": metric.curve_of(result).as_json()}
    assert report["systems"][0]["reoie2016"] == json.loads(json.dumps(expected))
    gold = report["gold"]
    assert gold["language"] == "es" and gold["split"] == "test"
    assert gold["files"][0]["path"] == "reoie2016/es/1.0.0/test/Re-OIE2016-Spanish.json"
    assert "|split:test|lang:es|metric:reoie2016|gold:1.0.0@" in report["signature"]
    verified = cli("verify", out, system, "--gold-dir", root)
    assert verified.exit_code == 0, verified.stderr
    # the suite has a row of each part present, grouped by language, with the same numbers
    suite = cli("score", "--suite", "--gold-dir", root, system, "--format", "json")
    assert suite.exit_code == 0, suite.stderr
    rows = [r for r in orjson.loads(suite.stdout)["rows"] if r.get("language") == "es"]
    assert [(r["benchmark"], r["split"]) for r in rows] == [("reoie2016", "test")]
    numbers = dict(report["systems"][0]["reoie2016"])
    del numbers["curve"]  # (a suite's row holds no curve)
    assert rows[0]["reoie2016"] == numbers
    assert rows[0]["signature"] == report["signature"]
    # English is another part: still missing
    english = cli("score", "--benchmark", "reoie2016", "--gold-dir", root, system)
    assert english.exit_code == 2 and "Re-OIE2016.json" in english.stderr


def test_a_file_of_another_part_or_none_is_named(
    cli: RunCli, tmp_path: Path, spanish: Path
) -> None:
    root = tmp_path / "gold"
    root.mkdir()
    other = tmp_path / "Re-OIE2016-Portuguese.json"
    other.write_bytes(spanish.read_bytes() + b"\n")
    refused = cli("benchmark", "add", "reoie2016", other, "--gold-dir", root)
    assert refused.exit_code == 1
    pt = next(p for p in BENCHMARKS["reoie2016"].published if p.file == other.name)
    assert f"is not that of the published Re-OIE2016-Portuguese.json ({pt.sha256}" in (
        refused.stderr
    )
    anonymous = tmp_path / "gold.json"
    anonymous.write_bytes(b"{}")
    refused = cli("benchmark", "add", "reoie2016", anonymous, "--gold-dir", root)
    assert refused.exit_code == 1
    assert "is not that of any of Re-OIE2016's published files (Re-OIE2016.json " in refused.stderr
    assert not any(root.iterdir())  # nothing written


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--lang", "de"), "Re-OIE2016's gold is in en, es, pt only; BenchIE has de gold"),
        (("--split", "dev"), "reoie2016 has the splits test, binary"),
    ],
)
def test_languages_and_splits_it_has_not_are_refused(
    cli: RunCli, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = cli("score", "--benchmark", "reoie2016", *args, tmp_path / "x.tsv")
    assert result.exit_code == 2
    assert message in result.stderr
