"""The verbs' implementations bind themselves here to the vocabulary (interpreter/model/vocabulary.py).

Each implementation is `fn(game, args, ctx)`, a generator, decorated with `@verb(name)` for a verb
the vocabulary declares; `load_all()` imports every verb module, so that every verb has its
implementation (and the vocabulary its docstrings) before a game runs.
"""

from __future__ import annotations

from collections.abc import Callable

from interpreter.model.vocabulary import VERBS, VerbFn, VerbSpec


def verb(name: str) -> Callable[[VerbFn], VerbFn]:
    """Bind a verb implementation `fn(game, args, ctx)` (a generator) to its declaration."""

    def deco(fn: VerbFn) -> VerbFn:
        spec = VERBS.get(name)
        if spec is None:
            raise KeyError(f"verb '{name}' is not declared in interpreter/model/vocabulary.py")
        spec.fn = fn
        spec.doc = (fn.__doc__ or "").strip()
        return fn

    return deco


def load_all() -> dict[str, VerbSpec]:
    """Import every verb module so that every verb has its implementation."""
    from interpreter.verbs import cards, choice, control, effects, flow, procedures  # noqa: F401

    return VERBS
