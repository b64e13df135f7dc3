"""The gold: its parser, its versioned store, and the store's lifecycle, diffs and
statistics."""
