"""Semantic diff of two YAML rulebooks, keyed by element id (see :mod:`.diff`)."""
