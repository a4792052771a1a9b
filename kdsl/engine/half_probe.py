"""Whether a device's float32 -> float16 -> float32 conversions round exactly as NumPy does, found by running
them: the answer picks ``kd_half_f``'s body (:mod:`kdsl.codegen.half`), the rounding every float16
intermediate of a fused kernel goes through.

The probe kernel rounds, with :data:`kdsl.codegen.half.HARDWARE`'s body, every float16 value, every midpoint
between neighbouring ones (the ties) and the float32 numbers either side of each midpoint, the overflow
threshold 65520 and its neighbours, float32's subnormals, extremes, infinities and NaNs, and compares the bits
with NumPy's ``astype(float16)`` (a NaN stays the input, as the portable body keeps it): one difference and
the device keeps the portable body. Programs are compiled with the float controls the device supports, so the
probe is too. It runs once per device, on the first kernel that rounds float16, and is kept in kdsl's cache
folder (``half_probe.json``, :mod:`kdsl.engine.device_probe`). ``KDSL_HARDWARE_HALF=0`` turns it off.

Example:
    >>> import kdsl as kd
    >>> rounds_exactly(kd.device()) in (True, False)
    True
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

import kdsl.runtime as rt
from kdsl.codegen.half import FAST
from kdsl.engine import device_probe
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.float_controls import add_float_controls

_LOCAL = 64
_SOURCE = f"""#version 450
layout(local_size_x = {_LOCAL}) in;
layout(std430, binding = 0) buffer Data {{ float v[]; }};
layout(push_constant) uniform PC {{ uint n; }} pc;
@body@
void main() {{
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) v[i] = kd_half_f(v[i]);
}}
"""


def rounds_exactly(device: Any) -> bool:
    """Whether ``device`` runs :data:`kdsl.codegen.half.HARDWARE`'s rounding exactly as NumPy rounds."""
    return "hardware" in device_probe.answer("half_probe", device, _probe)


def _probe(device: Any) -> frozenset[str]:
    if os.environ.get("KDSL_HARDWARE_HALF", "1").strip() == "0":
        return frozenset()
    return device_probe.remembered("half_probe", device, {"hardware"},
                                   lambda d: frozenset({"hardware"}) if exact(d, FAST) else frozenset())


def cases() -> np.ndarray:
    """The float32 values the probe rounds (module docstring), about 330 000 of them."""
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    ordered = np.unique(halves[np.isfinite(halves)].astype(np.float64))  # -65504 ... 65504, one zero
    mids = ((ordered[1:] + ordered[:-1]) / 2).astype(np.float32)  # 12 significant bits: exact in float32
    big = np.float32(65520.0)
    tiny = np.float32(2.0 ** -25)  # half the smallest subnormal: a tie between 0 and it
    extremes = np.array([big, tiny, np.finfo(np.float32).max, np.finfo(np.float32).smallest_subnormal,
                         np.finfo(np.float32).smallest_normal, np.inf, np.nan, 0.0], np.float32)
    extremes = np.concatenate([extremes, -extremes])
    near = np.concatenate([mids, extremes])
    with np.errstate(over="ignore"):  # (the neighbours of float32's largest value include the infinities)
        up, down = np.nextafter(near, np.float32(np.inf)), np.nextafter(near, np.float32(-np.inf))
    every = np.concatenate([halves.astype(np.float32), near, up, down])
    nan_bits = np.array([0x7FC00001, 0xFFC00000, 0x7F800001, 0xFFBFFFFF], np.uint32).view(np.float32)
    return np.concatenate([every, nan_bits])


def expected(x: np.ndarray) -> np.ndarray:
    """NumPy's rounding of float32 ``x`` to float16 and back, with NaNs left as they are (their bits)."""
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = x.astype(np.float16).astype(np.float32)
    return np.where(np.isnan(x), x, rounded)


def exact(device: Any, body: str) -> bool:
    """Whether ``body`` (a ``kd_half_f`` definition) rounds every one of :func:`cases` as :func:`expected`."""
    x = cases()
    mgr = device.manager
    data = mgr.tensor_t(x.copy())
    spirv = add_float_controls(compile_source(_SOURCE.replace("@body@", body)), *device.float_controls)
    groups = -(-x.size // _LOCAL)
    algo = mgr.algorithm([data], spirv, workgroup=(groups, 1, 1), push_consts=np.array([x.size], np.uint32))
    try:
        seq = mgr.sequence()
        seq.record(rt.OpSyncDevice([data])).record(rt.OpAlgoDispatch(algo)).record(rt.OpSyncLocal([data]))
        seq.eval()
        seq.destroy()
        got = np.asarray(data.data()).view(np.uint32)
        return bool(np.array_equal(got, expected(x).view(np.uint32)))
    finally:
        algo.destroy()
        data.destroy()
