"""Runs one NumPy program twice, with ``xp=numpy`` and ``xp=kdsl``, and compares what it returns.

A program is a function of the module (``def program(xp, data): ...``) written as NumPy code with ``np`` renamed
``xp``: exactly what a port by ``import kdsl as np`` runs. Its data comes from NumPy's generator on the host
(kdsl's random streams differ by design), and it returns a dict of results (arrays, Python or NumPy scalars,
lists). kdsl's defaults are float32 and int32 where NumPy's are float64 and int64 (docs/numpy-api.md,
"Deliberate differences"), so values are compared with a float32 tolerance and dtypes by kind only.
"""

from __future__ import annotations

import copy

import numpy as np

import kdsl as kd


def host(value):
    """A kdsl result as host data (arrays via ``.numpy()``, containers element-wise)."""
    if isinstance(value, kd.Array):
        return value.numpy()
    if isinstance(value, dict):
        return {k: host(v) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # slogdet, eigh, svd... results: named tuples
        return type(value)(*(host(v) for v in value))
    if isinstance(value, (list, tuple)):
        return type(value)(host(v) for v in value)
    return value


def _kind(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "b"
    if isinstance(value, str):
        return "U"
    return np.asarray(value).dtype.kind


def assert_same(got, expected, rtol: float, atol: float, where: str = "result") -> None:
    """``got`` (kdsl's, on the host) matches ``expected`` (NumPy's): structure, shape, dtype kind, values."""
    if isinstance(expected, dict):
        assert isinstance(got, dict) and got.keys() == expected.keys(), where
        for key in expected:
            assert_same(got[key], expected[key], rtol, atol, f"{where}[{key!r}]")
        return
    if isinstance(expected, (list, tuple)) and not np.isscalar(expected):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), f"{where}: {got!r} vs {expected!r}"
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            assert_same(g, e, rtol, atol, f"{where}[{i}]")
        return
    if isinstance(expected, str):
        assert got == expected, f"{where}: {got!r} != {expected!r}"
        return
    kinds = {_kind(got), _kind(expected)}
    assert len(kinds) == 1 or kinds <= {"i", "u"}, f"{where}: kind {_kind(got)} != NumPy's {_kind(expected)}"
    g, e = np.asarray(got), np.asarray(expected)
    assert g.shape == e.shape, f"{where}: shape {g.shape} != NumPy's {e.shape}"
    if e.dtype.kind in "biu":
        np.testing.assert_array_equal(g, e, err_msg=where)
    else:
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)


def check(program, *args, rtol: float = 2e-4, atol: float = 1e-5, **kwargs):
    """Runs ``program(xp, *args)`` with NumPy and with kdsl; their results must match. Returns kdsl's."""
    # copies: a NumPy program may write into its inputs (np.asarray shares them)
    expected = program(np, *copy.deepcopy(args), **kwargs)
    got = host(program(kd, *copy.deepcopy(args), **kwargs))
    assert_same(got, expected, rtol, atol)
    return got
