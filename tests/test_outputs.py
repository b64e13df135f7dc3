"""Where reports go: never a clobbered link, device or input, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import RunCli, example


def test_symlink_output_writes_the_target(cli: RunCli, tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert cli("score", "--lang", "en", example("en", "clausie"), "-o", link).exit_code == 0
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("{")


def test_fifo_output_is_written_not_replaced(cli: RunCli, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    res = cli("score", "--lang", "en", example("en", "clausie"), "-o", fifo)
    reader.join(timeout=30)
    assert res.exit_code == 0
    assert got and got[0].startswith(b"{")
    assert fifo.is_fifo()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [("score", "--lang", "en"), ("--help",), ("gold", "list")])
def test_full_stdout_is_one_line(args: tuple[str, ...]) -> None:
    command = [sys.executable, "-m", "benchie_cli", *args]
    if args[0] == "score":
        command.append(str(example("en", "clausie")))
    # Buffered standard output, as in a real pipeline: the failed bytes stay in the buffer,
    # and the interpreter's last flush must not report them a second time.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            command, stdout=full, stderr=subprocess.PIPE, text=True, check=False, env=env
        )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "No space left" in proc.stderr


def test_output_that_is_an_input_is_refused(cli: RunCli, tmp_path: Path) -> None:
    sub = tmp_path / "sys.tsv"
    sub.write_bytes(example("en", "clausie").read_bytes())
    before = sub.read_bytes()
    res = cli("score", "--lang", "en", sub, "--format", "json", "-o", sub)
    assert res.exit_code == 2 and "is also an input" in res.stderr
    unnamed = cli("score", "--lang", "en", sub, "-o", sub)  # (.tsv: no report's extension)
    assert unnamed.exit_code == 2 and "is none of them" in unnamed.stderr
    assert sub.read_bytes() == before


def test_strip_implicit_checks_every_output_first(cli: RunCli, tmp_path: Path) -> None:
    kept = tmp_path / "kept.tsv"
    res = cli(
        "strip-implicit",
        "--lang",
        "en",
        example("en", "clausie"),
        "-o",
        kept,
        "--removed",
        tmp_path / "missing" / "removed.tsv",
    )
    assert res.exit_code == 2 and not kept.exists()
    res = cli(
        "strip-implicit", "--lang", "en", example("en", "clausie"), "-o", kept, "--removed", kept
    )
    assert res.exit_code == 2 and "same file" in res.stderr and not kept.exists()


def test_a_temporary_file_is_new_private_and_never_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``new_temporary`` makes what ``tempfile.mkstemp`` makes: a new 0600 file, named
    PREFIX + 8 hexadecimal digits + SUFFIX; a name already taken (here by a symbolic link to
    a file that must not be touched) is passed over for another, never opened."""
    from benchie_cli import textio

    victim = tmp_path / "victim"
    victim.write_text("keep")
    (tmp_path / ".r.json.00000000.tmp").symlink_to(victim)
    draws = iter([b"\0\0\0\0", b"\0\0\0\1"])
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    old = os.umask(0)
    try:
        fd, path = textio.new_temporary(tmp_path, ".r.json.", ".tmp")
    finally:
        os.umask(old)
    os.write(fd, b"new")
    os.close(fd)
    assert path == str(tmp_path / ".r.json.00000001.tmp")
    assert (os.stat(path).st_mode & 0o777) == 0o600
    assert victim.read_text() == "keep"


def test_a_report_written_has_the_mode_umask_gives(cli: RunCli, tmp_path: Path) -> None:
    """The temporary file is 0600; the report renamed from it is as any new file (0644
    under umask 022), and leaves no temporary file behind."""
    old = os.umask(0o022)
    try:
        cli("score", str(example("en", "clausie")), "-o", str(tmp_path / "r.json"))
    finally:
        os.umask(old)
    assert (os.stat(tmp_path / "r.json").st_mode & 0o777) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_an_output_that_is_a_loop_of_links_is_refused(cli: RunCli, tmp_path: Path) -> None:
    """``-o`` naming a loop of symbolic links is refused (exit 2), and both links are left:
    it replaced the first with a regular file."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.symlink_to(b)
    b.symlink_to(a)
    res = cli("score", str(example("en", "clausie")), "-o", str(a))
    assert res.exit_code == 2
    assert "a loop of links" in res.stderr
    assert a.is_symlink() and b.is_symlink()
    # Refused before the work: strip-implicit writes nothing, not its output then fails on
    # --removed.
    kept = tmp_path / "kept.tsv"
    res = cli("strip-implicit", str(example("en", "clausie")), "-o", str(kept), "--removed", str(a))
    assert res.exit_code == 2 and "a loop of links" in res.stderr
    assert not kept.exists()


@pytest.mark.parametrize("length", [250, 255])
def test_a_report_name_as_long_as_a_file_system_takes_is_written(
    cli: RunCli, tmp_path: Path, length: int
) -> None:
    """A 250-byte name, which ``touch`` makes, failed after the work ("cannot write: File
    name too long"): its temporary file's name (``.NAME.XXXXXXXX.tmp``) was 15 bytes
    longer. The temporary name is cut now; the report is written, nothing else left."""
    name = "a" * (length - len(".json")) + ".json"
    res = cli("score", str(example("en", "clausie")), "-o", str(tmp_path / name))
    assert res.exit_code == 0, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_report_name_longer_than_a_file_system_takes_is_refused_first(
    cli: RunCli, tmp_path: Path
) -> None:
    """One byte more is refused before any work, with the limit, not the operating
    system's words."""
    name = "a" * 251 + ".json"
    res = cli("score", str(example("en", "clausie")), "-o", str(tmp_path / name))
    assert res.exit_code == 2
    assert res.stderr == (
        f"benchie: {tmp_path / name}: error: file name too long: 256 bytes, more than the "
        "255 a file system takes; give a shorter name (nothing written)\n"
    )
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["r" * 255, "é" * 127 + "r"])
def test_a_temporary_name_fits_beside_the_longest_name(tmp_path: Path, name: str) -> None:
    """The prefix of a temporary file is cut, at a character's start, so that its name
    stays within the 255 bytes of a file name; it starts as the target's name does."""
    from benchie_cli import textio

    fd, path = textio.new_temporary(tmp_path, f".{name}.", ".tmp")
    os.close(fd)
    made = os.path.basename(path)
    assert len(made.encode()) <= textio.WRITTEN_NAME_MAX
    assert made.startswith("." + name[:100]) and made.endswith(".tmp")
    textio.atomic_write(str(tmp_path / name), b"x")
    assert (tmp_path / name).read_bytes() == b"x"
