"""Profiling beyond the paper: error buckets, slot errors, intervals, significance,
clique robustness, and the views of the analysis report."""
