"""Which nodes get a buffer of their own (and so end a kernel) and which are inlined into the kernels that read
them: requested nodes, every reduce / matmul / scan / ..., elementwise nodes two kernels need, very deep chains,
costly matmul operands, values a live array can still read; and the elementwise node a reduction kernel can
compute as its epilogue, and the elementwise consumers a matmul kernel computes before its store. See
:mod:`kdsl.engine.schedule` for the whole picture.
"""

from __future__ import annotations

from kdsl.codegen import glsl
from kdsl.engine import periodic
from kdsl.engine.lowering import pushes_offset
from kdsl.ir.graph import MATERIALISED, Node
from kdsl.ir.view import contiguous_strides

MAX_DEPTH = 100  # longest chain of ops inlined into one kernel (keeps shaders and recursion bounded)
MAX_READS = 16  # positions one kernel may compute an inlined node at (through views of it) before it is stored
PUSH_MARGIN = 4  # push words left free for what a kernel kind adds to its inlined expression's own


def materialised(live: list[Node], roots: list[Node]) -> tuple[set[int], dict[int, list[Node]]]:
    consumers: dict[int, list[Node]] = {}
    for n in live:
        for s in n.srcs:
            consumers.setdefault(s.id, []).append(n)
    keep = {r.id for r in roots if not r.realized}
    keep |= {n.id for n in live if n.op in MATERIALISED}
    keep |= _shared(live, keep, consumers)
    cuts = _limit_cuts(live, keep, consumers)
    if cuts:  # a chain too long for one kernel: cut a loop in it where its steps repeat (kdsl.engine.periodic)
        # (the anchors are cut as the limits cut: what two kernels then read below them is computed by each)
        keep |= periodic.anchors(live, keep, cuts, consumers, lambda ns, stored: _limit_cuts(ns, stored, consumers))
        cuts = _limit_cuts(live, keep, consumers)
    keep |= cuts
    keep |= merged_heads(live, keep, consumers, {r.id for r in roots}).keys()  # before: they read it stored
    keep |= _matmul_operands(live, keep)
    keep |= _held(live, keep, consumers, roots)
    return keep, consumers


def _shared(live: list[Node], stored: set[int], consumers: dict[int, list[Node]]) -> set[int]:
    """The elementwise nodes that two kernels need (computed once), given the nodes ``stored`` anyway."""
    keep = set(stored)
    owners: dict[int, set[int]] = {}
    for n in reversed(live):
        if n.id in keep:
            owners[n.id] = {n.id}
            continue
        own: set[int] = set()
        for c in consumers.get(n.id, ()):
            own |= owners[c.id]
        if len(own) > 1 and n.is_elementwise:  # needed by two kernels: compute it once
            keep.add(n.id)
            own = {n.id}
        owners[n.id] = own
    return keep - stored


def _limit_cuts(live: list[Node], stored: set[int], consumers: dict[int, list[Node]]) -> set[int]:
    """The nodes to store because a kernel would exceed a limit (chain depth, re-reads, push words), given the
    nodes ``stored`` anyway."""
    keep = set(stored)
    depth: dict[int, int] = {}
    for n in live:  # very deep chains are cut into kernels of at most MAX_DEPTH inlined ops
        d = 0 if n.id in keep else 1 + max((depth.get(s.id, 0) for s in n.srcs), default=0)
        if d > MAX_DEPTH:
            keep.add(n.id)
            d = 0
        depth[n.id] = d
    keep |= _reread_cuts(live, keep, consumers)
    keep |= _push_word_cuts(live, keep, live[0].device.max_push_words - PUSH_MARGIN) if live else set()
    return keep - stored


def _reread_cuts(live: list[Node], keep: set[int], consumers: dict[int, list[Node]]) -> set[int]:
    """Elementwise nodes to store because one kernel would compute them at more than ``MAX_READS`` positions.

    A kernel computes an inlined node once per position it is read at: once for all its readers at the same
    element, once more for each view of it (``D[:, k, None]``, ``np.roll``, a shifted slice). Step k of a loop
    such as Floyd-Warshall's ``D = np.where(via < D, via, D)`` with ``via = D[:, k, None] + D[None, k, :]``
    reads the step before at three positions, so an unstored chain of n steps is computed 3**n times: the
    shader doubled in size with every step (12 steps never finished compiling). Counting the positions from
    the readers down, and storing a node read at too many, keeps every kernel's code linear in its nodes."""
    reads: dict[int, int] = {}
    cuts: set[int] = set()
    for n in reversed(live):
        if n.id in keep:
            reads[n.id] = 1
            continue
        same, moved = 0, 0
        for c in consumers.get(n.id, ()):
            r = reads.get(c.id, 1)
            if c.op == "view" or (c.op == "rows" and c.srcs[0] is n):  # read at other positions than the reader's
                moved += r
            else:
                same = max(same, r)
        reads[n.id] = max(1, same + moved)
        if reads[n.id] > MAX_READS and n.is_elementwise:
            cuts.add(n.id)
            reads[n.id] = 1
    return cuts


def _push_word_cuts(live: list[Node], keep: set[int], budget: int) -> set[int]:
    """Elementwise nodes to store so that no kernel's inlined expression needs more than ``budget`` push words
    (its scalars, view offsets and random keys). A kernel past the device's push space bakes its scalars into
    the shader, and a baked plan is not cached: ``s += a[i]`` over 1000 elements (a chain of 1000 offsets)
    was planned and lowered again at every call, and a scalar that changes per call compiled a kernel per call.
    Cut into kernels that fit, the plan is cached and replays. Each node's words are counted as the set of the
    word-carrying nodes it inlines (a shared scalar is pushed once), up to a little past the budget."""
    need: dict[int, dict[int, int]] = {}  # node id -> {word-carrying node id: its words}, for inlined nodes
    cuts: set[int] = set()
    for n in live:
        words, inlined = _inlined_words(n, need, keep, cuts)
        while sum(words.values()) > budget and n.op != "assemble":  # (an assemble: a kernel per piece)
            biggest = max(inlined, key=lambda x: sum(need[x.id].values()), default=None)
            if biggest is None:
                break
            cuts.add(biggest.id)
            words, inlined = _inlined_words(n, need, keep, cuts)
        # (kept nodes are loads for their readers; the count stops a little past the budget)
        need[n.id] = {} if n.id in keep else dict(list(words.items())[:budget + 1])
    return cuts


def _inlined_words(n: Node, need: dict[int, dict[int, int]], keep: set[int],
                   cuts: set[int]) -> tuple[dict[int, int], list[Node]]:
    """(the word-carrying nodes a kernel inlining ``n`` pushes, with their words; ``n``'s inlined elementwise
    sources that push any)."""
    own = _own_words(n)
    words = {n.id: own} if own else {}
    inlined = []
    for s in n.srcs:
        if s.realized or s.id in keep or s.id in cuts:
            continue
        w = need.get(s.id)
        if w is None:  # a leaf outside ``live``: a scalar constant
            if s.op == "const":
                words[s.id] = glsl.words_of(s.dtype)
        elif w:
            words.update(w)
            if s.is_elementwise:
                inlined.append(s)
    return words, inlined


def _own_words(n: Node) -> int:
    """Push words ``n`` itself adds to a kernel that inlines it (see :class:`kdsl.engine.lowering.Lowering`)."""
    if n.op == "view":
        return 1 if pushes_offset(n.arg, n.srcs[0].size) else 0
    if n.op == "rand":
        return len(n.arg) - 1
    return 0


def merged_heads(live: list[Node], keep: set[int], consumers: dict[int, list[Node]],
                 root_ids: set[int]) -> dict[int, Node]:
    """``{view id: attention node}`` for each attention node read only by its ``swapaxes(-3, -2)`` view
    (nothing else holds it): the scheduler stores that view, computed by the attention kernel, instead."""
    found: dict[int, Node] = {}
    for n in live:
        if n.op != "attention" or len(n.shape) < 3 or n.id in root_ids or n.refs != 1 or n.id not in keep:
            continue
        readers = consumers.get(n.id, [])
        if len(readers) != 1 or readers[0].op != "view":
            continue
        view = readers[0].arg
        axes = list(range(len(n.shape)))
        axes[-3], axes[-2] = axes[-2], axes[-3]
        strides = contiguous_strides(n.shape)
        if view.offset == 0 and view.shape == tuple(n.shape[a] for a in axes) and \
                all(view.strides[i] == strides[a] for i, a in enumerate(axes) if n.shape[a] != 1):
            found[readers[0].id] = n
    return found


CHEAP_OPS = 3  # ... and an operand of at most this many fused ops stays fused (``(a * 2) @ b``: one pass)
MATMUL_REREAD = 64  # a matmul operand is read again for each block of this many outputs along the other side


def _matmul_operands(live: list[Node], keep: set[int]) -> set[int]:
    """Matmul operands to compute into a buffer first. A matmul reads each element of ``a`` once per block of
    ``MATMUL_REREAD`` columns of the result (and ``b`` once per block of rows): an operand that is computed
    (a GELU, a bias add, a transpose-and-reshape with divisions in its index) would be recomputed at every
    read - measured on an H200, 5 ms instead of 0.1 for a 8192 x 384 x 384 float16 matmul fed a permuted
    attention output. A few cheap ops (a cast, a scale, a strided view) stay fused: an extra pass costs more."""
    extra: set[int] = set()
    for n in live:
        if n.op == "attention":
            # each workgroup of query rows reads the keys and values again, as a matmul's tiles do; a head view
            # of a computed projection (a bias add) would unravel its index with divisions at every read
            pairs = [(src, MATMUL_REREAD + 1) for src in n.srcs]
            # an operand whose elements loop inside helpers (random numbers, integer powers) is stored first:
            # the kernel's loop budget is sized for plain loads
            extra |= {(s.srcs[0] if s.op == "view" else s).id for s in n.srcs if _loops_behind(s, keep)}
        elif n.op == "matmul":
            pairs = list(zip(n.srcs, (n.shape[2], n.shape[1]), strict=True))
        else:
            continue
        for src, other_side in pairs:
            if other_side > MATMUL_REREAD and not _cheap_load(src, keep):
                # a reshape of a computed node: store the node itself (its own kernel, a RowNorm say, writes it)
                # and read it through the view, rather than a copy of the view recomputing it
                inner = src.srcs[0] if src.op == "view" and src.srcs[0].op != "view" else src
                extra.add(inner.id)
    return extra


def _loops_behind(s: Node, keep: set[int]) -> bool:
    """Whether the nodes a kernel would inline for ``s`` include one whose code loops (a random number: Philox
    rounds; an integer power: a loop over the exponent's bits)."""
    stack, seen = [s], set()
    while stack:
        x = stack.pop()
        if x.realized or x.id in keep or x.id in seen:
            continue
        seen.add(x.id)
        if x.op == "rand" or (x.op == "pow" and not x.dtype.is_float):
            return True
        stack.extend(x.srcs)
    return False


def _cheap_load(s: Node, keep: set[int]) -> bool:
    """At most ``CHEAP_OPS`` computed nodes behind ``s``, and no view of a computed view (an index that needs
    divisions by the inner view's shape)."""
    stack, ops = [s], 0
    while stack:
        x = stack.pop()
        if x.realized or x.id in keep or not x.srcs:
            continue
        ops += 1
        inner = x.srcs[0]
        if ops > CHEAP_OPS or (x.op == "view" and inner.op == "view" and not (inner.realized or inner.id in keep)):
            return False
        stack.extend(x.srcs)
    return True


def _stored_or_leaf(s: Node, keep: set[int]) -> bool:
    return s.realized or s.id in keep or not s.srcs or (s.op == "view" and _stored_or_leaf(s.srcs[0], keep))


def _held(live: list[Node], keep: set[int], consumers: dict[int, list[Node]], roots: list[Node]) -> set[int]:
    """The computed nodes that a live Array or a node outside this graph can still read (``Node.refs``
    counts more users than this graph has), unless recomputing them is one op over stored data, or storing
    them would take more memory than the graph's data already does (an intermediate broadcast to a huge shape,
    ``j = kd.arange(n)[None, :] + kd.zeros((m, 1))``, stays fused: storing it could exceed a buffer's size).

    Without this, ``for _ in range(n): w = w - lr * grad(w)`` never stores ``w`` (each step realises only
    what reads it), and step k recomputes w from all k earlier gradients: the kernel grows every step, and
    at some step binds more buffers than the device has. Stored, w is one buffer and every step's plan is
    the same."""
    bound = max([r.size for r in roots] + [s.size for n in live for s in n.srcs if s.realized])
    return {n.id for n in live
            if n.refs > len(consumers.get(n.id, ())) and n.id not in keep and n.is_elementwise
            and n.size <= bound and not all(_stored_or_leaf(s, keep) for s in n.srcs)}


def _reads(node: Node, keep: set[int], reads: dict[int, set[int]]) -> set[int]:
    """The buffers the kernel computing ``node`` reads, given ``reads`` of the nodes below it."""
    out: set[int] = set()
    for s in node.srcs:
        if s.realized or s.id in keep:
            out.add(s.id)
        else:
            out |= reads.get(s.id, set())
    return out


def cap_buffers(live: list[Node], keep: set[int], cap: int) -> dict[int, set[int]]:
    """Materialise more nodes (adding them to ``keep``) until no kernel reads more than ``cap`` buffers: the
    device limits the storage buffers one kernel binds. Returns each node's read set."""
    reads: dict[int, set[int]] = {}
    for n in live:
        r = _reads(n, keep, reads)
        # Too many: store the inlined source that reads the most buffers, and count again. (An assemble is
        # exempt: it writes each piece with a kernel of its own.)
        while len(r) > cap and n.op != "assemble":
            inlined = [s for s in n.srcs if not (s.realized or s.id in keep) and reads.get(s.id)]
            if not inlined:
                break
            keep.add(max(inlined, key=lambda s: len(reads[s.id])).id)
            r = _reads(n, keep, reads)
        reads[n.id] = r
    return reads


def _flat_view(s: Node) -> bool:
    """Whether view node ``s`` is a whole-array reshape of its source (same elements in the same order)."""
    v = s.arg
    return s.op == "view" and v.offset == 0 and v.size == s.srcs[0].size and v.is_contiguous


def _behind(s: Node, op: str) -> Node | None:
    """The ``op`` node (reduce, matmul) ``s`` is (or is a whole-array reshape of)."""
    if s.op == op:
        return s
    if s.op == "view" and s.srcs[0].op == op and _flat_view(s):
        return s.srcs[0]
    return None


def matmul_epilogue_source(node: Node, keep: set[int], consumers: dict[int, list[Node]],
                           root_ids: set[int]) -> tuple[Node, Node] | None:
    """(stand-in, matmul): the matmul whose kernel can compute ``node`` on its accumulators before the store
    (``gelu(linear(x, w, b))``: one kernel that writes the activation once), by the rules of
    :func:`epilogue_source`, and further: no node on the way loops (random numbers, integer powers: the
    matmul's loop budget is sized for its k loop). As for reductions, a live Array that still holds the product
    does not stop the fusion (every view Array holds its base: ``linear``'s reshape would); reading it later
    computes it again."""
    if node.op == "view":  # a reshape of the product (a plain copy), or of an epilogue over it
        mm = _behind(node, "matmul")
        if mm is not None:
            alone = mm.id in keep and mm.id not in root_ids and consumers.get(mm.id) == [node]
            return (node, mm) if alone else None
        if not _flat_view(node):
            return None
    found = epilogue_source(node, keep, consumers, root_ids, "matmul")
    if found is None:
        return None
    if any(x.op == "rand" or (x.op == "pow" and not x.dtype.is_float) for x in _inlined(node, found[0], keep)):
        return None
    return found


def _inlined(node: Node, standin: Node, keep: set[int]) -> list[Node]:
    """``node`` and the computed nodes its kernel inlines, down to ``standin`` and stored nodes."""
    out, stack, seen = [], [node], {standin.id}
    while stack:
        x = stack.pop()
        if x.id in seen or x.realized or (x.id in keep and x is not node):
            continue
        seen.add(x.id)
        out.append(x)
        stack.extend(x.srcs)
    return out


def epilogue_source(node: Node, keep: set[int], consumers: dict[int, list[Node]],
                     root_ids: set[int], op: str = "reduce") -> tuple[Node, Node] | None:
    """(stand-in, reduce): the reduction ``node``'s kernel can absorb (see the module docstring), if any
    (``op`` "matmul": the matmul, see :func:`matmul_epilogue_source`; its epilogues may also reshape through
    whole-array views, which keep each element's flat position, and never go through a "rows" node)."""
    found: list[tuple[Node, Node]] = []
    matmul = op == "matmul"
    stack, seen = [node], set()
    inlined: set[int] = set()  # the elementwise nodes between ``node`` and the reduction, inlined in its kernel
    remapped: set[int] = set()  # a "rows" node's source is read at other rows: never the epilogue's accumulator
    while stack:
        n = stack.pop()
        if n.op == "rows":
            remapped.add(n.srcs[0].id)
        for s in n.srcs[1:] if n.op == "rows" else n.srcs:
            if s.id in seen:
                continue
            seen.add(s.id)
            r = _behind(s, op)
            # a stored reshape (a requested one) is written by a kernel of its own, which reads the stored result
            if r is not None and r.id in keep and r.id not in root_ids and (s is r or s.id not in keep) and \
                    (s.shape == node.shape or (matmul and s.size == node.size)):
                found.append((s, r))
            elif s.id not in keep and ((s.is_elementwise and not (matmul and s.op == "rows"))
                                       or (matmul and _flat_view(s))):
                inlined.add(s.id)
                stack.append(s)
    # The epilogue sees the reduction only as its accumulator at the output's own position: any other view of
    # it (``M / M.reshape(-1)[::4].reshape(-1, 1)`` reads other positions) keeps the reduction stored.
    # Likewise every node on the way must be read only inside this kernel: another kernel that inlines one of
    # them (``e = exp(M + b)`` absorbed while ``M + b`` is also read elsewhere) would need the stored reduction.
    ours = inlined | {node.id}
    found = [(s, r) for s, r in found if s.id not in remapped and r.id not in remapped
             and all(c is s or (c.op != "view" and c.id in ours) for c in consumers.get(r.id, ()))
             and all(c.id in ours for m in inlined | {s.id} for c in consumers.get(m, ()))]
    return found[0] if len(found) == 1 else None
