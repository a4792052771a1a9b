"""examples/sklearn_array_api.py runs as shipped and checks itself against NumPy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn", reason="scikit-learn is a test-only dependency (pip install kdsl[test])")

ROOT = Path(__file__).resolve().parents[2]


def test_sklearn_example_runs_and_matches_numpy():
    env = {**os.environ, "SCIPY_ARRAY_API": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "examples/sklearn_array_api.py"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "PCA and Ridge on kdsl match NumPy" in out.stdout
