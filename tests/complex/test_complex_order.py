"""NumPy's order of complex numbers (lexicographic: real part, then imaginary part) in kdsl's comparisons,
maximum/minimum/fmax/fmin, clip, max/min/argmax/argmin/ptp and their NaN-ignoring forms, ufunc methods and
searchsorted (kdsl.codegen.complex_order; kdsl raised TypeError for all of them before). NumPy is the oracle on
every pair of components from 0, -0.0, 1, -1, inf, -inf, nan, to the bit."""

import warnings

import numpy as np
import pytest

import kdsl as kd

VALUES = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan]
SPECIAL = np.array([complex(a, b) for a in VALUES for b in VALUES])
PAIRS = np.meshgrid(SPECIAL, SPECIAL, indexing="ij")
CDTYPES = ["complex64", "complex128"]


def _numpy(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kw)


def _same_bits(got, want):
    got, want = np.atleast_1d(np.asarray(got)), np.atleast_1d(np.asarray(want))
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "c":  # NaN parts and zero signs too
        bits = want.real.dtype
        np.testing.assert_array_equal(np.ascontiguousarray(got).view(bits), np.ascontiguousarray(want).view(bits))
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax",
                                  "fmin"])
def test_elementwise_on_every_special_pair(name, cd):
    a, b = (p.ravel().astype(cd) for p in PAIRS)
    _same_bits(getattr(kd, name)(kd.asarray(a), kd.asarray(b)), _numpy(getattr(np, name), a, b))


@pytest.mark.parametrize("cd", CDTYPES)
def test_operators_python_scalars_mixed_dtypes_and_views(cd):
    z = (np.arange(12).reshape(3, 4) % 5 - 2 + 1j * (np.arange(12).reshape(3, 4) % 3 - 1)).astype(cd)
    kz = kd.asarray(z)
    _same_bits(kz < 1j, z < 1j)
    _same_bits(1 + 0j >= kz, 1 + 0j >= z)
    _same_bits(kz[:, ::-2] > kz[:, 1::2], z[:, ::-2] > z[:, 1::2])  # non-contiguous views
    real = np.array([-1.0, 0.0, 1.0, 2.0], np.float32)
    _same_bits(kd.asarray(real) <= kz, real <= z)  # a real operand compares as complex with 0 imaginary part
    _same_bits(kd.maximum(kz, np.float32(0.5)), np.maximum(z, np.float32(0.5)))
    _same_bits(kd.clip(kz, -1 + 0j, 1 + 0.5j), np.clip(z, -1 + 0j, 1 + 0.5j))
    _same_bits(kd.minimum(kz, kz[:1]), np.minimum(z, z[:1]))  # broadcasting


def _data(cd, shape, nans=True):
    rng = np.random.default_rng(sum(shape))
    z = (rng.integers(-3, 4, shape) + 1j * rng.integers(-3, 4, shape)).astype(cd)  # many ties of the real part
    if nans and z.size > 8:
        z.ravel()[[3, 5]] = [complex(np.nan, 1), complex(2, np.nan)]
    return z


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("shape,axis", [((7,), None), ((5, 6), 0), ((5, 6), -1), ((4, 3, 5), (0, 2)),
                                        ((2, 700), 1), ((700, 3), 0), ((1, 9), 0)])
@pytest.mark.parametrize("nans", [False, True])
def test_reductions(cd, shape, axis, nans):
    z = _data(cd, shape, nans)
    kz = kd.asarray(z)
    for name in ("max", "min", "ptp", "nanmax", "nanmin"):
        _same_bits(getattr(kd, name)(kz, axis=axis), _numpy(getattr(np, name), z, axis=axis))
    if isinstance(axis, tuple):
        return
    for name in ("argmax", "argmin"):
        _same_bits(getattr(kd, name)(kz, axis=axis), getattr(np, name)(z, axis=axis))
    if not nans:
        _same_bits(kd.nanargmax(kz, axis=axis), np.nanargmax(z, axis=axis))
    _same_bits(kd.max(kz, axis=axis, keepdims=True), np.max(z, axis=axis, keepdims=True))


@pytest.mark.parametrize("cd", CDTYPES)
def test_nan_ignoring_forms_skip_values_with_a_nan_part(cd):
    z = np.array([[complex(np.nan, 5), 1 + 1j, complex(3, np.nan)], [2 - 1j, -2j, 2 + 0j]], cd)
    kz = kd.asarray(z)
    for name in ("nanmax", "nanmin", "nanargmax", "nanargmin"):
        for axis in (None, 0, 1):
            _same_bits(getattr(kd, name)(kz, axis=axis), _numpy(getattr(np, name), z, axis=axis))


@pytest.mark.parametrize("cd", CDTYPES)
def test_empty_reductions_raise_as_numpy(cd):
    with pytest.raises(ValueError):
        kd.max(kd.zeros((0, 3), dtype=cd), axis=0)
    with pytest.raises(ValueError):
        kd.argmin(kd.zeros(0, dtype=cd))
    assert kd.max(kd.zeros((0, 3), dtype=cd), axis=1).shape == (0,)


@pytest.mark.parametrize("cd", CDTYPES)
def test_ufunc_methods(cd):
    z = _data(cd, (4, 5))
    kz = kd.asarray(z)
    _same_bits(kd.maximum.reduce(kz, axis=1), _numpy(np.maximum.reduce, z, axis=1))
    _same_bits(kd.minimum.accumulate(kz, axis=0), _numpy(np.minimum.accumulate, z, axis=0))
    _same_bits(kd.fmax.accumulate(kz, axis=1), _numpy(np.fmax.accumulate, z, axis=1))
    target, ktarget = np.zeros(3, cd), kd.zeros(3, dtype=cd)
    idx, vals = np.array([0, 2, 0, 1, 2]), np.array([1 + 1j, 2j, 1 + 2j, -1j, 2 + 0j], cd)
    np.maximum.at(target, idx, vals)
    kd.maximum.at(ktarget, kd.asarray(idx), kd.asarray(vals))
    _same_bits(ktarget, target)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_in_numpys_sort_order(cd, side):
    """NumPy sorts complex values as [R + Rj, R + nanj, nan + Rj, nan + nanj]: the NaN groups last."""
    ordered = np.sort(SPECIAL).astype(cd)
    probes = np.concatenate([SPECIAL, [0.5 + 0j, 2 + 1j, -2j]]).astype(cd)
    _same_bits(kd.searchsorted(kd.asarray(ordered), kd.asarray(probes), side=side),
               np.searchsorted(ordered, probes, side=side))
    backwards = ordered[::-1].copy()
    sorter = np.argsort(backwards, kind="stable")
    _same_bits(kd.searchsorted(kd.asarray(backwards), kd.asarray(probes), side=side, sorter=kd.asarray(sorter)),
               np.searchsorted(backwards, probes, side=side, sorter=sorter))
    _same_bits(kd.searchsorted(kd.asarray(ordered), 1.0, side=side), np.searchsorted(ordered, 1.0, side=side))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float32", "complex64"])
def test_conjugate_dtypes_as_numpys_ufunc(dtype):
    """NumPy's conjugate has no bool loop: booleans come out int8 (the method a.conj() keeps bool)."""
    host = np.array([[True, False, True]]).astype(dtype)
    host = host + 1j * host if dtype == "complex64" else host
    _same_bits(kd.conjugate(kd.asarray(host)), np.conjugate(host))
    assert kd.asarray(host).conj().dtype == host.conj().dtype


@pytest.mark.parametrize("cd", CDTYPES)
def test_first_nan_wins_under_workgroup_trees(cd, monkeypatch):
    """NumPy folds in order: a slice's first NaN is its max and min. A workgroup tree (the GPU plans, forced here
    on any device) combines lanes out of index order; the H200 returned the later NaN ``2+nanj``."""
    dev = kd.device()
    monkeypatch.setattr(dev, "partials", 0)
    monkeypatch.setattr(dev, "thread_outputs", 65536)
    z = np.zeros((3, 700), cd)
    z[0, [3, 5]] = [complex(np.nan, 1), complex(2, np.nan)]
    z[1, [3, 5]] = [complex(2, np.nan), complex(np.nan, 1)]
    z[2, [3, 400]] = [complex(np.nan, -np.inf), complex(np.nan, 7)]
    for name in ("max", "min", "ptp"):
        for axis in (1, None):
            _same_bits(getattr(kd, name)(kd.asarray(z), axis=axis), _numpy(getattr(np, name), z, axis=axis))
