"""benchie-cli: fact-level evaluation of Open Information Extraction with BenchIE.

The package is a library first: the ``benchie`` command (``benchie_cli.cli``) only parses
arguments and calls the functions below it, so that tests and notebooks can call them too.
"""

__version__ = "0.2.0"

#: The gold version a run uses when none is asked for. Reports always name the version and
#: its sha256, so changing this default can never silently change a published number.
DEFAULT_GOLD_VERSION = "1.1.0"

LANGUAGES = ("en", "de", "zh")

#: The version of every score report's layout (its ``schema`` key): ``verify`` reads this one.
REPORT_SCHEMA = 1

#: The environment variable that overrides ``DEFAULT_GOLD_VERSION`` (a container image
#: tagged ``-gold1.0.0`` sets it).
ENV_GOLD_VERSION = "BENCHIE_GOLD_VERSION"


def default_gold_version() -> str:
    """The gold version used when none is asked for: ``$BENCHIE_GOLD_VERSION``, else the
    package's default. (Here, not in the gold store, so that ``benchie --version`` needs
    nothing else of the package.)"""
    import os

    return os.environ.get(ENV_GOLD_VERSION) or DEFAULT_GOLD_VERSION
