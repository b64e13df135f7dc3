"""benchie analyze: error buckets and slot errors by their definitions (SPEC §7), bucketised
scores, confidence intervals and significance, determinism, and the HTML view."""

from __future__ import annotations

import re
from html import escape, unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from benchie_cli import __version__
from benchie_cli.analysis import significance
from benchie_cli.analysis import views as analysis_views
from benchie_cli.analysis.slot_errors import BUCKETS, analyse, bucket_name
from benchie_cli.benchmarks.benchie.index_cache import load_compiled
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer, SystemResult
from benchie_cli.cli import main
from benchie_cli.gold.parse import load_gold
from benchie_cli.gold.store import GoldStore
from benchie_cli.inputs.submission import split_line
from tests.conftest import ENGLISH_SYSTEMS, EXAMPLES, GOLD_DIR, RunCli, example

GOLD = (
    "sent_id:1\tAlice gave Bob a red book in Paris .\n"
    "1--> Cluster 1:\n"
    "Alice --> gave --> Bob [a] [red] book\n"
    "1--> Cluster 2:\n"
    "Alice --> gave [Bob] [a] [red] book in --> Paris\n"
    "\n"
    "sent_id:2\tNothing happened .\n"
)
# T0 = (Alice | gave | Bob [a] [red] book), T1 = (Alice | gave [Bob] [a] [red] book in | Paris).
SUBMISSION = (
    "1\tAlice\tgave\tParis\n"  # E1: T0 (1,1,0), T1 (1,0,1): a tie, both buckets
    "1\tBob\tgave\tbook\n"  # E2: T0 (0,1,0) beats T1 (0,0,0)
    "1\tParis\tin\tred\n"  # E3: (0,0,0) with both
    "1\tAlice\tgave red book\tParis\n"  # E4: T1 (1,0,1) beats T0 (1,0,0)
    "2\tNothing\thappened\t.\n"  # E5: a sentence without facts: (0,0,0)
    "1\tAlice\tgave\tBob a book\n"  # correct (T0): not an error
)


@pytest.fixture
def fixture_files(tmp_path: Path) -> tuple[Path, Path]:
    gold, sub = tmp_path / "gold.txt", tmp_path / "sys.tsv"
    gold.write_text(GOLD, encoding="utf-8")
    sub.write_text(SUBMISSION, encoding="utf-8")
    return gold, sub


def test_buckets_and_slot_shares_by_hand(fixture_files: tuple[Path, Path]) -> None:
    gold_path, sub = fixture_files
    gold = load_gold(str(gold_path))
    scorer = Scorer(gold, ScoreOptions("en"), keep_incorrect=True)
    result = scorer.score(str(sub), "sys")
    errors = analyse(gold, scorer.compiled, result.incorrect)
    assert errors.incorrect == 5
    # E1 counts in (1,1,0) and (1,0,1); E4 in (1,0,1); E2 in (0,1,0); E3, E5 in (0,0,0).
    assert errors.buckets == {
        (0, 0, 0): 2,
        (0, 0, 1): 0,
        (0, 1, 0): 1,
        (0, 1, 1): 0,
        (1, 0, 0): 0,
        (1, 0, 1): 2,
        (1, 1, 0): 1,
    }
    # Wrong per slot, E1..E5 (a tie counts 1/2 per pattern that marks the slot wrong):
    # subject 0 + 1 + 1 + 0 + 1 = 3; relation 1/2 + 0 + 1 + 1 + 1 = 3.5; object 1/2 + 1 + 1 + 0 + 1.
    assert errors.shares() == [3 / 5, 3.5 / 5, 3.5 / 5]
    e1 = next(e for e in errors.examples[(1, 0, 1)] if e.line == 1)
    assert e1.closest == ("Alice", "gave [Bob] [a] [red] book in", "Paris")
    assert errors.examples[(1, 1, 0)][0].closest == ("Alice", "gave", "Bob [a] [red] book")


def _brute_force(
    gold_path: Path, result: SystemResult
) -> tuple[dict[tuple[int, ...], int], list[float]]:
    """SPEC §7 read literally, with every slot form listed (fine for the English gold)."""
    gold = load_gold(str(gold_path))
    sentences = list(gold.sentences.values())
    buckets = dict.fromkeys(BUCKETS, 0)
    wrong = [0.0, 0.0, 0.0]
    for _, i, raw in result.incorrect:
        fields = split_line(raw)
        slots = [" ".join(f) for f in fields[1:4]]
        triples = [t for c in sentences[i].clusters for t in c.triples]
        patterns = [
            tuple(int(slots[k] in t.slots[k].forms(1 << 20)) for k in range(3)) for t in triples
        ]
        best = max((sum(p) for p in patterns), default=0)
        closest = {p for p in patterns if sum(p) == best} or {(0, 0, 0)}
        for p in closest:
            buckets[p] += 1
        for k in range(3):
            wrong[k] += sum(1 for p in closest if not p[k]) / len(closest)
    n = len(result.incorrect)
    return buckets, [w / n for w in wrong]


@pytest.mark.parametrize("system", ENGLISH_SYSTEMS)
def test_real_systems_agree_with_brute_force(system: str) -> None:
    resolved = GoldStore(GOLD_DIR).resolve("1.0.0", "en", "default")
    compiled = load_compiled(resolved)
    scorer = Scorer(compiled, ScoreOptions("en"), keep_incorrect=True)
    result = scorer.score(str(example("en", system)), system)
    errors = analyse(load_gold(str(resolved.path)), compiled, result.incorrect)
    assert errors.incorrect == result.totals[1]  # every FP is analysed
    buckets, shares = _brute_force(resolved.path, result)
    assert errors.buckets == buckets
    assert errors.shares() == pytest.approx(shares, abs=1e-12)


def _english_results() -> list[SystemResult]:
    scorer = Scorer(
        load_compiled(GoldStore(GOLD_DIR).resolve("1.0.0", "en", "default")), ScoreOptions("en")
    )
    return [scorer.score(str(example("en", s)), s) for s in ENGLISH_SYSTEMS]


def _subset(result: SystemResult, k: int) -> SystemResult:
    return SystemResult(
        result.name,
        result.facts,
        result.sentence_ids[:k],
        result.kept[:k],
        result.tp[:k],
        result.fp[:k],
        result.fn[:k],
    )


def test_intervals_contain_the_estimate_and_narrow_with_more_sentences() -> None:
    results = _english_results()
    widths = []
    for k in (75, 150, 300):
        subset = [_subset(r, k) for r in results]
        cis = significance.confidence_intervals(subset, significance.weights(k, 1000, 7))
        for r, ci in zip(subset, cis, strict=True):
            for key, value in zip(("precision", "recall", "f1"), r.scores, strict=True):
                assert ci[key].low <= value <= ci[key].high, (r.name, key)
        widths.append([ci["f1"].high - ci["f1"].low for ci in cis])
    for system in range(len(results)):
        assert widths[0][system] > widths[1][system] > widths[2][system]


def test_significance_tells_clear_from_unclear_differences() -> None:
    results = _english_results()
    w = significance.weights(300, 1000, 12345)
    for comparisons in (
        significance.compare_bootstrap(results, w),
        significance.compare_randomisation(results, 1000, 12345),
    ):
        by = {(c.a, c.b): c for c in comparisons}
        assert by["clausie", "naive_oie"].p_value <= 0.002  # F1 0.34 vs 0.03
        assert by["clausie", "minie"].p_value > 0.5  # F1 0.3389 vs 0.3372
        assert by["clausie", "minie"].delta_f1 == pytest.approx(
            0.33889980353634575 - 0.33723021582733814
        )


def test_a_system_against_its_copy_is_not_significant() -> None:
    clausie = _english_results()[0]
    twin = SystemResult(
        "twin",
        clausie.facts,
        clausie.sentence_ids,
        clausie.kept,
        clausie.tp,
        clausie.fp,
        clausie.fn,
    )
    [c] = significance.compare_bootstrap([clausie, twin], significance.weights(300, 500, 1))
    assert c.delta_f1 == 0 and c.p_value == 1.0
    [c] = significance.compare_randomisation([clausie, twin], 500, 1)
    assert c.p_value == 1.0


def test_same_seed_same_bytes_other_seed_other_intervals(cli: RunCli, tmp_path: Path) -> None:
    subs = [example("en", s) for s in ("clausie", "minie", "roi_t")]
    outs = []
    for n, seed in enumerate(("3", "3", "4")):
        out = tmp_path / f"a{n}.json"
        res = cli("analyze", "--lang", "en", "--resamples", "300", "--seed", seed, *subs, "-o", out)
        assert res.exit_code == 0, res.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    a, c = orjson.loads(outs[0]), orjson.loads(outs[2])
    assert a["systems"][0]["default"]["ci95"] != c["systems"][0]["default"]["ci95"]
    assert (
        a["signature"].endswith(f"|seed:3|v:{__version__}") and "|resamples:300|" in a["signature"]
    )


@pytest.mark.parametrize("name", ["a.pdf", "a.csv", "a.md", "a.png"])
def test_an_output_name_of_another_format_is_refused(
    cli: RunCli, tmp_path: Path, name: str
) -> None:
    """analyze -o a.pdf used to write JSON into a.pdf: refused before any work (exit 2)."""
    out = tmp_path / name
    res = cli("analyze", "--lang", "en", example("en", "clausie"), "-o", out)
    assert res.exit_code == 2 and not out.exists()
    assert "analyze writes the format of its extension (.json, .html, .htm, .txt)" in res.stderr
    assert len(res.stderr.splitlines()) == 1, res.stderr


def test_a_txt_output_is_the_text_view(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "a.txt"
    res = cli("analyze", "--lang", "en", "--resamples", "20", example("en", "clausie"), "-o", out)
    assert res.exit_code == 0, res.stderr
    assert not out.read_bytes().startswith(b"{") and "a.txt (text:" in res.stderr


def test_report_structure_and_facets(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    res = cli(
        "analyze", "--gold-version", "1.0.0", "--lang", "en", example("en", "clausie"), "-o", out
    )
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert list(report) == [
        "schema",
        "benchie_version",
        "signature",
        "gold",
        "options",
        "bucketings",
        "systems",
        "comparisons",
    ]
    [s] = report["systems"]
    assert s["default"]["precision"] == 0.5029154518950437
    assert set(s["facets"]) == {"default", "concat", "minimal"}
    assert (
        s["facet_gaps"]["concat_minus_default"]
        == s["facets"]["concat"]["f1"] - s["facets"]["default"]["f1"]
    )
    assert report["bucketings"][0]["sizes"] == {"<=20": 123, "21-30": 112, ">30": 65}
    length = s["buckets"]["sentence length (tokens)"]
    assert sum(length[b]["tp"] for b in ("<=20", "21-30", ">30")) == length["all"]["tp"] == 345
    assert len(report["gold"]["files"]) == 1  # concat and minimal derive from the same file


def test_user_buckets(cli: RunCli, tmp_path: Path) -> None:
    buckets = tmp_path / "b.tsv"
    buckets.write_text(
        "".join(f"{i}\t{'odd' if i % 2 else 'even'}\n" for i in range(1, 101)), encoding="utf-8"
    )
    out = tmp_path / "a.json"
    res = cli("analyze", "--lang", "en", "--buckets", buckets, example("en", "clausie"), "-o", out)
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    user = report["bucketings"][1]
    assert user["buckets"] == ["odd", "even"] and user["unassigned"] == 200
    scores = report["systems"][0]["buckets"][user["name"]]
    assert scores["odd"]["sentences"] == scores["even"]["sentences"] == 50
    bad = tmp_path / "bad.tsv"
    bad.write_text("1\tx\nno-such-sentence\ty\n", encoding="utf-8")
    res = cli("analyze", "--lang", "en", "--buckets", bad, example("en", "clausie"))
    assert res.exit_code == 2 and f"{bad}:2:" in res.stderr
    # "all" names the row over every sentence: a bucket of that name would be overwritten.
    bad.write_text("1\tshort\n2\tall\n", encoding="utf-8")
    res = cli("analyze", "--lang", "en", "--buckets", bad, example("en", "clausie"))
    assert res.exit_code == 2 and f"{bad}:2: error: bucket name 'all' is reserved" in res.stderr


def test_stdin_is_refused(cli: RunCli) -> None:
    res = cli("analyze", "--lang", "en", "-", input="1\tHe\tserved\tas\n")
    assert res.exit_code == 2 and "not '-'" in res.stderr


def test_html_is_self_contained(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "a.html"
    res = cli(
        "analyze",
        "--lang",
        "en",
        "--resamples",
        "200",
        *[example("en", s) for s in ("clausie", "stanford")],
        "-o",
        out,
    )
    assert res.exit_code == 0, res.stderr
    html = out.read_text(encoding="utf-8")
    for chart in ("chart-ci", "chart-facets", "chart-slots", "chart-buckets"):
        assert f'id="{chart}"' in html
    assert 'id="leaderboard"' in html and 'id="buckets-0"' in html
    for external in ("<script", "<link", "src=", "url(", "http://", "https://"):
        assert external not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


# --------------------------------------------------------------------------- the HTML page
# What the page must show beside the charts: axis titles, a legend of the error-bucket codes,
# marked p-values, P and R intervals, the sentence of each example and the sentences a bucket
# file leaves out. Checked on docs/analyze.md's page (gold 1.0.0, the eight English systems) and on
# small hand-made inputs.


@pytest.fixture(scope="module")
def english_analysis(
    tmp_path_factory: pytest.TempPathFactory, index_cache_dir: Path
) -> tuple[str, dict[str, Any]]:
    """docs/analyze.md's page and its JSON: one run of each, default options."""
    out = tmp_path_factory.mktemp("english-analysis")
    with pytest.MonkeyPatch.context() as env:  # the autouse fixture is per test
        env.setenv("BENCHIE_GOLD_DIR", str(GOLD_DIR))
        env.setenv("BENCHIE_CACHE_DIR", str(index_cache_dir))
        for name in ("a.html", "a.json"):
            args = ["analyze", "--gold-version", "1.0.0", "--lang", "en", str(EXAMPLES / "en")]
            res = CliRunner().invoke(main, [*args, "-o", str(out / name)], catch_exceptions=False)
            assert res.exit_code == 0, res.stderr
    return (out / "a.html").read_text(encoding="utf-8"), orjson.loads((out / "a.json").read_bytes())


def _charts(html: str) -> dict[str, str]:
    return dict(re.findall(r'<svg id="([^"]+)" class="chart".*?>(.*?)</svg>', html, re.S))


def _axis_titles(svg: str) -> dict[str, list[str]]:
    titles: dict[str, list[str]] = {"x": [], "y": []}
    for axis, text in re.findall(
        r'<text class="axis-title" data-axis="(x|y)"[^>]*>([^<]*)</text>', svg
    ):
        titles[axis].append(unescape(text))
    return titles


def _rows(html: str, table_id: str) -> list[tuple[str, list[str]]]:
    """(the tr's attributes, its cells' inner HTML) per body row of a table."""
    table = re.search(rf'<table id="{re.escape(table_id)}"[^>]*>(.*?)</table>', html, re.S)
    assert table, table_id
    body = table.group(1).split("<tbody>", 1)[1]
    return [
        (attrs, re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S))
        for attrs, cells in re.findall(r"<tr([^>]*)>(.*?)</tr>", body, re.S)
    ]


ENGLISH_AXES = {
    "chart-ci": ("score on the default facet (P = precision, R = recall)", "system"),
    "chart-facets": ("F1", "system"),
    "chart-slots": ("share of the system's incorrect extractions wrong in the slot", "system"),
    "chart-buckets": (
        "share of the system's error-bucket counts (a tied extraction counts in each bucket)",
        "system",
    ),
    "chart-bucketing-0": ("sentence length (gold whitespace tokens)", "F1"),
}


def test_every_chart_titles_both_axes(english_analysis: tuple[str, dict[str, Any]]) -> None:
    html, _ = english_analysis
    charts = _charts(html)
    assert set(charts) == set(ENGLISH_AXES)  # no chart of the page is left unchecked
    for chart, (x, y) in ENGLISH_AXES.items():
        assert _axis_titles(charts[chart]) == {"x": [x], "y": [y]}, chart


def test_charts_of_confidences_and_bucket_files_title_their_axes(
    cli: RunCli, tmp_path: Path
) -> None:
    confident = tmp_path / "confident.tsv"
    confident.write_text(
        "#benchie-tsv confidence\n"
        "1\tHe\tserved as\tthe first Prime Minister of Australia\t0.9\n"
        "1\tHe\tserved\tAustralia\t0.8\n",
        encoding="utf-8",
    )
    buckets = tmp_path / "halves.tsv"
    buckets.write_text("".join(f"{i}\t{'a' if i <= 150 else 'b'}\n" for i in range(1, 301)))
    page = tmp_path / "a.html"
    res = cli(
        "analyze", "--lang", "en", "--resamples", "20", "--buckets", buckets,
        confident, example("en", "clausie"), "-o", page,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    charts = _charts(page.read_text(encoding="utf-8"))
    assert _axis_titles(charts["chart-pr"]) == {"x": ["recall"], "y": ["precision"]}
    assert _axis_titles(charts["chart-bucketing-1"]) == {
        "x": [f"bucket of {buckets}"],
        "y": ["F1"],
    }


@pytest.mark.parametrize(
    ("pattern", "meaning"),
    [
        ((0, 0, 1), "object matches the closest gold triple, subject and relation do not"),
        ((0, 1, 0), "relation matches the closest gold triple, subject and object do not"),
        ((0, 1, 1), "relation and object match the closest gold triple, subject does not"),
        ((1, 0, 0), "subject matches the closest gold triple, relation and object do not"),
        ((1, 0, 1), "subject and object match the closest gold triple, relation does not"),
        ((1, 1, 0), "subject and relation match the closest gold triple, object does not"),
    ],
)
def test_bucket_codes_in_words(pattern: tuple[int, int, int], meaning: str) -> None:
    assert analysis_views.bucket_meaning(pattern) == meaning


def test_bucket_codes_have_a_legend(english_analysis: tuple[str, dict[str, Any]]) -> None:
    html, _ = english_analysis
    rows = [cells for _, cells in _rows(html, "bucket-code-table")]
    assert [unescape(r[1]) for r in rows] == [bucket_name(b) for b in BUCKETS]
    meaning = {r[1]: unescape(r[2]) for r in rows}
    assert meaning["(1, 1, 0)"] == (
        "subject and relation match the closest gold triple, object does not"
    )
    assert meaning["(0, 0, 0)"].startswith("no slot matches any gold triple of the sentence")
    assert "1 = the slot matches the closest gold triple, 0 = it does not" in html
    # Between the chart it explains and the next section.
    chart = html.index('id="chart-buckets"')
    assert chart < html.index('id="bucket-codes"') < html.index("<h2>", chart)
    # Each code's swatch has the colour of its part of the bars.
    bars = _charts(html)["chart-buckets"]
    for swatch, code in ((r[0], r[1]) for r in rows):
        colour = re.search(r"background: (#[0-9a-f]{6})", swatch)
        assert colour, swatch
        assert f'fill="{colour.group(1)}"><title>clausie, bucket {code}:' in bars


def test_p_values_below_005_are_marked(english_analysis: tuple[str, dict[str, Any]]) -> None:
    html, report = english_analysis
    rows = _rows(html, "comparisons")
    assert len(rows) == len(report["comparisons"]) == 28  # every pair of eight systems
    marked = 0
    for (attrs, cells), c in zip(rows, report["comparisons"], strict=True):
        assert [cells[0], cells[1]] == [c["a"], c["b"]]
        if c["p_value"] < 0.05:
            marked += 1
            assert cells[3] == f"<strong>{c['p_value']:.4f} *</strong>"
            assert attrs == ' class="significant"'
        else:
            assert cells[3] == f"{c['p_value']:.4f}" and attrs == ""
    by = {(c["a"], c["b"]): c["p_value"] for c in report["comparisons"]}
    assert by["clausie", "naive_oie"] < 0.05 < by["clausie", "minie"]  # both kinds are shown
    note = re.search(r'<p class="note" id="significance-note">(.*?)</p>', html)
    assert note, "no footnote"
    assert unescape(note.group(1)).startswith(f"* p < 0.05 ({marked} of 28 pairs): ")
    assert "paired bootstrap test (Koehn 2004) over the same 1000 resamples" in note.group(1)
    assert "seed 12345" in note.group(1)


def test_the_footnote_names_approximate_randomisation(cli: RunCli, tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    subs = [example("en", s) for s in ("clausie", "naive_oie")]
    res = cli("analyze", "--lang", "en", "--test", "ar", "--resamples", "99", *subs, "-o", page)
    assert res.exit_code == 0, res.stderr
    html = page.read_text(encoding="utf-8")
    # F1 0.34 against 0.03: no trial of 99 reaches it, so p = 1/100.
    [(attrs, cells)] = _rows(html, "comparisons")
    assert cells[3] == "<strong>0.0100 *</strong>" and attrs == ' class="significant"'
    assert "approximate randomisation test (Riezler &amp; Maxwell 2005) with 99 trials" in html
    assert "paired bootstrap" not in html


@pytest.mark.parametrize(
    ("p", "cell"),
    [
        (1 / 1001, "<strong>0.0010 *</strong>"),
        (50 / 1001, "<strong>0.04995 *</strong>"),  # not a marked "0.0500"
        (0.05, "0.0500"),  # p < 0.05 is marked, p = 0.05 is not
        (51 / 1001, "0.0509"),
        (1.0, "1.0000"),
    ],
)
def test_p_value_cells_by_hand(p: float, cell: str) -> None:
    assert analysis_views.p_cell(p) == cell


def test_leaderboard_shows_p_r_and_f1_intervals(
    english_analysis: tuple[str, dict[str, Any]],
) -> None:
    html, report = english_analysis
    rows = {cells[0]: cells for _, cells in _rows(html, "leaderboard")}
    assert len(rows) == 8
    for s in report["systems"]:
        default = s["default"]
        assert list(default["ci95"]) == ["precision", "recall", "f1"]
        for column, key in enumerate(("precision", "recall", "f1"), 1):
            low, high = default["ci95"][key]
            assert low < default[key] < high, (s["name"], key)
            assert rows[s["name"]][column] == f"{default[key]:.4f} [{low:.4f}, {high:.4f}]"
    assert rows["clausie"][1].startswith("0.5029 [")  # 345 / 686, as published
    # The chart draws all three: a point and its interval per system and score.
    drawn = re.findall(
        r'<line class="ci" [^>]*/><circle [^>]*><title>([^<:]+): (P|R|F1) ',
        _charts(html)["chart-ci"],
    )
    expected = [(s["name"], k) for s in report["systems"] for k in ("P", "R", "F1")]
    assert sorted(drawn) == sorted(expected)


def test_examples_show_their_sentence(english_analysis: tuple[str, dict[str, Any]]) -> None:
    html, report = english_analysis
    compiled = load_compiled(GoldStore(GOLD_DIR).resolve("1.0.0", "en", "default"))
    texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
    cut = set()
    for s in report["systems"]:
        rows = [cells for _, cells in _rows(html, f"examples-{s['name']}")]
        examples = [e for b in s["slot_errors"]["buckets"] for e in b["examples"]]
        assert len(rows) == len(examples) > 0
        for cells, e in zip(rows, examples, strict=True):
            assert cells[1] == e["sent_id"] and e["sentence"] == texts[e["sent_id"]]
            span = re.fullmatch(r'<span class="sentence" title="([^"]*)">([^<]*)</span>', cells[2])
            assert span, cells[2]
            full, shown = unescape(span.group(1)), unescape(span.group(2))
            assert full == e["sentence"]
            if len(full) <= 100:
                assert shown == full
            else:
                assert len(shown) <= 100 and shown.endswith("…")
                assert full.startswith(shown[:-1])
            cut.add(shown != full)
    assert cut == {True, False}  # both a whole and a cut sentence were checked


# A gold whose text is markup, its sentences in an order that is not sorted, one of them of
# 130 characters: the page must escape all of it, cut the long one, and list unassigned ids
# in gold order.
LONG = "The river " + "very " * 22 + "long flows north past <i>Paris</i> ."
HOSTILE_GOLD = (
    "sent_id:s3\t<b>Alice</b> met \"Bob\" & 'Carol' in Paris .\n"
    "s3--> Cluster 1:\n"
    '<b>Alice</b> --> met --> "Bob"\n'
    "\n"
    f"sent_id:s10\t{LONG}\n"
    "s10--> Cluster 1:\n"
    "The river --> flows --> north\n"
    "\n"
    "sent_id:s2\tNothing happened .\n"
    "\n"
    "sent_id:s1\tBob slept in Paris .\n"
    "s1--> Cluster 1:\n"
    "Bob --> slept in --> Paris\n"
)
HOSTILE_NAME = "<i>sys&\"x'</i>"
#: Every element the page writes itself.
PAGE_TAGS = {
    *("html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "code", "div"),
    *("span", "strong", "details", "summary", "table", "thead", "tbody", "tr", "th", "td"),
    *("figure", "figcaption", "svg", "rect", "text", "line", "circle", "path"),
}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)


def test_user_text_is_escaped_and_unassigned_sentences_are_listed(
    cli: RunCli, tmp_path: Path
) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_text(HOSTILE_GOLD, encoding="utf-8")
    sub = tmp_path / "sub.tsv"
    sub.write_text(
        "s3\t<b>Alice</b>\tmet\tCarol\n"  # (1, 1, 0)
        "s10\tThe river\tflows\tpast\n"  # (1, 1, 0), in the long sentence
        's3\t<b>Alice</b>\tmet\t"Bob"\n',  # correct
        encoding="utf-8",
    )
    buckets = tmp_path / "b.tsv"
    buckets.write_text('s2\t<script>alert(1)</script>\ns10\ta&b"c\n', encoding="utf-8")
    runs = []
    for n in range(2):
        for suffix in ("html", "json"):
            res = cli(
                "analyze", "--lang", "en", "--gold-file", gold, "--resamples", "50",
                "--buckets", buckets, f"{HOSTILE_NAME}={sub}", f"plain={sub}",
                "-o", tmp_path / f"a{n}.{suffix}",
            )  # fmt: skip
            assert res.exit_code == 0, res.stderr
        runs.append([(tmp_path / f"a{n}.{suffix}").read_bytes() for suffix in ("html", "json")])
    assert runs[0] == runs[1]  # same inputs and seed: the same bytes, page and JSON
    html, report = runs[0][0].decode(), orjson.loads(runs[0][1])

    # Unassigned, by hand: the file puts s2 and s10 in buckets; s3 and s1 are left, in gold order.
    length, user = report["bucketings"]
    assert (length["unassigned"], length["unassigned_sent_ids"]) == (0, [])
    assert user["sizes"] == {"<script>alert(1)</script>": 1, 'a&b"c': 1}
    assert (user["unassigned"], user["unassigned_sent_ids"]) == (2, ["s3", "s1"])
    assert 'id="unassigned-0"' not in html
    assert (
        "sentences per bucket: &lt;script&gt;alert(1)&lt;/script&gt;: 1, a&amp;b&quot;c: 1, "
        "(unassigned): 2</p>" in html
    )
    note = re.search(r'<details class="unassigned" id="unassigned-1">(.*?)</details>', html, re.S)
    assert note, "no note of the unassigned sentences"
    assert "2 of 4 gold sentences are in no bucket" in note.group(1)
    assert note.group(1).endswith("Their sentence ids: s3, s1</p>")

    # Nothing of the user's text became markup: every element is one the page writes itself.
    parser = _Tags()
    parser.feed(html)
    assert parser.tags <= PAGE_TAGS, parser.tags - PAGE_TAGS
    assert "<b>" not in html and "<i>" not in html and "<script" not in html
    assert escape(HOSTILE_NAME) in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    short = escape("<b>Alice</b> met \"Bob\" & 'Carol' in Paris .")
    assert f'<span class="sentence" title="{short}">{short}</span>' in html
    # The long sentence: its first 99 characters and an ellipsis, all of it in the tooltip.
    assert len(LONG) > 100
    shown = escape(LONG[:99].rstrip() + "…")
    assert f'<span class="sentence" title="{escape(LONG)}">{shown}</span>' in html


def test_unassigned_sentences_of_the_english_gold(cli: RunCli, tmp_path: Path) -> None:
    buckets = tmp_path / "b.tsv"
    buckets.write_text("".join(f"{i}\tfirst fifty\n" for i in range(1, 51)), encoding="utf-8")
    for suffix in ("json", "html"):
        res = cli(
            "analyze", "--lang", "en", "--resamples", "20", "--buckets", buckets,
            example("en", "clausie"), "-o", tmp_path / f"a.{suffix}",
        )  # fmt: skip
        assert res.exit_code == 0, res.stderr
    user = orjson.loads((tmp_path / "a.json").read_bytes())["bucketings"][1]
    assert user["unassigned"] == 250
    assert user["unassigned_sent_ids"] == [str(i) for i in range(51, 301)]
    html = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "first fifty: 50, (unassigned): 250</p>" in html
    assert "250 of 300 gold sentences are in no bucket" in html
    listed = re.search(r"Their sentence ids: ([^<]*)</p>", html)
    assert listed, "no ids"
    # The first 200 are listed; the JSON has every one.
    ids = listed.group(1).split(", ")
    assert ids[:200] == [str(i) for i in range(51, 251)]
    assert ids[200:] == ["… and 50 more (the JSON lists every one)"]
