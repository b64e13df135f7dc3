"""The benchmarks, one package each (docs/development.md).

When the interpreter was started to run one of their metric modules' command lines
(``python -m benchie_cli.benchmarks.X.metric``), the stop signals are taken here, before
the module's own imports (~0.2 s for OIE2016's and LSOIE's): a Ctrl-C there would be
Python's ``KeyboardInterrupt`` traceback, and ``benchie`` exits 130 without one
(:mod:`benchie_cli.stops`). Nothing is done for any other program that imports them.
"""

from benchie_cli.stops import install_stop_handlers, started_as

_STARTED = started_as()
if (
    _STARTED[0] == "module"
    and _STARTED[1].startswith("benchie_cli.benchmarks.")
    and _STARTED[1].endswith(".metric")
):
    install_stop_handlers()
