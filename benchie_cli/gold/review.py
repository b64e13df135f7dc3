"""Gold with errors: which of a gold file's errors were reviewed, and what a run says of the
others (docs/gold-store.md, "Gold with errors").

The gold parser recovers from defects instead of refusing the file: it skips a triple outside
any synset, reads a malformed header as a header, drops a bracket without a partner. A gold
read that way is scored as the parser understood it, not as it was written. Upstream's gold
1.0.0 has such lines, and its published numbers are those of the recovered reading, so the
recoveries of each file this package ships were reviewed once and are listed here by the
file's sha256 (its bytes never change). Every other error, in any file, is new: ``score`` and
``analyze`` name it on stderr, reports record it, and ``--strict`` refuses the gold.

Versions made with ``benchie gold new`` or ``gold release`` cannot hold errors (both refuse
them), so the list holds only shipped files; a store edited by hand, or a ``--gold-file``,
gets every error reported.
"""

from __future__ import annotations

import shlex
from typing import Any

from benchie_cli.errors import Diagnostic, printable_path
from benchie_cli.gold.parse import Findings
from benchie_cli.records import Record

#: The reviewed recoveries of the gold files this package ships, by the file's sha256:
#: (line, code) of each error, each read the way docs/formats.md's leniency rules say.
REVIEWED: dict[str, frozenset[tuple[int, str]]] = {
    # 1.0.0 en (upstream's gold, byte for byte): '78-->Cluster 6:' is sentence 78's sixth
    # synset; 'for [as little as] $ 89]' keeps '$ 89' mandatory. The published numbers
    # (docs/metric.md) are those of this reading.
    "a5107265bd81e53e87952e3202ca366fe43b7f0f8ec8de4f8e047f7bf44bd916": frozenset(
        {(2812, "malformed-header"), (9176, "lone-bracket"), (9177, "lone-bracket")}
    ),
    # 1.0.0 de: '14-> Cluster 6:' is a header; the lone ']' of 'Morgenshow-Moderator]' and of
    # 'unserem] Ballon' (three lines) are dropped. 1.1.0 corrects all five.
    "6095f9d4d034257d2d68f5d0f67b947252066578cbf419751c566d11ce0a0a92": frozenset(
        {
            (245, "lone-bracket"),
            (246, "malformed-header"),
            (1519, "lone-bracket"),
            (1520, "lone-bracket"),
            (1521, "lone-bracket"),
        }
    ),
    # 1.0.0 zh: the stray line '2 0 6 :' is ignored; the lone ']' of line 2851 is dropped.
    "facb0713d4817d0ddf85429d19115376fd76948170328d9225318b626e8cb2ac": frozenset(
        {(2080, "stray-line"), (2851, "lone-bracket")}
    ),
}

#: Unreviewed errors a run names on stderr, and a report lists.
SHOWN = 3
LISTED = 5


class Review(Record):
    """A gold file's findings, split into reviewed and new errors."""

    path: str
    findings: Findings
    reviewed: int
    #: The new errors kept with their line (every new error is counted in ``new_count``).
    new: tuple[tuple[int, str, str], ...]
    new_count: int

    def diagnostic(self, error: tuple[int, str, str]) -> Diagnostic:
        line, code, message = error
        return Diagnostic(self.path, line, "error", code, message)

    def as_json(self) -> dict[str, Any]:
        """The ``findings`` of the gold file in a report."""
        return {
            "errors": self.findings.errors,
            "warnings": self.findings.warnings,
            "reviewed_errors": self.reviewed,
            "new_errors": [
                {"line": line, "code": code, "message": message}
                for line, code, message in self.new[:LISTED]
            ],
        }

    def notice(
        self,
        outcome: str = "the scores are those of the gold as read, not as written "
        "(--strict refuses it)",
    ) -> list[str]:
        """What a run says on stderr of a gold with new errors (nothing otherwise);
        ``outcome``: what was computed from the gold as read."""
        if not self.new_count:
            return []
        count = self.new_count
        lines = [
            f"warning: gold {printable_path(self.path)} has {count:,} error(s) its reader "
            f"skipped or repaired; {outcome}"
        ]
        shown = [self.diagnostic(e).format() for e in self.new[:SHOWN]]
        lines += shown
        if count > len(shown):
            lines.append(
                f"... {count - len(shown):,} more: `benchie validate --kind gold "
                f"{shlex.quote(printable_path(self.path))}` lists them all"
            )
        return lines

    def refusal(self) -> str:
        """The ``--strict`` error for a gold with new errors."""
        first = f", the first on line {self.new[0][0]} [{self.new[0][1]}]" if self.new else ""
        return (
            f"--strict refuses gold {printable_path(self.path)}: {self.new_count:,} error(s) "
            f"its reader would skip or repair{first}; fix them, or run without --strict"
        )


def review(path: str, sha256: str, findings: Findings) -> Review:
    """Split ``findings`` of the gold file ``path`` (bytes of ``sha256``) into the errors
    reviewed for those bytes and new ones. Errors beyond those kept with their line cannot
    be matched against the list, so they count as new."""
    listed = REVIEWED.get(sha256, frozenset())
    new = tuple(e for e in findings.first_errors if (e[0], e[1]) not in listed)
    reviewed = len(findings.first_errors) - len(new)
    return Review(path, findings, reviewed, new, findings.errors - reviewed)
