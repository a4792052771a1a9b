"""Whether a lazy result reads its inputs element by element: its element ``i`` reads element ``i`` (broadcast) of
each input only, through element-wise operations, broadcasts and lookups indexed by their values.

``kd.piecewise`` and ``kd.vectorize`` call a user's function once with whole arrays where NumPy calls it with
the selected elements (``f(x[cond])``) or with one element at a time. Both agree only for a function that is
element-wise in its arguments; a reduction (``v - v.mean()``, ``v / np.max(v)``), a scan, a sort, a reordering
view (``v[::-1]``, ``np.roll(v, 1)``) or positions (``np.arange(len(v))``) between the result and an input
make them differ. This walk over the result's graph tells them apart, so that those callers run such a function
as NumPy does instead of returning a silently different answer.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 6.0])
    >>> reads_elementwise(kd.sqrt(x) * 2 + 1, [x]), reads_elementwise(x - x.mean(), [x])
    (True, False)
"""

from __future__ import annotations

from kdsl.frontend.array.array import Array
from kdsl.ir.graph import MATERIALISED, Node
from kdsl.ir.view import View, contiguous_strides

# lookups: element i reads its own index or value (srcs[1]) and any element of the table (srcs[0])
_LOOKUPS = ("rows", "gather", "search")


def _is_broadcast(node: Node) -> bool:
    """Whether a view node only broadcasts its source (new leading axes, size-1 axes stretched), or is it."""
    view, src = node.arg, node.srcs[0].shape
    lead = len(view.shape) - len(src)
    if view.offset or lead < 0 or any(view.strides[:lead]):
        return False
    for n_src, n, stride, step in zip(src, view.shape[lead:], view.strides[lead:], contiguous_strides(src),
                                      strict=True):
        if n_src == 1:
            if stride and n != 1:
                return False
        elif n != n_src or stride != step:
            return False
    return True


def _broadcasts_input(node: Node, inputs: list[Node]) -> bool:
    """Whether a view node is an input view broadcast (``f(a, a[0])``: kdsl folds the broadcast of the view
    ``a[0]`` into one view of ``a``)."""
    view = node.arg
    for inp in inputs:
        if inp.op != "view" or inp.srcs[0] is not node.srcs[0]:
            continue
        own = inp.arg.canonical()
        lead = len(view.shape) - len(own.shape)
        if lead < 0 or view.offset != own.offset:
            continue
        want = (0,) * lead + tuple(0 if m == 1 else st for m, st in zip(own.shape, own.strides, strict=True))
        if view.canonical().strides == View(view.shape, want, view.offset).canonical().strides:
            return True
    return False


def _reaches(node: Node, targets: set[int]) -> bool:
    """Whether one of the ``targets`` (node ids) is in the graph below ``node``."""
    seen: set[int] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in targets:
            return True
        if id(n) not in seen:
            seen.add(id(n))
            stack.extend(n.srcs)
    return False


def reads_elementwise(value: Array, inputs: list[Array], strict: bool = False) -> bool:
    """Whether ``value`` reads each of ``inputs`` element by element (see the module docstring). With
    ``strict``, positions (``iota``) and realised arrays of more than one element met on the way (a function
    that read part of its argument back, e.g. by a boolean mask, hides what it computed) count as not
    element-wise too."""
    nodes = [a._n for a in inputs]
    # an input that is a view stands for part of its source: kdsl folds a view of it (``np.roll(row, 1)``) into
    # a view of that source, so reading the source counts as reading the input
    targets = {id(n) for n in nodes} | {id(n.srcs[0]) for n in nodes if n.op == "view"}
    seen: set[int] = set()
    stack = [value._n]
    while stack:
        node = stack.pop()
        if id(node) in targets or id(node) in seen:
            continue
        seen.add(id(node))
        if strict and (node.op == "iota" or (node.op == "buffer" and node.size > 1)):
            return False
        if node.op in _LOOKUPS:
            if _reaches(node.srcs[0], targets):
                return False
            stack.extend(node.srcs[1:])
        elif node.op in MATERIALISED or (node.op == "view" and not _is_broadcast(node)
                                         and not _broadcasts_input(node, nodes)):
            if _reaches(node, targets):
                return False
        else:
            stack.extend(node.srcs)
    return True


def _one_element(node: Node) -> bool:
    """Whether a view node reads a single element of its source (``a[0]``, or its broadcast: all strides 0)."""
    return all(stride == 0 or n == 1 for n, stride in zip(node.arg.shape, node.arg.strides, strict=True))


def reads_as_array(value: Array, inp: Array) -> bool:
    """Whether ``value`` reads ``inp`` as an array along the way of its own elements: through element-wise
    operations and views that read more than one element (``x + a``, ``x * a[::-1]``), not only through a
    reduction, a lookup table or one element (``x + a.sum()``, ``a[x]``, ``x * a[0]``). ``kd.vectorize`` passes
    an excluded argument whole to each of NumPy's calls: such a function's result per element is an array.

    >>> import kdsl as kd
    >>> x, a = kd.asarray([1.0, 2.0]), kd.asarray([3.0, 4.0])
    >>> reads_as_array(x + a, a), reads_as_array(x + a.sum(), a), reads_as_array(x * a[0], a)
    (True, False, False)
    """
    seen: set[int] = set()
    stack = [value._n]
    while stack:
        node = stack.pop()
        if node is inp._n:
            return True
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op in _LOOKUPS:
            stack.extend(node.srcs[1:])
        elif node.op == "view" and (_is_broadcast(node) or not _one_element(node)):
            stack.extend(node.srcs)
        elif node.op not in MATERIALISED and node.op != "view":
            stack.extend(node.srcs)
    return False


__all__ = ["reads_as_array", "reads_elementwise"]
