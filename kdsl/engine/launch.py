"""One launch path for custom kernels (``@kd.kernel``, ``kd.raw_kernel``): :func:`dispatch` runs a compiled
shader on a device through the engine's per-device state, under the device's lock, with its Algorithms
cached per (kernel, bindings layout) and its one reusable launch Sequence (no Sequence is created per launch).

Example:
    >>> import numpy as np, kdsl as kd
    >>> from kdsl.runtime.compiler import compile_source
    >>> spirv = compile_source('''#version 450
    ... layout(local_size_x = 4) in;
    ... layout(set = 0, binding = 0) buffer B { float x[]; };
    ... void main() { x[gl_GlobalInvocationID.x] *= 2.0; }''')
    >>> a = kd.asarray(np.arange(4, dtype=np.float32))
    >>> dispatch(a.device, spirv, [a.__kdsl_buffer__(writable=True)], (1, 1, 1), key="double")
    >>> a.numpy()
    array([0., 2., 4., 6.], dtype=float32)
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from kdsl.device import runtime_module
from kdsl.engine.profile import current as current_profile
from kdsl.engine.state import cache_limits, state


def dispatch(device: Any, spirv: bytes, tensors: Sequence[Any], groups: tuple[int, int, int],
             push: np.ndarray | None = None, *, key: Hashable = None, spec: np.ndarray | None = None,
             uploads: Sequence[Any] = (), readbacks: Sequence[Any] = ()) -> None:
    """Run ``spirv`` once on ``device`` with ``tensors`` bound in order, ``groups`` workgroups and push
    constants ``push`` (uint32 words); wait for it.

    ``key`` names the compiled kernel for the Algorithm cache (default: the SPIR-V itself); ``spec`` holds
    specialization-constant words. ``uploads`` are host-visible tensors copied to the device first and
    ``readbacks`` tensors copied back after the dispatch, in the same submission."""
    rt = runtime_module()
    st = state(device)
    with st.lock:
        seq = st.launch_sequence()
        seq.clear()  # the last launch's recording may name an Algorithm evicted below
        algo = _algorithm(st, spirv, tensors, groups, push, key, spec)
        if uploads:
            seq.record(rt.OpSyncDevice(list(uploads)))
        seq.record(rt.OpAlgoDispatch(algo, push) if push is not None and len(push) else rt.OpAlgoDispatch(algo))
        if readbacks:
            seq.record(rt.OpSyncLocal(list(readbacks)))
        prof = current_profile()
        if prof is None:
            seq.eval()
        else:  # kd.profile(): custom kernels (kd.fft's, kd.linalg's) are timed too
            t0 = time.perf_counter()
            seq.eval()
            prof.add_custom(f"custom kernel, {len(tensors)} buffers, groups {tuple(groups)}",
                            (time.perf_counter() - t0) * 1e3)


def _algorithm(st: Any, spirv: bytes, tensors: Sequence[Any], groups: tuple[int, int, int],
               push: np.ndarray | None, key: Hashable, spec: np.ndarray | None) -> Any:
    """The cached Algorithm for this kernel, rebound to ``tensors`` and ``groups`` (made on first use)."""
    spec_key = None if spec is None or not len(spec) else spec.tobytes()
    push_len = 0 if push is None else len(push)
    cache_key = (spirv if key is None else key, spec_key, push_len, len(tensors))
    algo = st.algorithms.get(cache_key)
    if algo is not None and algo.is_init():
        st.algorithms.move_to_end(cache_key)
        algo.update_bindings(list(tensors))
        algo.set_workgroup(groups)
        return algo
    algo = st.device.manager.algorithm(list(tensors), spirv, workgroup=groups,
                                       spec_consts=spec if spec_key is not None else None,
                                       push_consts=push if push_len else None)
    st.algorithms[cache_key] = algo
    while len(st.algorithms) > cache_limits()["programs"]:
        _, old = st.algorithms.popitem(last=False)
        old.destroy()
    return algo
