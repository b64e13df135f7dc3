"""Every command's ``--help`` shows an example, so users can copy a working command line."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest

from benchie_cli.cli import main

from .conftest import RunCli

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
    ("gold", "compile"),
    ("analyze",),
}


def walk(command: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command path of the CLI tree, found from click itself (no list to forget)."""
    yield path
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from walk(sub, (*path, name))


ALL_COMMANDS = sorted(set(walk(main)) | EXPECTED_COMMANDS)


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
    "path", [("score",), ("validate",), ("strip-implicit",)], ids=lambda p: p[0]
)
def test_help_states_exit_statuses(cli: RunCli, path: tuple[str, ...]) -> None:
    """Scripts need to know what 1 and 2 mean."""
    out = cli(*path, "--help").stdout
    assert "Exit status: 0 success, 1 negative verdict, 2 unusable input or usage." in out
