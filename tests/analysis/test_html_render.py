"""The analysis page as a person sees it: rendered by headless Chromium (Debian's chromium
package; .ci/run installs it), with its charts drawn. Skips, saying why, without Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from tests.conftest import REPO, RunCli, example

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    return found


def test_charts_render_in_chromium(chromium: str, cli: RunCli, tmp_path: Path) -> None:
    page = tmp_path / "analysis.html"
    systems = [example("en", s) for s in ("clausie", "minie", "stanford", "naive_oie")]
    res = cli("analyze", "--lang", "en", "--resamples", "200", *systems, "-o", page)
    assert res.exit_code == 0, res.stderr
    common = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(
        [*common, "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    # The browser parsed the page and built every chart with its marks.
    for chart in ("chart-ci", "chart-facets", "chart-slots", "chart-buckets"):
        match = re.search(rf'<svg id="{chart}".*?</svg>', dom, re.S)
        assert match, chart
        assert match.group(0).count("<rect") + match.group(0).count("<circle") >= 4, chart
    shot = tmp_path / "shot.png"
    subprocess.run(
        [*common, "--window-size=1000,1800", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=False,
    )
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 30_000  # a drawn page, not a blank one


#: Injected into a copy of the page (the page itself has no script): after layout, every
#: text of every chart must lie inside its chart, and no axis title may cover another text.
MEASURE = """<script>
addEventListener("load", () => {
  const problems = [];
  const charts = document.querySelectorAll("svg.chart");
  const meets = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const svg of charts) {
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll("text")];
    for (const t of texts) {
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 ||
          r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        problems.push(`${svg.id}: "${t.textContent}" leaves the chart`);
    }
    for (const title of svg.querySelectorAll(".axis-title")) {
      const a = title.getBoundingClientRect();
      if (a.width < 5 || a.height < 5) problems.push(`${svg.id}: axis title not drawn`);
      for (const t of texts)
        if (t !== title && meets(a, t.getBoundingClientRect()))
          problems.push(`${svg.id}: "${title.textContent}" covers "${t.textContent}"`);
    }
  }
  const out = document.createElement("pre");
  out.id = "layout";
  out.textContent = [`${charts.length} charts`, ...problems].join("|");
  document.body.appendChild(out);
});
</script>"""


def test_axis_titles_and_labels_lie_inside_their_charts(
    chromium: str, cli: RunCli, tmp_path: Path
) -> None:
    """Every chart the page can have (with confidences and a bucket file), eight systems and a
    name too long for the margin: laid out by the browser, nothing leaves a chart and no axis
    title covers a label."""
    confident = tmp_path / "confident.tsv"
    confident.write_text(
        "#benchie-tsv confidence\n"
        "1\tHe\tserved as\tthe first Prime Minister of Australia\t0.9\n"
        "1\tHe\tserved\tAustralia\t0.8\n",
        encoding="utf-8",
    )
    buckets = tmp_path / "b.tsv"
    buckets.write_text(
        "".join(f"{i}\t{'a bucket with a long name' if i % 3 else 'x'}\n" for i in range(1, 301)),
        encoding="utf-8",
    )
    systems = [example("en", s) for s in ("clausie", "minie", "stanford", "naive_oie")]
    systems += [f"a_system_with_a_rather_long_name={example('en', 'openie6')}"]
    systems += [*(example("en", s) for s in ("roi_t", "roi_n")), confident]
    page = tmp_path / "analysis.html"
    res = cli(
        "analyze", "--lang", "en", "--resamples", "50", "--buckets", buckets, *systems,
        "-o", page,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    probe = tmp_path / "probe.html"
    probe.write_text(
        page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8"
    )
    dom = subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1200,1000",
            "--dump-dom",
            probe.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    layout = re.search(r'<pre id="layout">(.*?)</pre>', dom, re.S)
    assert layout, "the probe did not run"
    assert unescape(layout.group(1)).split("|") == ["7 charts"]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_screenshot_script_renders_the_page(chromium: str, tmp_path: Path) -> None:
    """scripts/render-analysis-png writes a PNG of the page of this checkout where it is told,
    and docs/analysis.png is one it wrote (its default size)."""
    shot = tmp_path / "shot.png"
    res = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "render-analysis-png"),
            "--output",
            str(shot),
            "--height",
            "900",
            "--chromium",
            chromium,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert res.returncode == 0, res.stderr
    assert _png_size(shot) == (1200, 900)
    assert shot.stat().st_size > 30_000  # a drawn page, not a blank one
    assert not list(tmp_path.glob(".shot.png.*"))  # no temporary file left beside it
    assert _png_size(REPO / "docs" / "analysis.png") == (1200, 2480)
