"""Where gold is kept: the gold stores a run reads, in one documented order.

A run looks for each version of each benchmark's gold in these stores, in order, and takes
it from the first that holds it (docs/gold-store.md, "Where gold is found")::

    1. --gold-dir DIR             given on the command line, else
       $BENCHIE_GOLD_DIR          given in the environment
    2. the checkout's gold/       a benchie-cli checkout (gold.dvc beside it), after `dvc pull`
    3. the user's data directory  $BENCHIE_DATA_DIR/gold, else platformdirs' user data
                                  directory (~/.local/share/benchie-cli/gold on Linux)
    4. the installed package's    benchie_cli/data/gold: the shipped versions a wheel carries
       gold

The first must exist when given (a typo never falls through to another gold); the others
are read when they exist. A version numbered like a shipped one is the same bytes in
every store, whichever holds it: its manifest is pinned (``Benchmark.shipped``), and each
run checks the files it scores against their manifest.

What is written goes to the explicit store (1), else to the user's data
directory (``benchmark add``; ``gold new`` outside a checkout) or the checkout's ``gold/``
(``gold new`` inside one): never into the installed package, which may be read-only.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.records import Record
from benchie_cli.registry import BENCHMARKS

#: MAJOR.MINOR.PATCH in ASCII digits; used with ``fullmatch`` (``$`` would allow a newline).
VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")

ENV_GOLD_DIR = "BENCHIE_GOLD_DIR"
MANIFEST = "manifest.json"
ENV_DATA_DIR = "BENCHIE_DATA_DIR"
#: The application's name in the user's directories (platformdirs).
APP_NAME = "benchie-cli"

#: How each store of the order is named, in messages and by ``benchie gold path --all``.
GIVEN = "--gold-dir"
FROM_ENV = f"${ENV_GOLD_DIR}"
CHECKOUT = "checkout"
USER = "user data"
PACKAGE = "installed package"


class GoldDir(Record):
    """One store of the order: its directory and where the order took it from."""

    path: Path
    #: One of GIVEN, FROM_ENV, CHECKOUT, USER, PACKAGE.
    source: str
    #: How it was found, for people (``$BENCHIE_DATA_DIR``, "the package runs from it").
    detail: str = ""

    @property
    def shown(self) -> str:
        """The source as messages name it, often inside brackets of their own: "user data:
        $BENCHIE_DATA_DIR"."""
        return f"{self.source}: {self.detail}" if self.detail else self.source


class GoldDirs(Record):
    """The stores a run reads, in order (only those that exist), and where it writes.

    ``dirs / "carb"`` is the same order one directory down (CaRB's part of every store),
    as a :class:`~benchie_cli.gold.store.GoldStore` takes it.
    """

    dirs: tuple[GoldDir, ...]
    #: Where a command that adds gold writes (``benchmark add``, ``gold new``).
    target: GoldDir
    #: The path below each store (``carb``, ``lsoie/sci``); empty for BenchIE's own.
    below: tuple[str, ...] = ()

    def __truediv__(self, name: str) -> GoldDirs:
        return GoldDirs(self.dirs, self.target, (*self.below, *Path(name).parts))

    @property
    def paths(self) -> tuple[Path, ...]:
        """Each store's directory at this depth, in order."""
        return tuple(d.path.joinpath(*self.below) for d in self.dirs)

    @property
    def relative(self) -> str:
        """The path below the stores, as reports name it (``oie2016``, ``lsoie/sci``)."""
        return "/".join(self.below)

    @property
    def write_path(self) -> Path:
        """The target's directory at this depth."""
        return self.target.path.joinpath(*self.below)

    def for_writing(self) -> Path:
        """The target's top directory, created first when it is the user's data directory
        (a fresh install has none yet); one that cannot be created is an error that says
        how to choose another (exit 2)."""
        path = self.target.path
        package = package_gold_dir().parents[1]  # benchie_cli/, whatever chose the target
        if path.resolve() == package or package in path.resolve().parents:
            raise BenchieError(
                f"{printable_path(str(path))} (from {self.target.shown}) lies in the installed "
                "package, which is never written (pip would not remove it, and an upgrade would "
                f"lose it): give --gold-dir DIR or ${ENV_DATA_DIR} outside it"
            )
        if self.target.source == USER and not path.is_dir():
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BenchieError(
                    f"cannot create the user data directory's gold store "
                    f"{printable_path(str(path))} ({exc.strerror or exc}): set "
                    f"${ENV_DATA_DIR} to a directory you can write, or give --gold-dir DIR"
                ) from None
        return path

    def top(self) -> GoldDirs:
        """The same stores at their top (BenchIE's versions, every benchmark's part)."""
        return GoldDirs(self.dirs, self.target)

    def where(self) -> str:
        """The stores looked in, for a message that found nothing in them."""
        return ", ".join(f"{printable_path(str(p))} ({d.shown})" for p, d in self._pairs())

    def _pairs(self) -> list[tuple[Path, GoldDir]]:
        return [(d.path.joinpath(*self.below), d) for d in self.dirs]


def is_version(name: str) -> bool:
    """Whether ``name`` is a gold version number, MAJOR.MINOR.PATCH."""
    return bool(VERSION.fullmatch(name))


def user_data_dir() -> GoldDir:
    """The user's data directory's gold store: ``$BENCHIE_DATA_DIR/gold``, else
    platformdirs' user data directory (which honours ``$XDG_DATA_HOME`` on Linux)."""
    given = os.environ.get(ENV_DATA_DIR)
    if given:
        if not os.path.isabs(given):  # relative to where? each directory would differ
            raise BenchieError(
                f"${ENV_DATA_DIR} is {printable_path(given)!r}, a relative path: give an "
                "absolute one (every command, run from any directory, must find the same store)"
            )
        if os.path.lexists(given) and not os.path.isdir(given):
            raise BenchieError(f"${ENV_DATA_DIR} is {printable_path(given)!r}: not a directory")
        return GoldDir(Path(given) / "gold", USER, f"${ENV_DATA_DIR}")
    from benchie_cli.user_dirs import data_dir

    return GoldDir(Path(data_dir(APP_NAME)) / "gold", USER)


def package_gold_dir() -> Path:
    """Where an installed wheel keeps the shipped gold: ``benchie_cli/data/gold``, put there
    when the wheel is built (never in the source tree: a checkout reads its ``gold/``)."""
    return Path(__file__).resolve().parents[1] / "data" / "gold"


def checkout_gold_dir() -> GoldDir | None:
    """``gold/`` of the benchie-cli checkout in use, if any: the one this package runs from
    (editable installs), else the one containing the working directory (a clone with a
    regular install). A checkout is recognised by its DVC file ``gold.dvc``, which git keeps
    whether or not the gold has been pulled, and which names gold versions in ``gold/``."""
    from benchie_cli.gold.dvcfile import GOLD_DVC, outputs_in

    package_root = Path(__file__).resolve().parents[2]
    cwd = Path.cwd().resolve()
    for root in (package_root, cwd, *cwd.parents):
        if any(is_version(n) for n in outputs_in(root / "gold", root / GOLD_DVC)):
            detail = "the package runs from it" if root == package_root else "the working directory"
            return GoldDir(root / "gold", CHECKOUT, detail)
    return None


def order(option: str | None) -> list[GoldDir]:
    """Every store of the order, existing or not (``benchie gold path --all``); the
    explicit one (``--gold-dir``, which replaces ``$BENCHIE_GOLD_DIR``) given but missing
    is an error, never a silent fall-through to another gold."""
    if option is not None and not option:
        raise BenchieError("--gold-dir: empty directory name (an unset shell variable?)")
    found: list[GoldDir] = []
    # The option replaces the environment variable (click's convention), never adds to it.
    value, source = (option, GIVEN) if option else (os.environ.get(ENV_GOLD_DIR), FROM_ENV)
    if value:
        path = Path(value)
        if not os.path.isdir(path):
            state = "is not a directory" if os.path.lexists(value) else "does not exist"
            raise BenchieError(f"gold directory {printable_path(value)!r} (from {source}) {state}")
        _check_top(path, source)
        found.append(GoldDir(path, source))
    checkout = checkout_gold_dir()
    if checkout is not None:
        found.append(checkout)
    found.append(user_data_dir())
    found.append(GoldDir(package_gold_dir(), PACKAGE))
    return found


def resolve(option: str | None, *, new_version: bool = False) -> GoldDirs:
    """The stores a run reads (those of :func:`order` that exist, each once) and where it
    writes: the first explicit store, else the checkout's ``gold/`` for a new version of
    BenchIE's gold made in a checkout (``new_version``, tracked by its ``gold.dvc``), else
    the user's data directory."""
    every = order(option)
    dirs: list[GoldDir] = []
    seen: set[Path] = set()
    for d in every:
        try:
            real = d.path.resolve()
        except (OSError, RuntimeError):
            continue
        if real in seen or not os.path.isdir(d.path):  # (False for one this user cannot read)
            continue
        seen.add(real)
        dirs.append(d)
    explicit = [d for d in every if d.source in (GIVEN, FROM_ENV)]
    checkout = [d for d in every if d.source == CHECKOUT]
    user = next(d for d in every if d.source == USER)
    target = explicit[0] if explicit else checkout[0] if new_version and checkout else user
    return GoldDirs(tuple(dirs), target)


def _check_top(path: Path, source: str) -> None:
    """An explicit store is a store's top, not a version (``gold/1.1.0``) nor another
    benchmark's part of a store (``gold/carb``, whose manifests name their benchmark):
    read as BenchIE's store, it would hold nothing, or versions that are not BenchIE's."""
    import orjson  # (its depth limit: a manifest of 30,000 nested arrays is no recursion)

    shown = printable_path(str(path))
    if os.path.isfile(path / MANIFEST):
        raise BenchieError(
            f"--gold-dir {shown} (from {source}) is not a gold store: it is a gold version; "
            f"give the directory that holds it ({printable_path(str(path.parent))})"
        )
    try:
        names = sorted(n for n in os.listdir(path) if VERSION.fullmatch(n))
    except OSError:
        return
    for name in names:
        if not os.path.isfile(path / name / MANIFEST):  # (a FIFO would block the read)
            continue
        try:
            with open(path / name / MANIFEST, "rb") as handle:
                owner = orjson.loads(handle.read(1 << 20)).get("benchmark")
        except (OSError, ValueError, AttributeError):
            continue
        entry = BENCHMARKS.get(owner) if isinstance(owner, str) else None
        if entry is not None and entry.store_dir:  # a benchmark kept below a store's top
            raise BenchieError(
                f"--gold-dir {shown} (from {source}) is not a gold store: it holds "
                f"{entry.label}'s gold versions, {entry.label}'s part of a store; give the "
                f"store's top ({printable_path(str(path.parent))})"
            )
