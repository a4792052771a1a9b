"""More dead arrays than the buffer pool takes (its tensor count, ``pool_count_limit``): the tensors it does not
take are freed at once, not kept by the recorded batches that bound them (docs/concurrency.md, "Cache sizes").

Runs in a fresh interpreter, so the counts of live Vulkan objects are this scenario's alone."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

SCENARIO = """
import gc, json
import numpy as np, kdsl as kd
from kdsl.engine.state import state
from kdsl.runtime import live_objects

def buffers():
    gc.collect()
    return live_objects().get("VkBuffer", 0)

st = state(kd.device())
kd.realize(kd.ones(3))
st.pool_count_limit = 50  # a small pool: the scenario of 4 096+ live arrays, at a test's scale
base = buffers()
counts, ok = [], True
for r in range(20):  # more rounds than the 16 batches kept per device
    arrays = [kd.full(4, float(i)) * (r + 2) for i in range(150)]  # 150 outputs of one submission
    kd.realize(*arrays)
    host = np.stack([a.numpy() for a in arrays[::7]])
    ok &= bool(np.array_equal(host, np.repeat(np.arange(0, 150, 7, dtype=np.float32)[:, None] * (r + 2), 4, 1)))
    del arrays
    counts.append(buffers() - base)
pool = st.pool_count
kd.empty_cache()
print(json.dumps({"counts": counts, "pool": pool, "after_empty": buffers() - base, "ok": ok}))
"""


def test_dead_arrays_past_a_full_pool_free_their_buffers():
    """Before: each round kept the 100 tensors the pool did not take (bound by its recorded batch) until 16 later
    batches pushed it out: 1 600 buffers of dead arrays, which kd.empty_cache() could not free either."""
    try:
        out = subprocess.run([sys.executable, "-c", SCENARIO], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"timed out: {exc.stdout!r} {exc.stderr!r}")
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["ok"], result
    assert result["pool"] == 50, result
    assert max(result["counts"]) <= 50 + 4, result  # the pool's tensors (and a staging tensor or two)
    assert result["after_empty"] <= 4, result
