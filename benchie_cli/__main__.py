"""``python -m benchie_cli``: the same entry point as the ``benchie`` console script."""

from benchie_cli.entry import console

console()
