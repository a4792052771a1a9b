"""Object lifetime: thousands of create/destroy cycles leave no Vulkan object behind and RSS flat.

The heavy parts run in a fresh interpreter (as wgpu-py's leak tests do), so the counts are not disturbed by
other tests' objects and a crash shows up as a failed subprocess rather than a dead test run.
"""

from __future__ import annotations

import json

from rt_glsl import INCREMENT
from rt_util import run_python

PRELUDE = f"""
import gc, json, os, time
import numpy as np
import kdsl.kp as kp
from kdsl.runtime import live_objects, validation

SPIRV = kp.compile_source('''{INCREMENT}''')


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def cycle(mgr, i):
    '''One tensor, one algorithm, one sequence, evaluated; freed explicitly on even i, by collection on odd.'''
    t = mgr.tensor_t(np.arange(64, dtype=np.uint32), [kp.device, kp.host, kp.deviceAndHost][i % 3])
    algo = mgr.algorithm([t], SPIRV)
    seq = mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t]))
    seq.eval()
    assert t.data()[5] == 6, t.data()
    if i % 2 == 0:
        seq.destroy(); algo.destroy(); t.destroy()
"""


def total_of(live) -> int:
    return sum(live.values()) if isinstance(live, dict) else int(live)


def run_json(body: str, timeout: float = 90) -> dict:
    """Run PRELUDE + body in a subprocess; body prints one JSON line last."""
    out = run_python(PRELUDE + body, timeout=timeout).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_cycles_leave_no_objects_and_flat_rss():
    result = run_json("""
gc.collect()
base = live_objects()
mgr = kp.Manager()
for i in range(300):          # warm-up: the idle-pipeline cache, allocator pools, the validation layer's tables
    cycle(mgr, i)
gc.collect()
after_warmup, rss0 = live_objects(), rss_kib()
start = time.perf_counter()
for i in range(3000):
    cycle(mgr, i)
gc.collect()
end, grow = live_objects(), rss_kib() - rss0
mgr.destroy()
gc.collect()
print(json.dumps({"base": base, "warm": after_warmup, "end": end, "grow_kib": grow, "final": live_objects(),
                  "seconds": time.perf_counter() - start, "errors": validation.errors()[:3]}))
""")
    assert total_of(result["warm"]) - total_of(result["base"]) <= 8, "more than one cached pipeline left"
    assert result["end"] == result["warm"], "objects left after 3000 cycles"
    assert result["final"] == result["base"], "objects left after Manager.destroy()"
    assert result["grow_kib"] < 4096, f"RSS grew {result['grow_kib']} KiB over 3000 cycles"
    assert not result["errors"]


def test_managers_come_and_go():
    result = run_json("""
gc.collect()
base = live_objects()
for i in range(30):
    mgr = kp.Manager()
    for j in range(3):
        cycle(mgr, j)
    img = mgr.image_t(np.zeros(16, np.float32), 4, 4, 1)
    if i % 2:
        mgr.destroy()
    del mgr, img
    gc.collect()
print(json.dumps({"base": base, "end": live_objects(), "errors": validation.errors()[:3]}))
""")
    assert result["end"] == result["base"]
    assert not result["errors"]


def test_objects_outliving_their_manager_are_freed_once():
    """Destroy the Manager first, then drop or destroy its objects: no double free, nothing left."""
    result = run_json("""
gc.collect()
base = live_objects()
for i in range(20):
    mgr = kp.Manager()
    t = mgr.tensor_t(np.ones(8, np.float32))
    view = t.data()
    algo = mgr.algorithm([t, t, t], kp.compile_source('''
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float b[]; };
layout(set = 0, binding = 2) buffer C { float c[]; };
void main() { c[gl_GlobalInvocationID.x] = a[gl_GlobalInvocationID.x] * 2.0; }'''))
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo))
    mgr.destroy()
    total_view = float(view.sum())  # still readable: the view pins its memory
    t.destroy(); algo.destroy(); seq.destroy()
    del mgr, t, algo, seq, view
    gc.collect()
print(json.dumps({"base": base, "end": live_objects(), "errors": validation.errors()[:3]}))
""")
    assert result["end"] == result["base"]
    assert not result["errors"]


def test_running_sequence_dropped_without_await():
    """A sequence collected while its batch runs must wait for it before freeing anything."""
    result = run_json("""
mgr = kp.Manager()
cycle(mgr, 1)  # the pipeline is cached from here on
gc.collect()
base = live_objects()
for i in range(50):
    t = mgr.tensor_t(np.zeros(4096, np.uint32), kp.host)
    algo = mgr.algorithm([t], SPIRV)
    mgr.sequence().eval_async(kp.OpAlgoDispatch(algo))  # dropped at once, still running
    del t, algo
    gc.collect()
print(json.dumps({"base": base, "end": live_objects(), "errors": validation.errors()[:3]}))
""")
    assert result["end"] == result["base"]
    assert not result["errors"]
