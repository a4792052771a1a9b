"""kd.vectorize(f, signature=...): NumPy's generalised-ufunc loop, one call per loop index with core slices."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(7)
M = RNG.normal(size=(2, 3, 4))
V = RNG.normal(size=(4, 5))


def _both(make, *args, **kwargs):
    """``make(xp)`` gives the vectorized function; it runs on NumPy and kdsl data; results as host tuples."""
    want = make(np)(*args, **kwargs)
    got = make(kd)(*[kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args],
                   **{k: kd.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()})
    want, got = (want, got) if isinstance(want, tuple) else ((want,), (got,))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        assert np.dtype(g.dtype.name).kind == w.dtype.kind
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("data", [V, V.T, V[::2], V[:1], M])
def test_rows_centred(data):
    _both(lambda xp: xp.vectorize(lambda v: v - v.mean(), signature="(n)->(n)"), data)


def test_two_inputs_broadcast_two_outputs():
    _both(lambda xp: xp.vectorize(lambda m, v: (m @ v, m.sum()), signature="(m,n),(n)->(m),()"), M, V[:, 0])
    _both(lambda xp: xp.vectorize(lambda x, y: (x * y).sum(), signature="(n),(n)->()"), M, M[0, :1])


def test_new_output_dimension_and_matrix_cores():
    _both(lambda xp: xp.vectorize(lambda v: xp.stack([v.min(), v.max()]), signature="(n)->(k)"), V)
    _both(lambda xp: xp.vectorize(lambda m: xp.linalg.inv(m + 4 * xp.eye(3)), signature="(n,n)->(n,n)"),
          M[:, :, :3])


def test_python_control_flow_on_a_slice_works_as_in_numpy():
    _both(lambda xp: xp.vectorize(lambda v: 1 if v.sum() > 0 else 0, signature="(n)->()"), V)


def test_excluded_keywords_otypes_and_decorator():
    _both(lambda xp: xp.vectorize(lambda v, k: v * k, signature="(n)->(n)", excluded={1}), V, 3)
    _both(lambda xp: xp.vectorize(lambda v, w=1: (v * w).sum(), signature="(n),(n)->()"), V, w=np.arange(5.0))
    _both(lambda xp: xp.vectorize(lambda v: v.argmax(), signature="(n)->()", otypes=[np.float64]), V)
    _both(lambda xp: xp.vectorize(signature="(n)->()")(lambda v: v.max() - v.min()), V)
    _both(lambda xp: xp.vectorize(lambda x, y: x * y + 1, signature="(),()->()"), V, 2.0)


def test_first_result_sets_the_dtype():
    _both(lambda xp: xp.vectorize(lambda v: v.argmax(), signature="(n)->()"), V)
    _both(lambda xp: xp.vectorize(lambda v: v, signature="(n)->(n)", otypes=[float]), V[:0])


@pytest.mark.parametrize(("func", "signature", "args", "match"), [
    (lambda v: v, "n->n", None, "not a valid gufunc signature"),
    (lambda v: v, "(m,n)->()", (V[0],), "does not have enough dimensions"),
    (lambda v, w: v, "(n),(n)->(n)", (V, np.zeros(3)), "inconsistent size for core dimension 'n'"),
    (lambda v: v.sum(), "(n)->(),()", (V,), "wrong number of outputs"),
    (lambda v: v[:2], "(n)->(n)", (V,), "inconsistent size for core dimension 'n'"),
    (lambda v: v, "(n)->(n)", (V[:0],), "unless `otypes` is set"),
])
def test_errors_are_numpys(func, signature, args, match):
    for xp in (np, kd):
        with pytest.raises(ValueError, match=match):
            f = xp.vectorize(func, signature=signature)
            f(*[xp.asarray(a) for a in args])


def test_wrong_output_rank_is_a_value_error():
    message = r"0-dimensional argument does not have enough dimensions for all core dimensions \('n',\)"
    with pytest.raises(ValueError, match=message):
        np.vectorize(lambda v: v.sum(), signature="(n)->(n)")(V)
    with pytest.raises(ValueError, match=message):  # NumPy's words (test_vectorize_signature_errors_leftovers28.py)
        kd.vectorize(lambda v: v.sum(), signature="(n)->(n)")(kd.asarray(V))
