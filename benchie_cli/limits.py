"""The documented ranges of the numeric settings, shared by the CLI's options (click checks
them, exit 2) and the Python API (which raises BenchieError): more worker processes than
``JOBS_MAX`` only cost memory; 10^5 resamples of 300 sentences already take ~240 MB of
weights; a seed is any unsigned 64-bit integer (numpy's generator takes it as is); more
examples than ``EXAMPLES_MAX`` per error bucket make a report nobody reads."""

from __future__ import annotations

JOBS = (1, 256)
RESAMPLES = (1, 100_000)
SEED = (0, 2**64 - 1)
EXAMPLES = (0, 1000)
