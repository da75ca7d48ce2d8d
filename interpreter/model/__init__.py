"""The compiled rulebook: plain records the loader builds and the engine reads, and the vocabulary of
verbs its effects are written in."""
