"""The benchmarks, one package each (docs/development.md).

When the interpreter was started to run one of their metric modules' command lines
(``python -m benchie_cli.benchmarks.X.metric``), the stop signals are taken here, before
the module's own imports (~0.2 s for OIE2016's and LSOIE's): a Ctrl-C there would be
Python's ``KeyboardInterrupt`` traceback, and ``benchie`` exits 130 without one
(:mod:`benchie_cli.stops`). Nothing is done for any other program that imports them.
"""

import sys


def _runs_a_metric_command() -> bool:
    """Whether the interpreter's command line runs ``-m benchie_cli.benchmarks.X.metric``
    (its options before the module skipped, ``-X`` and ``-W`` with their values)."""
    args = iter(sys.orig_argv[1:])
    for arg in args:
        if arg in ("-X", "-W"):
            next(args, None)
            continue
        if arg == "-m" or (arg.startswith("-m") and not arg.startswith("--")):
            module = next(args, "") if arg == "-m" else arg[2:]
            return module.startswith("benchie_cli.benchmarks.") and module.endswith(".metric")
        if not arg.startswith("-") or arg == "-c":  # (a script, or a program in a string)
            return False
    return False


if _runs_a_metric_command():
    from benchie_cli.stops import install_stop_handlers

    install_stop_handlers()
