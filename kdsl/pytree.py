"""Pytrees: nested lists, tuples (named tuples too) and dicts whose leaves are arrays (or anything else).

The functional transforms (:func:`kdsl.grad`, :func:`kdsl.vjp`...) and optimisers take and return pytrees, so
parameters can be a dict of arrays, a list of layers, or any nesting of those. ``None`` is an empty subtree (no
leaf), as in JAX; dict keys are visited in sorted order.

Example:
    >>> leaves, tree = tree_flatten({"b": [1, 2], "a": (3, None)})
    >>> leaves
    [3, 1, 2]
    >>> tree_unflatten(tree, [x * 10 for x in leaves])
    {'a': (30, None), 'b': [10, 20]}
    >>> tree_map(lambda x, y: x + y, [1, (2, 3)], [10, (20, 30)])
    [11, (22, 33)]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple


class TreeDef(NamedTuple):
    """The shape of a pytree without its leaves: ``kind`` is "leaf", "none", "list", "tuple", "namedtuple" or
    "dict"; ``meta`` the dict's sorted keys or the named tuple's class; ``children`` the subtrees' TreeDefs."""

    kind: str
    meta: Any
    children: tuple[TreeDef, ...]

    @property
    def num_leaves(self) -> int:
        """How many leaves a tree of this shape holds.

        >>> tree_structure([1, {"a": 2}]).num_leaves
        2
        """
        if self.kind == "leaf":
            return 1
        return sum(c.num_leaves for c in self.children)


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def tree_flatten(tree: Any) -> tuple[list[Any], TreeDef]:
    """(the leaves of ``tree`` in order, its :class:`TreeDef`)."""
    leaves: list[Any] = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree: Any, leaves: list[Any]) -> TreeDef:
    if tree is None:
        return TreeDef("none", None, ())
    if isinstance(tree, dict):
        keys = tuple(sorted(tree))
        return TreeDef("dict", keys, tuple(_flatten(tree[k], leaves) for k in keys))
    if _is_namedtuple(tree):
        return TreeDef("namedtuple", type(tree), tuple(_flatten(c, leaves) for c in tree))
    if isinstance(tree, (list, tuple)):
        kind = "list" if isinstance(tree, list) else "tuple"
        return TreeDef(kind, None, tuple(_flatten(c, leaves) for c in tree))
    leaves.append(tree)
    return TreeDef("leaf", None, ())


def tree_unflatten(treedef: TreeDef, leaves: Any) -> Any:
    """The pytree of shape ``treedef`` holding ``leaves`` (an iterable, in :func:`tree_flatten`'s order)."""
    it = iter(leaves)
    out = _build(treedef, it)
    if next(it, _END) is not _END:
        raise ValueError(f"tree_unflatten: more leaves than the tree's {treedef.num_leaves}")
    return out


_END = object()


def _build(td: TreeDef, it: Any) -> Any:
    if td.kind == "leaf":
        leaf = next(it, _END)
        if leaf is _END:
            raise ValueError("tree_unflatten: fewer leaves than the tree holds")
        return leaf
    if td.kind == "none":
        return None
    children = [_build(c, it) for c in td.children]
    if td.kind == "dict":
        return dict(zip(td.meta, children, strict=True))
    if td.kind == "namedtuple":
        return td.meta(*children)
    return children if td.kind == "list" else tuple(children)


def tree_leaves(tree: Any) -> list[Any]:
    """The leaves of ``tree`` in order.

    >>> tree_leaves([1, {"x": 2, "y": None}, (3,)])
    [1, 2, 3]
    """
    return tree_flatten(tree)[0]


def tree_structure(tree: Any) -> TreeDef:
    """The :class:`TreeDef` of ``tree``."""
    return tree_flatten(tree)[1]


def tree_map(fn: Callable[..., Any], tree: Any, *rest: Any) -> Any:
    """``fn`` applied leaf by leaf to ``tree`` and the trees in ``rest`` (which must have its structure).

    >>> tree_map(lambda p, g: p - 0.1 * g, {"w": 1.0}, {"w": 2.0})
    {'w': 0.8}
    """
    leaves, td = tree_flatten(tree)
    others = []
    for r in rest:
        r_leaves, r_td = tree_flatten(r)
        if r_td != td:
            raise ValueError(f"tree_map: the trees differ in structure: {_describe(td)} and {_describe(r_td)}")
        others.append(r_leaves)
    return tree_unflatten(td, [fn(*xs) for xs in zip(leaves, *others, strict=True)])


def _describe(td: TreeDef) -> str:
    if td.kind == "leaf":
        return "*"
    if td.kind == "none":
        return "None"
    inner = [_describe(c) for c in td.children]
    if td.kind == "dict":
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(td.meta, inner, strict=True)) + "}"
    if td.kind == "list":
        return "[" + ", ".join(inner) + "]"
    name = td.meta.__name__ if td.kind == "namedtuple" else ""
    return f"{name}(" + ", ".join(inner) + ("," if len(inner) == 1 and not name else "") + ")"
