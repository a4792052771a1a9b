"""Compiled kernels on a device, and replay of recorded batches.

A :class:`Program` is one kernel structure on one device: GLSL rendered once, SPIR-V from the compiler's cache
with the float controls the device supports added (signed zeros, inf/NaN and subnormals kept, as in NumPy),
and a few runtime Algorithms, one per set of bound buffers (a training loop alternates between a couple of
buffer sets, so its dispatches never rewrite descriptors). A :class:`Batches` cache keeps the recorded command
buffers of recent batches: when a batch dispatches the same Algorithms with the same push constants as one
before, it is replayed with ``Sequence.eval()`` and nothing is recorded. A batch of a cached plan is found by
(plan, bound tensors, push words) before any program or Algorithm is looked up: the host fast path of a loop.

``KDSL_DEBUG=1`` prints each new kernel's GLSL, and each launch's size and GPU time.
"""

from __future__ import annotations

import operator
import os
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl.runtime as rt
from kdsl import dtype as dt
from kdsl.codegen import (
    atomic,
    attention,
    attention_coopmat,
    elementwise,
    fused_fma,
    gather,
    half,
    matmul,
    radix,
    reduce,
    rownorm,
    scan,
    sort,
    wide_pow,
)
from kdsl.engine import fma_probe, half_probe, readback
from kdsl.engine.state import state
from kdsl.ir.kernels import (
    Attention,
    Compact,
    Elementwise,
    Gather,
    Kernel,
    Matmul,
    Reduce,
    RowNorm,
    Scan,
    Scatter,
    Search,
)
from kdsl.ir.sort_kernels import RadixKeys, RadixPass, SortKeys, SortLocal, SortMerge, SortOut
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.float_controls import add_float_controls

_RENDERERS = {Elementwise: elementwise, Reduce: reduce, RowNorm: rownorm, Matmul: matmul, Scan: scan}
_RENDERERS.update({SortKeys: sort, SortMerge: sort, SortLocal: sort, SortOut: sort, Gather: gather, Search: gather,
                   Compact: gather, RadixKeys: radix, RadixPass: radix, Scatter: atomic,
                   Attention: attention})
_ALGOS_PER_PROGRAM = 4  # buffer sets kept bound per kernel, at least; and twice its most uses in one batch (a
# training step's update kernel runs once per parameter, on buffers that alternate between two sets from step
# to step: keeping both sets bound lets the step replay), up to _ALGOS_MAX
_ALGOS_MAX = 1024
_BATCHES_PER_DEVICE = 16  # recorded command buffers kept per device
stats = {"kernels": 0, "programs": 0, "realizes": 0, "uploads": 0, "downloads": 0, "replays": 0}


def debug_level() -> int:
    """``KDSL_DEBUG`` as a number (0 when unset). Read on every submission, so the environment is read
    through its underlying dict where CPython has one (os.environ.get encodes the name each call: ~1 us)."""
    raw = _ENV_DATA.get(_DEBUG_KEY) if _ENV_DATA is not None else os.environ.get("KDSL_DEBUG")
    if not raw:
        return 0
    try:
        return int(raw)
    except ValueError:
        return 1


_version = operator.itemgetter(1)  # an Algorithm entry's version: [Algorithm, version]
# os.environ keeps its contents in ``_data`` under encoded names and updates it on every change (putenv too)
_ENV_DATA: dict | None = getattr(os.environ, "_data", None)
try:
    _DEBUG_KEY: Any = os.environ.encodekey("KDSL_DEBUG")
except AttributeError:  # not CPython's os.environ: read it the ordinary way
    _ENV_DATA = None


class Program:
    """One kernel on one device (see the module docstring)."""

    def __init__(self, kernel: Kernel, device: Any):
        module = _renderer(kernel)
        self.kernel, self.device = kernel, device
        try:
            self.source = for_device(module.render(kernel), device)
            self.spirv = add_float_controls(compile_source(self.source), *device.float_controls)
        except Exception as exc:
            if not _is_coopmat(kernel):
                raise
            self._fallback(exc)
        else:
            self.workgroup = module.launch(kernel)
        self.algos: OrderedDict[tuple[int, ...], list[Any]] = OrderedDict()  # binding key -> [Algorithm, version]
        self.alive = True  # False once evicted from the program cache (its Algorithms are freed)
        self.keep = _ALGOS_PER_PROGRAM  # Algorithms kept bound (see _ALGOS_PER_PROGRAM)
        self.batch_token, self.batch_uses = 0, 0  # the batch being recorded (id of its in_batch set), uses in it
        stats["programs"] += 1
        if debug_level():
            print(f"[kdsl] new {type(kernel).__name__} kernel, workgroups {self.workgroup}:\n{self.source}")

    def _fallback(self, exc: BaseException) -> None:
        """Run this cooperative-matrix kernel (a matmul or attention) as the scalar one (same bindings, push
        words and output), and plan later kernels on this device without cooperative matrices."""
        what = type(self.kernel).__name__.lower()
        warnings.warn(f"kdsl: the cooperative-matrix {what} failed on {self.device.name} ({exc}); using the "
                      f"scalar {what} kernel instead (set KDSL_COOPMAT=0 to skip the attempt)", RuntimeWarning,
                      stacklevel=4)
        self.device.coopmat_shapes = ()
        assert isinstance(self.kernel, (Matmul, Attention))  # only these have coopmat kernels
        scalar = self.kernel._replace(coop=())
        module = _renderer(scalar)
        self.source = for_device(module.render(scalar), self.device)
        self.spirv = add_float_controls(compile_source(self.source), *self.device.float_controls)
        self.workgroup = module.launch(scalar)

    def release(self) -> None:
        """Free this program's Algorithms (it was evicted from the cache; nothing recorded uses them)."""
        self.alive = False
        for algo, _ in self.algos.values():
            algo.destroy()
        self.algos.clear()

    def algorithm(self, tensors: list[Any], words: np.ndarray, in_batch: set[int]) -> list[Any]:
        """``[Algorithm, version]`` bound to ``tensors``; the version changes whenever it is rebound.

        ``in_batch`` holds the ids of the entries the batch being recorded already uses: those are never
        rebound (their dispatches would read the new buffers)."""
        key = tuple([id(t) for t in tensors])
        if self.batch_token != id(in_batch):  # the first use of this program in a batch being recorded
            self.batch_token, self.batch_uses = id(in_batch), 0
        self.batch_uses += 1
        self.keep = min(_ALGOS_MAX, max(self.keep, 2 * self.batch_uses))
        entry = self.algos.get(key)
        if entry is not None:
            self.algos.move_to_end(key)
            return entry
        spare = None
        if len(self.algos) >= self.keep:
            spare = next((k for k, e in self.algos.items() if id(e) not in in_batch), None)
        if spare is None:
            push = words if len(words) else None
            try:
                algo = self.device.manager.algorithm(tensors, self.spirv, workgroup=self.workgroup,
                                                     push_consts=push)
            except Exception as exc:  # a driver that lists cooperative matrices but cannot build this pipeline
                if not _is_coopmat(self.kernel) or self.algos:
                    raise
                self._fallback(exc)
                algo = self.device.manager.algorithm(tensors, self.spirv, workgroup=self.workgroup,
                                                     push_consts=push)
            entry = [algo, 0]
        else:  # recycle the least recently used Algorithm: rewrite its descriptors
            entry = self.algos.pop(spare)
            entry[0].update_bindings(tensors)
            entry[1] += 1
        self.algos[key] = entry
        while len(self.algos) > 4 * self.keep:  # a huge batch grew the pool: drop idle ones
            idle = next((k for k, e in self.algos.items() if id(e) not in in_batch), None)
            if idle is None:
                break
            del self.algos[idle]
        return entry


def for_device(source: str, device: Any) -> str:
    """A kernel's GLSL as ``device`` compiles it (array kernels and ``@kd.kernel`` alike, so both compute the
    same bits): float32 ``pow`` through float64 where the device has float64 (kdsl.codegen.wide_pow), the
    fused-``fma`` helper bodies where its ``fma`` rounds once (kdsl.codegen.fused_fma), and the float16
    conversions by the hardware's where they give NumPy's bits (kdsl.codegen.half)."""
    if device.supports(dt.float64):
        source = wide_pow.rewrite(source)
    if fused_fma.applies(source):
        source = fused_fma.rewrite(source, fma_probe.widths(device))
    if half.holds_one(source):
        source = half.rewrite(source, half_probe.conversions(device))
    return source


def _is_coopmat(kernel: Kernel) -> bool:
    return isinstance(kernel, (Matmul, Attention)) and bool(kernel.coop)


def _renderer(kernel: Kernel) -> Any:
    """The codegen module that renders and launches ``kernel``."""
    if isinstance(kernel, Attention) and kernel.coop:
        return attention_coopmat
    return _RENDERERS[type(kernel)]


def program(kernel: Kernel, device: Any) -> Program:
    """The compiled program of ``kernel`` on ``device``, from the device's LRU cache (call under its lock;
    the caller trims the cache once its batch has run, so no program of that batch is evicted before)."""
    st = state(device)
    prog = st.programs.get(kernel)
    if prog is None:
        prog = st.programs[kernel] = Program(kernel, device)
    else:
        st.programs.move_to_end(kernel)
    return prog


class Batches:
    """Recorded sequences of recent batches on one device, keyed by their dispatches.

    Two kinds of key name a batch: the dispatched Algorithms with their push words (any batch), or, for a
    batch of a cached plan, the plan with its bound tensors and push words (:func:`kdsl.engine.submission._bound_key`),
    which :meth:`replay` looks up before any program or Algorithm is. Either way a hit replays only while every
    Algorithm it dispatches is still bound as when it was recorded (the versions match)."""

    def __init__(self, device: Any):
        self.device = device
        # key -> (Sequence, Algorithm versions, Algorithm entries, the plan a replay key names: kept alive,
        # the host tensor of a fused download or None: the batch replays only while it is alive)
        self.recorded: OrderedDict[tuple[Any, ...], tuple[Any, tuple[int, ...], list[list[Any]], Any, Any]] = \
            OrderedDict()

    def clear(self) -> None:
        """Forget (and free) every recorded batch."""
        for seq, *_ in self.recorded.values():
            seq.destroy()
        self.recorded.clear()

    def replay(self, key: tuple[Any, ...], during: Callable[[], Any] | None = None) -> bool:
        """Replay the batch recorded under ``key`` if its Algorithms are still bound as they were; False when
        there is none (or ``KDSL_DEBUG`` asks for timings: every batch is then recorded again). ``during``: the
        caller's host work, run while the device works (see ``Sequence.eval``); only when this returns True."""
        hit = self.recorded.get(key)
        if hit is None:
            return False
        seq, versions, entries, _, host = hit
        # (KDSL_DEBUG looked up in the environment's dict first: debug_level() is a call on every replay)
        if tuple(map(_version, entries)) != versions or \
                (_ENV_DATA is None or _DEBUG_KEY in _ENV_DATA) and debug_level() or \
                host is not None and host._destroyed:  # a fused download's staging tensor was freed since
            return False
        self.recorded.move_to_end(key)
        stats["replays"] += 1
        seq.eval(None, during)
        return True

    def submit(self, dispatches: list[tuple[list, np.ndarray]], launched: list[Program],
               key: tuple[Any, ...] | None = None, pins: Any = None, download: tuple[Any, Any] | None = None) -> None:
        """Run ``dispatches`` ((algorithm entry, push words) in order) as one submission, waiting for it.
        ``key``: the batch's name in the cache (default: its Algorithms and push words); ``pins``: an object
        whose id the key holds, kept alive with the recording; ``download``: (device tensor, host tensor), a
        copy recorded after the dispatches (a fused download: :func:`kdsl.engine.transfers.to_numpy`), whose
        host tensor the key names."""
        level = debug_level()
        if key is None:
            key = tuple([(id(entry[0]), words.tobytes()) for entry, words in dispatches])
            if download is not None:
                key += (id(download[1]),)
        entries = [entry for entry, _ in dispatches]
        versions = tuple([entry[1] for entry in entries])
        hit = None if level else self.recorded.get(key)
        # The usual case in a loop: replay, record nothing. The same Algorithms (a key naming tensors, not
        # Algorithms, may now resolve to other ones of equal version), each bound as when recorded.
        if hit is not None and hit[1] == versions and all(map(operator.is_, hit[2], entries)) and \
                (hit[4] is None or not hit[4]._destroyed):
            self.recorded.move_to_end(key)
            hit[0].eval()
            stats["replays"] += 1
            return
        self._record(key, versions, entries, pins, hit, dispatches, launched, level, download)

    def _record(self, key: tuple[Any, ...], versions: tuple[int, ...], entries: list[list[Any]], pins: Any,
                hit: Any, dispatches: list[tuple[list[Any], np.ndarray]], launched: list[Program],
                level: int, download: tuple[Any, Any] | None = None) -> None:
        """Record ``dispatches`` (into this key's stale sequence, the oldest one, or a new one) and run them."""
        t0 = time.perf_counter()
        if level:
            seq = self.device.manager.sequence(total_timestamps=len(dispatches) + 1)
        elif hit is not None:
            seq = hit[0].clear()
        elif len(self.recorded) >= _BATCHES_PER_DEVICE:
            _, (seq, *_) = self.recorded.popitem(last=False)
            seq.clear()
        else:
            seq = self.device.manager.sequence()
        for entry, words in dispatches:
            seq.record(rt.OpAlgoDispatch(entry[0], words) if len(words) else rt.OpAlgoDispatch(entry[0]))
        if download is not None:
            seq.record(readback.copy_op()(list(download)))
        if level:
            seq.eval()
            _report(self.device, seq, launched, t0)
            seq.destroy()
            return
        seq.eval()
        self.recorded[key] = (seq, versions, entries, pins, download[1] if download is not None else None)


def _report(device: Any, seq: Any, launched: list[Program], t0: float) -> None:
    wall = (time.perf_counter() - t0) * 1e3
    period = device.info.get("timestamp_period", 1.0)
    stamps = seq.get_timestamps()
    for k, prog in enumerate(launched):
        ms = (stamps[k + 1] - stamps[k]) * period / 1e6
        print(f"[kdsl] {type(prog.kernel).__name__} workgroups {prog.workgroup}: {ms:.3f} ms")
    print(f"[kdsl] batch of {len(launched)} kernel(s): {wall:.3f} ms wall")


def batches(device: Any) -> Batches:
    """The recorded batches of ``device`` (part of its :class:`kdsl.engine.state.DeviceState`)."""
    st = state(device)
    if st.batches is None:
        st.batches = Batches(device)
    b: Batches = st.batches
    return b
