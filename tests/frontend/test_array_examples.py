"""The array DSL's example runs as shipped and reaches Kompute's numbers (and a trained synthetic model)."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_logistic_regression_example():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "examples/logistic_regression.py"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    w0, w1, b = (float(x) for x in re.search(r"w = \[\s*([-+\d.e]+)\s+([-+\d.e]+)\], b = ([-\d.]+)", out).groups())
    assert abs(w0 - 0.0003) < 1e-3 and abs(w1 - 1.5875) < 1e-3 and abs(b + 0.794) < 1e-3
    loss, accuracy = (float(x) for x in re.search(r"loss ([\d.]+), accuracy ([\d.]+)", out).groups())
    assert loss < 0.25 and accuracy > 0.9
