"""``score --suite`` of several system outputs: one table, systems as rows (docs/suite.md).

On real data, OpenIE 4's and OpenIE 5's outputs as CaRB ships them (tests/data/carb), every
format: the table's numbers are each system's suite numbers, the CSV reads back as the
JSON's, the LaTeX compiles (pdflatex when installed, else a parser checks it), the report
verifies. On a report worked by hand: the columns, the best of each, the escapes.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli import suite_views
from benchie_cli.inputs.batch import system_name
from tests.conftest import DATA, RunCli

CARB = DATA / "carb"
OIE4 = CARB / "openie4_output.txt.gz"
OIE5 = CARB / "openie5_output.txt.gz"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The suite of both systems in every format, and of each alone (JSON)."""
    from click.testing import CliRunner

    from benchie_cli.cli import main

    out = tmp_path_factory.mktemp("suite-table")
    runner = CliRunner()
    got: dict[str, Any] = {"dir": out}
    for ext in ("json", "csv", "tex", "html", "md", "txt"):
        result = runner.invoke(
            main, ["score", "--suite", f"OpenIE 4={OIE4}", str(OIE5), "-o", str(out / f"s.{ext}")]
        )
        assert result.exit_code == 0, result.stderr
        got[ext] = (out / f"s.{ext}").read_bytes()
    for name, path in (("oie4", OIE4), ("oie5", OIE5)):
        result = runner.invoke(
            main, ["score", "--suite", str(path), "-o", str(out / f"{name}.json")]
        )
        assert result.exit_code == 0, result.stderr
        got[name] = orjson.loads((out / f"{name}.json").read_bytes())
    return got


def test_a_report_of_several_systems_is_each_systems_report(reports: dict[str, Any]) -> None:
    report = orjson.loads(reports["json"])
    assert list(report) == ["schema", "benchie_version", "suite", "systems"]
    assert [s["name"] for s in report["systems"]] == ["OpenIE 4", "openie5_output"]
    for system, alone in zip(report["systems"], (reports["oie4"], reports["oie5"]), strict=True):
        assert {k: v for k, v in system.items() if k != "name"} == {
            k: v for k, v in alone.items() if k not in ("schema", "benchie_version", "suite")
        }
    # A one-system report named by its file's stem keeps the layout it had: no name key.
    assert "name" not in reports["oie4"] and "systems" not in reports["oie4"]


def _json_numbers(report: dict[str, Any]) -> dict[tuple[str, str], float | None]:
    """Each (system, CSV header) the JSON has a number for, worked out from the rows."""
    out: dict[tuple[str, str], float | None] = {}
    for name, part in suite_views.systems_of(report):
        for row in part["rows"]:
            if "skipped" in row:
                continue
            label = suite_views.METRICS[row["metric"]].label
            label += f" ({row['facet']})" if "facet" in row else ""
            for key, head in suite_views.MEASURES.items():
                if key in row[row["metric"]]:
                    out[(name, f"{label} {head}")] = row[row["metric"]][key]
    return out


def test_the_csv_reads_back_as_the_jsons_numbers(reports: dict[str, Any]) -> None:
    report = orjson.loads(reports["json"])
    rows = list(csv.reader(io.StringIO(reports["csv"].decode())))
    header, body = rows[0], rows[1:]
    assert header[0] == "system" and [r[0] for r in body] == ["OpenIE 4", "openie5_output"]
    read = {(r[0], h): float(c) for r in body for h, c in zip(header[1:], r[1:], strict=True)}
    assert read == _json_numbers(report)  # every number, exactly (full precision)
    # The published figures are among them, as CaRB's and oie-benchmark's scorers give them.
    assert read[("OpenIE 4", "OIE2016 AUC")] == 0.47045760823440413
    assert read[("OpenIE 4", "CaRB (s,s) F1")] == 0.4037745713496125
    # Every benchmark of the store is a column: BenchIE's facets, CaRB's metrics, OIE2016's
    # scorers (the registry's rows, no list here).
    assert {h.rsplit(" ", 1)[0] for h in header[1:]} == {
        "BenchIE (default)",
        "BenchIE (concat)",
        "BenchIE (minimal)",
        "CaRB",
        "CaRB (s,s)",
        "OIE2016",
        "OIE2016 (2018 scorer)",
    }


def test_the_table_marks_the_best_of_each_column(reports: dict[str, Any]) -> None:
    lines = reports["txt"].decode().splitlines()
    assert lines[0].split()[0] == "system" and "CaRB (s,s) F1" in lines[0]
    oie4, oie5 = lines[2], lines[3]
    assert oie4.startswith("OpenIE 4 ") and oie5.startswith("openie5_output ")
    # CaRB (s,s) F1: OpenIE 5 (0.4118) beats OpenIE 4 (0.4038); CaRB F1 the other way.
    assert "0.4118*" in oie5 and "0.4038 " in oie4
    assert "0.4882*" in oie4 and "0.4674 " in oie5
    assert suite_views.BEST_NOTE in lines
    assert (
        "benchie|benchmark:carb|split:test|metric:carb-ss|gold:1.0.0@5c74f7c51e14|v:0.2.0" in lines
    )
    # A benchmark not in the store is no column, and is said once, not per system.
    assert sum(line.startswith("skipped: WiRe57: ") for line in lines) == 1
    md = reports["md"].decode()
    assert "| OpenIE 4 | **0.3370** |" in md and "**0.4118**" in md


def test_the_html_page_is_self_contained(reports: dict[str, Any]) -> None:
    page = reports["html"].decode()
    assert page.startswith("<!DOCTYPE html>") and page.endswith("</html>\n")
    assert "<script" not in page and "http://" not in page.split("<h2>")[0]
    assert "<strong>0.4118</strong>" in page and 'id="suite"' in page
    assert "<code>benchie|lang:en|facet:default|gold:1.1.0@b10e0a527811" in page


# --------------------------------------------------------------------------- LaTeX


def _latex_check(tex: str) -> None:
    """What pdflatex would reject in a booktabs tabular: unbalanced braces or environments,
    an unescaped special character, a command not defined by LaTeX or booktabs, a row
    with another number of cells than the column spec, rules out of order."""
    body = [line for line in tex.splitlines() if not line.startswith("%")]
    text = "\n".join(body)
    unescaped = re.sub(r"\\[&%$#_{}]", "", text)
    depth = 0
    for ch in unescaped:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0, "a } closes no {"
    assert depth == 0, "a { is never closed"
    assert not re.search(r"(?<!\\)[%$#_^~]", unescaped.replace(r"\\", "")), "unescaped special"
    known = {
        "begin", "end", "toprule", "midrule", "bottomrule", "cmidrule", "multicolumn",
        "textbf", "textasciitilde", "textasciicircum", "textbackslash", "textless",
        "textgreater", "textbar",
    }  # fmt: skip
    assert set(re.findall(r"\\([A-Za-z]+)", text)) <= known
    assert re.findall(r"\\(begin|end)\{(\w+)\}", text) == [("begin", "tabular"), ("end", "tabular")]
    rules = [line for line in body if line in (r"\toprule", r"\midrule", r"\bottomrule")]
    assert rules == [r"\toprule", r"\midrule", r"\bottomrule"]
    spec = re.search(r"\\begin\{tabular\}\{([lrc]+)\}", text)
    assert spec is not None
    width = len(spec.group(1))
    rows = [line for line in body if line.endswith(r"\\")]
    assert rows
    for row in rows:
        cells = re.split(r"(?<!\\)&", row[: -len(r"\\")])
        spans = sum(
            int(m.group(1)) if (m := re.match(r"\s*\\multicolumn\{(\d+)\}", c)) else 1
            for c in cells
        )
        assert spans == width, row
        assert not row.lstrip().startswith("["), "a row read as \\\\[length]"


def _compile_or_check(tex: str, where: Path) -> None:
    if shutil.which("pdflatex") is None:
        _latex_check(tex)
        return
    doc = where / "doc.tex"
    doc.write_text(
        "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}"
        "\\usepackage{booktabs}\\begin{document}\n" + tex + "\\end{document}\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=where,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_the_latex_of_the_shipped_outputs_compiles(reports: dict[str, Any], tmp_path: Path) -> None:
    tex = reports["tex"].decode()
    _compile_or_check(tex, tmp_path)
    assert r"OpenIE 4 & \textbf{0.3370} & \textbf{0.1159}" in tex
    assert r"openie5\_output & " in tex and r"\textbf{0.4118}" in tex
    assert r"\multicolumn{2}{c}{CaRB (s,s)}" in tex
    assert "% benchie|benchmark:oie2016|split:all|metric:oie2016|scorer:2019-07|" in tex


def test_the_checker_rejects_what_pdflatex_would(tmp_path: Path) -> None:
    good = (
        "\\begin{tabular}{lr}\n\\toprule\nS & F1 \\\\\n\\midrule\na & 1 \\\\\n"
        "\\bottomrule\n\\end{tabular}\n"
    )
    _latex_check(good)
    for bad in (
        good.replace("a & 1", "a_b & 1"),  # unescaped _
        good.replace("a & 1", "a & 1 & 2"),  # a cell too many
        good.replace("a & 1", "{a & 1"),  # unbalanced
        good.replace("\\midrule\n", ""),  # no midrule
        good.replace("a & 1", "\\foo a & 1"),  # unknown command
    ):
        with pytest.raises(AssertionError):
            _latex_check(bad)


# --------------------------------------------------------------------------- by hand


def _row(benchmark: str, metric: str, f1: float, auc: float | None, **more: Any) -> dict[str, Any]:
    numbers = {
        "precision": 0.5,
        "recall": 0.25,
        "f1": f1,
        **({"auc": auc} if auc is not None else {}),
    }
    return {
        "benchmark": benchmark,
        "metric": metric,
        **more,
        "split": "test",
        "signature": f"sig|{metric}|{more.get('facet', '')}",
        metric: numbers,
    }


def _hand_report() -> dict[str, Any]:
    def part(path: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {"file": {"path": path, "sha256": "0" * 64}, "input_format": "auto", "rows": rows}

    skipped = {"benchmark": "wire57", "metric": "wire57", "split": "test", "skipped": "absent"}
    return {
        "schema": 1,
        "benchie_version": "0",
        "suite": True,
        "systems": [
            {
                "name": "A & B_{1}",
                **part(
                    "a.txt",
                    [
                        _row("carb", "carb", 0.41234, 0.2),
                        _row("carb", "carb-ss", 0.3, None),
                        skipped,
                    ],
                ),
            },
            {
                "name": "[x] ~ ^ \\ % $ #",
                **part(
                    "b.txt",
                    [
                        _row("carb", "carb", 0.41236, 0.1),  # the same as A's, as shown
                        {**_row("carb", "carb-ss", 0.0, None), "skipped": "none"},
                        skipped,
                    ],
                ),
            },
        ],
    }


def test_columns_best_and_notes_of_a_report_worked_by_hand() -> None:
    g = suite_views.grid(_hand_report())
    assert [(c.label, c.measures) for c in g.columns] == [
        ("CaRB", ("f1", "auc")),
        ("CaRB (s,s)", ("f1",)),  # no AUC in its numbers: no AUC column
    ]  # WiRe57, skipped for every system: no column
    assert g.cells == [["0.4123", "0.2000", "0.3000"], ["0.4124", "0.1000", "-"]]
    # 0.41234 shows as 0.4123, 0.41236 as 0.4124: the best as shown is B's alone; a column
    # with one number marks nothing.
    assert g.best == [[False, True, False], [True, False, False]]
    assert g.notes == [
        "skipped: WiRe57: absent",
        "skipped: [x] ~ ^ \\ % $ #: CaRB: none",
    ]
    assert g.signatures == ["sig|carb|", "sig|carb-ss|"]
    with_pr = suite_views.grid(_hand_report(), tuple(suite_views.MEASURES))
    assert with_pr.columns[0].measures == ("precision", "recall", "f1", "auc")


def test_equal_values_as_shown_are_all_best() -> None:
    report = _hand_report()
    report["systems"][1]["rows"][0]["carb"]["f1"] = 0.41231
    assert [b[0] for b in suite_views.grid(report).best] == [True, True]


def test_latex_escapes_every_special_character(tmp_path: Path) -> None:
    tex = suite_views.to_latex(_hand_report())
    assert r"A \& B\_\{1\} & " in tex
    assert (
        r"{}[x] \textasciitilde{} \textasciicircum{} \textbackslash{} \% \$ \# & \textbf{0.4124}"
        in tex
    )
    _compile_or_check(tex, tmp_path)
    assert suite_views.latex_escape("50%_~") == r"50\%\_\textasciitilde{}"
    assert suite_views.latex_escape("<a|b>") == r"\textless{}a\textbar{}b\textgreater{}"


SS_HEADER = ["CaRB (s,s) P", "CaRB (s,s) R", "CaRB (s,s) F1"]


def test_csv_of_a_report_worked_by_hand() -> None:
    rows = list(csv.reader(io.StringIO(suite_views.to_csv(_hand_report()))))
    assert rows == [
        ["system", "CaRB P", "CaRB R", "CaRB F1", "CaRB AUC", *SS_HEADER],
        ["A & B_{1}", "0.5", "0.25", "0.41234", "0.2", "0.5", "0.25", "0.3"],
        ["[x] ~ ^ \\ % $ #", "0.5", "0.25", "0.41236", "0.1", "", "", ""],
    ]  # fmt: skip


HOSTILE = "<script>alert(1)</script> a|b `c` *d* _e_ \\ [f](g) ~~h~~ &lt; <img src=x>"


def _one_named(name: str) -> dict[str, Any]:
    report = _hand_report()
    report["systems"][0]["name"] = name
    return report


@pytest.mark.parametrize("renderer", ["markdown_it", "markdown"])
def test_markdown_shows_a_hostile_name_as_typed(renderer: str) -> None:
    """Rendered by a CommonMark renderer (markdown-it) and by Python-Markdown: the name is
    its cell's text, no tag, link, code span or emphasis comes of it, no cell is split."""
    module = pytest.importorskip(renderer)
    md = suite_views.to_markdown(_one_named(HOSTILE))
    if renderer == "markdown_it":
        page = module.MarkdownIt("commonmark").enable("table").render(md)
    else:
        page = module.markdown(md, extensions=["tables"])
    assert "<script" not in page and "<img" not in page and "<a " not in page
    assert "<code>c" not in page and "<em>" not in page and "<del>" not in page
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S) for r in rows]
    assert {len(c) for c in cells} == {len(cells[0])}  # no cell split
    from html import unescape

    assert unescape(cells[1][0]) == HOSTILE


def test_html_escapes_a_hostile_name() -> None:
    page = suite_views.to_html(_one_named(HOSTILE))
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.parametrize("first", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_guards_a_name_a_spreadsheet_would_run(first: str) -> None:
    name = f'{first}HYPERLINK("http://x")'
    rows = list(csv.reader(io.StringIO(suite_views.to_csv(_one_named(name)), newline="")))
    assert rows[1][0] == "'" + name
    assert rows[2][0] == "[x] ~ ^ \\ % $ #"  # any other name as it is


def test_a_systems_name_is_its_stem_without_gz() -> None:
    assert system_name("x/openie4_output.txt.gz") == "openie4_output"
    assert system_name("out.tsv") == "out" and system_name("-") == "stdin"
    assert system_name(".gz") == ".gz"


# --------------------------------------------------------------------------- the command


def test_the_same_inputs_give_the_same_bytes(cli: RunCli, reports: dict[str, Any]) -> None:
    out = reports["dir"] / "again.tex"
    result = cli("score", "--suite", f"OpenIE 4={OIE4}", OIE5, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes() == reports["tex"]


def test_a_suite_report_of_several_systems_verifies(
    cli: RunCli, reports: dict[str, Any], tmp_path: Path
) -> None:
    path = reports["dir"] / "s.json"
    result = cli("verify", path)
    assert result.exit_code == 0, result.stderr + result.stdout
    assert "re-derived byte for byte" in result.stdout
    # An edited number is found, by its path.
    edited = orjson.loads(path.read_bytes())
    edited["systems"][1]["rows"][3]["carb"]["f1"] = 0.5
    changed = tmp_path / "edited.json"
    changed.write_bytes(orjson.dumps(edited, option=orjson.OPT_INDENT_2) + b"\n")
    result = cli("verify", changed)
    assert result.exit_code == 1 and "systems[1].rows[3].carb.f1" in result.stdout + result.stderr
    # The files in another order: each is not the file the report scored there.
    result = cli("verify", path, OIE5, OIE4)
    assert result.exit_code == 1 and "systems[0].file.sha256" in result.stdout + result.stderr
    result = cli("verify", path, OIE4)
    assert result.exit_code == 2 and "scores 2 file(s); 1 given" in result.stderr


def test_a_named_single_system_verifies(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "one.json"
    assert cli("score", "--suite", f"mine={OIE5}", "-o", out).exit_code == 0
    report = orjson.loads(out.read_bytes())
    assert list(report)[:4] == ["schema", "benchie_version", "suite", "name"]
    assert report["name"] == "mine"
    assert cli("verify", out).exit_code == 0


def test_a_directory_gives_every_file_in_it(cli: RunCli, tmp_path: Path) -> None:
    systems = tmp_path / "systems"
    systems.mkdir()
    for path in (OIE4, OIE5):
        (systems / path.name).write_bytes(path.read_bytes())
    (systems / ".hidden").write_bytes(b"not a system")
    result = cli("score", "--suite", systems, "--format", "csv")
    assert result.exit_code == 0, result.stderr
    assert [line.split(",")[0] for line in result.stdout.splitlines()[1:]] == [
        "openie4_output",
        "openie5_output",
    ]


def test_a_bad_file_fails_the_run_and_writes_nothing(cli: RunCli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b'{"a": 1}\n')
    out = tmp_path / "s.tex"
    result = cli("score", "--suite", OIE4, bad, "-o", out)
    assert result.exit_code == 2
    assert "bad.txt" in result.stderr and "a JSON file" in result.stderr
    assert not out.exists()


def test_with_pr_and_the_suites_formats(cli: RunCli, tmp_path: Path) -> None:
    result = cli("score", "--suite", "--with-pr", OIE4, OIE5, "--format", "markdown")
    assert result.exit_code == 0, result.stderr
    header = result.stdout.splitlines()[0]
    assert "CaRB P" in header and "CaRB R" in header and "CaRB AUC" in header
    for args in (["--format", "latex"], ["--format", "csv"], ["--with-pr"]):
        result = cli(
            "score", "--lang", "en", *args, DATA.parent.parent / "examples/submissions/en/minie.tsv"
        )
        assert result.exit_code == 2 and "is the suite's (--suite)" in result.stderr


@pytest.mark.parametrize("name", ["s.svg", "s.tsv", "s.latex", "s.pdf", "s.png", "s.JSONL"])
def test_an_extension_of_no_suite_format_is_refused(cli: RunCli, tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    result = cli("score", "--suite", OIE4, "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert len(result.stderr.splitlines()) == 1
    assert ".json, .html, .htm, .tex, .csv, .md, .txt" in result.stderr
    assert "--format" in result.stderr


def test_the_extension_picks_the_format_case_insensitively(cli: RunCli, tmp_path: Path) -> None:
    for name, start in (("s.TEX", b"% benchie score --suite"), ("s.Json", b"{"), ("s", b"{")):
        out = tmp_path / name
        assert cli("score", "--suite", OIE4, "-o", out).exit_code == 0
        assert out.read_bytes().startswith(start), name
    # --format wins over any extension, and is read case-insensitively.
    out = tmp_path / "s.svg"
    result = cli("score", "--suite", OIE4, "-o", out, "--format", "LaTeX")
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(b"% benchie score --suite")


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("lb.csv", "benchie score --suite FILE... -o NAME.csv"),
        ("lb.tex", "benchie score --suite FILE... -o NAME.tex"),
        ("lb.pdf", None),
        ("board.svg", None),
        ("lb.TSV", None),
    ],
)
def test_score_without_suite_refuses_an_extension_of_another_format(
    cli: RunCli, tmp_path: Path, name: str, says: str | None
) -> None:
    """As docs/reports.md ("Output names") says: -o names the format, and a name of a format
    the leaderboard is not written in is refused before any work, not filled with JSON."""
    out = tmp_path / name
    minie = DATA.parent.parent / "examples/submissions/en/minie.tsv"
    result = cli("score", "--lang", "en", minie, "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "score writes the format of its extension (.json, .html, .htm, .md, .txt)" in (
        result.stderr
    )
    assert "--format FORMAT" in result.stderr
    if says is not None:
        assert says in result.stderr
    # --format wins, and .json or no extension stays JSON.
    assert cli("score", "--lang", "en", minie, "-o", out, "--format", "json").exit_code == 0
    assert out.read_bytes().startswith(b"{")
    for plain in ("lb.json", "lb"):
        assert cli("score", "--lang", "en", minie, "-o", tmp_path / plain).exit_code == 0
        assert (tmp_path / plain).read_bytes().startswith(b"{")


@pytest.mark.parametrize(
    ("arg", "says"),
    [
        ("=OIE4", "needs a name before '='"),
        (" =OIE4", "needs a name before '='"),
        ("\t=OIE4", "needs a name before '='"),
        (" x=OIE4", "must not start or end with whitespace"),
        ("x =OIE4", "must not start or end with whitespace"),
        ("a\tb=OIE4", "control character (U+0009)"),
        ("a\nb=OIE4", "control character (U+000A)"),
        ("a\x1bb=OIE4", "control character (U+001B)"),
        ("a\u202eb=OIE4", "control character (U+202E)"),
    ],
)
def test_a_bad_system_name_is_refused(cli: RunCli, tmp_path: Path, arg: str, says: str) -> None:
    out = tmp_path / "s.json"
    given = arg.replace("OIE4", str(OIE4))
    result = cli("score", "--suite", given, "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"benchie: error: {given!r}: ") and says in result.stderr


def test_a_files_name_with_a_control_character_is_escaped_not_refused(
    cli: RunCli, tmp_path: Path
) -> None:
    odd = tmp_path / "a\x1bb.txt.gz"
    odd.write_bytes(OIE4.read_bytes())
    result = cli("score", "--suite", odd, "--format", "csv")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith("a\\x1bb,")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"a sentence\t0.5\trel\x00\targ1\n", "1: error: NUL byte in line (binary file?)"),
        (b"one line\nx\xff\xfe y\n", "2: error: not valid UTF-8 (byte 0xff at column 2)"),
    ],
)
def test_bytes_no_reader_reads_are_said_as_such(
    cli: RunCli, tmp_path: Path, content: bytes, says: str
) -> None:
    """As `score` says them (textio.decode_line), not as a format the suite does not read;
    in a gzip-compressed file too (the line of its content)."""
    import gzip

    for name, data in (("bad.txt", content), ("bad.txt.gz", gzip.compress(content, mtime=0))):
        path = tmp_path / name
        path.write_bytes(data)
        result = cli("score", "--suite", path)
        assert result.exit_code == 2
        assert result.stderr == f"benchie: {path}:{says}\n"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--keep-implicit"], "--keep-implicit does not apply"),
        (["--strip-implicit"], "--strip-implicit does not apply"),
        (["--lang", "en", "--keep-implicit"], "--lang, --keep-implicit do not apply"),
    ],
)
def test_a_refused_option_is_named_as_given(cli: RunCli, args: list[str], named: str) -> None:
    result = cli("score", "--suite", *args, OIE4)
    assert result.exit_code == 2 and named in result.stderr
