"""Which of a device's float16 conversions give exactly NumPy's bits, found by running them: the answer picks the
bodies of ``kd_half_f`` (the rounding of every float16 intermediate of a fused kernel), ``kd_f16bits_f`` (a
float16 store) and ``kd_f16val_u`` (a float16 load) in :mod:`kdsl.codegen.half`.

Probe kernels run :data:`kdsl.codegen.half.HARDWARE`'s bodies: the rounding and the store on every float16
value, every midpoint between neighbouring ones (the ties) and the float32 numbers either side of each
midpoint, the overflow threshold 65520 and its neighbours, float32's subnormals, extremes, infinities and NaNs;
the load on all 65 536 float16 bit patterns. Their bits are compared with NumPy's conversions (a NaN keeps
its bits as the portable bodies keep them): one difference and the device keeps that portable body. Programs
are compiled with the float controls the device supports, so the probes are too. They run once per device, on
the first kernel with a float16 conversion, and are kept in kdsl's cache folder (``half_probe.json``,
:mod:`kdsl.engine.device_probe`). ``KDSL_HARDWARE_HALF=0`` turns them off.

Example:
    >>> import kdsl as kd
    >>> conversions(kd.device()) <= {"round", "narrow", "widen"}
    True
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from kdsl.codegen.half import HARDWARE
from kdsl.codegen.precise import exact as exact_body
from kdsl.engine import device_probe
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.float_controls import add_float_controls

_LOCAL = 64
_SOURCE = f"""#version 450
layout(local_size_x = {_LOCAL}) in;
layout(std430, binding = 0) buffer Data {{ uint v[]; }};
layout(push_constant) uniform PC {{ uint n; }} pc;
@body@
void main() {{
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) v[i] = @apply@;
}}
"""
_APPLY = {"round": "floatBitsToUint(kd_half_f(uintBitsToFloat(v[i])))",
          "narrow": "kd_f16bits_f(uintBitsToFloat(v[i]))", "widen": "floatBitsToUint(kd_f16val_u(v[i]))"}


def conversions(device: Any) -> frozenset[str]:
    """The conversions (``"round"``, ``"narrow"``, ``"widen"``) whose hardware bodies are exact on ``device``."""
    return device_probe.answer("half_probe", device, _probe)


def _probe(device: Any) -> frozenset[str]:
    if os.environ.get("KDSL_HARDWARE_HALF", "1").strip() == "0":
        return frozenset()
    return device_probe.remembered("half_probe", device, set(HARDWARE), lambda d: frozenset(
        name for name, body in HARDWARE.items() if exact(d, name, exact_body(body))))


def cases() -> np.ndarray:
    """The float32 values the probe rounds and stores (module docstring), about 256 000 of them."""
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


def expected(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The bits a conversion is given and the bits NumPy's conversion gives for them (a NaN: as its portable body,
    the rounding leaves it as it is, a store keeps its sign and the top of its payload, a load widens it)."""
    if name == "widen":
        h = np.arange(1 << 16, dtype=np.uint32)
        nan = ((h & 0x7C00) == 0x7C00) & ((h & 0x3FF) != 0)
        value = h.astype(np.uint16).view(np.float16).astype(np.float32).view(np.uint32)
        return h, np.where(nan, ((h & 0x8000) << 16) | 0x7F800000 | ((h & 0x3FF) << 13), value).astype(np.uint32)
    x = cases()
    with np.errstate(over="ignore", invalid="ignore"):
        half = x.astype(np.float16)
    nan = np.isnan(x)
    if name == "round":
        return x.view(np.uint32), np.where(nan, x, half.astype(np.float32)).view(np.uint32)
    u = x.view(np.uint32)
    nan_bits = ((u >> 16) & 0x8000) | 0x7C00 | np.maximum((u >> 13) & 0x3FF, 1)
    return u, np.where(nan, nan_bits, half.view(np.uint16)).astype(np.uint32)


def exact(device: Any, name: str, body: str) -> bool:
    """Whether ``body`` (a definition of conversion ``name``'s helper) gives :func:`expected`'s bits on ``device``."""
    given, want = expected(name)
    source = _SOURCE.replace("@body@", body).replace("@apply@", _APPLY[name])
    spirv = add_float_controls(compile_source(source), *device.float_controls)
    push = np.array([given.size], np.uint32)
    got = device_probe.run_once(device, given, spirv, -(-given.size // _LOCAL), push)
    return bool(np.array_equal(got.view(np.uint32), want))
