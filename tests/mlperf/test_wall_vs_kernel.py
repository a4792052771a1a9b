"""benchmarks/wall_vs_kernel.py in its smoke mode: every workload is checked against NumPy, then its wall and
kernel times are reported (PyTorch's columns are NaN without a CUDA device)."""

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import wall_vs_kernel  # noqa: E402


def test_small_run_reports_wall_and_kernel_times():
    rows = wall_vs_kernel.main(["--small", "--repeat", "3"])
    assert [r[0] for r in rows] == ["c + 0, 16 floats", "c + 0, 4096 floats", "a @ b, 64^3 float32",
                                    "full sum 256^2"]
    for _, wall, gpu, gap, *torch_cols in rows:
        assert wall > 0 and gpu > 0 and math.isclose(gap, wall - gpu)
        assert len(torch_cols) == 3
