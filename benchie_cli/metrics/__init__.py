"""The metrics: BenchIE's (matching, scoring, confidence curves, the index cache) and
CaRB's, and the registry that names them and their facets."""
