"""The order of gold stores (benchie_cli.gold.dirs, docs/install.md): each version read from
the first store holding it, new gold written to the user's directory, no output in any."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from benchie_cli.gold import dirs
from tests.benchmarks.test_benchmark_add import pin, stand_in  # noqa: F401 (fixtures)
from tests.conftest import GOLD_DIR, RunCli, example


def _user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A user data directory of this test's, and no $BENCHIE_GOLD_DIR: the checkout's gold
    is found from the package (editable) or not at all (the installed package's then)."""
    monkeypatch.delenv("BENCHIE_GOLD_DIR")
    monkeypatch.setattr(dirs, "checkout_gold_dir", lambda: dirs.GoldDir(GOLD_DIR, dirs.CHECKOUT))
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data" / "gold"


def test_the_order_is_option_checkout_user_package(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = _user(monkeypatch, tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(tmp_path / "ignored"))  # replaced by the option
    doc = json.loads(cli("gold", "path", "--all", "--gold-dir", mine, "--format", "json").stdout)
    assert [(s["store"], s["path"]) for s in doc["stores"]] == [
        ("--gold-dir", str(mine)),
        ("checkout", str(GOLD_DIR)),
        ("user data", str(user)),
        ("installed package", str(dirs.package_gold_dir())),
    ]
    assert doc["writes_to"] == str(mine)
    assert [s["exists"] for s in doc["stores"][2:]] == [False, dirs.package_gold_dir().is_dir()]
    table = cli("gold", "path", "--all", "--gold-dir", mine)
    assert "$BENCHIE_GOLD_DIR" in table.stdout and "replaced by --gold-dir" in table.stdout


def test_a_version_comes_from_the_first_store_holding_it(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store of one's own adds to the checkout's: its 1.0.0 shadows the checkout's (the
    same bytes: shipped versions are pinned), the checkout's 1.1.0 is still there."""
    _user(monkeypatch, tmp_path)
    mine = tmp_path / "mine"
    shutil.copytree(GOLD_DIR / "1.0.0", mine / "1.0.0")
    listed = cli("gold", "path", "--all", "--gold-dir", mine).stdout
    assert "benchie 1.0.0 (shadowed)" in listed and "benchie 1.1.0," in listed
    for version in ("1.0.0", "1.1.0"):
        result = cli("score", "--gold-dir", mine, "--gold-version", version, "--lang", "en",
                     example("en", "clausie"))  # fmt: skip
        assert result.exit_code == 0, result.stderr
    where = cli("gold", "path", "--gold-dir", mine)
    assert where.stdout.strip() == str(GOLD_DIR.resolve())  # 1.1.0, the default, is there
    assert "checkout" in where.stderr
    # A shipped version edited in the first store is refused, never taken on trust.
    manifest = mine / "1.0.0" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes().replace(b'"description": "', b'"description": "x'))
    result = cli("score", "--gold-dir", mine, "--gold-version", "1.0.0", "--lang", "en",
                 example("en", "clausie"))  # fmt: skip
    assert result.exit_code == 1 and "is not that of the gold 1.0.0" in result.stderr


def test_benchmark_add_writes_to_the_user_data_directory_and_every_command_reads_it(
    cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
) -> None:
    user = _user(monkeypatch, tmp_path)
    src, _ = stand_in("reoie2016")
    added = cli("benchmark", "add", "reoie2016", src)
    assert added.exit_code == 0, added.stderr
    assert (user / "reoie2016" / "1.0.0" / "manifest.json").is_file()
    assert not (GOLD_DIR / "reoie2016").exists()
    assert "reoie2016 1.0.0" in cli("gold", "path", "--all").stdout
    rows = json.loads(cli("benchmark", "list", "--format", "json").stdout)
    first = next(r for r in rows if r["benchmark"] == "reoie2016")
    assert (first["state"], first["version"]) == ("added", "1.0.0")
    sentences = cli("sentences", "--benchmark", "reoie2016")
    assert sentences.exit_code == 0, sentences.stderr


def test_a_user_data_directory_that_cannot_be_made_says_how_to_choose_another(
    cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
) -> None:
    _user(monkeypatch, tmp_path)
    (tmp_path / "file").write_text("not a directory")
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(tmp_path / "file" / "data"))
    src, _ = stand_in("reoie2016")
    result = cli("benchmark", "add", "reoie2016", src)
    assert result.exit_code == 2
    assert "cannot create the user data directory's gold store" in result.stderr
    assert "$BENCHIE_DATA_DIR" in result.stderr and "--gold-dir" in result.stderr


def test_gold_new_outside_a_checkout_goes_to_the_user_data_directory(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alone: None
) -> None:
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(tmp_path / "data"))
    source = tmp_path / "src" / "en" / "default"
    source.mkdir(parents=True)
    shutil.copyfile(GOLD_DIR / "1.1.0/en/default/benchie_gold_annotations_en.txt",
                    source / "gold.txt")  # fmt: skip
    result = cli("gold", "new", "2.0.0", "--from", tmp_path / "src", "--description", "mine",
                 "--license", "CC BY 4.0", "--no-dvc")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "data" / "gold" / "2.0.0" / "manifest.json").is_file()


@pytest.mark.parametrize("store", ["user", "package"])
def test_no_output_goes_into_the_user_or_the_package_store(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    user = _user(monkeypatch, tmp_path)
    package = tmp_path / "site-packages" / "benchie_cli" / "data" / "gold"
    target = user if store == "user" else package
    monkeypatch.setattr(dirs, "package_gold_dir", lambda: package)
    target.mkdir(parents=True)
    out = target / "report.json"
    result = cli("score", "--lang", "en", example("en", "clausie"), "-o", out)
    assert result.exit_code == 2 and "is inside the gold store" in result.stderr
    assert not out.exists()


def test_the_index_cache_is_in_the_users_cache_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from benchie_cli.disk_cache import cache_dir

    monkeypatch.delenv("BENCHIE_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache_dir() == tmp_path / ".cache" / "benchie-cli"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "benchie-cli"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # the XDG specification: ignored
    assert cache_dir() == tmp_path / ".cache" / "benchie-cli"
    monkeypatch.setenv("HOME", str(tmp_path / "nonexistent"))
    assert cache_dir() is None
    assert os.environ["BENCHIE_DATA_DIR"]  # (each test has a user data directory of its own)


@pytest.mark.skipif(os.name != "posix", reason="the passwd entry stands for a relative $HOME")
def test_a_relative_home_is_the_passwd_entrys_as_for_the_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A relative $HOME names no place (it would move with the working directory):
    platformdirs takes the passwd entry's home for the data directory, and the cache does
    the same, wherever the command runs; a $HOME that does not exist turns the cache off
    and says so."""
    import pwd

    from benchie_cli.disk_cache import cache_dir, off_reason

    monkeypatch.delenv("BENCHIE_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", "relhome")
    monkeypatch.chdir(tmp_path)  # (no relhome here: it was looked for, and the cache was off)
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert cache_dir() == home / ".cache" / "benchie-cli"
    monkeypatch.setenv("HOME", str(tmp_path / "nonexistent"))
    assert off_reason() == (
        f"the home directory {str(tmp_path / 'nonexistent')!r} does not exist: set "
        "$BENCHIE_CACHE_DIR to keep it elsewhere"
    )
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("HOME", str(tmp_path / "file"))
    assert f"{str(tmp_path / 'file')!r} is not a directory" in off_reason()


@pytest.mark.parametrize(
    ("value", "said"),
    [("relative/data", "a relative path"), ("FILE", "not a directory")],
)
def test_a_wrong_data_directory_is_refused_by_every_command(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, said: str
) -> None:
    (tmp_path / "FILE").write_text("x")
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(tmp_path / value) if value == "FILE" else value)
    result = cli("score", "--lang", "en", example("en", "clausie"))
    assert result.exit_code == 2 and "$BENCHIE_DATA_DIR" in result.stderr and said in result.stderr


@pytest.mark.parametrize("part", ["carb", "oie2016", "1.1.0"])
def test_a_gold_dir_that_is_a_part_or_a_version_of_a_store_is_refused(
    cli: RunCli, part: str
) -> None:
    """Read as BenchIE's store, gold/carb would hold CaRB's versions as BenchIE's, and
    gold/1.1.0 nothing: each is refused, naming the store's top to give instead."""
    result = cli("gold", "path", "--all", "--gold-dir", GOLD_DIR / part)
    assert result.exit_code == 2
    assert "is not a gold store" in result.stderr
    assert f"give the store's top ({GOLD_DIR})" in result.stderr or (
        f"give the directory that holds it ({GOLD_DIR})" in result.stderr
    )


def test_nothing_is_written_into_the_installed_package(
    cli: RunCli,
    monkeypatch: pytest.MonkeyPatch,
    stand_in: Callable[[str], tuple[Path, bytes]],  # noqa: F811
) -> None:
    package = dirs.package_gold_dir().parents[1]  # benchie_cli/
    src, _ = stand_in("reoie2016")
    for given in (("--gold-dir", str(package / "data")),):
        before = sorted(p.name for p in (package / "data").iterdir())
        result = cli("benchmark", "add", "reoie2016", src, *given)
        assert result.exit_code == 2 and "lies in the installed package" in result.stderr
        assert sorted(p.name for p in (package / "data").iterdir()) == before
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(package / "data"))  # its gold: the package's
    monkeypatch.delenv("BENCHIE_GOLD_DIR")
    before = sorted(p.name for p in (package / "data").iterdir())
    result = cli("benchmark", "add", "reoie2016", src)
    assert result.exit_code == 2 and "lies in the installed package" in result.stderr
    assert sorted(p.name for p in (package / "data").iterdir()) == before


def test_gold_compile_without_any_gold_says_so(cli: RunCli, tmp_path: Path, alone: None) -> None:
    result = cli("gold", "compile", "--gold-dir", tmp_path)
    assert result.exit_code == 2 and "no gold in the gold stores" in result.stderr


def test_gold_path_escapes_what_a_directory_name_cannot_show(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store's directory with a byte that is not UTF-8 or a newline is shown escaped, as
    every other output shows a file name: the table keeps one line a store, the JSON is
    valid (a lone surrogate made it fail), the stderr line shows no surrogate."""
    odd = os.fsdecode(bytes(tmp_path) + b"/a\xffb")
    os.mkdir(odd)
    monkeypatch.setenv("BENCHIE_DATA_DIR", odd)
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(tmp_path / "new\nline"))
    (tmp_path / "new\nline").mkdir()
    table = cli("gold", "path", "--all", "--gold-dir", GOLD_DIR)
    assert table.exit_code == 0, table.stderr
    assert "a\\xffb/gold" in table.stdout and "new\\x0aline" in table.stdout
    assert len(table.stdout.splitlines()) == 2 + 5  # (header, rule; 4 stores, the variable)
    assert "\udcff" not in table.stderr
    doc = json.loads(cli("gold", "path", "--all", "--format", "json").stdout)
    assert doc["stores"][0]["path"].endswith("new\\x0aline")
