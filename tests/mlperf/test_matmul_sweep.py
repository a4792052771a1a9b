"""benchmarks/matmul_sweep.py in its smoke mode: every layout is checked before it is timed from the kernels'
timestamps, and the debug switch it turns on is restored afterwards."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import matmul_sweep  # noqa: E402


def test_small_run():
    before = os.environ.get("KDSL_DEBUG")
    rows = matmul_sweep.main(["--small", "--dtypes", "float32"])
    assert [r[0] for r in rows] == ["float32 64x40x48"]
    assert all(t > 0 for t in rows[0][1:4])  # three layouts, GPU ms from the timestamps
    assert os.environ.get("KDSL_DEBUG") == before
