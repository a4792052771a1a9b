"""benchmarks/dsl_column_sum.py in its smoke mode: every workload runs and is checked against NumPy before it is
timed; a wrong result is an error, not a row."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import dsl_column_sum  # noqa: E402


def test_small_run(capsys):
    rows = dsl_column_sum.main(["--small", "--no-torch", "--repeat", "1", "--warmup", "0"])
    assert [r[0] for r in rows] == ["X.sum(axis=0)", "X.sum(axis=0)", "X.T @ dz", "(X * w).sum(axis=0)", "X.sum()",
                                    "X.sum(axis=0)", "X.sum(axis=1)"]
    assert all(r[3] > 0 and r[4] > 0 for r in rows)  # kdsl ms, GB/s
    assert "kdsl GB/s" in capsys.readouterr().out


def test_check_refuses_a_wrong_answer():
    want = np.ones(4)
    dsl_column_sum.check("w", "p", np.ones(4, np.float32), want)
    with pytest.raises(AssertionError, match="disagrees"):
        dsl_column_sum.check("w", "p", np.full(4, 1.01, np.float32), want)
