"""Cutting a long lazy loop where its body repeats, so that every kernel of the loop is the same kernel.

A loop run without ``kd.realize`` (``for _ in range(200): x = r * x * (1 - x)``, an RK4 integrator) builds one
deep graph. The fusion limits (:mod:`kdsl.engine.fusion`: chain depth, push words, re-reads) cut it where a
kernel gets full, and the place a limit is reached drifts through the loop body from one kernel to the next:
each kernel starts at another op of the body and compiles to another program (100 distinct kernels for the
100 steps of an RK4 loop, each compiled on a user's first run). Here the graph is cut at *anchors* instead:
the loop-carried value of every k-th step (k as many steps as a kernel holds), so that the kernels between two
anchors repeat and the limits, counted again from the anchors, fall at the same op of every group.

How the steps are found, with no help from the user: nodes are grouped by their *shape* (op, dtype, shape and
view of the node and of the nodes up to ``DEPTH`` levels below it, never data), and a group of at least
``MIN_STEPS`` nodes is a loop's step. Of the groups that span the same stretch of the graph, the loop-carried
value is the one fewest other values live across (in the scheduler's order, every step's state is computed
after all of the step's other nodes: only it is read by the next step).

Example (the limits had cut every 5th node; the loop is cut at every x = ... instead, 3 nodes a step):
    >>> import kdsl as kd, numpy as np
    >>> from kdsl.ir.graph import toposort
    >>> x = kd.asarray(np.full(4, 0.5, np.float32))
    >>> for _ in range(40):
    ...     x = 3.5 * x * (1 - x)
    >>> live = [n for n in toposort([x._node]) if not n.realized and n.op != "const"]
    >>> readers = {}
    >>> for n in live:
    ...     for s in n.srcs:
    ...         readers.setdefault(s.id, []).append(n)
    >>> cuts = {n.id for n in live[::5]}
    >>> found = anchors(live, {x._node.id}, cuts, readers, lambda nodes, kept: cuts - kept)  # (a step is too much)
    >>> at = sorted(p for p, n in enumerate(live) if n.id in found)
    >>> at[:4], {live[p].op for p in at}
    ([2, 5, 8, 11], {'mul'})
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kdsl.ir.graph import Node
from kdsl.ir.view import View

DEPTH = 6  # levels of sources a node's shape key covers (enough to tell a step's ops apart)
MIN_STEPS = 8  # nodes of one shape that make a loop (fewer: the graph is left as the limits cut it)


def anchors(live: list[Node], keep: set[int], cuts: set[int], consumers: dict[int, list[Node]],
            limits: Callable[[list[Node], set[int]], set[int]]) -> set[int]:
    """Ids of the nodes to store so that the loops of ``live`` (in the scheduler's order) are cut where their
    steps repeat: for each loop that the fusion limits had to cut (``cuts``), its loop-carried value every k
    steps, k the most steps one kernel holds. ``keep``: nodes stored anyway (not candidates); ``limits``: the
    nodes the fusion limits cut in a list of nodes (in order), given the stored ones."""
    pos = {n.id: p for p, n in enumerate(live)}
    steps: dict[int, list[int]] = {}  # shape key -> positions of the candidate nodes of that shape
    for p, key in enumerate(_shape_keys(live, pos)):
        n = live[p]
        if n.is_elementwise and n.id not in keep:
            steps.setdefault(key, []).append(p)
    # (a loop's steps read the step before: not the same op applied to many inputs, ``x.astype(float)`` each step)
    loops = [ps for ps in steps.values() if len(ps) >= MIN_STEPS and _path(live[ps[1]], live[ps[0]], ps[1] - ps[0])]
    if not loops:
        return set()
    width = _live_widths(live, keep | cuts, pos, consumers)
    cut_at = sorted(pos[i] for i in cuts if i in pos)
    out: set[int] = set()
    taken: list[tuple[int, int]] = []  # the stretches of live already cut by a loop's anchors
    for ps in sorted(loops, key=lambda ps: (sum(width[p] for p in ps) / len(ps), len(ps), ps[0])):
        lo, hi = ps[0], ps[-1]
        if not any(lo <= c <= hi for c in cut_at) or any(lo <= b and a <= hi for a, b in taken):
            continue
        taken.append((lo, hi))
        ps = _earlier_steps(live, ps, pos, keep) + ps
        state, made = _carried(live, pos, keep | out, consumers, ps)
        out |= _every(state, _steps_per_kernel(pos, made, state, keep | out, limits))
    return out


Spans = list[tuple[list[int], int, int]]  # (ids of values to store, first step it is state at, step it is not)


def _every(spans: Spans, k: int) -> set[int]:
    """The state after every k-th step (steps k-1, 2k-1, ...)."""
    return {i for ids, first, end in spans if first + (k - 1 - first) % k < end for i in ids}


def _carried(live: list[Node], pos: dict[int, int], stored: set[int], consumers: dict[int, list[Node]],
             ps: list[int]) -> tuple[Spans, list[list[Node]]]:
    """The state of each step (its loop-carried value at a position of ``ps``): the computed values the steps
    after it read, of the step's value and everything it was computed from (a loop of ``lo, hi = where(...),
    where(...)`` carries both). Storing them all leaves nothing of a kernel's inlined code reaching back past
    the step, so every group of steps between two stored states fuses alike. A value read through views is
    stored as the value the views read. Returned as the steps each value is state at (a value can stay state
    for many steps: a sum the loop adds to), and each step's own nodes (computed for it, not before)."""
    below: set[int] = set()  # the step's value and all it was computed from (unstored), so far
    outside: dict[int, int] = {}  # id -> reads by nodes not in ``below``, of those in ``below`` that have any
    state: dict[int, tuple[Node, int]] = {}  # id -> (node, the step it became state at), for those
    spans: Spans = []
    made: list[list[Node]] = []
    for j, p in enumerate(ps):
        new: list[Node] = []
        stack = [live[p]]
        while stack:
            n = stack.pop()
            if n.id in below or n.id in stored or n.id not in pos:  # (realised data, scalars: not live)
                continue
            below.add(n.id)
            new.append(n)
            stack.extend(n.srcs)
        for n in new:
            outside[n.id] = sum(c.id not in below for c in consumers.get(n.id, ()))
            if outside[n.id]:
                state[n.id] = (n, j)
        for n in new:
            for src in n.srcs:
                if src.id in state and state[src.id][1] < j:  # read by this step's node: one read fewer outside
                    outside[src.id] -= 1
                    if not outside[src.id]:
                        old, first = state.pop(src.id)
                        spans.append((_computed(old, stored), first, j))
        made.append(new)
    spans.extend((_computed(n, stored), first, len(ps)) for n, first in state.values())
    return spans, made


def _last_reads(live: list[Node], pos: dict[int, int], consumers: dict[int, list[Node]]) -> list[int]:
    return [max((pos.get(c.id, p) for c in consumers.get(n.id, ())), default=p) for p, n in enumerate(live)]


def _computed(n: Node, stored: set[int]) -> list[int]:
    """``n`` if it is an elementwise value to store; for a view, the value it reads (views are free)."""
    while n.op == "view" and n.srcs and n.id not in stored:
        n = n.srcs[0]
    return [n.id] if n.is_elementwise and n.id not in stored else []


def _steps_per_kernel(pos: dict[int, int], made: list[list[Node]], state: Spans, keep: set[int],
                      limits: Callable[[list[Node], set[int]], set[int]]) -> int:
    """The steps of a loop that one group of kernels computes: the largest k (a binary search) for which
    storing every k-th step's state leaves the limits nothing to cut in a group (1 when one step is already
    too much for a kernel: the limits then cut each step at the same ops), and at most the square root of the
    loop's steps: n steps then run a group compiled once about sqrt(n) times (a few groups of many steps
    would each be compiled once, and compiling costs more than launching kernels). Groups repeat, so one in
    the middle of the loop is tried (``made``: each step's nodes), not the whole graph."""

    def fits(k: int) -> bool:
        first = len(made) // k // 2 * k  # (a group starts after a stored state: at a multiple of k)
        group = sorted((n for step in made[first:first + k] for n in step), key=lambda n: pos[n.id])
        return not limits(group, keep | _every(state, k))

    good, bad = 1, math.isqrt(len(made)) + 1
    if not fits(good):
        return good
    while bad - good > 1:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if fits(mid) else (good, mid)
    return good


def _earlier_steps(live: list[Node], ps: list[int], pos: dict[int, int], keep: set[int]) -> list[int]:
    """The positions of the loop-carried values of the steps before ``ps`` (in order). A shape key sees
    ``DEPTH`` levels down, so the first steps of a loop (that reach the loop's input sooner) have keys of their
    own: they are found by following, from the first step found, the path of sources that leads from the
    second step to the first, for as long as it leads to a node of the same op."""
    path = _path(live[ps[1]], live[ps[0]], ps[1] - ps[0])
    out: list[int] = []
    node = live[ps[0]]
    while path:
        prev: Node | None = node
        for k in path:
            prev = prev.srcs[k] if prev is not None and k < len(prev.srcs) else None
        if prev is None or prev.id not in pos or prev.id in keep or _local(prev) != _local(node):
            break
        out.append(pos[prev.id])
        node = prev
    return out[::-1]


def _path(top: Node, bottom: Node, apart: int) -> tuple[int, ...]:
    """The source indices that lead from ``top`` down to ``bottom`` (a shortest such path; () if none is found
    among the nearest few times ``apart`` nodes, ``apart`` their distance in the scheduler's order)."""
    limit = 4 * apart + 8
    paths: dict[int, tuple[int, ...]] = {top.id: ()}
    queue = [top]
    for n in queue:
        if n is bottom:
            return paths[n.id]
        if len(queue) > limit:
            break
        for k, s in enumerate(n.srcs):
            if s.id not in paths:
                paths[s.id] = (*paths[n.id], k)
                queue.append(s)
    return ()


def _shape_keys(live: list[Node], index: dict[int, int]) -> list[int]:
    """Each node's shape key: a hash of its op, dtype, shape and view (no data, no scalar values) and of its
    sources', ``DEPTH`` levels down. Nodes outside ``live`` (``index``: id -> position; stored data, scalar
    constants) are leaves."""
    local = [hash(_local(n)) for n in live]
    leaves = [[hash(_local(s)) for s in n.srcs if s.id not in index] for n in live]
    srcs = [[index[s.id] for s in n.srcs if s.id in index] for n in live]
    keys = local
    for _ in range(DEPTH):
        keys = [hash((local[p], *leaves[p], *[keys[s] for s in srcs[p]])) for p in range(len(live))]
    return keys


def _local(n: Node) -> tuple:
    if n.op in ("buffer", "const"):
        return (n.op, n.dtype.name)
    arg = n.arg
    if isinstance(arg, View):  # offsets are push words: a view's place in its source is not its shape
        arg = (arg.shape, arg.strides)
    elif not isinstance(arg, (str, int, float, tuple, type(None))):
        arg = type(arg).__name__
    try:
        hash(arg)
    except TypeError:
        arg = type(arg).__name__
    return (n.op, n.dtype.name, n.shape, arg, len(n.srcs))


def _live_widths(live: list[Node], stored: set[int], pos: dict[int, int],
                 consumers: dict[int, list[Node]]) -> list[int]:
    """For each position, how many computed, unstored values are live across the boundary after it (computed
    there or before, read after): the state a loop carries from one step to the next."""
    delta = [0] * (len(live) + 1)
    for p, last in enumerate(_last_reads(live, pos, consumers)):
        if last > p and live[p].id not in stored:
            delta[p] += 1
            delta[last] -= 1
    widths, run = [], 0
    for d in delta[:-1]:
        run += d
        widths.append(run)
    return widths
