"""The kernel IR's expressions: one immutable node shape, ``Expr(op, dtype, srcs, arg)``.

Kinds (``op``) and what ``arg`` holds:

* ``"load"``   ``arg = (slot, view)``: buffer ``slot`` read through a strided :class:`~kdsl.ir.view.View`;
  or ``arg = (slot, view, (word, wide))``: the view's offset is 0 and the real one is push-constant word
  ``pc.w[word]`` (one kernel serves every offset: a mini-batch loop over ``X[i:i+b]``), ``wide`` whether the
  positions need 64 bits
* ``"const"``  ``arg = word``: a scalar push constant starting at ``pc.w[word]``
* ``"iota"``   ``arg = axis``: the element's index along ``axis``
* ``"rand"``   ``arg = (dist, word)``: a counter-based random number (key and stream at ``pc.w[word..+2]``)
* ``"remap"``  ``arg = (view, shape)``, ``srcs = (src,)``: ``src`` (of ``shape``) read through a view of its
  C-order index space; ``arg = (view, shape, (word, wide))``: its offset in a push word, as for a load
* ``"patch"``  ``arg = (starts, lengths)``, ``srcs = (base, piece)``: ``piece`` (of shape ``lengths``) inside the
  box of ``starts`` and ``lengths`` (one per axis), ``base`` elsewhere; ``piece`` is read at the position
  clamped into the box everywhere (in bounds), so the select needs no branch (``u[1:-1] = f(u)`` in one pass)
* ``"lit"``    ``arg = value``: a scalar baked into the source (when push-constant space ran out)
* ``"acc"``    the accumulated value, in a reduction's epilogue
* ``"cast"``   ``srcs = (src,)``: a dtype conversion with NumPy's semantics
* ``"bitcast"`` ``srcs = (src,)``: ``src``'s bits read as a dtype of the same itemsize (``ndarray.view``)
* any op of :data:`kdsl.codegen.ops.OPS`, ``srcs`` its operands

Expressions are *hash-consed*: building the same expression twice returns the same object, so equality is
identity and the hash is computed once, from the children's cached hashes. Hashing, comparing and walking an
expression therefore costs time linear in its number of distinct nodes (a DAG), not in the size of the tree
it unfolds to: an iteration like ``x = 0.5 * (x + a / x)`` uses ``x`` twice per step, and as a tree it doubles
with every step.

Example:
    >>> from kdsl import dtype as dt
    >>> x = Expr("load", dt.float32, (), (1, None))
    >>> y = Expr("add", dt.float32, (x, x))
    >>> y is Expr("add", dt.float32, (x, x)), y.srcs[0] is x, y
    (True, True, Expr(add float32, 2 srcs))
    >>> e = x
    >>> for _ in range(200):  # 2**200 tree nodes, 201 distinct ones
    ...     e = Expr("add", dt.float32, (e, e))
    >>> len(e.walk())
    201
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from kdsl import dtype as dt

_interned: weakref.WeakValueDictionary[tuple[Any, ...], Expr] = weakref.WeakValueDictionary()
_lock = threading.RLock()  # re-entrant: a collection inside may run a finaliser that interns too


def _new_lock_after_fork() -> None:
    global _lock
    _lock = threading.RLock()  # another thread may have held it at fork time


os.register_at_fork(after_in_child=_new_lock_after_fork)


def _arg_key(arg: object) -> object:
    """``arg`` as part of the intern key: floats by their text, so 0.0 and -0.0 (equal, same hash) and 1 and 1.0
    stay distinct expressions."""
    if isinstance(arg, float) or (hasattr(arg, "dtype") and not isinstance(arg, tuple)):
        return (type(arg).__name__, repr(arg))
    if isinstance(arg, tuple):
        return tuple(_arg_key(a) for a in arg)
    return arg


class Expr:
    """One node of a kernel expression (see the module docstring). Build with ``Expr(op, dtype, srcs, arg)``;
    the same arguments give the same object."""

    __slots__ = ("op", "dtype", "srcs", "arg", "_hash", "__weakref__")
    op: str
    dtype: dt.DType
    srcs: tuple[Expr, ...]
    arg: Any
    _hash: int

    def __new__(cls, op: str, dtype: dt.DType, srcs: tuple[Expr, ...] = (), arg: Hashable = None) -> Expr:
        # children are interned, so the key's tuple compares them by identity and hashes their cached hashes
        key = (op, dtype, srcs, _arg_key(arg))
        with _lock:
            hit = _interned.get(key)
            if hit is not None:
                return hit
            self = object.__new__(cls)
            object.__setattr__(self, "op", op)
            object.__setattr__(self, "dtype", dtype)
            object.__setattr__(self, "srcs", srcs)
            object.__setattr__(self, "arg", arg)
            object.__setattr__(self, "_hash", hash(key))
            _interned[key] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Expr is immutable")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:  # interned: equal expressions are the same object
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __reduce__(self) -> tuple[Callable[..., Expr], tuple[Any, ...]]:  # copy/pickle re-intern
        return (Expr, (self.op, self.dtype, self.srcs, self.arg))

    def walk(self) -> list[Expr]:
        """Every distinct node of this expression once, sources before their users."""
        order: list[Expr] = []
        seen: set[int] = set()
        stack: list[tuple[Expr, bool]] = [(self, False)]
        while stack:
            e, done = stack.pop()
            if done:
                order.append(e)
                continue
            if id(e) in seen:
                continue
            seen.add(id(e))
            stack.append((e, True))
            stack.extend((s, False) for s in reversed(e.srcs) if id(s) not in seen)
        return order

    def find(self, op: str) -> Iterator[Expr]:
        """The distinct nodes of kind ``op`` in this expression."""
        return (e for e in self.walk() if e.op == op)

    def __repr__(self) -> str:
        return f"Expr({self.op} {self.dtype.name}, {len(self.srcs)} srcs)"


def load(slot: int, dtype: dt.DType, view: Hashable) -> Expr:
    """Buffer ``slot`` read through ``view``."""
    return Expr("load", dtype, (), (slot, view))


def pushed_offset(view: Any, word: int | None) -> tuple[Any, tuple[int, bool] | None]:
    """(the view to put in a load's or remap's arg, the ``(word, wide)`` that reads its offset): the view with
    offset 0 when ``word`` holds the offset, else the view itself and None.

    >>> from kdsl.ir.view import View
    >>> pushed_offset(View.contiguous((4,), 8), 3)
    (View(shape=(4,), strides=(1,), offset=0), (3, False))
    """
    if word is None:
        return view, None
    return type(view)(view.shape, view.strides, 0), (word, view.wide)


def offset_of(arg: tuple) -> tuple[str, bool] | tuple[None, None]:
    """(GLSL of the pushed offset, wide) of a load's or remap's ``arg``; (None, None) for a literal offset.

    >>> offset_of((1, None, (2, False))), offset_of((1, None))
    (('pc.w[2]', False), (None, None))
    """
    pushed = arg[2] if len(arg) > 2 else None
    if pushed is None:
        return None, None
    return f"pc.w[{pushed[0]}]", pushed[1]


def const(word: int, dtype: dt.DType) -> Expr:
    """A push constant at word ``word``."""
    return Expr("const", dtype, (), word)


def acc(dtype: dt.DType) -> Expr:
    """The accumulator, in a reduction's epilogue."""
    return Expr("acc", dtype)
