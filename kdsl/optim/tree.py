"""Tiny pytree helpers for the optimisers: a pytree is a kdsl array (a leaf), None (an empty subtree) or a
dict / list / tuple of pytrees. (Kept private to ``kd.optim`` until the autodiff package's tree utilities land.)

Example:
    >>> from kdsl.optim.tree import tree_map
    >>> tree_map(lambda a, b: a + b, {"w": [1, 2], "b": None}, {"w": [10, 20], "b": None})
    {'w': [11, 22], 'b': None}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["tree_map", "tree_leaves", "tree_flatten", "tree_unflatten"]


def _mismatch(a: Any, b: Any) -> ValueError:
    return ValueError(f"pytree structures differ: {type(a).__name__} of {_size(a)} vs {type(b).__name__} of "
                      f"{_size(b)} (grads, state and params must have the same nesting)")


def _size(t: Any) -> str:
    return f"keys {sorted(t)}" if isinstance(t, dict) else str(len(t)) if isinstance(t, (list, tuple)) else "a leaf"


def tree_map(f: Callable[..., Any], tree: Any, *rest: Any) -> Any:
    """``f`` applied to the leaves of ``tree`` and the matching leaves of each tree in ``rest``; None stays None."""
    if tree is None:
        return None
    if isinstance(tree, dict):
        for r in rest:
            if not isinstance(r, dict) or set(r) != set(tree):
                raise _mismatch(tree, r)
        return {k: tree_map(f, tree[k], *(r[k] for r in rest)) for k in tree}
    if isinstance(tree, (list, tuple)):
        for r in rest:
            if not isinstance(r, (list, tuple)) or len(r) != len(tree):
                raise _mismatch(tree, r)
        out = [tree_map(f, *items) for items in zip(tree, *rest, strict=True)]
        return type(tree)(*out) if hasattr(tree, "_fields") else type(tree)(out)  # NamedTuples too
    for r in rest:
        if isinstance(r, (dict, list, tuple)):
            raise _mismatch(tree, r)
    return f(tree, *rest)


def tree_leaves(tree: Any) -> list[Any]:
    """The leaves of ``tree`` in order (None contributes none)."""
    out: list[Any] = []
    tree_map(out.append, tree)
    return out


class _Slot:
    """Marks where a leaf sat in a flattened tree's structure."""


_SLOT = _Slot()


def tree_flatten(tree: Any) -> tuple[list[Any], Any]:
    """``(leaves, structure)``; :func:`tree_unflatten` puts leaves back into the structure.

    >>> leaves, structure = tree_flatten({"a": [1, None, 2]})
    >>> leaves, tree_unflatten(structure, [10, 20])
    ([1, 2], {'a': [10, None, 20]})
    """
    return tree_leaves(tree), tree_map(lambda _: _SLOT, tree)


def tree_unflatten(structure: Any, leaves: list[Any]) -> Any:
    """The tree of ``structure`` (from :func:`tree_flatten`) holding ``leaves`` in order."""
    it = iter(leaves)
    out = tree_map(lambda _: next(it), structure)
    if next(it, _SLOT) is not _SLOT:
        raise ValueError("tree_unflatten: more leaves than the structure has places")
    return out
