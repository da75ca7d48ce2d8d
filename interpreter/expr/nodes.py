"""AST node types and static-analysis helpers.

Nodes are frozen, slotted dataclasses so the loader can hash, compare and cache them. ``offset`` (the
0-based source position used in error messages) is excluded from equality, so two parses of the same
expression with different spacing compare equal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


class Node:
    """Base class of all expression AST nodes."""

    __slots__ = ()
    offset: int


def _offset() -> int:
    return field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """An int, string, bool or null constant."""

    value: int | str | bool | None
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Name(Node):
    """A variable looked up in the environment (``it`` inside where/select is the current item)."""

    name: str
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Attr(Node):
    """``obj.name``; resolved through the environment's attribute hook, never Python getattr."""

    obj: Node
    name: str
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Index(Node):
    """``obj[index]``."""

    obj: Node
    index: Node
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Call(Node):
    """``name(args...)``; only registered functions can be called, so the callee is a plain name."""

    name: str
    args: tuple[Node, ...]
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Unary(Node):
    """Prefix ``-`` or ``not``."""

    op: str
    operand: Node
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Binary(Node):
    """Arithmetic (``+ - * // %``) or boolean (``and or``) operator."""

    op: str
    left: Node
    right: Node
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Compare(Node):
    """A single, non-chained comparison: ``== != < <= > >= in`` or ``not in``."""

    op: str
    left: Node
    right: Node
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    """``[a, b, c]``."""

    items: tuple[Node, ...]
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Where(Node):
    """``items where cond``: keep the items for which cond (with ``it`` bound to the item) is truthy."""

    items: Node
    cond: Node
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Select(Node):
    """``items select expr``: map each item (bound to ``it``) to expr."""

    items: Node
    expr: Node
    offset: int = _offset()


@dataclass(frozen=True, slots=True)
class Cond(Node):
    """``if test then then else orelse``."""

    test: Node
    then: Node
    orelse: Node
    offset: int = _offset()


IT = "it"
"""The name bound to the current item inside a where/select body."""


def children(node: Node) -> tuple[Node, ...]:
    """Direct sub-expressions of a node, in source order."""
    if isinstance(node, Literal | Name):
        return ()
    if isinstance(node, Attr):
        return (node.obj,)
    if isinstance(node, Index):
        return (node.obj, node.index)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary | Compare):
        return (node.left, node.right)
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, Where):
        return (node.items, node.cond)
    if isinstance(node, Select):
        return (node.items, node.expr)
    if isinstance(node, Cond):
        return (node.test, node.then, node.orelse)
    raise TypeError(f"not an expression node: {node!r}")


def walk(node: Node) -> Iterator[Node]:
    """Yield every node of the tree in pre-order (source order); iterative so depth never matters."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def names_in(node: Node) -> frozenset[str]:
    """Free names of an expression: what the environment must provide (``it`` bound by where/select
    is not free, but ``it`` used outside any where/select is)."""
    found: set[str] = set()
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        current, it_bound = stack.pop()
        if isinstance(current, Name):
            if not (it_bound and current.name == IT):
                found.add(current.name)
        elif isinstance(current, Where):
            stack.append((current.items, it_bound))
            stack.append((current.cond, True))
        elif isinstance(current, Select):
            stack.append((current.items, it_bound))
            stack.append((current.expr, True))
        else:
            stack.extend((child, it_bound) for child in children(current))
    return frozenset(found)


def attrs_in(node: Node) -> frozenset[str]:
    """Every attribute name read anywhere in the expression (e.g. to validate against card fields)."""
    return frozenset(n.name for n in walk(node) if isinstance(n, Attr))


def calls_in(node: Node) -> frozenset[str]:
    """Every function name called anywhere in the expression."""
    return frozenset(n.name for n in walk(node) if isinstance(n, Call))
