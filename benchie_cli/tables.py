"""Fixed-width text tables for the terminal: one renderer for every command's output."""

from __future__ import annotations

from collections.abc import Sequence


def render(rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """The lines of a table whose first row is the header, underlined with dashes; columns
    in ``right`` are right-aligned (numbers), the others left-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines
