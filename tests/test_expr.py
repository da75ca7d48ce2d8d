"""Tests for the rulebook expression language (interpreter.expr)."""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.expr import (
    MAX_DEPTH,
    Attr,
    Binary,
    Call,
    Compare,
    Compiled,
    Cond,
    DictEnv,
    Env,
    ExprError,
    ExprRuntimeError,
    FuncSpec,
    Index,
    ItEnv,
    ListLit,
    Literal,
    Name,
    Node,
    Select,
    Unary,
    Where,
    attrs_in,
    calls_in,
    compile_expr,
    format_error,
    function_table,
    line_col,
    names_in,
    parse,
    walk,
)

# -- fixtures --------------------------------------------------------------------------------------

ZONES = {"hand", "main_deck", "waiting_room", "stage"}


def _boom(*args: Any) -> Any:
    raise AssertionError("boom() must not be evaluated")


def _zone_check(args: list[Node]) -> str | None:
    first = args[0]
    if not isinstance(first, Literal) or first.value not in ZONES:
        return f"cards() needs a zone name literal as its first argument ({', '.join(sorted(ZONES))})"
    return None


def _cards(env: Env, zone: str, player: str) -> list[dict[str, Any]]:
    return [c for c in env.lookup("_cards") if c["zone"] == zone and c["owner"] == player]


FUNCS = function_table(
    FuncSpec("count", len, 1, 1),
    FuncSpec("sum", sum, 1, 1),
    FuncSpec("max", max, 1, None),
    FuncSpec("top", lambda zone, player, n=1: [zone, player, n], 2, 3),
    FuncSpec("boom", _boom, 0, None),
    FuncSpec("cards", _cards, 2, 2, check=_zone_check, pass_env=True),
)
NAMES = {"you", "opponent", "turn", "x", "xs", "n", "d", "s", "p", "_cards"}

CARDS = [
    {"name": "A", "zone": "hand", "owner": "you", "type": "member", "cost": 2, "tags": ["x", "y"]},
    {"name": "B", "zone": "hand", "owner": "you", "type": "live", "cost": 0, "tags": []},
    {"name": "C", "zone": "hand", "owner": "you", "type": "member", "cost": 5, "tags": ["y"]},
    {"name": "D", "zone": "stage", "owner": "you", "type": "member", "cost": 4, "tags": ["x"]},
    {"name": "E", "zone": "hand", "owner": "opponent", "type": "member", "cost": 9, "tags": []},
]


def env(**names: Any) -> DictEnv:
    base: dict[str, Any] = {"you": "you", "opponent": "opponent", "turn": 3, "_cards": CARDS}
    base.update(names)
    return DictEnv(base)


def ev(src: str, **names: Any) -> Any:
    return compile_expr(src, functions=FUNCS)(env(**names))


def err(src: str, **kwargs: Any) -> ExprError:
    kwargs.setdefault("functions", FUNCS)
    with pytest.raises(ExprError) as info:
        compile_expr(src, **kwargs)
    return info.value


# -- literals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "value"),
    [
        ("3", 3),
        ("0", 0),
        ("'hand'", "hand"),
        ('"wait"', "wait"),
        (r"'it\'s'", "it's"),
        (r'"say \"hi\""', 'say "hi"'),
        (r"'back\\slash'", "back\\slash"),
        (r"'mixed \"quotes\"'", 'mixed "quotes"'),
        ("true", True),
        ("false", False),
        ("null", None),
        ("[]", []),
        ("[1, 'a', null]", [1, "a", None]),
        ("[1, 2,]", [1, 2]),
        ("[[1], [2, [3]]]", [[1], [2, [3]]]),
    ],
)
def test_literals(src: str, value: Any) -> None:
    assert ev(src) == value


def test_list_literal_is_fresh_each_evaluation() -> None:
    compiled = compile_expr("[1, x]")
    first = compiled(DictEnv({"x": 2}))
    first.append(99)
    assert compiled(DictEnv({"x": 2})) == [1, 2]


# -- precedence and associativity -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 3 - 2", 5),
        ("7 // 2 * 2", 6),
        ("17 % 5 * 2", 4),
        ("-2 * 3", -6),
        ("-7 // 2", -4),
        ("- -3", 3),
        ("2 - -3", 5),
        ("2 + 3 == 5", True),
        ("1 + 1 < 3", True),
        ("not 1 == 2", True),
        ("not true and false", False),
        ("true or false and false", True),
        ("(true or false) and false", False),
        ("not not 0", False),
        ("1 == 1 and 2 == 2", True),
        ("x.a.b", 5),
        ("x.l[1]", 20),
        ("-x.a.b", -5),
        ("if turn == 3 then 1 else 2", 1),
        ("if false then 1 else 2 + 3", 5),
    ],
)
def test_precedence(src: str, value: Any) -> None:
    assert ev(src, x={"a": {"b": 5}, "l": [10, 20]}) == value


def test_precedence_ast_shapes() -> None:
    assert parse("a + b * c") == Binary("+", Name("a"), Binary("*", Name("b"), Name("c")))
    assert parse("a or b and not c") == Binary(
        "or", Name("a"), Binary("and", Name("b"), Unary("not", Name("c")))
    )
    assert parse("-a.b") == Unary("-", Attr(Name("a"), "b"))
    assert parse("f(x)[0].y") == Attr(Index(Call("f", (Name("x"),)), Literal(0)), "y")
    assert parse("a not in b") == Compare("not in", Name("a"), Name("b"))
    assert parse("not a in b") == Unary("not", Compare("in", Name("a"), Name("b")))


def test_where_select_binding() -> None:
    # Tighter than and/or on the left, looser than comparisons.
    assert parse("p and xs where c") == Binary("and", Name("p"), Where(Name("xs"), Name("c")))
    assert parse("a == xs where c") == Where(Compare("==", Name("a"), Name("xs")), Name("c"))
    assert parse("not xs where c") == Unary("not", Where(Name("xs"), Name("c")))
    # The body extends over and/or up to the next where/select; chains are left-associative.
    assert parse("xs where a and b select e") == Select(
        Where(Name("xs"), Binary("and", Name("a"), Name("b"))), Name("e")
    )
    assert parse("xs where a or b where c") == Where(
        Where(Name("xs"), Binary("or", Name("a"), Name("b"))), Name("c")
    )
    assert parse("xs where it.a == 1 select it.b + 1") == Select(
        Where(Name("xs"), Compare("==", Attr(Name("it"), "a"), Literal(1))),
        Binary("+", Attr(Name("it"), "b"), Literal(1)),
    )
    # Brackets and call arguments start a fresh context.
    assert parse("count(xs where a) > 0 and p") == Binary(
        "and", Compare(">", Call("count", (Where(Name("xs"), Name("a")),)), Literal(0)), Name("p")
    )
    assert parse("xs where (ys where b) != []") == Where(
        Name("xs"), Compare("!=", Where(Name("ys"), Name("b")), ListLit(()))
    )
    assert parse("xs where not it.t and it.u") == Where(
        Name("xs"), Binary("and", Unary("not", Attr(Name("it"), "t")), Attr(Name("it"), "u"))
    )


def test_conditional_shapes() -> None:
    assert parse("if a then b else c") == Cond(Name("a"), Name("b"), Name("c"))
    # Dangling else binds naturally; the else branch extends as far as possible.
    assert parse("if a then if b then 1 else 2 else 3 + 4") == Cond(
        Name("a"), Cond(Name("b"), Literal(1), Literal(2)), Binary("+", Literal(3), Literal(4))
    )
    assert parse("1 + (if a then 1 else 2)") == Binary(
        "+", Literal(1), Cond(Name("a"), Literal(1), Literal(2))
    )
    assert parse("xs where if it then true else false select 1") == Select(
        Where(Name("xs"), Cond(Name("it"), Literal(True), Literal(False))), Literal(1)
    )


def test_offsets_are_recorded_but_ignored_by_equality() -> None:
    node = parse("count( xs )")
    assert isinstance(node, Call)
    assert node.offset == 0
    assert node.args[0].offset == 7
    assert node == parse("count(xs)")
    assert hash(node) == hash(parse("count(xs)"))


# -- where / select ---------------------------------------------------------------------------------


def test_where_select_evaluation() -> None:
    assert ev("[1, 2, 3, 4] where it % 2 == 0 select it * 10") == [20, 40]
    assert ev("count(cards('hand', you) where it.type == 'member' select it.cost)") == 2
    assert ev("sum(cards('hand', you) where it.type == 'member' select it.cost)") == 7
    assert ev("cards('hand', you) where it.cost > 1 and 'y' in it.tags select it.name") == ["A", "C"]
    assert ev("cards('hand', you) where it.type != 'member' or it.cost > 4 select it.name") == ["B", "C"]
    assert ev("[] where boom()") == []


def test_nested_where_rebinds_it() -> None:
    groups = [
        {"name": "g1", "members": [1, 5]},
        {"name": "g2", "members": [2]},
        {"name": "g3", "members": []},
    ]
    assert ev("xs where count(it.members where it > 1) > 0 select it.name", xs=groups) == ["g1", "g2"]
    assert ev("[[1, 2], [3], []] select (it where it > 1)") == [[2], [3], []]
    # Inside a nested where's *items*, `it` is still the outer item.
    assert ev("[1, 2, 3] select count([1, 2, 3] where it < 3)") == [2, 2, 2]
    assert ev("[1, 2, 3] select ([10, 20] select it) ") == [[10, 20]] * 3
    assert ev("[[1, 2], [3]] select (it select it * 2)") == [[2, 4], [6]]


# Where/select bodies run as `g(env, it)` for the common shapes and fall back to the plain closure in
# `env.with_it(it)` otherwise; both must give the same values and the same errors (message, offset).
_ITEMS = [{"a": 1, "b": {"c": 2}, "t": "x", "n": [1, 2]}, {"a": 2, "b": {"c": 0}, "t": "y", "n": []},
          {"a": 0, "b": None, "t": "x", "n": [3]}, {"a": 1, "b": {"c": 2}, "t": None, "n": [2]}]
_BODIES = [
    "it", "it.a", "it.b.c", "it.missing", "it.a == 1", "it.a != 1", "it.t == k", "it.t != k", "it == it",
    "it.a == 1 and it.t == 'x'", "it.a == 1 or it.t == 'y'", "not it.a", "not (it.a == 2 or it.b == null)",
    "if it.a == 1 then it.t else k", "1", "k == 'x'", "it.a > 0", "it.a + 1", "count(it.n) > 0",
    "count(it.n where it > 1)", "count(xs where it.a == 1) + it.a", "it.b.c == 2 and k in [it.t, 'z']",
    "it.a == 1 and item() == it", "k == 'x' and count(item().n) > 0",
]


def _item(env: Env) -> Any:
    return env.lookup("it")  # a function given the environment may read the current item


FUNCS_IT = {**FUNCS, "item": FuncSpec("item", _item, 0, 0, pass_env=True)}


def _per_item(body: str, op: str, k: Any = "x") -> Any:
    """The body evaluated on each item through `with_it`, as `where`/`select` define it."""
    compiled = compile_expr(body, names={"it", "k", "xs"}, functions=FUNCS_IT)
    env = DictEnv({"k": k, "xs": _ITEMS})
    values = [compiled(env.with_it(x)) for x in _ITEMS]
    return [x for x, v in zip(_ITEMS, values, strict=True) if v] if op == "where" else values


@pytest.mark.parametrize("body", _BODIES)
@pytest.mark.parametrize("op", ["where", "select"])
def test_where_select_bodies_match_per_item_evaluation(body: str, op: str) -> None:
    got = compile_expr(f"xs {op} {body}", functions=FUNCS_IT)(DictEnv({"k": "x", "xs": _ITEMS}))
    assert got == _per_item(body, op)


@pytest.mark.parametrize("body", ["it.a.z", "it.a.z == 1", "it.a + it.t", "it.b.c.d and true", "not it.a.z",
                                  "it.t != null and it.a.q"])
def test_where_body_errors_match_per_item_evaluation(body: str) -> None:
    src = f"xs where {body}"
    with pytest.raises(ExprRuntimeError) as info:
        compile_expr(src)(DictEnv({"xs": _ITEMS}))
    with pytest.raises(ExprRuntimeError) as plain:
        _per_item(body, "where")
    assert (info.value.message, info.value.offset) == (plain.value.message, plain.value.offset + len("xs where "))
    assert info.value.src == src


def test_where_accepts_tuples_and_rejects_non_lists() -> None:
    assert ev("xs where it > 1", xs=(1, 2, 3)) == [2, 3]
    with pytest.raises(ExprRuntimeError, match="'where' needs a list on its left, got null"):
        ev("xs where it", xs=None)
    with pytest.raises(ExprRuntimeError, match="'select' needs a list on its left, got int"):
        ev("xs select it", xs=3)


def test_it_scoping_in_compile() -> None:
    compiled = compile_expr("xs where it.a select it.b", names={"xs"})
    assert compiled.names_used == frozenset({"xs"})
    # The body extends over and/or, so every `it` here is bound.
    compiled = compile_expr("xs where it.a and count(it) > 0 or it", names={"xs"}, functions=FUNCS)
    assert compiled(DictEnv({"xs": [{"a": 1}, {"a": 0}]})) == [{"a": 1}, {"a": 0}]


def test_it_outside_where_is_rejected_unless_declared() -> None:
    e = err("it.cost > 2", names={"you"})
    assert e.message == "'it' is only defined inside a 'where' or 'select' body"
    assert e.offset == 0
    e = err("(xs where it) + [it]", names={"xs"})
    assert e.offset == 17
    compiled = compile_expr("it.cost > 2", names={"it"})
    assert compiled.names_used == frozenset({"it"})
    assert compiled(DictEnv({"it": {"cost": 3}})) is True


# -- conditional and short circuit ------------------------------------------------------------------


@pytest.mark.parametrize(("x", "expected"), [(5, "pos"), (-2, "neg"), (0, "zero")])
def test_conditional(x: int, expected: str) -> None:
    assert ev("if x > 0 then 'pos' else if x < 0 then 'neg' else 'zero'", x=x) == expected


@pytest.mark.parametrize(
    ("src", "value"),
    [
        ("false and boom()", False),
        ("0 and boom()", False),
        ("true or boom()", True),
        ("'x' or boom()", True),
        ("if true then 1 else boom()", 1),
        ("if false then boom() else 2", 2),
        ("if x then boom() else 2", 2),
        ("x and boom(1, 2)", False),
    ],
)
def test_short_circuit(src: str, value: Any) -> None:
    assert ev(src, x=0) == value


@pytest.mark.parametrize(
    ("src", "value"),
    [("1 and 2", True), ("0 or ''", False), ("[] or [1]", True), ("not []", True), ("not 'a'", False)],
)
def test_boolean_operators_return_bools(src: str, value: bool) -> None:
    result = ev(src)
    assert result is value


# -- runtime semantics and errors -------------------------------------------------------------------


def test_arithmetic_and_lists() -> None:
    assert ev("[1] + [2, 3]") == [1, 2, 3]
    assert ev("xs + [3]", xs=(1, 2)) == [1, 2, 3]
    assert ev("'ab' + 'c'") == "abc"
    assert ev("x // 2", x=-7) == -4
    assert ev("x % 3", x=-7) == 2


@pytest.mark.parametrize(
    ("src", "names", "message", "offset"),
    [
        ("x // n", {"x": 1, "n": 0}, "integer division by zero ('//')", 2),
        ("x % n", {"x": 1, "n": 0}, "modulo by zero ('%')", 2),
        ("x + 1", {"x": None}, "'+' needs two ints, two lists or two strings, got null and int", 2),
        ("1 + x", {"x": True}, "'+' needs two ints, two lists or two strings, got int and bool", 2),
        ("x * 2", {"x": "ab"}, "'*' needs two ints, got str and int", 2),
        ("x - xs", {"x": 1, "xs": [1]}, "'-' needs two ints, got int and list", 2),
        ("-x", {"x": "a"}, "unary '-' needs an int, got str", 0),
        ("x < 1", {"x": None}, "cannot compare null and int with '<'; null has no order", 2),
        ("1 >= x", {"x": "a"}, "cannot compare int and str with '>='", 2),
        ("1 in x", {"x": None}, "'in' needs a list, string or dict on the right, got null", 2),
        ("1 in x", {"x": "abc"}, "'in' a string needs a string on the left, got int", 2),
        ("xs in d", {"xs": [1], "d": {}}, "cannot look up list in dict with 'in'", 3),
        ("xs[x]", {"xs": [1], "x": "a"}, "a list index must be an int, got str", 2),
        ("x[0]", {"x": 5}, "cannot index int", 1),
        ("x.cost", {"x": 5}, "cannot read attribute 'cost' of int", 2),
        ("y + 1", {}, "name 'y' is not defined", 0),
        ("1 + y.a", {}, "name 'y' is not defined", 4),
        ("1 + y.a.b", {}, "name 'y' is not defined", 4),
        ("(x).a.b", {"x": {"a": 3}}, "cannot read attribute 'b' of int", 6),
    ],
)
def test_runtime_errors(src: str, names: dict[str, Any], message: str, offset: int) -> None:
    compiled = compile_expr(src)
    with pytest.raises(ExprRuntimeError) as info:
        compiled(DictEnv(names))
    assert info.value.message == message
    assert info.value.offset == offset
    assert info.value.src == src
    assert src in str(info.value)
    assert format_error(src, info.value).endswith("\n  " + " " * offset + "^")


def test_runtime_errors_from_functions_get_the_call_offset() -> None:
    def fail(x: Any) -> Any:
        raise ExprRuntimeError("no such card")

    compiled = compile_expr("1 + fail(2)", functions={"fail": FuncSpec("fail", fail, 1, 1)})
    with pytest.raises(ExprRuntimeError) as info:
        compiled(DictEnv())
    assert (info.value.message, info.value.offset) == ("no such card", 4)


def test_other_exceptions_propagate_unchanged() -> None:
    with pytest.raises(AssertionError, match="boom"):
        ev("boom()")


def test_equality_and_membership() -> None:
    assert ev("null == null") is True
    assert ev("x == null", x=None) is True
    assert ev("x != 'a'", x="b") is True
    assert ev("[1, 2] == [1, 2]") is True
    assert ev("2 in [1, 2]") is True
    assert ev("x in [1, 2]", x=3) is False
    assert ev("x not in ['a', 'b']", x="c") is True
    assert ev("x in [n, 2]", x=5, n=5) is True
    assert ev("'at' in 'cat'") is True
    assert ev("'k' in d", d={"k": 1}) is True
    assert ev("'v' in d", d={"k": "v"}) is False
    assert ev("x in xs", x=1, xs=(1,)) is True


def test_indexing() -> None:
    names = {"xs": [10, 20, 30], "d": {"a": 1, 2: "two"}, "s": "abc"}
    assert ev("xs[0]", **names) == 10
    assert ev("xs[-1]", **names) == 30
    assert ev("xs[3]", **names) is None
    assert ev("xs[-4]", **names) is None
    assert ev("d['a']", **names) == 1
    assert ev("d[2]", **names) == "two"
    assert ev("d['zz']", **names) is None
    assert ev("s[1]", **names) == "b"
    assert ev("x[0]", x=None) is None
    assert ev("[1, 2][n]", n=1) == 2


# -- attribute hook ------------------------------------------------------------------------------------


def test_default_attr_hook_on_dicts_and_null() -> None:
    assert ev("x.a", x={"a": 1}) == 1
    assert ev("x.missing", x={"a": 1}) is None
    assert ev("x.a.b.c", x=None) is None
    assert ev("x.a.b", x={"a": None}) is None


def test_attribute_access_is_delegated_to_the_hook() -> None:
    seen: list[tuple[Any, str]] = []

    class Card:
        def __init__(self, cost: int) -> None:
            self.cost = cost
            self.secret = "not reachable"

    def hook(obj: Any, name: str) -> Any:
        seen.append((obj, name))
        if name == "cost":
            return obj.cost + 1  # e.g. a continuous effect
        return None

    cards = [Card(1), Card(3)]
    compiled = compile_expr("xs where it.cost > 2 select it.cost")
    assert compiled(DictEnv({"xs": cards}, attr=hook)) == [4]
    assert [name for _, name in seen] == ["cost", "cost", "cost"]
    # Python attributes are not reachable without the hook.
    with pytest.raises(ExprRuntimeError, match="cannot read attribute 'secret' of Card"):
        compile_expr("x.secret")(DictEnv({"x": cards[0]}))


def test_custom_env_via_protocol_and_itenv() -> None:
    class GameEnv:
        def __init__(self) -> None:
            self.lookups: list[str] = []

        def lookup(self, name: str) -> Any:
            self.lookups.append(name)
            return {"xs": [1, 2, 3], "k": 2}[name]

        def attr(self, obj: Any, name: str) -> Any:
            return f"{obj}.{name}"

        def with_it(self, value: Any) -> Env:
            return ItEnv(self, value)

    game = GameEnv()
    assert isinstance(game, Env)
    compiled = compile_expr("xs where it >= k select it.label", names={"xs", "k"})
    assert compiled(game) == ["2.label", "3.label"]
    assert game.lookups == ["xs", "k", "k", "k"]


def test_dictenv_extend_and_with_it() -> None:
    base = DictEnv({"a": 1})
    child = base.extend({"b": 2})
    assert compile_expr("a + b")(child) == 3
    inner = child.with_it(5).with_it(6)
    assert inner.lookup("it") == 6
    assert inner.lookup("a") == 1


# -- functions ---------------------------------------------------------------------------------------


def test_function_calls() -> None:
    assert ev("top('hand', you)") == ["hand", "you", 1]
    assert ev("top('hand', you, 3,)") == ["hand", "you", 3]
    assert ev("max(1, 5, 3)") == 5
    assert ev("count(cards('hand', opponent))") == 1


def test_pass_env_functions_receive_the_current_env() -> None:
    def item(env: Env) -> Any:
        return env.lookup("it")

    compiled = compile_expr(
        "[1, 2] select item() * 10", functions={"item": FuncSpec("item", item, 0, 0, pass_env=True)}
    )
    assert compiled(DictEnv()) == [10, 20]


def test_funcspec_validates_arity() -> None:
    with pytest.raises(ValueError, match="bad arity"):
        FuncSpec("f", len, 2, 1)
    with pytest.raises(ValueError, match="registered twice"):
        function_table(FuncSpec("f", len, 1, 1), FuncSpec("f", len, 1, 1))


# -- compile errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "message", "offset"),
    [
        # syntax
        ("(1 + 2", "expected ')' but found end of expression", 6),
        ("count(x", "expected ',' or ')' but found end of expression", 7),
        ("count(x y)", "expected ',' or ')' but found name 'y'", 8),
        ("[1, 2", "expected ',' or ']' but found end of expression", 5),
        ("xs[1", "expected ']' but found end of expression", 4),
        ("1 / 2", "'/' is not an operator here; use '//' for integer division", 2),
        ("x = 1", "'=' is not an operator; use '==' to compare", 2),
        ("a && b", "'&&' is not an operator; use 'and'", 2),
        ("!a", "'!' is not an operator; use 'not'", 0),
        ("2 ** 3", "'**' (power) is not supported", 2),
        ("1.5", "float literals are not supported ('1.5'); use integers only", 0),
        ("x + 10.25", "float literals are not supported ('10.25'); use integers only", 4),
        ("x * .5", "float literals are not supported ('.5'); use integers only", 4),
        ("5abc", "invalid number '5abc'", 0),
        ("a < b < c", "comparisons cannot be chained; combine them with 'and', e.g. 'a < b and b < c'", 6),
        ("a == b in c", "comparisons cannot be chained; combine them with 'and', e.g. 'a < b and b < c'", 7),
        (
            "a < b not in c",
            "comparisons cannot be chained; combine them with 'and', e.g. 'a < b and b < c'",
            6,
        ),
        ("'abc", 'unterminated string; expected a closing "\'"', 0),
        ('x == "abc', "unterminated string; expected a closing '\"'", 5),
        (r"'a\nb'", r"invalid escape '\n' in string; only \', \" and \\ are allowed", 2),
        ("a b", "unexpected name 'b' after a complete expression; is an operator missing?", 2),
        ("1 2", "unexpected number 2 after a complete expression; is an operator missing?", 2),
        ("a)", "unmatched ')'", 1),
        ("a then b", "'then' without a matching 'if'", 2),
        ("a not b", "'not' after an expression must be followed by 'in' (as in 'a not in b')", 2),
        ("", "empty expression", 0),
        ("   ", "empty expression", 3),
        ("1 +", "expected an expression but found end of expression", 3),
        ("+1", "expected an expression but found '+'", 0),
        ("x where", "expected an expression but found end of expression", 7),
        ("where", "expected an expression but found 'where'", 0),
        ("@x", "unexpected character '@'", 0),
        ("if a then b", "expected 'else' but found end of expression", 11),
        ("if a b else c", "expected 'then' but found name 'b'", 5),
        (
            "1 + if a then 1 else 2",
            "wrap 'if ... then ... else ...' in parentheses when it is part of a larger expression",
            4,
        ),
        ("a == not b", "'not' needs parentheses here, e.g. 'a == (not b)'", 5),
        (
            "x.y(1)",
            "only a function name can be called, e.g. 'count(xs)'; "
            "methods and computed callees are not supported",
            3,
        ),
        ("x.", "expected an attribute name after '.' but found end of expression", 2),
        ("x.5", "expected an attribute name after '.' but found number 5", 2),
        # static checks
        ("cnt(xs)", "unknown function 'cnt'; did you mean 'count'?", 0),
        ("1 + frobnicate()", "unknown function 'frobnicate'", 4),
        ("count(xs, xs)", "count() takes 1 argument, got 2", 0),
        ("count()", "count() takes 1 argument, got 0", 0),
        ("x + max()", "max() takes at least 1 argument, got 0", 4),
        ("top(x)", "top() takes 2 to 3 arguments, got 1", 0),
        ("top(x, x, x, x)", "top() takes 2 to 3 arguments, got 4", 0),
        (
            "count(cards('hnd', you))",
            "cards() needs a zone name literal as its first argument (hand, main_deck, stage, waiting_room)",
            6,
        ),
        ("1 // 0", "integer division by zero ('//')", 2),
        ("null < 1", "cannot compare null and int with '<'; null has no order", 5),
    ],
)
def test_compile_errors(src: str, message: str, offset: int) -> None:
    e = err(src)
    assert e.message == message
    assert str(e) == message
    assert e.offset == offset


def test_unknown_name_message() -> None:
    e = err("count(cards('hand', opponnent))", names={"you", "opponent", "turn"})
    assert e.message == "unknown name 'opponnent' (known: opponent, turn, you); did you mean 'opponent'?"
    assert e.offset == 20
    e = err("zzz", names=set())
    assert e.message == "unknown name 'zzz' (no names are available here)"
    e = err("count + 1", names={"you"})
    assert e.message == "unknown name 'count' (known: you); 'count' is a function, call it as count(...)"
    many = {f"name{i:02}" for i in range(30)}
    e = err("nope", names=many)
    assert e.message.startswith("unknown name 'nope' (known: name00, name01,")
    assert e.message.endswith(", ...)")


def test_name_check_only_when_names_given() -> None:
    compiled = compile_expr("anything.goes + 1")
    assert compiled.names_used == frozenset({"anything"})


def test_function_names_are_not_variables() -> None:
    e = err("you(1)", names={"you"})
    assert e.message == "unknown function 'you'"


def test_check_may_raise_with_a_precise_offset() -> None:
    def check(args: list[Node]) -> str | None:
        if not isinstance(args[1], Literal):
            raise ExprError("second argument must be a literal", args[1].offset)
        return None

    e = err("f(1, x)", functions={"f": FuncSpec("f", max, 2, 2, check=check)})
    assert (e.message, e.offset) == ("second argument must be a literal", 5)


def test_first_error_in_source_order_wins() -> None:
    # A lexical error later in the source does not mask an earlier syntax error.
    assert err("(a b) / 2").message == "expected ')' but found name 'b'"
    assert err("a / (b").message == "'/' is not an operator here; use '//' for integer division"


def test_keywords_are_not_names_but_can_be_attributes() -> None:
    assert err("select + 1").message == "expected an expression but found 'select'"
    assert ev("x.select + x.in", x={"select": 1, "in": 2}) == 3


# -- nesting limits --------------------------------------------------------------------------------


def test_nesting_at_the_limit_is_accepted() -> None:
    src = "(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH
    assert compile_expr(src)(DictEnv()) == 1
    chain = " + ".join(["x"] * (MAX_DEPTH + 1))  # MAX_DEPTH levels of Binary
    assert compile_expr(chain)(DictEnv({"x": 1})) == MAX_DEPTH + 1


@pytest.mark.parametrize(
    "src",
    [
        "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1),
        "(" * 5000 + "1" + ")" * 5000,
        "[" * 3000 + "]" * 3000,
        "-" * 3000 + "1",
        "not " * 3000 + "true",
        "f(" * 3000 + ")" * 3000,
        " + ".join(["1"] * 5000),
        "x" + ".a" * 5000,
        "x" + "[0]" * 5000,
        "xs" + " where true" * 5000,
        "if a then 1 else " * 3000 + "2",
    ],
)
def test_deep_nesting_is_rejected_cleanly(src: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(src, functions={"f": FuncSpec("f", len, 0, 1)})
    assert (
        info.value.message == f"expression is nested too deeply (more than {MAX_DEPTH} levels); split it up"
    )
    assert 0 <= info.value.offset <= len(src)


# -- static analysis helpers -----------------------------------------------------------------------


def test_static_analysis() -> None:
    src = "count(cards('hand', you) where it.type == t select it.cost) > n and it.flag"
    compiled = compile_expr(src, functions=FUNCS)
    assert compiled.names_used == frozenset({"you", "t", "n", "it"})
    assert compiled.attrs_used == frozenset({"type", "cost", "flag"})
    assert compiled.calls_used == frozenset({"count", "cards"})
    assert names_in(compiled.ast) == compiled.names_used
    assert attrs_in(compiled.ast) == compiled.attrs_used
    assert calls_in(compiled.ast) == compiled.calls_used
    kinds = [type(node).__name__ for node in walk(parse("a + f(b)[0]"))]
    assert kinds == ["Binary", "Name", "Index", "Call", "Name", "Literal"]
    assert isinstance(compiled, Compiled)
    assert compiled.src == src
    assert repr(compiled) == f"Compiled({src!r})"


# -- error formatting ------------------------------------------------------------------------------


def test_format_error_single_line() -> None:
    src = "count(cards('hand', opponnent))"
    e = err(src, names={"you", "opponent"})
    assert format_error(src, e) == (
        "unknown name 'opponnent' (known: opponent, you); did you mean 'opponent'?\n"
        "  count(cards('hand', opponnent))\n"
        "                      ^"
    )


def test_format_error_multi_line_and_tabs() -> None:
    src = "count(xs) > 0 and\n\tx / 2"
    e = err(src)
    assert e.offset == 21
    assert line_col(src, e.offset) == (2, 4)
    assert format_error(src, e) == (
        "'/' is not an operator here; use '//' for integer division (line 2, column 4)\n  \tx / 2\n  \t  ^"
    )


def test_format_error_at_end_of_source() -> None:
    src = "(1 + 2"
    assert format_error(src, err(src)).splitlines()[-1] == "  " + " " * 6 + "^"


# -- a moderately complex expression in a loop ----------------------------------------------------


def test_compiled_evaluation_micro_check() -> None:
    src = (
        "if turn > 1 and count(cards('hand', you) where it.type == 'member') >= 2 "
        "then sum(cards('hand', you) where it.type in ['member', 'live'] and it.cost > n "
        "select it.cost * 2 + n % 3) "
        "else -1"
    )
    compiled = compile_expr(src, names=NAMES, functions=FUNCS)
    envs = [env(n=n, turn=t) for n in range(4) for t in (1, 2)]

    def expected(n: int, turn: int) -> int:
        hand = [c for c in CARDS if c["zone"] == "hand" and c["owner"] == "you"]
        if turn > 1 and sum(1 for c in hand if c["type"] == "member") >= 2:
            return sum(
                c["cost"] * 2 + n % 3 for c in hand if c["type"] in ("member", "live") and c["cost"] > n
            )
        return -1

    for _ in range(250):
        for e in envs:
            assert compiled(e) == expected(e.lookup("n"), e.lookup("turn"))
    assert compiled(env(n=0, turn=2)) == 14


def test_fixed_names_are_read_from_the_environment_without_a_lookup():
    """A name given in `fixed` is compiled to its reader: the environment's scopes are never
    searched for it, alone, under an attribute, or inside where/select bodies."""
    calls: list[str] = []

    class Env(DictEnv):
        __slots__ = ("me",)

        def lookup(self, name: str) -> Any:
            calls.append(name)
            return super().lookup(name)

    env = Env({"xs": [{"o": 1}, {"o": 2}], "me": "shadow"})
    env.me = {"o": 2}
    fixed = {"me": lambda e: e.me}
    src = "[me, me.o, xs where it.o == me.o, xs select me.o + it.o, count(xs where it == me)]"
    got = compile_expr(src, names={"xs", "me"}, functions=FUNCS_IT, fixed=fixed)(env)
    assert got == [{"o": 2}, 2, [{"o": 2}], [3, 4], 1]
    assert "me" not in calls and "xs" in calls
    # Without `fixed`, the same source looks the name up (here a different value).
    assert compile_expr("me", names={"me"})(env) == "shadow"
