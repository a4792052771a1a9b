"""Matmul: the kernel for the device (cooperative matrices, shared-memory tiles, or the CPU driver's), and k cut
into chunks (split-K) when the loop budget or too few output tiles call for it.
"""

from __future__ import annotations

import os

from kdsl.codegen import coopmat, matmul, matmul_cpu
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.dtype import DType
from kdsl.engine.lower_reduce import reduce_steps
from kdsl.engine.lowering import Lowering, Step
from kdsl.ir import expr as ir
from kdsl.ir.graph import Node
from kdsl.ir.kernels import MAX_GROUPS, Matmul, elementwise_groups
from kdsl.ir.view import View

# Epilogues on the cooperative-matrix kernel: on by default since an H200 ran tests/mlperf/test_coopmat.py's
# device epilogues (2026-12-01); KDSL_COOPMAT_EPILOGUE=0 turns them off (the matmul then stores its product and
# the epilogue runs as its own kernel), a switch kept for drivers whose coopmat stores misbehave.
COOPMAT_EPILOGUE = os.environ.get("KDSL_COOPMAT_EPILOGUE", "1").strip() != "0"


def epilogue_allowed(mm: Node, dev: Device) -> bool:
    """Whether matmul node ``mm``'s kernel on ``dev`` may compute an epilogue (see :data:`COOPMAT_EPILOGUE`)."""
    return COOPMAT_EPILOGUE or _coop_shape(mm.srcs[0].dtype, mm.srcs[1].dtype, dev) is None


def _coop_shape(a: DType, b: DType, dev: Device) -> tuple[int, int, int, int] | None:
    """The cooperative-matrix fragment shape a matmul of ``a`` and ``b`` operands gets on ``dev`` (None: a
    scalar kernel)."""
    if not dev.matmul_tiles:
        return None
    return coopmat.choose(dev.coopmat_shapes, a, b, dev.subgroup_size, dev.features, dev.max_shared_memory)


def lower_matmul(node: Node, keep: set[int], dev: Device, epilogue_of: Node | None = None,
                 standin: Node | None = None) -> list[Step]:
    """One Matmul kernel; when its k loop would pass the loop budget, k is cut into chunks whose partial
    products a sum reduction adds. With ``epilogue_of`` (an elementwise node reading the product as
    ``standin``, :func:`kdsl.engine.fusion.matmul_epilogue_source`), the last kernel computes and stores that
    node instead: the matmul kernel itself, or the reduction over its chunks."""
    low = Lowering(keep, dev.max_push_words)
    a, b = (low.expr(s) for s in node.srcs)
    batch, m, k = node.srcs[0].shape
    n = node.shape[2]
    shape = _coop_shape(a.dtype, b.dtype, dev)
    lanes = dev.matmul_lanes if not dev.matmul_tiles and min(m, n, k) > 0 and \
        matmul_cpu.eligible(a.dtype, b.dtype, dev.matmul_lanes, batch * m * n * k) else 0
    coop = coopmat.tile(shape, batch, m, n, k) if shape else ()
    kernel = Matmul(batch, m, n, k, node.dtype, a, b, 0, dev.matmul_tiles, coop=coop, lanes=lanes,
                    vec64=bool(lanes) and "int64" in dev.features)
    budget = dev.loop_budget
    la, lb = expr_loops(a, (batch, m, k)), expr_loops(b, (batch, k, n))
    cost = 1 + 4 * (la + lb)  # per k step: four elements of each operand
    if lanes:
        rows, cols, _ = matmul_cpu.geometry(kernel)
        cost = 1 + matmul_cpu.KU * (rows // lanes * la + cols * lb)  # KU k steps per iteration

    # a CPU-driver tile stores through a loop when the matmul computes an epilogue (only unsplit)
    stores = matmul_cpu.epilogue_trips(kernel._replace(epilogue=ir.acc(node.dtype))) if lanes and epilogue_of \
        else 0

    def split(s: int) -> Matmul:  # the kernel in s chunks (its tiles' k slice depends on their size)
        cut = kernel._replace(splits=s)
        return matmul.fit_shared(cut, dev.max_shared_memory) if cut.tiled and not coop else cut

    def trips(s: int) -> int:  # one invocation's loop iterations with s chunks
        per_tile = matmul.trips(split(s)) * cost + (stores if s == 1 else 0)
        return per_tile * -(-(batch * s) // MAX_GROUPS)

    splits = 1
    while trips(splits) > budget // 2 and splits < max(k, 1):
        splits *= 2
    splits = max(splits, fill_splits(kernel, dev))
    kernel = split(splits)
    if kernel.lanes:  # the workgroups' grid-stride turns times one tile's trips stay in budget
        kernel = kernel._replace(groups=matmul_cpu.groups(kernel, budget, trips(splits)))
    elif not kernel.tiled:
        kernel = kernel._replace(groups=elementwise_groups(max(batch * splits * -(-m // 4) * -(-kernel.n // 4), 1),
                                                           512, budget, trips(splits)))
    if splits == 1:
        if epilogue_of is None or standin is None:
            return [low.step(kernel, node)]
        low.acc, low.root = (standin, ir.acc(node.dtype)), epilogue_of
        epilogue = low.expr(epilogue_of)
        # no loops inside (the fusion's rule), so the k loop's trips above are still the whole budget
        assert expr_loops(epilogue, epilogue_of.shape) == 0, "a looping epilogue reached a matmul kernel"
        kernel = kernel._replace(out_dtype=epilogue_of.dtype, epilogue=epilogue, out_shape=epilogue_of.shape)
        return [low.step(kernel, epilogue_of)]
    part = Node("partial", (), node.dtype, (splits, node.size), device=dev)
    steps = [low.step(kernel, part)]
    return steps + reduce_steps("sum", part.shape, (0,), node.dtype,
                                 lambda lw: lw.load(part, View.contiguous(part.shape)), node, keep, dev,
                                 epilogue_of, standin)


SPLIT_K_GROUPS = 256  # split-K: a GPU matmul with fewer output tiles than this cuts k until it has about this many
SPLIT_K_MIN = 128  # ... keeping each k chunk at least this long (the partial products cost a pass of their own;
# on an H200, 128 took 512 x 10 x 1024 from 0.086 to 0.019 ms and float16 512 x 1024 x 784 from 0.058 to 0.035)


def fill_splits(kernel: Matmul, dev: Device) -> int:
    """k chunks that give a GPU matmul with a small output and a long k axis enough workgroups (``X.T @ G``,
    64 x 10 from 10**6 rows, has one output tile: without splits one workgroup walks all the rows).
    CPU drivers (``matmul_tiles`` off) run few workgroups anyway and get none.

    >>> from kdsl.ir.kernels import Matmul
    >>> class D: matmul_tiles = True
    >>> fill_splits(Matmul(1, 64, 10, 10**6, None, None, None, 0), D())
    256
    >>> fill_splits(Matmul(1, 4096, 4096, 4096, None, None, None, 0), D())
    1
    """
    if not dev.matmul_tiles:
        return 1
    launch = matmul.launch(kernel)
    tiles = launch[0] * launch[1] * kernel.batch
    splits = 1
    while tiles * splits * 2 <= SPLIT_K_GROUPS and kernel.k // (splits * 2) >= SPLIT_K_MIN:
        splits *= 2
    return splits
