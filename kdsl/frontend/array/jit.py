"""``kd.jit``: trace an array function once, then replay its kernels on new arrays without rebuilding the graph.

Plain kdsl code already caches kernels and plans; what it still pays per call is Python: building the graph
(~2-10 us per op) and walking it. A jitted function pays that once per input signature (shapes, dtypes, and
the values of Python scalar arguments); later calls bind the new input buffers to the recorded plan and
submit, usually replaying a recorded command buffer.

Rules: the function must be a pure function of its arguments (arrays it closes over are captured as they were
at trace time, and Python control flow is frozen by the trace), and return an Array or a pytree of Arrays
(nested tuples, lists, dicts: :mod:`kdsl.pytree`). Arguments may be pytrees too (a dict of parameters, an
optimiser's state): their structure is part of the signature, and so are the values of Python scalar
arguments: a new value traces again (pass a 0-d Array for a value that changes every call). Functions the fast
path cannot replay (random draws inside, empty arrays, outputs that are not computed by a kernel, host reads of
values computed from the arguments) still work: they run as plain kdsl code.

Example:
    >>> import kdsl as kd, numpy as np
    >>> @kd.jit
    ... def chain(a, b, c):
    ...     return kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a))
    >>> x = kd.asarray(np.ones(4, np.float32))
    >>> chain(x, x, x).tolist() == chain(x, x, x).tolist()
    True
"""

from __future__ import annotations

import functools
import sys
from functools import partial

from kdsl.engine.buffers import Buffer, take
from kdsl.engine.plan import kernel_size, make_templates
from kdsl.engine.programs import stats
from kdsl.engine.realize import realize_nodes, reshape_source
from kdsl.engine.schedule import schedule
from kdsl.engine.state import state
from kdsl.engine.submission import replay, submit
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node, toposort
from kdsl.pytree import TreeDef, tree_flatten, tree_unflatten


class _Trace:
    """One input signature's recorded plan: which buffers each kernel reads and writes."""

    out_tree: TreeDef | None = None  # the structure of the function's result (set by Jitted)

    def __init__(self, fn, args: tuple):
        self.arg_index = [i for i, a in enumerate(args) if isinstance(a, Array)]
        self.fast = all(args[i].size for i in self.arg_index)
        if not self.fast:  # empty arrays have no buffer to bind
            return
        placeholders = {}
        traced_args = list(args)
        for i in self.arg_index:
            a = args[i]
            a._buffer()  # the caller's array as a contiguous device buffer
            node = Node("buffer", (), a.dtype, a.shape, buffer=a._node.buffer, device=a.device)
            placeholders[i] = node
            traced_args[i] = Array(node)
        first_id = min((n.id for n in placeholders.values()), default=0)
        outs = fn(*traced_args)
        self.out_shapes = [o.shape for o in outs]
        targets = [reshape_source(o._node) or o._node for o in outs]
        self.fast = all(not t.realized and t.op != "const" and t.size for t in targets) and \
            len({id(t) for t in targets}) == len(targets)
        if not self.fast:
            return
        self.device = targets[0].device
        steps = schedule(targets)
        order = toposort(targets)
        templates = make_templates(steps, order)
        if templates is None or any(kernel_size(s.kernel) == 0 for s in steps) or \
                any(kind == "rand" for t in templates for _, kind in t.sources):
            self.fast = False  # data-dependent source, empty launch, or random draws (which must differ per call)
            return
        self.templates = templates
        self.words = [s.words for s in steps]
        position = {n.id: p for p, n in enumerate(order)}
        self.arg_pos = {position[placeholders[i].id]: i for i in self.arg_index if placeholders[i].id in position}
        # Buffers the graph read that are neither arguments nor computed here: keep them as traced.
        self.captured = {p: n.buffer for p, n in enumerate(order) if n.realized and p not in self.arg_pos}
        if any(order[p].id >= first_id for p in self.captured):
            # The function computed something from its arguments while tracing (a host read such as a bounds
            # check, an item(), a data-dependent shape): a replay would reuse the traced values, so run eagerly.
            self.fast = False
            return
        self.out_pos = [position[t.id] for t in targets]
        self.outs = [(p, order[p].dtype, shape) for p, shape in zip(self.out_pos, self.out_shapes, strict=True)]
        computed = {t.out for t in templates}
        # Buffers made per call: each computed node (position >= 0) and each temporary (< 0), with its size
        made = [(p, order[p].dtype, order[p].size) for p in computed if p >= 0]
        made += [(t.out, t.temp_shape[0], int(_prod(t.temp_shape[1]))) for t in templates
                 if t.out < 0 and t.temp_shape is not None]  # a temporary always has its shape
        # Outputs get new buffers each call (the caller keeps them); the intermediates are the trace's own,
        # reused call after call: buffers taken from the pool per call came back in an order that shifted
        # from step to step, so a training step's replay key rarely repeated and its command buffer was
        # recorded again each step (a char transformer step: 0 replays in 6, 239 dispatches re-recorded).
        outputs = set(self.out_pos)
        self.made_out = [m for m in made if m[0] in outputs]
        self.made_temp = [m for m in made if m[0] not in outputs]
        self.temps: dict[int, Buffer] | None = None  # made on the first call, used under the device's lock
        self.args = list(self.arg_pos.items())
        # The replay key's parts fixed by the trace: the bound positions of every dispatch (output, inputs)
        # in order, and the push words (a trace's scalars are part of its signature).
        self.slots = [p for t in templates for p in (t.out, *t.inputs)]
        self.word_key = b"".join([w.tobytes() for w in self.words])

    def run(self, args: tuple) -> list[Array]:
        dev = self.device
        st = state(dev)
        bufs: dict[int, Buffer] = dict(self.captured) if self.captured else {}
        for p, i in self.args:
            node = args[i]._n
            if node.op != "buffer":  # a lazy expression or a view: computed (or copied) into a buffer first
                args[i]._buffer()
                node = args[i]._n
            bufs[p] = node.buffer
        # The device lock, held once for the pool and the replay (each would take it), also gives this call the
        # trace's intermediates: no other thread uses them until the GPU is done with them.
        with st.lock:
            for p, dtype, size in self.made_out:
                bufs[p] = Buffer(take(st, size, dtype), size, dtype, dev, st=st)
            if self.temps is None:
                self.temps = {p: Buffer(take(st, size, dtype), size, dtype, dev, st=st)
                              for p, dtype, size in self.made_temp}
            bufs.update(self.temps)
            ids = []
            for p in self.slots:  # (a loop, not a comprehension: a frame less per call)
                ids.append(id(bufs[p].tensor))
            key = (id(self.templates), tuple(ids), self.word_key)
            outs: list[Array] = []
            # (both paths wait for the GPU: the intermediates are free again after; a replay makes the output
            # arrays while the GPU works)
            if replay(st, key, partial(self._outputs, bufs, outs)):
                stats["kernels"] += len(self.templates)
            else:
                work = [(t, t.kernel, bufs[t.out], [bufs[q] for q in t.inputs], w)
                        for t, w in zip(self.templates, self.words, strict=True)]
                submit(dev, work, self.templates, key)
                self._outputs(bufs, outs)
        stats["realizes"] += 1
        return outs

    def _outputs(self, bufs: dict[int, Buffer], outs: list[Array]) -> None:
        """Append the call's output arrays, on their new buffers, to ``outs``."""
        dev = self.device
        for p, dtype, shape in self.outs:
            outs.append(Array(Node("buffer", (), dtype, shape, None, bufs[p], dev)))


def _prod(shape) -> int:
    n = 1
    for k in shape:
        n *= k
    return n


def _array_key(args: tuple) -> tuple | None:
    """(shape, dtype name, device) of each argument when all are Arrays, else None. The Device object, not its
    index: a forked child's device has its parent's index, and a parent's trace replayed there would bind the
    parent's buffers (RuntimeError "created in the parent process before fork()")."""
    key = []
    for a in args:
        if a.__class__ is not Array:
            return None
        n = a._n
        key.append((n.shape, n.dtype.name, n.device))
    return tuple(key)


def _signature(args: tuple) -> tuple:
    key: list[tuple] = []
    for a in args:
        if isinstance(a, Array):
            key.append((a.shape, a.dtype, a.device))  # (the Device: _array_key)
        elif isinstance(a, (bool, int, float, complex, str, type(None))):
            key.append((type(a), a))
        else:
            raise TypeError(f"kd.jit arguments must be Arrays or Python scalars, got {type(a).__name__}")
    return tuple(key)


# Non-empty while kdsl.autodiff traces a function: a jitted function called then runs as plain kdsl code, so its
# graph is differentiated (a replay's outputs are new buffers, constants to the gradient).
inline_calls: list[object] = []


def jit(fn):
    """Decorator: trace ``fn`` once per input signature and replay its kernels afterwards (module docstring).

    >>> import kdsl as kd
    >>> @kd.jit
    ... def step(params, lr):
    ...     return {name: p - lr * p for name, p in params.items()}
    >>> step({"w": kd.ones(2), "b": kd.zeros(1)}, 0.5)["w"].tolist()
    [0.5, 0.5]
    """
    return Jitted(fn)


class Jitted:
    """A ``kd.jit`` function: ``traces`` maps each input signature to its recorded plan.

    It pickles as the function it wraps (traces hold device buffers and are made again where it is used):
    by reference when its module has it under its name, else by the wrapped function (which cloudpickle, and
    so Dask, sends by value)."""

    def __init__(self, fn):
        if not callable(fn):  # kd.jit(3): say so now, not as "'int' object is not callable" at the first call
            raise TypeError(f"kd.jit needs a function, got {type(fn).__name__}")
        self.fn = fn
        self.traces: dict[tuple, _Trace] = {}  # for tests and introspection
        # The traces of calls whose arguments are all Arrays, by (shape, dtype, device) of each: the common
        # call skips flattening its arguments (the same traces as in ``traces``)
        self.array_traces: dict[tuple, _Trace] = {}
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        if inline_calls:  # inside a function kdsl.autodiff differentiates: build the graph, do not replay
            return self.fn(*args)
        key = _array_key(args)
        trace = None if key is None else self.array_traces.get(key)
        if trace is None:
            flat_args, tree = tree_flatten(args)
            leaves = tuple(flat_args)
            signature = (tree, _signature(leaves))
            trace = self.traces.get(signature)
            if trace is None:
                flat = _Flat(self.fn, tree)
                trace = self.traces[signature] = _Trace(flat, leaves)
                trace.out_tree = flat.out_tree
                if not trace.fast:  # nothing the fast path can replay: run the function normally
                    return _eager(self.fn, args)
            if key is not None:  # only Arrays: they are the leaves, in order
                self.array_traces[key] = trace
        else:
            leaves = args
        if not trace.fast:
            return _eager(self.fn, args)
        assert trace.out_tree is not None  # a fast trace ran the function, which set it
        outs = trace.run(leaves)
        return outs[0] if trace.out_tree.kind == "leaf" else tree_unflatten(trace.out_tree, outs)

    def __get__(self, instance, owner=None):
        """As a method: bound to the instance, like the function it wraps."""
        return self if instance is None else functools.partial(self, instance)

    def __reduce__(self):
        qualname: str = getattr(self, "__qualname__", "")
        found = sys.modules.get(getattr(self, "__module__", ""))
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if found is self:
            return qualname  # a global: pickle stores module and name
        return jit, (self.fn,)


class _Flat:
    """``fn`` as a function of the leaves of its arguments, returning the leaves of its result (whose
    structure it keeps in ``out_tree``)."""

    def __init__(self, fn, tree: TreeDef):
        self.fn, self.tree = fn, tree
        self.out_tree: TreeDef | None = None

    def __call__(self, *leaves):
        result = self.fn(*tree_unflatten(self.tree, leaves))
        outs, self.out_tree = _outputs(self.fn, result)
        return outs


def _eager(fn, args: tuple):
    result = fn(*args)
    realize_nodes([o._node for o in _outputs(fn, result)[0]])
    return result


def _outputs(fn, result) -> tuple[list[Array], TreeDef]:
    """The Arrays a jitted function returned (the leaves of a pytree) and its structure, or a TypeError saying
    what it must return."""
    outs, tree = tree_flatten(result)
    if not outs or not all(isinstance(o, Array) for o in outs):
        kinds = ", ".join(sorted({type(o).__name__ for o in outs})) or "nothing"
        container = isinstance(result, (list, tuple, dict))
        got = f"a {type(result).__name__} of {kinds}" if container else type(result).__name__
        raise TypeError(f"a kd.jit function must return an Array or a non-empty pytree (tuple, list, dict) of "
                        f"Arrays; {getattr(fn, '__name__', 'the function')} returned {got}"
                        + (" (a missing `return`?)" if result is None else ""))
    return outs, tree
