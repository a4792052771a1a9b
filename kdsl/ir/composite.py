"""Operations differentiated as a whole: the marks that :func:`kdsl.custom_vjp` (and kdsl's own functions whose
insides autodiff cannot walk) leave on their results, and the guard against the ones that leave none.

Autodiff walks the lazy graph backwards (:mod:`kdsl.autodiff.tape`). Two kinds of computation hide the path
from an input to a result: **custom kernels** (``@kd.kernel``, ``kd.raw_kernel``, and through them ``kd.linalg``
and ``kd.fft``) write fresh buffers the graph knows no sources of, and **bit tricks** (``kd.cbrt``'s exponent
arithmetic, ``kd.frexp``) pass through integer nodes, which carry no gradient. Left alone, both give a gradient
of zero: silently wrong. So:

* a result computed that way is marked (:func:`mark`) with the nodes it came from and a ``backward`` function
  that maps its cotangent to theirs; the walk then steps from the result straight to those nodes;
* a custom kernel that reads an array while a gradient is being traced, outside a marked computation, is
  reported to the tape (:func:`note_read`), which raises if that array depends on a differentiated input.

Both cost nothing unless a gradient is being traced (:func:`tracing`).

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.graph import Node
    >>> x = Node("const", (), dt.float32, (), 2.0)
    >>> y = Node("copy", (x,), dt.float32, ())
    >>> mark(y, (x,), lambda index, g: (g * 3,), 0)
    >>> MARKS[y].inputs == (x,), MARKS[y].result
    (True, 0)
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from kdsl.ir import graph
from kdsl.ir.graph import Node


class Composite(NamedTuple):
    """A marked result: ``backward(result, g)`` gives one cotangent (or None) per node of ``inputs`` from the
    cotangent ``g`` of the computation's result number ``result``."""

    backward: Callable[[int, Any], Any]
    inputs: tuple[Node, ...]
    result: int


MARKS: weakref.WeakKeyDictionary[Node, Composite] = weakref.WeakKeyDictionary()
# Called with (node, reader) when a custom kernel reads ``node`` outside a marked computation while a gradient
# is traced (kdsl.autodiff.tape registers one per trace).
read_hooks: list[Callable[[Node, str], None]] = []
_local = threading.local()


def tracing() -> bool:
    """Whether a gradient is being traced (``kd.grad``'s function is running): only then are marks made."""
    return bool(graph.before_become_buffer)


def mark(node: Node, inputs: tuple[Node, ...], backward: Callable[[int, Any], Any], result: int = 0) -> None:
    """Differentiate ``node`` as result number ``result`` of a computation of ``inputs`` (see
    :class:`Composite`). ``node`` must be a fresh node that nothing else is (a copy of the computed result)."""
    MARKS[node] = Composite(backward, tuple(inputs), result)


@contextmanager
def marked() -> Iterator[None]:
    """The block computes results that will be marked: its custom kernels' reads are not reported."""
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        yield
    finally:
        _local.depth -= 1


def note_read(node: Node, reader: str) -> None:
    """A custom kernel (``reader``: who launched it) is about to read ``node``."""
    if read_hooks and not getattr(_local, "depth", 0):
        for hook in list(read_hooks):
            hook(node, reader)


__all__ = ["Composite", "MARKS", "mark", "marked", "note_read", "read_hooks", "tracing"]
