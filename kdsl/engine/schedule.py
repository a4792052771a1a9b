"""The scheduler: cut the lazy graph into as few kernels as possible.

1. **Materialise** the requested nodes, every reduce / matmul / scan / assemble, and every elementwise node
   that two different kernels would need (computed once, stored once).
2. **Inline** everything else: each kernel evaluates its elementwise and movement nodes directly from the
   buffers below them, so an elementwise chain is one kernel and ``(a*b+c).sum(axis=1)`` is one kernel.
3. **Epilogue**: an elementwise node whose only reduction input is consumed by it alone is computed by the
   reduction kernel itself (``x.mean()`` = sum and scale in one kernel); likewise a matmul kernel computes the
   elementwise consumers of its product on its accumulators before the store (``gelu(linear(x, w, b))``).

4. **Loop budget**: no invocation may loop more than ``Device.loop_budget`` times, all its loops together
   (lavapipe silently stops an invocation at ~65 535), so launches grow and long work is cut into passes over
   temporaries: reductions into partial results reduced again, cumsum / cumprod into block totals (reduce-then-scan),
   matmul into k chunks. Loops inside helper functions (integer powers) count too.

Each step's kernel IR holds no data: buffers become binding slots and Python scalars push-constant words, so
the kernel is its own cache key. Steps 1-3 are :mod:`kdsl.engine.fusion`; the IR is built by
:mod:`kdsl.engine.lowering` and one module per kernel kind (``lower_reduce``, ``lower_matmul``, ``lower_scan``,
``rowfuse``, ``sorting``, ``scatter``); this module puts them together.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.ones((4, 8), np.float32))
    >>> [type(s.kernel).__name__ for s in schedule([((a * 2 + 1).sum(axis=1))._node])]
    ['Reduce']
"""

from __future__ import annotations

from kdsl.codegen import vector
from kdsl.codegen.loops import expr_loops
from kdsl.device import Device
from kdsl.engine import rowfuse, scatter, size_generic, sorting
from kdsl.engine.fusion import cap_buffers, epilogue_source, materialised, matmul_epilogue_source, merged_heads
from kdsl.engine.lower_attention import lower_attention
from kdsl.engine.lower_matmul import epilogue_allowed, lower_matmul
from kdsl.engine.lower_reduce import lower_reduce
from kdsl.engine.lower_scan import lower_compact, lower_compact_tiles, lower_scan
from kdsl.engine.lowering import Lowering, Step
from kdsl.ir.expr import Expr
from kdsl.ir.graph import Node, toposort
from kdsl.ir.kernels import Elementwise, elementwise_groups
from kdsl.ir.view import INDEX_LIMIT, View


def schedule(roots: list[Node]) -> list[Step]:
    """The kernel steps that realise ``roots``, in execution order."""
    order = toposort(roots)
    size_generic.tick()
    root_ids = {r.id for r in roots}
    live = [n for n in order if not n.realized and (n.op != "const" or n.id in root_ids)]
    if not live:
        return []
    keep, consumers = materialised(live, roots)
    cap = live[0].device.max_buffers - 2  # the output, and a reduction's partial results
    reads = cap_buffers(live, keep, cap)
    rows: dict[int, list[Step]] = {}  # row normalisers: output node id -> its one RowNorm step
    fused: set[int] = set()  # the nodes those kernels compute inside (reductions included)
    for m in rowfuse.find(live, keep, consumers, root_ids):
        row_steps = rowfuse.lower(m, keep - m.inner, _device(m.out))
        if row_steps is not None:
            rows[m.out.id] = row_steps
            fused |= m.inner
    absorbed: dict[int, tuple[Node, Node]] = {}  # elementwise node id -> (stand-in, reduce) it absorbs
    for n in live:
        if n.id in keep and (n.is_elementwise or n.op == "view") and n.id not in rows and n.id not in fused:
            found = (epilogue_source(n, keep, consumers, root_ids) if n.is_elementwise else None) or \
                matmul_epilogue_source(n, keep, consumers, root_ids)
            if found is not None and found[1].op == "matmul" and not epilogue_allowed(found[1], _device(n)):
                found = None
            if found is not None and found[1].id not in {r.id for _, r in absorbed.values()} and \
                    len(reads[n.id] | reads.get(found[1].id, set())) <= cap:
                absorbed[n.id] = found
    skip = {r.id for _, r in absorbed.values()} | fused
    heads = merged_heads(live, keep, consumers, root_ids)  # attention written straight in a merged-heads layout
    skip |= {a.id for a in heads.values()}
    chains = assemble_chains(live, consumers, root_ids)
    skip |= {b.id for chain in chains.values() for b in chain[1:]}
    steps: list[Step] = []
    for n in live:
        if n.id in chains:
            steps.extend(_lower_assembles(chains[n.id], keep - skip, _device(n)))
        elif n.id in rows:
            steps.extend(rows[n.id])
        elif n.id in heads:
            steps.extend(lower_attention(heads[n.id], keep - skip, _device(n), out=n))
        elif n.id in keep and n.id not in skip:
            steps.extend(_lower(n, keep - skip, absorbed.get(n.id)))
    return steps


def assemble_chains(live: list[Node], consumers: dict[int, list[Node]], root_ids: set[int]) -> dict[int, list[Node]]:
    """``{id: [node, the assembles it overwrites in place]}`` for assembles whose first region is all of the
    array and whose first piece is another assemble that nothing else reads (no other node, no Array): row
    writes in a loop, ``traj[i + 1] = y``. Those write one buffer in turn (the regions in order, later ones
    over earlier ones, as the separate nodes would) instead of each copying the one before: one kernel per
    write, not two, and no copy of the whole array per write."""
    chains: dict[int, list[Node]] = {}
    inner: set[int] = set()
    for n in reversed(live):  # the outermost assemble of a chain first
        if n.op != "assemble" or n.id in inner:
            continue
        chain = [n]
        while _overwrites(chain[-1], consumers, root_ids):
            chain.append(chain[-1].srcs[0])
        if len(chain) > 1:
            chains[n.id] = chain
            inner |= {b.id for b in chain[1:]}
    return chains


def _overwrites(node: Node, consumers: dict[int, list[Node]], root_ids: set[int]) -> bool:
    """Whether ``node`` (an assemble) may write its first piece's buffer in place (see assemble_chains)."""
    first = node.srcs[0]
    return (first.op == "assemble" and first.id not in root_ids and first.refs == 1
            and len(consumers.get(first.id, ())) == 1 and first.shape == node.shape and first.dtype is node.dtype
            and node.arg[0] == View.contiguous(node.shape))


def _lower_assembles(chain: list[Node], keep: set[int], dev: Device) -> list[Step]:
    """The steps of a chain of assembles (:func:`assemble_chains`): every piece written into the outermost
    node's buffer, the innermost node's pieces first; each outer node's first piece is the buffer itself."""
    out, inner = chain[0], chain[-1]
    pieces = [(inner, k) for k in range(len(inner.srcs))]
    for node in reversed(chain[:-1]):
        pieces.extend((node, k) for k in range(1, len(node.srcs)))
    return [size_generic.choose(_region_step(out, node, k, keep, dev, fresh=j == 0), ("region", j), dev)
            for j, (node, k) in enumerate(pieces)]


PATCH_SHARE = 4  # an assemble whose region is at least 1/PATCH_SHARE of the array is written in one pass
PATCH_PIECES = 4  # ... and one whose pieces tile the array, up to this many (each element evaluates them all)

Box = tuple[tuple[int, ...], tuple[int, ...]]  # (starts, lengths) of a box of unit-step slices


def patch_boxes(node: Node) -> list[Box | None] | None:
    """Each piece's box (None: the first piece, when it is all of the array) when assemble ``node`` can be
    written by one kernel of ``"patch"`` expressions (``where(inside the box, piece, what is below)``, each
    piece read clamped into its box): one write of a box of unit-step slices covering at least
    1/``PATCH_SHARE`` of the array (``u[1:-1] = f(u)``, ``u[1:-1, 1:-1] = v``: no copy of ``u`` then a kernel
    over the box), or up to ``PATCH_PIECES`` pieces that tile it (``concatenate``, ``roll``: one kernel, not
    one per piece). Else None."""
    if node.size >= INDEX_LIMIT or node.dtype.kind == "c" or not 2 <= len(node.srcs) <= PATCH_PIECES:
        return None
    whole = View.contiguous(node.shape)
    boxes = [None if region == whole else _box(region, node.shape) for region in node.arg]
    if any(b is None for b in boxes[1:]):
        return None
    if boxes[0] is None:  # a write over the array
        return boxes if len(boxes) == 2 and PATCH_SHARE * node.arg[1].size >= node.size else None
    return boxes if sum(r.size for r in node.arg) == node.size else None  # (disjoint boxes: they tile it)


def _box(region: View, shape: tuple[int, ...]) -> Box | None:
    """``region`` of a C-contiguous array of ``shape`` as (starts, lengths), if it is a box of unit steps."""
    strides = View.contiguous(shape).strides
    if len(region.shape) != len(shape) or \
            any(n > 1 and s != c for n, s, c in zip(region.shape, region.strides, strides, strict=True)):
        return None
    starts, rest = [], region.offset
    for c in strides:
        starts.append(rest // c if c else 0)
        rest -= starts[-1] * c
    if rest or any(s + n > m for s, n, m in zip(starts, region.shape, shape, strict=True)):
        return None
    return tuple(starts), region.shape


def _patch_step(node: Node, boxes: list[Box | None], keep: set[int], dev: Device) -> Step:
    """The one kernel of an assemble that :func:`patch_boxes` accepts."""
    low = Lowering(keep, dev.max_push_words)
    low.root = node
    e = Expr("lit", node.dtype, (), False if node.dtype.kind == "b" else 0)  # (covered by the boxes: never read)
    for box, piece in zip(boxes, node.srcs, strict=True):
        e = low.expr(piece) if box is None else Expr("patch", node.dtype, (e, low.expr(piece)), box)
    kernel = Elementwise(node.shape, node.dtype, View.contiguous(node.shape), e, 0,
                         elementwise_groups(max(node.size, 1), dev.max_groups, dev.loop_budget,
                                            1 + expr_loops(e, node.shape)))
    return low.step(kernel, node)


def _region_step(out: Node, node: Node, k: int, keep: set[int], dev: Device, fresh: bool) -> Step:
    """The kernel writing piece ``k`` of assemble ``node`` into its region of ``out``'s buffer (``out`` is
    ``node`` or, for a chain, the assemble that holds the buffer); the region's offset is a push word."""
    region = node.arg[k]
    low = Lowering(keep, dev.max_push_words)
    e = low.expr(node.srcs[k])
    word = low.region_word(node, k)
    view = region if word is None else View(region.shape, region.strides, 0)
    kernel = Elementwise(region.shape, out.dtype, view, e, 0,
                         elementwise_groups(max(region.size, 1), dev.max_groups, dev.loop_budget,
                                            1 + expr_loops(e, region.shape)),
                         out_offset=None if word is None else (word, region.wide))
    return low.step(kernel, out, fresh=fresh)


def _device(node: Node) -> Device:
    dev = node.device
    assert dev is not None  # every node of a graph being realised has its device
    return dev


def _lower(node: Node, keep: set[int], absorbed: tuple[Node, Node] | None) -> list[Step]:
    dev = _device(node)
    low = Lowering(keep, dev.max_push_words)
    if absorbed is not None and absorbed[1].op == "matmul":
        return lower_matmul(absorbed[1], keep, dev, epilogue_of=node, standin=absorbed[0])
    if absorbed is not None or node.op == "reduce":  # one pass to a scalar may be size-generic (x[:i].sum())
        steps = lower_reduce(node, keep, dev) if absorbed is None else \
            lower_reduce(absorbed[1], keep, dev, epilogue_of=node, standin=absorbed[0])
        return [size_generic.choose(steps[0], "reduce", dev)] if len(steps) == 1 else steps
    if node.op == "matmul":
        return lower_matmul(node, keep, dev)
    if node.op == "scan":
        src, (op, axis) = node.srcs[0], node.arg
        return lower_scan(node.shape, axis, node.dtype, lambda lw: lw.expr(src), node, keep, dev, op)
    if node.op == "compact" and node.arg in ("flags", "flags+tiles"):  # a mask's positions or values, from one
        return lower_compact(node, keep, dev)  # scan of its flags
    if node.op == "compact" and isinstance(node.arg, tuple) and node.arg[0] == "tiles":  # the flags' tile totals
        return lower_compact_tiles(node, keep, dev)
    if node.op in ("sort", "gather", "search", "compact"):
        return sorting.lower(node, keep, dev)
    if node.op == "attention":
        return lower_attention(node, keep, dev)
    if node.op == "scatter":
        return scatter.lower_scatter(node, keep, dev)
    if node.op == "assemble":
        return _lower_assemble(node, keep, dev)
    low.root = node
    e = low.expr(node)
    inner = expr_loops(e, node.shape)  # loop iterations per element inside helper functions
    kernel = Elementwise(node.shape, node.dtype, View.contiguous(node.shape), e, 0,
                         elementwise_groups(max(node.size, 1), dev.max_groups, dev.loop_budget, 1 + inner))
    step = size_generic.choose(low.step(kernel, node), "node", dev)
    generic = isinstance(step.kernel, Elementwise) and step.kernel.size_word is not None
    if not generic and dev.vector_width == 4 and vector.eligible(kernel):
        kernel = kernel._replace(vec=4, groups=elementwise_groups(node.size // 4, dev.max_groups, dev.loop_budget,
                                                                  1 + 4 * inner))
        step.kernel = kernel._replace(n_words=step.kernel.n_words)
    return [step]


def _lower_assemble(node: Node, keep: set[int], dev: Device) -> list[Step]:
    """An assemble's steps: one patch kernel (:func:`patch_boxes`), or one kernel per piece. A join whose
    size changes from call to call (``a = kd.append(a, v)`` in a loop) writes its flat pieces with
    size-generic kernels instead of a patch kernel per size (:mod:`kdsl.engine.size_generic`)."""
    boxes = patch_boxes(node)  # one pass can write all of the array
    if boxes is not None and not size_generic.mixed(("assemble", node.dtype, len(node.srcs)), node.size):
        return [_patch_step(node, boxes, keep, dev)]  # (a join of one size so far: no size-free keys needed)
    regions = [_region_step(node, node, k, keep, dev, fresh=k == 0) for k in range(len(node.srcs))]
    if boxes is None:
        return [size_generic.choose(s, ("region", k), dev) for k, s in enumerate(regions)]
    found = [size_generic.generic(s, dev) for s in regions]
    if all(f is not None for f in found) and \
            size_generic.varying(("assemble", tuple(f[0] for f in found if f is not None)), node.size):
        kernels = [f[1]() for f in found if f is not None]
        return [size_generic.apply(s, k) for s, k in zip(regions, kernels, strict=True) if k is not None]
    return [_patch_step(node, boxes, keep, dev)]
