"""Derive gold 1.1.0 from 1.0.0: repair the format defects `benchie validate` reports.

Kept in the repository so that 1.1.0 can be rebuilt and reviewed line by line. It repairs
exactly these kinds of defect and nothing else: malformed cluster headers (and headers
naming the wrong sentence), the stray line that is a corrupted header, lone brackets, and
doubled or edge whitespace inside triple lines. Each explicit edit asserts the 1.0.0 text it
replaces, so the script fails rather than repair the wrong line. It prints every change as
``FILE:LINE: old -> new``; CHANGELOG.md lists them.

    python scripts/derive_gold_1_1_0.py gold/1.0.0 gold/1.1.0
    benchie gold manifest gold/1.1.0 && dvc add gold/1.1.0 && dvc push gold/1.1.0
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

FILES = {
    "en": "en/default/benchie_gold_annotations_en.txt",
    "de": "de/default/benchie_gold_annotations_de.txt",
    "zh": "zh/default/benchie_gold_annotations_zh.txt",
}
ARROW = " --> "

# (line, 1.0.0 text, 1.1.0 text, why). Where the intent of a lone bracket is evident from
# the synset's other triples, the missing partner is restored; where it is not (zh 2851),
# the stray bracket is removed, which is how the 1.0.0 loader already reads it.
EDITS: dict[str, list[tuple[int, str, str, str]]] = {
    "en": [
        (2331, "19--> Cluster 5:", "68--> Cluster 5:", "header names sentence 19 inside 68"),
        (2812, "78-->Cluster 6:", "78--> Cluster 6:", "malformed header"),
        (4762, "131--> Cluster 2:", "130--> Cluster 2:", "header names sentence 131 inside 130"),
        (
            9176,
            "[a] passenger --> can fly from Chardon [,] [Neb.] [to Denver] --> "
            "for [as little as] $ 89]",
            "[a] passenger --> can fly from Chardon [,] [Neb.] [to Denver] --> "
            "for [as little as] $ 89",
            "lone ']': the synset's other triples read '$ 89'",
        ),
        (
            9177,
            "[a] passenger --> can fly from Chardon [,] [Neb .] [to Denver] --> "
            "for [as little as] $ 89]",
            "[a] passenger --> can fly from Chardon [,] [Neb .] [to Denver] --> "
            "for [as little as] $ 89",
            "lone ']': the synset's other triples read '$ 89'",
        ),
    ],
    "de": [
        (
            245,
            "Morgenshow-Moderator] Ryan Cameron --> ",
            "[Morgenshow-Moderator] Ryan Cameron --> ",
            "lone ']': every other triple of the sentence reads '[Morgenshow-Moderator]'",
        ),
        (246, "14-> Cluster 6:", "14--> Cluster 6:", "malformed header"),
        *[
            (
                n,
                "unserem] Ballon --> ",
                "[unserem] Ballon --> ",
                "lone ']': the other triples of the sentence read '[unserem] Ballon'",
            )
            for n in (1519, 1520, 1521)
        ],
    ],
    "zh": [
        (2080, "2 0 6 :", "206--> Cluster 3:", "stray line: the corrupted header of synset 3"),
        (
            2851,
            "4 5 0 万 美 元 的] 孤 星",
            "4 5 0 万 美 元 的 孤 星",
            "lone ']' whose partner cannot be told: removed, as 1.0.0 is read",
        ),
    ],
}


def repair(lang: str, lines: list[str]) -> list[tuple[int, str, str, str]]:
    """Apply the edits and the whitespace rule in place; return the changes made."""
    changes = []
    for line, old, new, why in EDITS[lang]:
        text = lines[line - 1]
        if old not in text:
            raise SystemExit(f"{lang}:{line}: expected {old!r}, found {text!r}")
        lines[line - 1] = text.replace(old, new, 1)
        changes.append((line, text, lines[line - 1], why))
    for n, text in enumerate(lines, 1):
        if text.count(ARROW) >= 2 and "Cluster" not in text and " ".join(text.split()) != text:
            fixed = ARROW.join(" ".join(slot.split()) for slot in text.split(ARROW))
            if fixed != text:
                lines[n - 1] = fixed
                changes.append((n, text, fixed, "doubled or edge whitespace"))
    return sorted(changes)


def main(source: Path, target: Path) -> None:
    if target.exists():
        raise SystemExit(f"{target} exists; remove it first")
    for lang, rel in FILES.items():
        raw = (source / rel).read_bytes().decode("utf-8")
        ends_with_newline = raw.endswith("\n")
        lines = raw.split("\n")[:-1] if ends_with_newline else raw.split("\n")
        for line, old, new, why in repair(lang, lines):
            print(f"{rel}:{line}: {why}: {old!r} -> {new!r}")
        out = target / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(("\n".join(lines) + ("\n" if ends_with_newline else "")).encode("utf-8"))
    reference = "en/reference/carb_explicit.txt"
    (target / reference).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / reference, target / reference)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))
