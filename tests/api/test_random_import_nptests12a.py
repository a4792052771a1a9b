"""``import kdsl.random`` and ``from kdsl.random import ...`` work as ``numpy.random``'s do (only the attribute
``kd.random`` did: ModuleNotFoundError), and name the module that ``kd.random`` is."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import numpy as np

import kdsl as kd


def test_import_kdsl_random_is_kd_random() -> None:
    module = importlib.import_module("kdsl.random")
    assert module is kd.random
    from kdsl.random import Generator, default_rng  # noqa: PLC0415 - the import form under test

    assert default_rng is kd.random.default_rng
    assert isinstance(default_rng(1), Generator)


def test_seeded_draws_through_the_dotted_import_match_kd_random() -> None:
    from kdsl.random import default_rng  # noqa: PLC0415 - the import form under test

    a = default_rng(7).random((2, 3)).numpy()
    b = kd.random.default_rng(7).random((2, 3)).numpy()
    np.testing.assert_array_equal(a, b)
    assert a.shape == (2, 3) and ((a >= 0) & (a < 1)).all()


def test_fresh_interpreter_imports_kdsl_random_first() -> None:
    code = "import kdsl.random as r; import kdsl; assert r is kdsl.random; print(r.default_rng(0).random(2).shape)"
    env = dict(os.environ, KDSL_VALIDATION="0")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("(2,)")
