"""kdsl's demo: both faces on this machine's best Vulkan device, each checked against NumPy.

Run it with ``bash scripts/demo.sh`` (installs what is missing) or ``python3 examples/demo.py``.
"""

from __future__ import annotations

import time

import numpy as np

import kdsl as kd
import kdsl.kp as kp


def show_device() -> None:
    dev = kd.device()
    info = dev.manager.get_device_properties()
    kind = "a CPU Vulkan driver (lavapipe): no GPU found" if info["device_type"] == "cpu" else "a GPU"
    print(f"device: {info['device_name']} — {kind}; Vulkan {info['api_version']}")
    others = [d["device_name"] for d in kp.list_devices()]
    print(f"all Vulkan devices here: {others}\n")


def kompute_face() -> None:
    """Kompute's classic: out = a * b with a hand-written shader, through kdsl.kp."""
    mgr = kd.device().manager
    a, b = mgr.tensor([2, 4, 6]), mgr.tensor([0.5, 0.25, 2])
    out = mgr.tensor_t(np.zeros(3, dtype=np.float32))
    spirv = kp.compile_source("""#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main() { uint i = gl_GlobalInvocationID.x; o[i] = a[i] * b[i]; }""")
    algo = mgr.algorithm([a, b, out], spirv)
    mgr.sequence().record(kp.OpSyncDevice([a, b])).record(kp.OpAlgoDispatch(algo)).record(
        kp.OpSyncLocal([out])).eval()
    print(f"kdsl.kp   a * b           = {out.data()}  (NumPy: {np.array([2, 4, 6]) * np.array([0.5, 0.25, 2])})")


def array_face() -> None:
    """NumPy-like arrays: a five-op chain and its reduction fuse into one generated kernel."""
    rng = np.random.default_rng(0)
    a_np, b_np, c_np = (rng.standard_normal(1_000_000, dtype=np.float32) for _ in range(3))
    a, b, c = kd.asarray(a_np), kd.asarray(b_np), kd.asarray(c_np)
    expr = (kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a))).sum()
    print("kdsl      plan of (sin(a)*b + c*2 - sqrt(|a|)).sum():")
    print("          " + kd.explain(expr).replace("\n", "\n          "))
    start = time.perf_counter()
    got = float(expr)
    took = (time.perf_counter() - start) * 1e3
    want = float((np.sin(a_np) * b_np + c_np * 2 - np.sqrt(np.abs(a_np))).astype(np.float64).sum())
    print(f"kdsl      result {got:.3f} in {took:.1f} ms (first run includes compiling); NumPy {want:.3f}")


def logistic_regression() -> None:
    """Kompute's logistic-regression seed, trained on the device with kdsl arrays (no host round trip per step)."""
    x = kd.asarray(np.array([[0, 0], [1, 0], [1, 0], [1, 1], [1, 1]], dtype=np.float32))
    y = kd.asarray(np.array([0, 0, 0, 1, 1], dtype=np.float32))
    w, b = kd.full(2, 0.001), kd.zeros(())
    for _ in range(100):
        err = kd.sigmoid(x @ w + b) - y          # d(loss)/dz for each sample
        w = w - 0.1 * (x.T @ err) / 5
        b = b - 0.1 * err.mean()
    print(f"kdsl      logistic regression: w = {np.round(w.numpy(), 4)}, b = {float(b):.4f} "
          "(Kompute's: w = [0.0003, 1.587], b = -0.794)")


if __name__ == "__main__":
    show_device()
    kompute_face()
    array_face()
    logistic_regression()
