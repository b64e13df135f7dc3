"""benchie_cli.user_dirs names the directories platformdirs names, in every environment."""

from __future__ import annotations

import os
import subprocess
import sys

import platformdirs
import pytest

from benchie_cli import user_dirs

APP = "benchie-cli"

#: (XDG value, HOME value); None: unset. Both the rule's cases and those left to platformdirs.
ENVIRONMENTS = [
    (None, "/home/someone"),
    (None, "/home/someone/"),
    (None, "/"),
    ("", "/home/someone"),
    ("/srv/xdg", "/home/someone"),
    ("/srv/xdg/", "/home/someone"),
    ("/", "/home/someone"),
    ("/srv/xdg", None),
    ("/srv/xdg", "relative/home"),
    ("relative/xdg", "/home/someone"),
    ("  ", "/home/someone"),
    ("/srv/xdg ", "/home/someone"),
    (" /srv/xdg", "/home/someone"),
    ("/srv/xdg\n", "/home/someone"),
    (None, "/home/someone "),
    (None, "relative/home"),
    (None, None),
    (None, ""),
]


def _set(monkeypatch: pytest.MonkeyPatch, name: str, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, value)


def _platformdirs_or_error(function: object) -> str:
    try:
        return str(function(APP, appauthor=False))  # type: ignore[operator]
    except RuntimeError as exc:  # no home to be found: benchie must fail the same way
        return f"RuntimeError: {exc}"


def _ours_or_error(function: object) -> str:
    try:
        return str(function(APP))  # type: ignore[operator]
    except RuntimeError as exc:
        return f"RuntimeError: {exc}"


@pytest.mark.parametrize(("xdg", "home"), ENVIRONMENTS)
def test_the_data_and_cache_directories_are_platformdirs(
    monkeypatch: pytest.MonkeyPatch, xdg: str | None, home: str | None
) -> None:
    for variable, ours, theirs in (
        ("XDG_DATA_HOME", user_dirs.data_dir, platformdirs.user_data_dir),
        ("XDG_CACHE_HOME", user_dirs.cache_dir, platformdirs.user_cache_dir),
    ):
        _set(monkeypatch, variable, xdg)
        _set(monkeypatch, "HOME", home)
        assert _ours_or_error(ours) == _platformdirs_or_error(theirs), (variable, xdg, home)


@pytest.mark.skipif(
    sys.platform != "linux", reason="the rule is formed without platformdirs on Linux"
)
def test_the_rule_decides_without_platformdirs_where_it_applies() -> None:
    """The common case (an absolute $HOME, no XDG variable) never imports platformdirs:
    the 8 ms the module exists to save. Where the rule does not decide, platformdirs is
    asked (a relative XDG variable, one with white space around it)."""
    code = (
        "import sys\n"
        "from benchie_cli.user_dirs import cache_dir, data_dir\n"
        "print(data_dir('a'), cache_dir('a'), 'platformdirs' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = "/home/someone"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["/home/someone/.local/share/a", "/home/someone/.cache/a", "False"]
    for value in ("relative", "/srv/xdg "):  # (the latter: releases 4.6 to 4.14.2 strip it)
        env["XDG_DATA_HOME"] = value
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.split()
        assert out[-2:] == ["/home/someone/.cache/a", "True"]


@pytest.mark.skipif(os.name != "posix", reason="the passwd entry stands for a relative $HOME")
@pytest.mark.parametrize(
    ("home", "xdg"), [("relative/home", None), ("/home/someone", "relative/xdg")]
)
def test_a_relative_answer_of_an_older_release_is_made_absolute(
    monkeypatch: pytest.MonkeyPatch, home: str, xdg: str | None
) -> None:
    """Releases before 4.14 build the directory from a relative $HOME (3.x from a relative
    XDG variable too): a path relative to the working directory, where a later command run
    elsewhere would not find it. The answer is what 4.14 on give: below an absolute $HOME,
    else the passwd entry's home."""
    import pwd

    monkeypatch.setenv("HOME", home)
    for variable in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
        _set(monkeypatch, variable, xdg)
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: f"{home}/.local/share/a")
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: f"{home}/.cache/a")
    base = home if home.startswith("/") else pwd.getpwuid(os.getuid()).pw_dir
    if xdg is not None:  # (3.x: the relative XDG variable itself)
        monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: f"{xdg}/a")
        monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: f"{xdg}/a")
    assert user_dirs.data_dir("a") == f"{base}/.local/share/a"
    assert user_dirs.cache_dir("a") == f"{base}/.cache/a"
