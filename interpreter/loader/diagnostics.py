"""Located error reporting for everything the loader reads.

Rulebook authors fix problems in YAML files, so every problem is reported as
``path:line:col: message`` (1-based, like compilers), and loaders collect all
problems before failing so one run shows everything that needs fixing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NoReturn, overload

__all__ = ["Diagnostic", "Diagnostics", "LoadError"]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem at one place; ordered by (path, line, col, message) for stable output."""

    path: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        """Render in the ``path:line:col: message`` form editors can jump to."""
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


class LoadError(Exception):
    """Raised when input cannot be loaded; carries every diagnostic, not just the first."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(str(self))

    def __str__(self) -> str:
        """One diagnostic per line, so the message is directly printable."""
        return "\n".join(str(d) for d in self.diagnostics)

    @classmethod
    def single(cls, path: str, line: int, col: int, message: str) -> LoadError:
        """Shortcut for the common one-problem case."""
        return cls([Diagnostic(path, line, col, message)])


class Diagnostics:
    """List-like collector so callers can keep going after a problem and report all at once."""

    def __init__(self, items: Iterable[Diagnostic] = ()) -> None:
        self._items: list[Diagnostic] = list(items)

    def add(self, path: str, line: int, col: int, message: str) -> Diagnostic:
        """Record one problem and return it (handy for tests and chaining)."""
        diag = Diagnostic(path, line, col, message)
        self._items.append(diag)
        return diag

    def append(self, diag: Diagnostic) -> None:
        """Record an already-built diagnostic."""
        self._items.append(diag)

    def extend(self, diags: Iterable[Diagnostic] | LoadError) -> None:
        """Merge diagnostics from another source (a list, a collector, or a LoadError)."""
        if isinstance(diags, LoadError):
            self._items.extend(diags.diagnostics)
        else:
            self._items.extend(diags)

    def sorted(self) -> list[Diagnostic]:
        """Diagnostics in file/line/col order with exact duplicates removed."""
        return sorted(set(self._items))

    def raise_if_any(self) -> None:
        """Raise a LoadError holding everything collected so far, if anything was; sorted and
        deduplicated, since code compiled more than once (an expanded subgraph) repeats its reports."""
        if self._items:
            raise LoadError(self.sorted())

    def raise_now(self) -> NoReturn:
        """Raise unconditionally (used when a fatal problem stops further checking)."""
        raise LoadError(self.sorted())

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self._items)

    @overload
    def __getitem__(self, index: int) -> Diagnostic: ...

    @overload
    def __getitem__(self, index: slice) -> list[Diagnostic]: ...

    def __getitem__(self, index: int | slice) -> Diagnostic | list[Diagnostic]:
        return self._items[index]

    def __repr__(self) -> str:
        return f"Diagnostics({self._items!r})"
