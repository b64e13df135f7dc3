"""The user's data and cache directories of an application, as platformdirs names them.

platformdirs is the authority on where each operating system keeps them. On Linux, where
every platformdirs release this package accepts (3.0 on) forms them by the same rule, the
path is formed here by that rule without importing it: the XDG variable
(``$XDG_DATA_HOME``, ``$XDG_CACHE_HOME``) when it holds an absolute path, else the
directory below an absolute ``$HOME`` (``~/.local/share``, ``~/.cache``), the application's
name appended. Importing platformdirs loads ``tempfile``, ``shutil`` and the compression
modules: about 8 ms of every command, which a scoring run otherwise never loads
(docs/performance.md). Anything else (macOS, Windows, Android, a relative or blank XDG
variable, or one with white space around it, on which releases differ; a ``$HOME``
unset or relative) is platformdirs' to answer, made absolute as releases 4.14 on make it
(:func:`_absolute`). ``tests/test_user_dirs.py`` checks that both give the same path in each
such case with the installed release; releases 3.0.0, 3.11.0, 4.2.2, 4.3.6, 4.6.0, 4.9.0,
4.14.2 and 4.14.8 were checked so when this was written.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: (XDG variable, default below $HOME) of each kind of directory, on Linux.
_DATA = ("XDG_DATA_HOME", ".local/share")
_CACHE = ("XDG_CACHE_HOME", ".cache")


def _by_xdg_rule(app: str, kind: tuple[str, str]) -> str | None:
    """The directory on Linux when the rule every platformdirs release follows decides it,
    else None."""
    if sys.platform != "linux" or hasattr(sys, "getandroidapilevel"):
        return None
    if "ANDROID_DATA" in os.environ:  # platformdirs' own test of an Android app starts so
        return None
    variable, below = kind
    value = os.environ.get(variable, "")
    if value != value.strip():  # releases 4.6 to 4.14.2 strip it, the others do not
        return None
    if value.startswith("/"):
        return os.path.join(value, app)
    if value:  # relative: ignored by recent releases, used by older ones
        return None
    home = os.environ.get("HOME", "")
    if not home.startswith("/") or home != home.strip():  # unset or relative: the passwd
        return None  # entry's home, as platformdirs asks it
    return os.path.join(os.path.expanduser("~/" + below), app)


def home() -> str | None:
    """The user's home directory as platformdirs 4.14 on take it: ``$HOME`` when absolute;
    else, on POSIX, the passwd entry's home, since a relative ``$HOME`` names no place (it
    would move with the working directory); None when there is none."""
    if os.name != "posix":
        try:
            return str(Path.home())
        except RuntimeError:
            return None
    given = os.environ.get("HOME")
    if given is not None and os.path.isabs(given):
        return given
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):
        return None


def _absolute(path: str, app: str, kind: tuple[str, str]) -> str:
    """platformdirs' answer, absolute as releases 4.14 on make it: older releases build it
    from a relative ``$HOME`` (or XDG variable), in the working directory."""
    if os.path.isabs(path) or os.name != "posix":
        return path
    base = home()
    return path if base is None else os.path.join(base, kind[1], app)


def data_dir(app: str) -> str:
    """platformdirs' ``user_data_dir(app, appauthor=False)``, always absolute."""
    path = _by_xdg_rule(app, _DATA)
    if path is not None:
        return path
    import platformdirs

    return _absolute(platformdirs.user_data_dir(app, appauthor=False), app, _DATA)


def cache_dir(app: str) -> str:
    """platformdirs' ``user_cache_dir(app, appauthor=False)``, always absolute."""
    path = _by_xdg_rule(app, _CACHE)
    if path is not None:
        return path
    import platformdirs

    return _absolute(platformdirs.user_cache_dir(app, appauthor=False), app, _CACHE)
