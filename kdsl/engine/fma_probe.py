"""Whether a device's GLSL ``fma`` rounds once, per float width, found by running it.

GLSL promises only that ``fma`` is computed the same way everywhere in a program, not that it is fused; Mesa's
lavapipe, for one, splits ``double`` ``fma`` into a multiply and an add. A one-invocation kernel computes
``fma(a, a, -a * a)`` for ``a = 1 + 2**-(m/2 + 1)`` (``m``: the significand's bits): fused, it is the product's
rounding error ``2**-(m + 2)``; split, it is 0. The answer decides which helper bodies a program gets
(:mod:`kdsl.codegen.fused_fma`). It is worked out once per device, on the first kernel whose source could use
it, and kept in kdsl's cache folder (``fma_probe.json``, keyed by the device's name, UUID, vendor and driver
version), so a new process skips the probe's two pipelines (~90 ms on lavapipe). ``KDSL_FUSED_FMA=0`` turns it
off (every device then runs the portable helpers).

Example:
    >>> import kdsl as kd
    >>> widths(kd.device()) <= {"f", "d"}
    True
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

import kdsl.runtime as rt
from kdsl.codegen.fused_fma import WIDTHS
from kdsl.runtime.collection import collection_paused
from kdsl.runtime.compiler import cache_dir, compile_source, write_cache_file

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

_known: dict[tuple[int, str], frozenset[str]] = {}
_lock = threading.Lock()


def _new_lock_after_fork() -> None:
    """A parent thread may have been probing (holding the lock) at fork time: the child, whose first kernel
    needing the answer takes the lock, would wait for it forever. The answers found so far stay valid (the
    child runs on the same hardware and driver)."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_new_lock_after_fork)


def widths(device: Any) -> frozenset[str]:
    """The helper suffixes (``"f"``: float, ``"d"``: double) whose ``fma`` is fused on ``device``."""
    key = (device.index, device.name)
    found = _known.get(key)
    if found is None:
        with _lock, collection_paused():  # a finalizer computing with kdsl would wait for _lock: see there
            found = _known.get(key)
            if found is None:
                found = _known[key] = _probe(device)
    return found


def _probe(device: Any) -> frozenset[str]:
    if os.environ.get("KDSL_FUSED_FMA", "1").strip() == "0":
        return frozenset()
    key = identity(device)
    saved = _saved().get(key)
    if isinstance(saved, list) and set(saved) <= set(WIDTHS):
        return frozenset(saved)
    found = frozenset(s for s in WIDTHS if (s == "f" or device.supports(np.float64)) and _fused(device, s))
    _save(key, found)
    return found


def identity(device: Any) -> str:
    """The key of a device's probe result: what changes when the hardware or the driver does."""
    info = device.info
    return "|".join(str(info.get(k)) for k in ("device_name", "device_uuid", "vendor_id", "driver_version",
                                                "api_version"))


def _file() -> Path:
    return cache_dir() / "fma_probe.json"


def _saved() -> dict[str, Any]:
    """The probe results kept on disk (nothing when the file is missing, unreadable or not a JSON object)."""
    try:
        saved = json.loads(_file().read_text())
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}


def _save(key: str, found: frozenset[str]) -> None:
    """Add one result to the file (written whole: the last writer wins, and a lost entry is only probed again)."""
    saved = _saved()
    saved[key] = sorted(found)
    write_cache_file(_file(), json.dumps(saved).encode())


def _fused(device: Any, suffix: str) -> bool:
    np_type, bits = _BITS[suffix]
    a = 1 + 2.0 ** -(bits // 2 + 1)
    mgr = device.manager
    data = mgr.tensor_t(np.array([a, a, -1.0], np_type))
    algo = mgr.algorithm([data], compile_source(_SOURCE.format(t=WIDTHS[suffix])), workgroup=(1, 1, 1))
    try:
        seq = mgr.sequence()
        seq.record(rt.OpSyncDevice([data])).record(rt.OpAlgoDispatch(algo)).record(rt.OpSyncLocal([data]))
        seq.eval()
        seq.destroy()
        return float(data.data()[2]) == 2.0 ** -(2 * (bits // 2 + 1))
    finally:
        algo.destroy()
        data.destroy()
