"""A small, safe expression language for rulebook conditions and quantities.

Expressions are parsed and checked once at load time (`compile_expr`) into nested closures that the
engine evaluates many times against an `Env`. Nothing here uses Python's eval/exec.
"""

from .compiler import Compiled, Evaluator, FuncSpec, compile_expr, function_table
from .env import DictEnv, Env, ItEnv, default_attr
from .errors import ExprError, ExprRuntimeError, format_error, line_col, type_name
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
    attrs_in,
    calls_in,
    children,
    names_in,
    walk,
)
from .parser import MAX_DEPTH, parse

__all__ = [
    "IT",
    "MAX_DEPTH",
    "Attr",
    "Binary",
    "Call",
    "Compare",
    "Compiled",
    "Cond",
    "DictEnv",
    "Env",
    "Evaluator",
    "ExprError",
    "ExprRuntimeError",
    "FuncSpec",
    "Index",
    "ItEnv",
    "ListLit",
    "Literal",
    "Name",
    "Node",
    "Select",
    "Unary",
    "Where",
    "attrs_in",
    "calls_in",
    "children",
    "compile_expr",
    "default_attr",
    "format_error",
    "function_table",
    "line_col",
    "names_in",
    "parse",
    "type_name",
    "walk",
]
