"""Two sequences on two queues, timed against the same work on one queue.

The work is two independent batches of a compute-heavy kernel (a 32-bit LCG stepped a few thousand times per
invocation) on a small grid, so that one batch leaves most of a GPU idle. With two queues both batches are
submitted with ``eval_async`` and run at once where the GPU can overlap them; with one queue they run one after
the other. On a device with a single queue (lavapipe)
the example says so and runs both batches on that queue.

Run it with ``python examples/parallel_queues.py [FAMILIES]``, FAMILIES like ``0,2`` to choose the queue families.
"""

import sys
import time

import numpy as np

import kdsl.kp as kp

SHADER = """
#version 450
layout (local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint h[]; };
layout(push_constant) uniform P { uint steps; uint rounds; };
void main() {
    uint x = gl_GlobalInvocationID.x;
    for (uint r = 0u; r < rounds; ++r) {
        for (uint k = 0u; k < steps; ++k) { x = x * 1664525u + 1013904223u; }  // each loop < 65 535 (lavapipe)
    }
    h[gl_GlobalInvocationID.x] = x;
}
"""
N, STEPS = 64 * 32, 4000  # 32 workgroups: a fraction of any GPU
# A GPU runs the CPU device's work in microseconds, where submission costs dominate: give it 100x the rounds.
ROUNDS = {"cpu": 1}


def pick_queues() -> tuple[list[int], str]:
    """Family indices for a two-queue Manager, and a sentence saying what was found."""
    families = kp.list_devices()[0]["queue_families"]
    # Compute-only families first: on the H200 two queues of the graphics+compute family did not overlap
    # (0.9x), two of the compute-only family did (2.0x).
    compute = sorted((i for i, f in enumerate(families) if f["compute"]), key=lambda i: families[i]["graphics"])
    multi = [i for i in compute if families[i]["queue_count"] >= 2]
    if multi:
        return [multi[0], multi[0]], f"two queues of family {multi[0]}"
    if len(compute) >= 2:
        return compute[:2], f"queues of families {compute[0]} and {compute[1]}"
    return [compute[0]], f"this device has one compute queue (family {compute[0]}): both batches share it"


def make_batch(mgr: kp.Manager, queue: int):
    """A sequence on ``queue`` that runs the kernel over its own tensor and reads it back."""
    t = mgr.tensor_t(np.zeros(N, np.uint32))
    rounds = ROUNDS.get(mgr.get_device_properties()["device_type"], 100)
    algo = mgr.algorithm([t], kp.compile_source(SHADER), workgroup=(N // 64, 1, 1),
                         push_consts=np.array([STEPS, rounds], np.uint32))
    return t, mgr.sequence(queue_index=queue).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t]))


def timed(fn, repeats: int = 3) -> float:
    """Best wall time of ``fn()`` in milliseconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main() -> None:
    if len(sys.argv) > 1:  # e.g. "0,2": one queue of family 0 and one of family 2
        families = [int(f) for f in sys.argv[1].split(",")]
        what = f"queues of families {families}"
    else:
        families, what = pick_queues()
    print(f"device: {kp.list_devices()[0]['device_name']}; {what}")
    mgr = kp.Manager(0, families)
    queues = list(range(len(families)))
    (t0, s0), (t1, s1) = make_batch(mgr, queues[0]), make_batch(mgr, queues[-1])
    one_a, one_b = make_batch(mgr, 0), make_batch(mgr, 0)

    def serial():
        one_a[1].eval()
        one_b[1].eval()

    def parallel():
        s0.eval_async()
        s1.eval_async()
        s0.eval_await()
        s1.eval_await()

    serial_ms, parallel_ms = timed(serial), timed(parallel)
    assert np.array_equal(t0.data(), t1.data()) and np.array_equal(t0.data(), one_a[0].data())
    print(f"one queue, one batch after the other: {serial_ms:8.2f} ms")
    print(f"{len(families)} queue(s), both batches in flight:  {parallel_ms:8.2f} ms")
    note = "" if len(families) > 1 else " (one queue: any gain comes from queuing both batches before waiting)"
    print(f"speed-up: {serial_ms / parallel_ms:.2f}x{note}")
    mgr.destroy()


if __name__ == "__main__":
    main()
