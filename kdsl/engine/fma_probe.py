"""Whether a device's GLSL ``fma`` rounds once, per float width, found by running it.

GLSL promises only that ``fma`` is computed the same way everywhere in a program, not that it is fused; Mesa's
lavapipe, for one, splits ``double`` ``fma`` into a multiply and an add. A one-invocation kernel computes
``fma(a, a, -a * a)`` for ``a = 1 + 2**-(m/2 + 1)`` (``m``: the significand's bits): fused, it is the product's
rounding error ``2**-(m + 2)``; split, it is 0. The answer decides which helper bodies a program gets
(:mod:`kdsl.codegen.fused_fma`). It is worked out once per device, on the first kernel whose source could use
it, and kept in kdsl's cache folder (``fma_probe.json``, :mod:`kdsl.engine.device_probe`), so a new process
skips the probe's two pipelines (~90 ms on lavapipe). ``KDSL_FUSED_FMA=0`` turns it off (every device then runs
the portable helpers).

Example:
    >>> import kdsl as kd
    >>> widths(kd.device()) <= {"f", "d"}
    True
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from kdsl.codegen.fused_fma import WIDTHS
from kdsl.engine import device_probe
from kdsl.engine.device_probe import identity
from kdsl.runtime.compiler import compile_source

_SOURCE = """#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data {{ {t} v[]; }};
void main() {{
    precise {t} p = v[0] * v[1];
    precise {t} e = fma(v[0], v[1], -p);
    v[2] = e;
}}
"""
_BITS = {"f": (np.float32, 24), "d": (np.float64, 53)}  # numpy type, significand bits


def widths(device: Any) -> frozenset[str]:
    """The helper suffixes (``"f"``: float, ``"d"``: double) whose ``fma`` is fused on ``device``."""
    return device_probe.answer("fma_probe", device, _probe)


def _probe(device: Any) -> frozenset[str]:
    if os.environ.get("KDSL_FUSED_FMA", "1").strip() == "0":
        return frozenset()
    return device_probe.remembered("fma_probe", device, WIDTHS, lambda d: frozenset(
        s for s in WIDTHS if (s == "f" or d.supports(np.float64)) and _fused(d, s)))


__all__ = ["identity", "widths"]


def _fused(device: Any, suffix: str) -> bool:
    np_type, bits = _BITS[suffix]
    a = 1 + 2.0 ** -(bits // 2 + 1)
    spirv = compile_source(_SOURCE.format(t=WIDTHS[suffix]))
    out = device_probe.run_once(device, np.array([a, a, -1.0], np_type), spirv, 1)
    return float(out[2]) == 2.0 ** -(2 * (bits // 2 + 1))
