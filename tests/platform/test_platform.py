"""``benchie platform score INPUT OUTPUT``, Codabench's scoring program, run as the worker
runs it: a subprocess reading INPUT/ref and INPUT/res, writing OUTPUT (docs/platform.md)."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from benchie_cli.platform.score import PlatformSpec, parse_spec, score_keys
from tests.conftest import GOLD_DIR, REPO, example

#: The README's number: ClausIE's English F1 under gold 1.1.0.
CLAUSIE_F1 = 0.33889980353634575


def _sha256(lang: str) -> str:
    manifest = json.loads((GOLD_DIR / "1.1.0" / "manifest.json").read_text())
    (entry,) = [
        f
        for f in manifest["files"]
        if f["language"] == lang and f["facet"] == "default" and f["kind"] == "gold"
    ]
    return str(entry["sha256"])


def _spec(**overrides: object) -> dict[str, object]:
    languages = overrides.get("languages", ["en"])
    assert isinstance(languages, list)
    spec: dict[str, object] = {
        "gold_version": "1.1.0",
        "gold_sha256": {lang: _sha256(lang) for lang in languages},
        "languages": languages,
    }
    spec.update(overrides)
    return spec


def _input(tmp_path: Path, spec: dict[str, object] | bytes | None = None) -> Path:
    """INPUT with ref/benchie.json and an empty res/ holding the worker's metadata file."""
    root = tmp_path / "input"
    (root / "ref").mkdir(parents=True)
    (root / "res").mkdir()
    data = spec if isinstance(spec, bytes) else json.dumps(spec or _spec()).encode()
    (root / "ref" / "benchie.json").write_bytes(data)
    (root / "res" / "metadata").write_text("submitted-by: someone\n")
    return root


def _run(
    input_dir: Path,
    output_dir: Path,
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    output_dir.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "benchie_cli", "platform", "score", str(input_dir), str(output_dir)],
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=env,
        timeout=300,
    )


def _scores(output_dir: Path) -> dict[str, float]:
    data = json.loads((output_dir / "scores.json").read_text())
    assert isinstance(data, dict)
    return data


def _check_success(result: subprocess.CompletedProcess[str], output_dir: Path) -> dict[str, float]:
    assert result.returncode == 0, result.stderr
    scores = _scores(output_dir)
    assert all(type(v) is float for v in scores.values())
    assert all(len(k) <= 36 for k in scores)
    assert not (output_dir / "metadata").exists()
    return scores


def test_english_submission_scores_the_readme_number(tmp_path: Path) -> None:
    root = _input(tmp_path)
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    out = tmp_path / "output"
    result = _run(root, out)
    scores = _check_success(result, out)
    assert list(scores) == ["en_default_precision", "en_default_recall", "en_default_f1", "mean_f1"]
    assert scores["en_default_f1"] == CLAUSIE_F1
    assert scores["mean_f1"] == CLAUSIE_F1
    page = (out / "detailed_results.html").read_text()
    assert "benchie|lang:en|facet:default|gold:1.1.0@b10e0a527811" in page
    assert _sha256("en") in page and "1.1.0" in page
    # The participant's analysis page (every facet, intervals, errors) follows the scores.
    assert "<h2>en: analysis</h2>" in page and "<h1>BenchIE analysis</h1>" in page
    assert "benchie-analyze|lang:en|gold:1.1.0@b10e0a527811|" in page
    assert str(tmp_path) not in page  # the participant's file by its name in res/
    assert sorted(p.name for p in out.iterdir()) == ["detailed_results.html", "scores.json"]


def test_keys_match_score_keys_and_stay_short(tmp_path: Path) -> None:
    doc = _spec(
        languages=["en", "de", "zh"], facets=["default", "minimal"], metrics=["benchie", "carb"]
    )
    spec = parse_spec(json.dumps(doc).encode())
    keys = score_keys(spec)
    assert keys[:3] == ["en_default_precision", "en_default_recall", "en_default_f1"]
    assert "en_carb_f1" in keys and "de_carb_f1" not in keys and keys[-1] == "mean_f1"
    assert "zh_minimal_precision" in keys and all(len(k) <= 36 for k in keys)
    root = _input(tmp_path, doc)
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    out = tmp_path / "output"
    scores = _check_success(_run(root, out), out)
    assert list(scores) == keys
    assert 0 < scores["en_carb_f1"] < 1
    assert scores["mean_f1"] == pytest.approx(CLAUSIE_F1 / 3)


def test_zip_submission(tmp_path: Path) -> None:
    root = _input(tmp_path)
    with zipfile.ZipFile(root / "res" / "submission.zip", "w") as zf:
        zf.write(example("en", "clausie"), "results/en.tsv")
    out = tmp_path / "output"
    assert _check_success(_run(root, out), out)["en_default_f1"] == CLAUSIE_F1


def test_subdirectory_submission(tmp_path: Path) -> None:
    root = _input(tmp_path)
    (root / "res" / "mine").mkdir()
    shutil.copy(example("en", "clausie"), root / "res" / "mine" / "en.tsv")
    out = tmp_path / "output"
    assert _check_success(_run(root, out), out)["en_default_f1"] == CLAUSIE_F1


def test_missing_language_scores_zero_and_is_said(tmp_path: Path) -> None:
    root = _input(tmp_path, _spec(languages=["en", "de"]))
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    out = tmp_path / "output"
    scores = _check_success(_run(root, out), out)
    assert scores["de_default_f1"] == scores["de_default_precision"] == 0.0
    assert scores["mean_f1"] == pytest.approx(CLAUSIE_F1 / 2)
    page = (out / "detailed_results.html").read_text()
    assert "Missing languages" in page and "no de.tsv" in page


def test_no_file_for_any_language_is_an_error(tmp_path: Path) -> None:
    root = _input(tmp_path, _spec(languages=["de"]))
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    out = tmp_path / "output"
    result = _run(root, out)
    assert result.returncode == 2
    assert "no file for any language" in result.stderr and "de.tsv" in result.stderr
    assert not (out / "scores.json").exists()


def test_unknown_file_is_refused_with_the_expected_names(tmp_path: Path) -> None:
    root = _input(tmp_path)
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    (root / "res" / "notes.txt").write_text("hello\n")
    out = tmp_path / "output"
    result = _run(root, out)
    assert result.returncode == 2
    assert "res/notes.txt" in result.stderr and "en.tsv" in result.stderr
    assert not (out / "scores.json").exists()


def test_broken_submission_names_the_file_and_line(tmp_path: Path) -> None:
    root = _input(tmp_path)
    lines = example("en", "clausie").read_text().splitlines(keepends=True)
    (root / "res" / "en.tsv").write_text("".join(lines[:3]) + "1\tonly two\n" + "".join(lines[3:]))
    out = tmp_path / "output"
    (out).mkdir()
    (out / "scores.json").write_text("{}")  # a stale one must not pass for this run's
    (out / "detailed_results.html").write_text("<p>an earlier run's numbers</p>")
    result = _run(root, out)
    assert result.returncode == 2, result.stderr
    assert "res/en.tsv:4: error:" in result.stderr
    assert str(tmp_path) not in result.stderr
    assert not (out / "scores.json").exists()
    assert not (out / "detailed_results.html").exists()
    assert not (out / "metadata").exists()


def test_gold_sha256_mismatch_is_a_negative_verdict(tmp_path: Path) -> None:
    root = _input(tmp_path, _spec(gold_sha256={"en": "0" * 64}))
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    out = tmp_path / "output"
    result = _run(root, out)
    assert result.returncode == 1
    assert "0" * 64 in result.stderr and "ref/benchie.json" in result.stderr
    assert not (out / "scores.json").exists()


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        json.dumps(_spec(extra=1)).encode(),
        json.dumps({**_spec(), "languages": ["fr"]}).encode(),
        json.dumps(_spec(facets=["nope"])).encode(),
        json.dumps(_spec(metrics=["benchie", "rouge"])).encode(),
        json.dumps(_spec(metrics=["benchie", "oie2016"])).encode(),
        json.dumps(_spec(gold_version=110)).encode(),
        json.dumps(_spec(gold_sha256={"en": "abc"})).encode(),
        json.dumps({"gold_version": "1.1.0", "languages": ["en"]}).encode(),
        b'{"gold_version": "1.1.0", "gold_version": "1.0.0"}',
    ],
    ids=[
        "not-json",
        "unknown-key",
        "unknown-language",
        "unknown-facet",
        "unknown-metric",
        "metric-of-another-benchmark",
        "version-type",
        "bad-sha256",
        "missing-sha256",
        "duplicate-key",
    ],
)
def test_malformed_reference_is_refused(tmp_path: Path, content: bytes) -> None:
    root = _input(tmp_path, content)
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    out = tmp_path / "output"
    result = _run(root, out)
    assert result.returncode == 2
    assert result.stderr.startswith("benchie: ref/benchie.json: error:"), result.stderr
    assert not (out / "scores.json").exists()


def test_zip_escaping_its_directory_is_refused(tmp_path: Path) -> None:
    root = _input(tmp_path)
    with zipfile.ZipFile(root / "res" / "submission.zip", "w") as zf:
        zf.write(example("en", "clausie"), "en.tsv")
        zf.writestr("../evil", "pwned\n")
    out = tmp_path / "output"
    result = _run(root, out)
    assert result.returncode == 2
    assert "../evil" in result.stderr and "outside the archive" in result.stderr
    assert not (tmp_path / "evil").exists() and not (root / "evil").exists()
    assert not (out / "scores.json").exists()


def test_zip_with_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    root = _input(tmp_path)
    with zipfile.ZipFile(root / "res" / "submission.zip", "w") as zf:
        link = zipfile.ZipInfo("en.tsv")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    result = _run(root, tmp_path / "output")
    assert result.returncode == 2 and "symbolic link" in result.stderr


def _tree(root: Path) -> list[tuple[str, int, float]]:
    return sorted(
        (str(p.relative_to(root)), p.stat().st_mode, p.stat().st_mtime) for p in root.rglob("*")
    )


def test_read_only_input_cwd_and_home(tmp_path: Path) -> None:
    """As the worker runs it: INPUT and the working directory read-only, HOME unwritable
    (a file, which not even root can create a cache under), no XDG_CACHE_HOME nor
    BENCHIE_CACHE_DIR: the index cache is skipped, never a failure."""
    root = _input(tmp_path)
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    cwd = tmp_path / "program"
    cwd.mkdir()
    home = tmp_path / "home"
    home.write_text("not a directory\n")
    for path in [*root.rglob("*"), root, cwd]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    before = _tree(root)
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "BENCHIE_CACHE_DIR")}
    env["HOME"] = str(home)
    out = tmp_path / "output"
    try:
        scores = _check_success(_run(root, out, cwd=cwd, env=env), out)
        assert scores["en_default_f1"] == CLAUSIE_F1
        assert _tree(root) == before
        assert list(cwd.iterdir()) == []
    finally:
        for path in [root, *root.rglob("*"), cwd]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_private_gold_in_the_reference_data(tmp_path: Path) -> None:
    root = _input(tmp_path)
    shutil.copytree(GOLD_DIR / "1.1.0", root / "ref" / "gold" / "1.1.0")
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    env = {k: v for k, v in os.environ.items() if k != "BENCHIE_GOLD_DIR"}
    env["BENCHIE_GOLD_DIR"] = str(tmp_path / "nowhere")  # only ref/gold/ can be read
    out = tmp_path / "output"
    assert _check_success(_run(root, out, env=env), out)["en_default_f1"] == CLAUSIE_F1
    # The participant sees the page: no gold triple of a private gold may be on it (the
    # analysis of a public gold shows the closest gold form of each wrong extraction).
    page = (out / "detailed_results.html").read_text()
    assert "<h2>en: analysis</h2>" in page
    assert _example_rows(page) == 0
    public = tmp_path / "public"
    shutil.rmtree(root / "ref" / "gold")
    _check_success(_run(root, public), public)
    assert _example_rows((public / "detailed_results.html").read_text()) > 0


def _example_rows(page: str) -> int:
    """Rows of the analysis' examples tables (each shows the closest gold form)."""
    tables = re.findall(r'class="examples">(.*?)</table>', page, re.DOTALL)
    return sum(t.count("<tr><td") for t in tables)


def test_output_inside_input_is_refused(tmp_path: Path) -> None:
    root = _input(tmp_path)
    shutil.copy(example("en", "clausie"), root / "res" / "en.tsv")
    result = _run(root, root / "res")
    assert result.returncode == 2 and "inside the input directory" in result.stderr
    assert not (root / "res" / "scores.json").exists()


def test_a_zip_member_given_twice_is_named_as_in_the_zip(tmp_path: Path) -> None:
    root = _input(tmp_path)
    with zipfile.ZipFile(root / "res" / "submission.zip", "w") as zf:
        zf.write(example("en", "clausie"), "en.tsv")
        with pytest.warns(UserWarning, match="Duplicate name"):  # as a careless zipper makes
            zf.write(example("en", "clausie"), "en.tsv")
    result = _run(root, tmp_path / "output")
    assert result.returncode == 2 and "member 'en.tsv' given twice" in result.stderr
    assert "benchie-platform-" not in result.stderr  # no temporary path


def test_spec_defaults() -> None:
    spec = parse_spec(json.dumps(_spec()).encode())
    assert spec == PlatformSpec("1.1.0", {"en": _sha256("en")}, ("en",))
    assert score_keys(spec) == [
        "en_default_precision",
        "en_default_recall",
        "en_default_f1",
        "mean_f1",
    ]


@pytest.mark.parametrize(
    ("languages", "says"),
    [
        (["en", "zh"], "submit it named zh.tsv (a file's name says its language)"),
        (["en"], "this task scores en (en.tsv), not zh"),
    ],
)
def test_a_file_of_another_language_is_told_its_name_not_lang(
    tmp_path: Path, languages: list[str], says: str
) -> None:
    """A participant has no --lang: a Chinese file submitted as en.tsv is told to be named
    zh.tsv (docs/platform.md), or that the task does not score Chinese."""
    root = _input(tmp_path, _spec(languages=languages))
    shutil.copy(example("zh", "m2oie_zh"), root / "res" / "en.tsv")
    done = _run(root, tmp_path / "out")
    assert done.returncode == 2, done.stderr
    assert "the file looks Chinese, not English" in done.stderr and says in done.stderr
    assert "--lang" not in done.stderr
