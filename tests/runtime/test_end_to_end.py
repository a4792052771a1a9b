"""The seed end-to-end program (Kompute's README), in-process and as the shipped example, plus every example."""

from __future__ import annotations

import os
import re

import numpy as np
from rt_glsl import SEED_SHADER, spirv
from rt_util import REPO, run_python

import kdsl.kp as kp


def test_seed_program_in_process(mgr):
    tensor_in_a = mgr.tensor_t(np.array([2, 2, 2], dtype=np.float32))
    tensor_in_b = mgr.tensor_t(np.array([1, 2, 3], dtype=np.float32))
    tensor_out_a = mgr.tensor_t(np.array([0, 0, 0], dtype=np.uint32))
    tensor_out_b = mgr.tensor_t(np.array([0, 0, 0], dtype=np.uint32))
    params = [tensor_in_a, tensor_in_b, tensor_out_a, tensor_out_b]
    algo = mgr.algorithm(params, spirv(SEED_SHADER), workgroup=(3, 1, 1),
                         spec_consts=np.array([2], dtype=np.uint32), push_consts=np.array([2.0], dtype=np.float32))
    mgr.sequence().record(kp.OpSyncDevice(params)).record(kp.OpAlgoDispatch(algo)).eval()
    mgr.sequence().record(kp.OpAlgoDispatch(algo, np.array([3.0], dtype=np.float32))).eval()
    sq = mgr.sequence()
    sq.eval_async(kp.OpSyncLocal(params))
    sq.eval_await()
    assert tensor_out_a.data().tolist() == [4, 8, 12]
    assert tensor_out_b.data().tolist() == [10, 10, 10]
    assert tensor_out_a.data().dtype == np.uint32


def test_end_to_end_example_output():
    out = run_python("import runpy; runpy.run_path('examples/end_to_end.py', run_name='__main__')").stdout
    assert out.splitlines() == ["out_a = [4, 8, 12]", "out_b = [10, 10, 10]"]


def test_array_multiplication_example():
    out = run_python("import runpy; runpy.run_path('examples/array_multiplication.py', run_name='__main__')").stdout
    assert "[2.0, 4.0, 6.0]" in out


def test_logistic_regression_example():
    """Kompute's classic: 100 iterations at learning rate 0.1 end near w = [0.0003, 1.587], b = -0.794."""
    out = run_python("import runpy; runpy.run_path('examples/logistic_regression_kp.py', run_name='__main__')").stdout
    numbers = [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", out.splitlines()[-1])]
    w0, w1, b = numbers[-3:]
    assert 0.0 < w0 < 0.01
    assert abs(w1 - 1.587) < 0.01
    assert abs(b + 0.794) < 0.01


def test_parallel_queues_example():
    out = run_python("import runpy; runpy.run_path('examples/parallel_queues.py', run_name='__main__')").stdout
    assert "ms" in out


def test_demo_example():
    """The README's demo: both faces, each printed next to NumPy's or Kompute's answer."""
    out = run_python("import runpy; runpy.run_path('examples/demo.py', run_name='__main__')", timeout=300).stdout
    assert "device:" in out.splitlines()[0]
    assert "a * b           = [ 1.  1. 12.]" in out
    result, numpy_result = (float(x) for x in re.search(r"result (-?[\d.]+) .* NumPy (-?[\d.]+)", out).groups())
    assert abs(result - numpy_result) <= 1e-4 * abs(numpy_result)
    w0, w1, b = (float(x) for x in re.search(r"w = \[\s*([-+\d.e]+)\s+([-+\d.e]+)\], b = ([-\d.]+)", out).groups())
    assert abs(w0 - 0.0003) < 1e-3 and abs(w1 - 1.5875) < 1e-3 and abs(b + 0.794) < 1e-3


def test_examples_are_all_tested():
    tested = {"end_to_end.py", "array_multiplication.py", "logistic_regression_kp.py", "parallel_queues.py",
              "demo.py"}
    runtime_examples = {f for f in os.listdir(os.path.join(REPO, "examples"))
                        if f.endswith(".py") and "import kdsl.kp" in open(os.path.join(REPO, "examples", f)).read()}
    assert runtime_examples <= tested
