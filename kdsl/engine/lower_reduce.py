"""Reductions: the kernel mode and the split into passes of partial results that keep every invocation within
the device's loop budget.
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import reduce_columns, reduce_parts, reduce_workgroup
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.engine.lowering import Lowering, Source, Step
from kdsl.ir import expr as ir
from kdsl.ir.graph import Node
from kdsl.ir.kernels import LOCAL, MAX_GROUPS, Reduce, elementwise_groups
from kdsl.ir.view import INDEX_LIMIT, View

CPU_FOLD = 1 << 16  # CPU drivers: reductions shorter than this fold in one invocation per output, no workgroup trees


def reduce_plan(shape: tuple[int, ...], axes: tuple[int, ...], dev: Device, cost: int = 1,
                 extra: int = 0) -> tuple[str, int, int]:
    """(mode, splits, groups) for a reduction (see :class:`kdsl.ir.kernels.Reduce`).

    One invocation per output when reductions are short, when neighbouring outputs sit next to each other in
    memory (innermost axis kept), or when there are at least ``dev.thread_outputs`` outputs (a per-device
    choice: a CPU driver pays for every workgroup barrier, a GPU wants its workgroups full; on a CPU driver,
    every reduction shorter than 65 536). A few long
    reductions are first cut into partial results that a second pass combines: about ``dev.partials`` strided
    ones, one per invocation, when set (CPU drivers), else up to ``dev.reduce_groups`` contiguous chunks, one per
    workgroup.
    Then :func:`_fit_budget` adds splits and workgroups until no invocation loops past ``dev.loop_budget``
    (``cost``: loop iterations per folded element; ``extra``: per output, for the epilogue)."""
    r = math.prod(shape[a] for a in axes)
    o = math.prod(n for k, n in enumerate(shape) if k not in axes)
    inner_kept = bool(shape) and (len(shape) - 1) not in axes and shape[-1] > 1
    if r <= 32 or (inner_kept and o >= 1024) or o >= dev.thread_outputs or (dev.partials and r < CPU_FOLD):
        # (a CPU driver: one invocation per output up to 65 536 elements, even for a single output. Its
        # workgroup barriers cost more than the loop: lavapipe sums 256 rows of 256 in 0.7 ms so, 30 ms as
        # workgroup trees, and one row of 60 000 in 0.9 ms, 2.7 ms as a tree)
        mode, splits = "thread", 1
    elif o < 1024 and r >= 1 << 16:  # tall-skinny (X.T @ dz: 64 outputs of 10**6): split to fill the device
        if dev.partials:  # strided partial results, one per invocation (no barriers: CPU drivers)
            mode, splits = "thread", max(LOCAL, min(dev.partials // o, r // 64) // LOCAL * LOCAL)
        else:  # a workgroup tree per contiguous chunk (GPUs)
            mode, splits = "group", min(max(1, dev.reduce_groups // o), max(1, r // 8192))
    else:
        mode, splits = "group", 1
    return _fit_budget(mode, splits, r, max(o, 1), dev, cost, extra)


def _fit_budget(mode: str, splits: int, r: int, o: int, dev: Device, cost: int = 1,
                extra: int = 0) -> tuple[str, int, int]:
    """The plan with enough splits (shorter folds) and workgroups (fewer grid-stride turns) that each
    invocation's loop iterations, all loops together, stay within ``dev.loop_budget``.

    >>> class D: loop_budget, max_groups, reduce_subgroup = 60000, 512, 0
    >>> _fit_budget("thread", 1, 65536, 1024, D())  # 1024 rows of 65 536: two strided halves per row
    ('thread', 2, 8)
    >>> _fit_budget("group", 1, 2**32, 1, D())  # one reduction of 2**32: chunks of at most 256 x 59 990
    ('group', 280, 280)
    """
    budget, tree = dev.loop_budget, reduce_workgroup.trips(dev.reduce_subgroup)  # tree: the workgroup combine
    room = budget - extra - tree  # iterations left for the fold of one output (or partial)
    if room < 2 * cost:
        raise ValueError(f"one element of this reduction costs {cost} loop iterations (helper functions), too "
                         f"many for the device's loop budget of {budget}; simplify the reduced expression")
    if mode == "group":
        splits = max(splits, -(-r * cost // (LOCAL * room)))
        trips = -(-r // splits // LOCAL) * cost + tree + extra
        groups = min(o * splits, MAX_GROUPS)
        if -(-(o * splits) // groups) * trips <= budget:
            return "group", splits, groups
        splits = 1  # too many outputs for workgroup trees in budget: one invocation per partial instead
    splits = max(splits, -(-r * cost // room))
    trips = -(-r // splits) * cost + extra
    return "thread", splits, elementwise_groups(o * splits, dev.max_groups, budget, max(trips, 1))


COLS_WIDTH = 32  # "cols" mode: neighbouring outputs per workgroup (one 128-byte line of float32 per row)
COLS_MIN = 8  # ... at least (a 32-byte memory sector of float32), when an unsplit pass wants more workgroups
COLS_ROWS = 16  # rows each lane folds at least before a pass splits the reduced axes (partials cost a pass)
COLS_SHORT = 4 * COLS_ROWS * LOCAL // COLS_MIN  # no splits up to this many rows: narrow tiles cover them


def column_plan(e: ir.Expr, shape: tuple[int, ...], axes: tuple[int, ...], dev: Device, cost: int = 1,
                extra: int = 0) -> tuple[int, int, int] | None:
    """``(cols, splits, groups)`` of a "cols" mode reduction (see :class:`kdsl.ir.kernels.Reduce`), or None
    when another mode suits better: the reduced expression is not :func:`column_like`, the reduction is
    short, or there are so many outputs that one invocation each fills the device.

    ``cols`` neighbouring outputs per workgroup (``COLS_WIDTH``, fewer for few outputs, down to ``COLS_MIN``
    when an unsplit pass wants more workgroups; quads of outputs when :func:`kdsl.codegen.reduce_columns.cols_vec4`),
    the rest of the workgroup's invocations lanes along the reduced axes; ``splits`` blocks of the reduced axes
    so that about ``dev.reduce_groups`` workgroups run (none up to ``COLS_SHORT`` rows: narrow tiles with many
    lanes cover them, and the second pass of a split one stays a single pass), each lane folding at least
    ``COLS_ROWS`` rows; then more if one lane's loop would pass ``dev.loop_budget``.

    >>> from kdsl.ir.expr import load
    >>> from kdsl import dtype as dt
    >>> class D: loop_budget, reduce_groups, thread_outputs = 60000, 1024, 65536
    >>> x = load(1, dt.float32, View.contiguous((3906250, 256)))
    >>> column_plan(x, (3906250, 256), (0,), D())  # vec4 loads: 2 tiles of 32 quads x 512 blocks of 7630 rows
    (32, 512, 1024)
    >>> column_plan(load(1, dt.float32, View.contiguous((512, 256))), (512, 256), (0,), D())  # the second pass
    (8, 1, 8)
    >>> column_plan(ir.Expr("mul", dt.float32, (x, x)), (3906250, 256), (0,), D())  # scalar: 8 tiles x 128
    (32, 128, 1024)
    """
    if not column_like(e, shape, axes) or math.prod(shape) >= INDEX_LIMIT:
        return None
    r = math.prod(shape[a] for a in axes)
    o = math.prod(n for k, n in enumerate(shape) if k not in axes)
    target = dev.reduce_groups
    if r <= 32 or o >= dev.thread_outputs or -(-o // LOCAL) >= target:  # one invocation per output fills it
        return None
    if getattr(dev, "partials", 0) and r < CPU_FOLD:  # a CPU driver: one invocation per output (see reduce_plan;
        return None  # lavapipe sums the columns of 256 x 256 in 0.8 ms so, 3.2 ms in workgroup tiles)
    if reduce_columns.cols_vec4(e, shape, axes):  # an invocation reads four neighbouring outputs at once
        o //= 4
    w = min(COLS_WIDTH, 1 << (o - 1).bit_length())
    splits = 1 if r <= COLS_SHORT else max(1, min(-(-target // -(-o // w)), r // (LOCAL // w * COLS_ROWS)))
    while splits == 1 and w > COLS_MIN and -(-o // w) < target:  # more lanes per column, more workgroups
        w //= 2
    lanes, tiles = LOCAL // w, -(-o // w)
    room = dev.loop_budget - extra - lanes.bit_length() - 1  # the tree over the lanes: log2(lanes) + 1 trips
    if room < 2 * cost:
        return None
    splits = max(splits, -(-r * cost // (lanes * room)))
    groups = min(tiles * splits, MAX_GROUPS)
    trips = -(-r // splits // lanes) * cost + lanes.bit_length() + 1 + extra
    if -(-(tiles * splits) // groups) * trips > dev.loop_budget:
        return None
    return w, splits, groups


def column_like(e: ir.Expr, shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether neighbouring outputs of reducing ``e`` over ``axes`` read neighbouring memory: every load that
    varies along both kept and reduced axes moves least along the innermost kept axis (``X.sum(axis=0)``,
    ``X.T @ dz`` as a reduction); loads broadcast along either side are read once per row or column and do
    not count. Without such loads (``iota``, remapped sources): whether the innermost kept axis of size > 1
    lies inside every reduced one.

    >>> from kdsl.ir.expr import load
    >>> from kdsl import dtype as dt
    >>> x = View.contiguous((1000, 64))
    >>> column_like(load(1, dt.float32, x), (1000, 64), (0,)), column_like(load(1, dt.float32, x), (1000, 64), (1,))
    (True, False)
    >>> column_like(load(1, dt.float32, x.permute((1, 0))), (64, 1000), (1,))  # X.T.sum(axis=1)
    True
    """
    return _moves_least(e, shape, [a for a in range(len(shape)) if a not in axes], list(axes))


def row_like(e: ir.Expr, shape: tuple[int, ...], axes: tuple[int, ...]) -> bool:
    """Whether the elements each output folds lie next to each other in memory: :func:`column_like` with
    the roles of the kept and the reduced axes swapped (``X.sum(axis=1)``, ``X @ w``).

    >>> from kdsl.ir.expr import load
    >>> from kdsl import dtype as dt
    >>> x = View.contiguous((1000, 64))
    >>> row_like(load(1, dt.float32, x), (1000, 64), (1,)), row_like(load(1, dt.float32, x), (1000, 64), (0,))
    (True, False)
    """
    return _moves_least(e, shape, list(axes), [a for a in range(len(shape)) if a not in axes])


def _moves_least(e: ir.Expr, shape: tuple[int, ...], inner: list[int], outer: list[int]) -> bool:
    """Whether every load of ``e`` that varies along both axis sets moves least along the innermost axis of
    size > 1 in ``inner``; without such loads, whether that axis lies inside every ``outer`` one."""
    inner, outer = [a for a in inner if shape[a] > 1], [a for a in outer if shape[a] > 1]
    if not inner or not outer:
        return False
    fast, streams = inner[-1], 0
    for ld in e.find("load"):
        view = ld.arg[1]
        if not isinstance(view, View) or view.shape != shape:  # a load under a remap: another index space
            continue
        st = view.strides
        moving = [abs(st[a]) for a in outer if st[a]]
        if not moving or all(st[a] == 0 for a in inner):
            continue
        streams += 1
        if abs(st[fast]) > min(moving):
            return False
    return streams > 0 or fast > max(outer)


ROWS_LANES = 32  # "rows" mode: invocations per output at most (one 128-byte line of float32 a turn)
ROWS_MIN = 32  # ... for rows of at least this many elements (shorter ones: a line or less per invocation)


def row_plan(e: ir.Expr, shape: tuple[int, ...], axes: tuple[int, ...], dev: Device, cost: int = 1,
             extra: int = 0) -> tuple[int, int, int] | None:
    """``(outputs per workgroup, 1, groups)`` of a "rows" mode reduction (see :func:`kdsl.codegen.reduce.render`),
    or None: many outputs (at least ``dev.thread_outputs``, where one invocation each would read its row alone,
    a cache line per invocation per turn) whose elements are contiguous (:func:`row_like`) and at least
    ``ROWS_MIN`` long, on GPUs (a CPU driver reads rows per invocation well). Lanes per output: a power of two
    near a quarter of the row, at most ``ROWS_LANES``; no invocation loops past ``dev.loop_budget``.

    >>> from kdsl.ir.expr import load
    >>> from kdsl import dtype as dt
    >>> class D: loop_budget, thread_outputs, partials = 60000, 65536, 0
    >>> row_plan(load(1, dt.float32, View.contiguous((10**6, 64))), (10**6, 64), (1,), D())  # 16 lanes a row
    (16, 1, 62500)
    """
    if dev.partials or not row_like(e, shape, axes) or math.prod(shape) >= INDEX_LIMIT:
        return None
    r = math.prod(shape[a] for a in axes)
    o = math.prod(n for k, n in enumerate(shape) if k not in axes)
    if o < dev.thread_outputs or r < ROWS_MIN:
        return None
    lanes = min(ROWS_LANES, 1 << ((r // 4).bit_length() - 1))
    w = LOCAL // lanes
    total = -(-o // w)
    groups = min(total, MAX_GROUPS)
    trips = -(-r // lanes) * cost + lanes.bit_length() + 1 + extra
    if -(-total // groups) * trips > dev.loop_budget:
        return None
    return w, 1, groups


def lower_reduce(node: Node, keep: set[int], dev: Device, epilogue_of: Node | None = None,
                  standin: Node | None = None) -> list[Step]:
    op, axes = node.arg
    src = node.srcs[0]
    return reduce_steps(op, src.shape, axes, src.dtype, lambda low: low.expr(src), node, keep, dev,
                         epilogue_of, standin)


def reduce_steps(op: str, shape: tuple[int, ...], axes: tuple[int, ...], dtype: dt.DType, source: Source,
                  node: Node, keep: set[int], dev: Device, epilogue_of: Node | None = None,
                  standin: Node | None = None) -> list[Step]:
    """The passes reducing ``source`` (a function lowering the reduced expression into a Lowering) over
    ``axes`` of ``shape`` into ``node``: partial passes while the plan splits, then the final pass (with the
    epilogue). Partial sums are reduced again; argmax / argmin partials hold the picked positions, and the
    next pass re-reads their values (``Reduce.index_of``), so the first index of the extreme still wins."""
    arg = op in ("argmax", "argmin")
    low = Lowering(keep, dev.max_push_words)
    e = source(low)
    cost = 1 + expr_loops(e, shape)  # argmax passes re-read values through the expression: same cost
    extra = 0
    if epilogue_of is not None:  # evaluated once per output, in the last pass
        assert standin is not None  # an epilogue always comes with the reduction's stand-in
        trial = Lowering(keep, dev.max_push_words)
        trial.acc, trial.root = (standin, ir.acc(node.dtype)), epilogue_of
        extra = expr_loops(trial.expr(epilogue_of), epilogue_of.shape)
    k_shape, k_axes, index_of, parts = shape, axes, None, 0
    plan_shape, plan_axes = shape, axes
    steps: list[Step] = []
    while True:
        cols = None if arg else column_plan(e, k_shape, k_axes, dev, cost, extra)
        rows = None if arg or cols else row_plan(e, k_shape, k_axes, dev, cost, extra)
        if cols is not None:
            width, splits, groups = cols
            mode = "cols"
        elif rows is not None:
            width, splits, groups = rows
            mode = "rows"
        else:
            width = 0
            mode, splits, groups = reduce_plan(plan_shape, plan_axes, dev, cost, extra)
        if splits == 1:
            break
        # partial results: (outputs, splits), or (splits, outputs) after a "cols" pass (a column reduction next)
        p_shape = (splits, node.size) if mode == "cols" else (node.size, splits)
        part = Node("partial", (), node.dtype if arg else dtype, p_shape, device=dev)
        kernel = Reduce(op, k_shape, k_axes, part.dtype, e, 0, mode, splits, groups, None, part.shape, index_of,
                        parts, dev.reduce_subgroup if mode in ("group", "rows") else 0, width)
        steps.append(low.step(_checked(kernel, dev), part))
        low = Lowering(keep, dev.max_push_words)
        p_axes = (0,) if mode == "cols" else (1,)
        if arg:
            e, index_of, parts = source(low), low.load(part, View.contiguous(part.shape)), splits
        else:
            e, k_shape, k_axes, cost = low.load(part, View.contiguous(part.shape)), part.shape, p_axes, 1
        plan_shape, plan_axes = part.shape, p_axes
    out, epilogue = node, None
    if epilogue_of is not None and standin is not None:
        low.acc = (standin, ir.acc(node.dtype))
        low.root = epilogue_of
        epilogue = low.expr(epilogue_of)
        out = epilogue_of
    kernel = Reduce(op, k_shape, k_axes, out.dtype, e, 0, mode, 1, groups, epilogue, out.shape, index_of, parts,
                    dev.reduce_subgroup if mode in ("group", "rows") else 0, width)
    steps.append(low.step(_checked(kernel, dev), out))
    return steps


def _checked(kernel: Reduce, dev: Device) -> Reduce:
    """``kernel``, once the device is known to have the 64-bit integers its positions need."""
    if reduce_parts.needs_int64(kernel) and not dev.supports(dt.int64):
        raise ValueError(f"reducing {math.prod(kernel.shape)} elements needs 64-bit integer positions, which "
                         f"{dev.name} does not support; reduce fewer than 2**30 elements at a time")
    return kernel
