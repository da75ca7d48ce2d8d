"""Static checking and compilation of expressions to nested Python closures.

Each AST node becomes one closure ``f(env) -> value`` built once at load time, so evaluation in the
engine's hot loop does no AST dispatch. Constant sub-expressions are folded (and constant errors such
as ``1 // 0`` are reported at load time).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from .env import Env
from .errors import ExprError, ExprRuntimeError, type_name
from .nodes import (
    IT,
    Attr,
    Binary,
    Call,
    Compare,
    Cond,
    Index,
    ListLit,
    Literal,
    Name,
    Node,
    Select,
    Unary,
    Where,
    children,
)
from .parser import parse

Evaluator = Callable[[Env], Any]
"""A compiled (sub-)expression."""

ItemEvaluator = Callable[[Env, Any], Any]
"""A compiled where/select body: the environment and the current item."""


@dataclass(frozen=True)
class FuncSpec:
    """A function callable from expressions.

    ``fn`` receives the evaluated arguments (preceded by the current `Env` when ``pass_env`` is set,
    which is how game-state queries such as ``cards(zone, player)`` reach the game). ``check`` may
    inspect the argument ASTs at compile time and return an error message (reported at the call), or
    raise `ExprError` itself to point at a specific argument.
    """

    name: str
    fn: Callable[..., Any]
    min_args: int
    max_args: int | None
    check: Callable[[list[Node]], str | None] | None = None
    pass_env: bool = False
    counts: bool = False  # returns how many items its one argument has
    sized: Callable[..., int] | None = None  # how many items `fn` would return, found without building them
    reads: str = ""  # how a call reads in English, its parameters as placeholders (interpreter/model/readings.py)

    def __post_init__(self) -> None:
        if self.min_args < 0 or (self.max_args is not None and self.max_args < self.min_args):
            raise ValueError(f"bad arity for function {self.name!r}: {self.min_args}..{self.max_args}")


def function_table(*specs: FuncSpec) -> dict[str, FuncSpec]:
    """Build the ``functions`` mapping for `compile_expr` keyed by each spec's name."""
    table: dict[str, FuncSpec] = {}
    for spec in specs:
        if spec.name in table:
            raise ValueError(f"function {spec.name!r} registered twice")
        table[spec.name] = spec
    return table


class Compiled:
    """A checked, compiled expression; call it with an `Env` to evaluate.

    ``fn`` is the raw closure (slightly faster, but runtime errors are not tagged with ``src``).
    """

    __slots__ = ("src", "ast", "fn", "names_used", "attrs_used", "calls_used")

    def __init__(
        self,
        src: str,
        ast: Node,
        fn: Evaluator,
        names_used: frozenset[str],
        attrs_used: frozenset[str],
        calls_used: frozenset[str],
    ) -> None:
        self.src = src
        self.ast = ast
        self.fn = fn
        self.names_used = names_used
        self.attrs_used = attrs_used
        self.calls_used = calls_used

    def __call__(self, env: Env) -> Any:
        try:
            return self.fn(env)
        except ExprRuntimeError as err:
            if err.src is None:
                err.src = self.src
            raise

    def __repr__(self) -> str:
        return f"Compiled({self.src!r})"


def compile_expr(
    src: str,
    *,
    names: Collection[str] | None = None,
    functions: Mapping[str, FuncSpec] | None = None,
    fixed: Mapping[str, Evaluator] | None = None,
) -> Compiled:
    """Parse, check and compile ``src``.

    With ``names`` given, every free name must be one of them; ``it`` is accepted outside
    where/select only if listed. ``fixed`` maps names no scope can bind to their readers, which
    are called with the environment instead of looking the name up (inside a where/select body,
    maybe with the item environment, which hands on the base environment's attributes).
    Raises `ExprError` (with a source offset) on any problem.
    """
    ast = parse(src)
    compiler = _Compiler(names, functions if functions is not None else {}, fixed or {})
    fn = compiler.compile(ast)
    return Compiled(
        src,
        ast,
        fn,
        frozenset(compiler.names_used),
        frozenset(compiler.attrs_used),
        frozenset(compiler.calls_used),
    )


# -- evaluators the rulebook loader builds around expressions (here, so a compiled build runs them natively)


def constant(value: Any) -> Evaluator:
    """An evaluator that always gives `value` (a literal number or flag in a rulebook)."""
    def f(env: Env) -> Any:
        return value
    return f


def list_of(parts: list[Evaluator]) -> Evaluator:
    """An evaluator giving the list of its parts' values."""
    def f(env: Env) -> Any:
        return [p(env) for p in parts]
    return f


def mapping_of(parts: dict[str, Evaluator]) -> Evaluator:
    """An evaluator giving a mapping of its parts' values (a per-symbol modification)."""
    def f(env: Env) -> Any:
        return {k: p(env) for k, p in parts.items()}
    return f


# -- helpers -------------------------------------------------------------------------------------


def _locate(err: ExprRuntimeError, offset: int) -> None:
    """Give an error raised by a hook, function or lookup the offset of the node that called it."""
    if err.offset is None:
        err.offset = offset


def _suggest(word: str, candidates: Collection[str]) -> str:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def _listing(items: Collection[str], limit: int = 20) -> str:
    ordered = sorted(items)
    text = ", ".join(ordered[:limit])
    return text + ", ..." if len(ordered) > limit else text


def _arguments(n: int) -> str:
    return "1 argument" if n == 1 else f"{n} arguments"


def _arity_message(name: str, spec: FuncSpec, got: int) -> str | None:
    lo, hi = spec.min_args, spec.max_args
    if lo <= got and (hi is None or got <= hi):
        return None
    if hi is None:
        expected = f"at least {_arguments(lo)}"
    elif lo == hi:
        expected = _arguments(lo)
    else:
        expected = f"{lo} to {hi} arguments"
    return f"{name}() takes {expected}, got {got}"


_IMMUTABLE = (int, str, bool, type(None))
_LIST_LIKE = (list, tuple)


def _add_slow(a: Any, b: Any, offset: int) -> Any:
    if isinstance(a, _LIST_LIKE) and isinstance(b, _LIST_LIKE):
        return [*a, *b]
    if type(a) is str and type(b) is str:
        return a + b
    raise ExprRuntimeError(
        f"'+' needs two ints, two lists or two strings, got {type_name(a)} and {type_name(b)}", offset
    )


def _int_error(op: str, a: Any, b: Any, offset: int) -> ExprRuntimeError:
    return ExprRuntimeError(f"'{op}' needs two ints, got {type_name(a)} and {type_name(b)}", offset)


def _order_error(op: str, a: Any, b: Any, offset: int) -> ExprRuntimeError:
    hint = "; null has no order" if a is None or b is None else ""
    return ExprRuntimeError(f"cannot compare {type_name(a)} and {type_name(b)} with '{op}'{hint}", offset)


def _contains(item: Any, container: Any, offset: int) -> bool:
    if isinstance(container, str):
        if not isinstance(item, str):
            raise ExprRuntimeError(f"'in' a string needs a string on the left, got {type_name(item)}", offset)
        return item in container
    if isinstance(container, list | tuple | set | frozenset | Mapping):
        try:
            return item in container
        except TypeError:
            raise ExprRuntimeError(
                f"cannot look up {type_name(item)} in {type_name(container)} with 'in'", offset
            ) from None
    raise ExprRuntimeError(
        f"'in' needs a list, string or dict on the right, got {type_name(container)}", offset
    )


def _index(obj: Any, key: Any, offset: int) -> Any:
    if isinstance(obj, list | tuple | str):
        if type(key) is not int:
            raise ExprRuntimeError(f"a list index must be an int, got {type_name(key)}", offset)
        if -len(obj) <= key < len(obj):
            return obj[key]
        return None
    if isinstance(obj, Mapping):
        try:
            return obj.get(key)
        except TypeError:
            raise ExprRuntimeError(f"cannot use {type_name(key)} as a dict key", offset) from None
    if obj is None:
        return None
    raise ExprRuntimeError(f"cannot index {type_name(obj)}", offset)


def _as_items(value: Any, op: str, offset: int) -> Any:
    """Accept any non-string, non-dict iterable as the left side of where/select."""
    if value is None or isinstance(value, str | bytes | Mapping) or not hasattr(value, "__iter__"):
        raise ExprRuntimeError(f"'{op}' needs a list on its left, got {type_name(value)}", offset)
    return value


class _FoldEnv:
    """Environment used while folding constants; constant sub-trees never consult it."""

    def lookup(self, name: str) -> Any:  # pragma: no cover - unreachable for constant trees
        raise AssertionError(name)

    def attr(self, obj: Any, name: str) -> Any:  # pragma: no cover
        raise AssertionError(name)

    def with_it(self, value: Any) -> Env:  # pragma: no cover
        raise AssertionError(value)


# -- the compiler --------------------------------------------------------------------------------


class _Compiler:
    """One compilation: checks names/functions and builds closures, recording what is used."""

    def __init__(self, names: Collection[str] | None, functions: Mapping[str, FuncSpec],
                 fixed: Mapping[str, Evaluator]) -> None:
        self.names = frozenset(names) if names is not None else None
        self.functions = functions
        self.fixed = fixed
        self.it_depth = 0  # how many where/select bodies enclose the node being compiled
        self.names_used: set[str] = set()
        self.attrs_used: set[str] = set()
        self.calls_used: set[str] = set()
        self.consts: dict[Evaluator, Any] = {}
        self.list_items: dict[Evaluator, tuple[Evaluator, ...]] = {}  # list-literal closure -> items

    def compile(self, node: Node) -> Evaluator:
        if isinstance(node, Literal):
            return self.const(node.value)
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Attr):
            return self.attr(node)
        if isinstance(node, Index):
            return self.index(node)
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Unary):
            return self.unary(node)
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.compare(node)
        if isinstance(node, ListLit):
            return self.list_lit(node)
        if isinstance(node, Where | Select):
            return self.where_select(node)
        if isinstance(node, Cond):
            return self.cond(node)
        raise TypeError(f"not an expression node: {node!r}")

    # -- constants -------------------------------------------------------------------------------

    def const(self, value: Any) -> Evaluator:
        def f(env: Env) -> Any:
            return value

        self.consts[f] = value
        return f

    def fold(self, node: Node, fn: Evaluator, *parts: Evaluator) -> Evaluator:
        """Replace ``fn`` by a constant when all its parts are constants and the result is immutable."""
        if not all(p in self.consts for p in parts):
            return fn
        try:
            value = fn(_FoldEnv())
        except ExprRuntimeError as err:
            raise ExprError(err.message, err.offset if err.offset is not None else node.offset) from None
        return self.const(value) if isinstance(value, _IMMUTABLE) else fn

    # -- names, attributes, indexing, calls ------------------------------------------------------

    def name(self, node: Name) -> Evaluator:
        name, offset = node.name, node.offset
        if not (name == IT and self.it_depth):
            self.check_name(node)
            self.names_used.add(name)
            reader = self.fixed.get(name)
            if reader is not None:
                return reader

        def f(env: Env) -> Any:
            try:
                return env.lookup(name)
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

        return f

    def check_name(self, node: Name) -> None:
        name = node.name
        if self.names is None or name in self.names:
            return
        if name == IT:
            raise ExprError("'it' is only defined inside a 'where' or 'select' body", node.offset)
        known = f" (known: {_listing(self.names)})" if self.names else " (no names are available here)"
        if name in self.functions:
            hint = f"; '{name}' is a function, call it as {name}(...)"
        else:
            hint = _suggest(name, self.names | ({IT} if self.it_depth else set()))
        raise ExprError(f"unknown name '{name}'{known}{hint}", node.offset)

    def attr(self, node: Attr) -> Evaluator:
        obj, name, offset = self.compile(node.obj), node.name, node.offset
        self.attrs_used.add(name)
        if isinstance(node.obj, Name) and node.obj.name not in self.fixed:
            # Fused `name.attr` (mostly `it.x`): one closure instead of two on the hottest path.
            var, var_offset = node.obj.name, node.obj.offset

            def fused(env: Env) -> Any:
                try:
                    value = env.lookup(var)
                except ExprRuntimeError as err:
                    _locate(err, var_offset)
                    raise
                try:
                    return env.attr(value, name)
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

            return fused

        def f(env: Env) -> Any:
            try:
                return env.attr(obj(env), name)
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

        return f

    def index(self, node: Index) -> Evaluator:
        obj, key, offset = self.compile(node.obj), self.compile(node.index), node.offset

        def f(env: Env) -> Any:
            return _index(obj(env), key(env), offset)

        return self.fold(node, f, obj, key)

    def call(self, node: Call) -> Evaluator:
        name, offset = node.name, node.offset
        spec = self.functions.get(name)
        if spec is None:
            raise ExprError(f"unknown function '{name}'{_suggest(name, self.functions)}", offset)
        problem = _arity_message(name, spec, len(node.args))
        if problem is None and spec.check is not None:
            problem = spec.check(list(node.args))
        if problem is not None:
            raise ExprError(problem, offset)
        self.calls_used.add(name)
        inner = node.args[0] if spec.counts and len(node.args) == 1 else None
        if isinstance(inner, Call):
            inner_spec = self.functions.get(inner.name)
            if inner_spec is not None and inner_spec.sized is not None:
                # `count(cards(...))`: the inner function's count, with no list built to be counted.
                self.call(inner)  # every check of the inner call, as written
                sized = [self.compile(arg) for arg in inner.args]
                return _make_call(inner_spec.sized, sized, inner_spec.pass_env, inner.offset)
        args = [self.compile(arg) for arg in node.args]
        return _make_call(spec.fn, args, spec.pass_env, offset)

    # -- operators -------------------------------------------------------------------------------

    def unary(self, node: Unary) -> Evaluator:
        operand, offset = self.compile(node.operand), node.offset
        if node.op == "not":

            def f(env: Env) -> Any:
                return not operand(env)

        else:

            def f(env: Env) -> Any:
                value = operand(env)
                if type(value) is int:
                    return -value
                raise ExprRuntimeError(f"unary '-' needs an int, got {type_name(value)}", offset)

        return self.fold(node, f, operand)

    def binary(self, node: Binary) -> Evaluator:
        left, right, op, offset = self.compile(node.left), self.compile(node.right), node.op, node.offset
        f: Evaluator
        if op == "and":

            def f(env: Env) -> Any:
                return True if left(env) and right(env) else False

        elif op == "or":

            def f(env: Env) -> Any:
                return True if left(env) or right(env) else False

        elif op == "+":

            def f(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a + b
                return _add_slow(a, b, offset)

        elif op == "-":

            def f(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a - b
                raise _int_error("-", a, b, offset)

        elif op == "*":

            def f(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    return a * b
                raise _int_error("*", a, b, offset)

        elif op == "//":

            def f(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    if b == 0:
                        raise ExprRuntimeError("integer division by zero ('//')", offset)
                    return a // b
                raise _int_error("//", a, b, offset)

        elif op == "%":

            def f(env: Env) -> Any:
                a = left(env)
                b = right(env)
                if type(a) is int and type(b) is int:
                    if b == 0:
                        raise ExprRuntimeError("modulo by zero ('%')", offset)
                    return a % b
                raise _int_error("%", a, b, offset)

        else:  # pragma: no cover - the parser produces no other operators
            raise AssertionError(op)
        return self.fold(node, f, left, right)

    def compare(self, node: Compare) -> Evaluator:
        op, offset = node.op, node.offset
        left, right = self.compile(node.left), self.compile(node.right)
        items = self.list_items.get(right)
        if op in ("in", "not in") and items is not None and all(i in self.consts for i in items):
            return self.const_membership(node, left, tuple(self.consts[i] for i in items))
        f: Evaluator
        if op == "==":
            if right in self.consts:
                value = self.consts[right]

                def f(env: Env) -> Any:
                    return left(env) == value

            else:

                def f(env: Env) -> Any:
                    return left(env) == right(env)

        elif op == "!=":
            if right in self.consts:
                value = self.consts[right]

                def f(env: Env) -> Any:
                    return left(env) != value

            else:

                def f(env: Env) -> Any:
                    return left(env) != right(env)

        elif op == "in":

            def f(env: Env) -> Any:
                container = right(env)
                if type(container) is list:
                    return left(env) in container
                return _contains(left(env), container, offset)

        elif op == "not in":

            def f(env: Env) -> Any:
                container = right(env)
                if type(container) is list:
                    return left(env) not in container
                return not _contains(left(env), container, offset)

        else:
            f = _ordering(op, left, right, offset)
        return self.fold(node, f, left, right)

    def const_membership(self, node: Compare, left: Evaluator, values: tuple[Any, ...]) -> Evaluator:
        """``x in ['a', 'b']`` with literal items: test against a prebuilt tuple."""
        f: Evaluator
        if node.op == "in":

            def f(env: Env) -> Any:
                return left(env) in values

        else:

            def f(env: Env) -> Any:
                return left(env) not in values

        return self.fold(node, f, left)

    # -- lists and conditionals ------------------------------------------------------------------

    def list_lit(self, node: ListLit) -> Evaluator:
        items = tuple(self.compile(item) for item in node.items)
        if not items:

            def empty(env: Env) -> Any:
                return []

            return empty

        def f(env: Env) -> Any:
            return [item(env) for item in items]

        self.list_items[f] = items
        return f

    def where_select(self, node: Where | Select) -> Evaluator:
        items, offset = self.compile(node.items), node.offset
        self.it_depth += 1
        try:
            body = self.item(node.cond if isinstance(node, Where) else node.expr)
            tests = self.attr_tests(node.cond) if isinstance(node, Where) else None
        finally:
            self.it_depth -= 1
        f: Evaluator
        if tests is not None:
            return _where_attrs(items, tests, offset)
        if isinstance(node, Where):

            def f(env: Env) -> Any:
                xs = items(env)
                if type(xs) is not list:
                    xs = _as_items(xs, "where", offset)
                return [x for x in xs if body(env, x)]

        else:

            def f(env: Env) -> Any:
                xs = items(env)
                if type(xs) is not list:
                    xs = _as_items(xs, "select", offset)
                return [body(env, x) for x in xs]

        return f

    def attr_tests(self, cond: Node) -> list[tuple[str, Any, bool, int]] | None:
        """A `where` condition made of one or two `it.x == constant` (or `!=`) tests joined by
        `and`, the commonest filters, as (name, constant, equal, offset); None for any other shape."""
        parts = [cond.left, cond.right] if isinstance(cond, Binary) and cond.op == "and" else [cond]
        tests = []
        for part in parts:
            if not (isinstance(part, Compare) and part.op in ("==", "!=") and _is_item_attr(part.left)):
                return None
            right = self.compile(part.right)
            if right not in self.consts:
                return None
            tests.append((part.left.name, self.consts[right], part.op == "==", part.left.offset))
        return tests

    # -- where/select bodies ---------------------------------------------------------------------

    def item(self, node: Node) -> ItemEvaluator:
        """A where/select body as ``g(env, it)``: the item is an argument, so the common shapes
        (``it.x``, comparisons, and/or/not) build no environment per item. Other shapes that read
        ``it`` run the plain closure in ``env.with_it(it)``; both give the same values and errors."""
        f = self.compile(node)  # checks and records names, folds constants; also the fallback
        if f in self.consts:
            value = self.consts[f]
            return lambda env, it: value
        if not self.reads_item(node):
            return lambda env, it: f(env)
        if isinstance(node, Name):
            return lambda env, it: it
        if isinstance(node, Attr):
            return self.item_attr(node)
        if isinstance(node, Compare) and node.op in ("==", "!="):
            return self.item_equal(node)
        if isinstance(node, Binary) and node.op in ("and", "or"):
            left, right = self.item(node.left), self.item(node.right)
            if node.op == "and":
                return lambda env, it: True if left(env, it) and right(env, it) else False
            return lambda env, it: True if left(env, it) or right(env, it) else False
        if isinstance(node, Unary) and node.op == "not":
            operand = self.item(node.operand)
            return lambda env, it: not operand(env, it)
        if isinstance(node, Cond):
            test, then, orelse = self.item(node.test), self.item(node.then), self.item(node.orelse)
            return lambda env, it: then(env, it) if test(env, it) else orelse(env, it)
        return lambda env, it: f(env.with_it(it))

    def reads_item(self, node: Node) -> bool:
        """Whether evaluating ``node`` may read the current item: it names ``it``, or it calls a
        function given the environment (which may look ``it`` up), outside nested where/select
        bodies (those bind their own item)."""
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, Name):
                if current.name == IT:
                    return True
            elif isinstance(current, Call):
                spec = self.functions.get(current.name)
                if spec is not None and spec.pass_env:
                    return True
                stack.extend(current.args)
            elif isinstance(current, Where | Select):
                stack.append(current.items)
            else:
                stack.extend(children(current))
        return False

    def item_attr(self, node: Attr) -> ItemEvaluator:
        name, offset = node.name, node.offset
        if isinstance(node.obj, Name):  # `it.x`

            def direct(env: Env, it: Any) -> Any:
                try:
                    return env.attr(it, name)
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

            return direct
        obj = self.item(node.obj)

        def g(env: Env, it: Any) -> Any:
            try:
                return env.attr(obj(env, it), name)
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

        return g

    def item_equal(self, node: Compare) -> ItemEvaluator:
        left, right = self.item(node.left), self.compile(node.right)
        if right in self.consts:
            value = self.consts[right]
            if _is_item_attr(node.left):
                return self.item_attr_equal(node.left, node.op == "==", value)
            if node.op == "==":
                return lambda env, it: left(env, it) == value
            return lambda env, it: left(env, it) != value
        r = self.item(node.right)
        if node.op == "==":
            return lambda env, it: left(env, it) == r(env, it)
        return lambda env, it: left(env, it) != r(env, it)

    def item_attr_equal(self, node: Attr, equal: bool, value: Any) -> ItemEvaluator:
        """`it.x == constant` (or `!=`), the commonest filter, as one closure."""
        name, offset = node.name, node.offset
        if equal:

            def eq(env: Env, it: Any) -> Any:
                try:
                    return env.attr(it, name) == value
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

            return eq

        def ne(env: Env, it: Any) -> Any:
            try:
                return env.attr(it, name) != value
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

        return ne

    def cond(self, node: Cond) -> Evaluator:
        test, then, orelse = self.compile(node.test), self.compile(node.then), self.compile(node.orelse)
        if test in self.consts:
            return then if self.consts[test] else orelse

        def f(env: Env) -> Any:
            return then(env) if test(env) else orelse(env)

        return f


def _is_item_attr(node: Node) -> TypeGuard[Attr]:
    """`it.x`: an attribute of the current item itself."""
    return isinstance(node, Attr) and isinstance(node.obj, Name) and node.obj.name == IT


def _where_attrs(items: Evaluator, tests: list[tuple[str, Any, bool, int]], offset: int) -> Evaluator:
    """`xs where it.a == x [and it.b != y]` in one loop: the environment's attribute hook is looked
    up once per list, not once per item, and no body closure is called per item. Same values and
    errors as the general path: the second test is read only when the first holds."""
    f: Evaluator
    if len(tests) == 1:
        ((name, value, equal, at),) = tests

        def f(env: Env) -> Any:
            xs = items(env)
            if type(xs) is not list:
                xs = _as_items(xs, "where", offset)
            attr = env.attr
            try:
                return [x for x in xs if (attr(x, name) == value) == equal]
            except ExprRuntimeError as err:
                _locate(err, at)
                raise

    else:
        (name, value, equal, at), (name2, value2, equal2, at2) = tests

        def f(env: Env) -> Any:
            xs = items(env)
            if type(xs) is not list:
                xs = _as_items(xs, "where", offset)
            attr = env.attr
            out = []
            for x in xs:
                try:
                    if (attr(x, name) == value) != equal:
                        continue
                except ExprRuntimeError as err:
                    _locate(err, at)
                    raise
                try:
                    if (attr(x, name2) == value2) == equal2:
                        out.append(x)
                except ExprRuntimeError as err:
                    _locate(err, at2)
                    raise
            return out

    return f


def _ordering(op: str, left: Evaluator, right: Evaluator, offset: int) -> Evaluator:
    """Closures for < <= > >=; Python's TypeError (e.g. null < 1) becomes an ExprRuntimeError."""
    f: Evaluator
    if op == "<":

        def f(env: Env) -> Any:
            a = left(env)
            b = right(env)
            try:
                return a < b
            except TypeError:
                raise _order_error(op, a, b, offset) from None

    elif op == "<=":

        def f(env: Env) -> Any:
            a = left(env)
            b = right(env)
            try:
                return a <= b
            except TypeError:
                raise _order_error(op, a, b, offset) from None

    elif op == ">":

        def f(env: Env) -> Any:
            a = left(env)
            b = right(env)
            try:
                return a > b
            except TypeError:
                raise _order_error(op, a, b, offset) from None

    elif op == ">=":

        def f(env: Env) -> Any:
            a = left(env)
            b = right(env)
            try:
                return a >= b
            except TypeError:
                raise _order_error(op, a, b, offset) from None

    else:  # pragma: no cover - the parser produces no other comparison
        raise AssertionError(op)
    return f


def _make_call(fn: Callable[..., Any], args: list[Evaluator], pass_env: bool, offset: int) -> Evaluator:
    """Closure calling ``fn``; specialised by arity to avoid building an argument list per call."""
    f: Evaluator
    if pass_env:
        if not args:

            def f(env: Env) -> Any:
                try:
                    return fn(env)
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

        elif len(args) == 1:
            a0 = args[0]

            def f(env: Env) -> Any:
                try:
                    return fn(env, a0(env))
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

        elif len(args) == 2:
            a0, a1 = args

            def f(env: Env) -> Any:
                try:
                    return fn(env, a0(env), a1(env))
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

        elif len(args) == 3:
            a0, a1, a2 = args

            def f(env: Env) -> Any:
                try:
                    return fn(env, a0(env), a1(env), a2(env))
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

        else:

            def f(env: Env) -> Any:
                try:
                    return fn(env, *[arg(env) for arg in args])
                except ExprRuntimeError as err:
                    _locate(err, offset)
                    raise

        return f
    if not args:

        def f(env: Env) -> Any:
            try:
                return fn()
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

    elif len(args) == 1:
        a0 = args[0]

        def f(env: Env) -> Any:
            try:
                return fn(a0(env))
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

    elif len(args) == 2:
        a0, a1 = args

        def f(env: Env) -> Any:
            try:
                return fn(a0(env), a1(env))
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

    else:

        def f(env: Env) -> Any:
            try:
                return fn(*[arg(env) for arg in args])
            except ExprRuntimeError as err:
                _locate(err, offset)
                raise

    return f
