"""examples/logistic_regression_grad.py runs, reaches Kompute's seed numbers, and its loss falls."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_logistic_regression_grad_example():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "examples/logistic_regression_grad.py", "512", "8", "30"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=300, check=True).stdout
    w0, w1, b = (float(x) for x in re.search(r"w = \[\s*([-+\d.e]+)\s+([-+\d.e]+)\], b = ([-\d.]+)", out).groups())
    assert abs(w0 - 0.0003) < 1e-3 and abs(w1 - 1.5875) < 1e-3 and abs(b + 0.794) < 1e-3
    first, last, accuracy = (float(x) for x in
                             re.search(r"loss ([\d.]+) -> ([\d.]+), accuracy ([\d.]+)", out).groups())
    assert first > 0.69 and last < 0.3 and accuracy > 0.9
