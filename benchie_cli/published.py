"""Numbers published with BenchIE (Gashteovski et al., ACL 2022), in one place for the
tests that must reproduce them and the benchmarks that check their outputs.

The example submissions (``examples/submissions/<lang>/<system>.tsv``) are the systems'
outputs the paper scored; on gold 1.0.0, default facet, benchie gives these values exactly.
Pure data: importing it costs nothing and needs nothing but the standard library.
"""

from __future__ import annotations

#: The English systems of the paper, by the file stem of their example submission.
ENGLISH_SYSTEMS = (
    "clausie",
    "minie",
    "stanford",
    "openie6",
    "roi_t",
    "roi_n",
    "naive_oie",
    "m2oie_en",
)

#: (language, system, precision, recall, F1): the paper's Table 2 scores, at full precision
#: as benchie computes them on gold 1.0.0 (the paper prints two decimals).
PUBLISHED: tuple[tuple[str, str, float, float, float], ...] = (
    ("en", "clausie", 0.5029154518950437, 0.25555555555555554, 0.33889980353634575),
    ("en", "minie", 0.4290617848970252, 0.2777777777777778, 0.33723021582733814),
    ("en", "stanford", 0.11082070047046524, 0.15703703703703703, 0.12994177137603433),
    ("en", "openie6", 0.3110871905274489, 0.21407407407407408, 0.2536200087757789),
    ("en", "roi_t", 0.3732394366197183, 0.07851851851851852, 0.12974296205630356),
    ("en", "roi_n", 0.20287539936102236, 0.09407407407407407, 0.12854251012145748),
    ("en", "naive_oie", 0.03336921420882669, 0.022962962962962963, 0.02720491443615621),
    ("en", "m2oie_en", 0.3924050632911392, 0.16074074074074074, 0.2280609563846558),
    ("de", "m2oie_de", 0.08945686900958466, 0.02578268876611418, 0.04002859185132237),
    ("zh", "m2oie_zh", 0.17555938037865748, 0.10261569416498995, 0.12952380952380954),
)

#: The paper's Table 5: CaRB's (precision, recall, F1) of the English systems on BenchIE's
#: 300 sentences, two decimals, each extraction with confidence 1.0 (docs/carb.md).
CARB_TABLE_5: dict[str, tuple[float, float, float]] = {
    "naive_oie": (0.24, 0.70, 0.36),
    "clausie": (0.58, 0.53, 0.56),
    "minie": (0.45, 0.44, 0.44),
    "stanford": (0.17, 0.29, 0.22),
    "roi_n": (0.44, 0.60, 0.51),
    "openie6": (0.48, 0.67, 0.56),
    "m2oie_en": (0.60, 0.61, 0.61),
}
