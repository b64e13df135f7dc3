"""The analysis page as a person sees it: rendered by headless Chromium (Debian's chromium
package; .ci/run installs it), with its charts drawn. Skips, saying why, without Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import RunCli, example

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
