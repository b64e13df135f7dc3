"""Every command's ``--help`` shows an example, so users can copy a working command line."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from benchie_cli.cli import main
from tests.conftest import RunCli

EXPECTED_COMMANDS = {
    (),
    ("score",),
    ("validate",),
    ("strip-implicit",),
    ("gold",),
    ("gold", "path"),
    ("gold", "list"),
    ("gold", "info"),
    ("gold", "stats"),
    ("gold", "verify"),
    ("gold", "manifest"),
    ("gold", "new"),
    ("gold", "release"),
    ("gold", "compile"),
    ("gold", "diff"),
    ("gold", "impact"),
    ("analyze",),
    ("sentences",),
    ("convert",),
    ("verify",),
    ("plot",),
    ("cache",),
    ("cache", "info"),
    ("cache", "prune"),
    ("platform",),
    ("platform", "score"),
    ("platform", "bundle"),
    ("benchmark",),
    ("benchmark", "add"),
    ("benchmark", "list"),
}


def walk(command: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command path of the CLI tree, found from click itself (no list to forget;
    the top-level group loads its commands lazily, so they are listed as click lists them)."""
    yield path
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None, name
            yield from walk(sub, (*path, name))


ALL_COMMANDS = sorted(set(walk(main)) | EXPECTED_COMMANDS)


def _command(path: tuple[str, ...]) -> click.Command | None:
    command: click.Command | None = main
    for name in path:
        assert isinstance(command, click.Group)
        command = command.get_command(click.Context(command), name)
    return command


def test_command_tree_is_the_documented_one() -> None:
    """A command added or removed shows up here, and so gets its help test."""
    assert set(walk(main)) == EXPECTED_COMMANDS


@pytest.mark.parametrize("path", ALL_COMMANDS, ids=lambda p: " ".join(p) or "benchie")
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_contains_an_example(cli: RunCli, path: tuple[str, ...], flag: str) -> None:
    result = cli(*path, flag)
    assert result.exit_code == 0, result.stderr
    assert "Example" in result.stdout
    # The example is a real ``benchie`` command line, of this very command.
    examples = result.stdout.split("Example", 1)[1]
    assert f"benchie {' '.join(path)}".rstrip() in examples


@pytest.mark.parametrize(
    "path",
    [("score",), ("validate",), ("strip-implicit",), ("verify",), ("cache", "prune")],
    ids=lambda p: " ".join(p),
)
def test_help_states_exit_statuses(cli: RunCli, path: tuple[str, ...]) -> None:
    """Scripts need to know what 1, 2 and the signal statuses mean."""
    out = " ".join(cli(*path, "--help").stdout.split())  # click wraps the epilog
    assert (
        "Exit status: 0 success, 1 negative verdict, 2 unusable input or usage, "
        "70 internal error (a bug: please report it), 129 hung up, "
        "130 interrupted (Ctrl-C), 143 terminated." in out
    )


GROUPS = sorted(path for path in ALL_COMMANDS if isinstance(_command(path), click.Group))


@pytest.mark.parametrize("path", GROUPS, ids=lambda p: " ".join(p) or "benchie")
@pytest.mark.parametrize("width", [80, 50])
def test_command_list_is_never_cut(path: tuple[str, ...], width: int) -> None:
    """A group's --help lists each command with a whole phrase: click cuts a docstring's
    first sentence to fit (ending it in "..."), so every command gives its short_help."""
    result = CliRunner().invoke(main, [*path, "--help"], terminal_width=width)
    assert result.exit_code == 0, result.output
    listing = result.output.split("Commands:", 1)[1].split("\n\n", 1)[0]
    rows = [row.strip() for row in listing.splitlines() if row.strip()]
    assert rows, result.output
    assert not [row for row in rows if row.endswith("...")], listing
    group = _command(path)
    assert isinstance(group, click.Group)
    for name in group.list_commands(click.Context(group)):
        sub = group.get_command(click.Context(group), name)
        assert sub is not None and sub.short_help, f"{' '.join((*path, name))}: no short_help"


def test_platform_score_help_states_its_exit_statuses(cli: RunCli) -> None:
    """A file that cannot be scored exits 2 (tests/platform/test_platform.py), a gold whose sha256
    is not the pinned one 1: the help says exactly that."""
    out = " ".join(cli("platform", "score", "--help").stdout.split())
    assert "exit 2 for a file that cannot be scored" in out
    assert "1 for a gold whose sha256 is not the pinned one" in out
    assert "cannot be scored, a gold whose sha256 is not the pinned one: exit 1" not in out


def test_dockerfile_defaults_follow_the_package() -> None:
    """The image's labels and default gold come from ARG defaults when built without
    scripts/build-image: they must not drift from the code."""
    import re

    from benchie_cli import DEFAULT_GOLD_VERSION, __version__
    from tests.conftest import REPO

    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ARG BENCHIE_VERSION=(.+)$", text, re.M)[1] == __version__
    assert re.search(r"^ARG GOLD_VERSION=(.+)$", text, re.M)[1] == DEFAULT_GOLD_VERSION


def test_gold_file_and_gold_version_exclude_each_other(cli) -> None:
    from tests.conftest import GOLD_DIR, example

    gold = GOLD_DIR / "1.0.0/en/default/benchie_gold_annotations_en.txt"
    res = cli("score", "--gold-version", "1.0.0", "--gold-file", gold, example("en", "clausie"))
    assert res.exit_code == 2 and "not both" in res.stderr
    assert cli("score", "--gold-file", gold, example("en", "clausie")).exit_code == 0


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (("scroe",), "No such command 'scroe'. Did you mean 'score'?"),
        (("valdate",), "No such command 'valdate'. Did you mean 'validate'?"),
        (("gold", "verfy"), "No such command 'verfy'. Did you mean 'verify'?"),
        (("platform", "scor"), "No such command 'scor'. Did you mean 'score'?"),
        (("xyzzy",), "No such command 'xyzzy'.\n"),
    ],
)
def test_a_misspelt_command_gets_a_suggestion(
    cli: RunCli, words: tuple[str, ...], says: str
) -> None:
    """`benchie scroe` said "No such command" alone: the lazy group's commands are not
    loaded, so click's suggestion had nothing to compare with."""
    result = cli(*words)
    assert result.exit_code == 2
    assert says in result.stderr
