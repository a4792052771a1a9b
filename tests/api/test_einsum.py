"""kd.einsum / kd.einsum_path against NumPy."""

import numpy as np
import pytest

import kdsl as kd

CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)]),
    ("...ij,jk", [(2, 3, 3, 4), (4, 2)]),
    ("ij...,j...->i...", [(3, 4, 2), (4, 2)]),
    ("ii", [(4, 4)]),
    ("ii->i", [(3, 3)]),
    ("iij->ij", [(3, 3, 2)]),
    ("ij->", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("i,i", [(5,), (5,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("ij,jk->ik", [(3, 1), (4, 5)]),  # size-1 axis broadcasts against 4, as in NumPy
    ("abc,cd,de->abe", [(2, 1, 3), (3, 4), (4, 2)]),
    ("i,i,i->", [(4,), (4,), (4,)]),
    ("ijk,ikl->jl", [(3, 2, 4), (3, 4, 2)]),
    ("i->", [(0,)]),
    ("ij,jk->ik", [(0, 3), (3, 2)]),
    ("ij,jk->ik", [(2, 0), (0, 3)]),
]


def _data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(-5, 6, size=shape).astype(dtype)


@pytest.mark.parametrize("spec,shapes", CASES, ids=[c[0] + str(c[1]) for c in CASES])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_einsum_matches_numpy(spec, shapes, dtype):
    hosts = [_data(s, dtype, k) for k, s in enumerate(shapes)]
    want = np.einsum(spec, *hosts)
    got = kd.einsum(spec, *[kd.asarray(h) for h in hosts])
    assert got.shape == want.shape and got.dtype == kd.result_type(*[kd.asarray(h) for h in hosts])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_every_contraction_order_gives_numpys_result(optimize):
    hosts = [_data(s, np.float64, k) for k, s in enumerate([(3, 4), (4, 5), (5, 2), (2, 6)])]
    want = np.einsum("ab,bc,cd,de->ae", *hosts)
    got = kd.einsum("ab,bc,cd,de->ae", *[kd.asarray(h) for h in hosts], optimize=optimize)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


def test_einsum_path_is_reusable():
    arrays = [kd.ones((2, 30)), kd.ones((30, 40)), kd.ones((40, 3))]
    path, report = kd.einsum_path("ij,jk,kl->il", *arrays)
    assert path[0] == "einsum_path" and len(path) == 3 and "Complete contraction" in report
    np.testing.assert_allclose(np.asarray(kd.einsum("ij,jk,kl->il", *arrays, optimize=path)),
                               np.full((2, 3), 1200.0))


def test_interleaved_form():
    a, b = _data((2, 3), np.float32, 0), _data((3, 4), np.float32, 1)
    want = np.einsum(a, [0, 1], b, [1, 2], [0, 2])
    got = kd.einsum(kd.asarray(a), [0, 1], kd.asarray(b), [1, 2], [0, 2])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    got = kd.einsum(kd.asarray(a), [Ellipsis, 1], kd.asarray(b), [1, 2])  # implicit output
    np.testing.assert_allclose(np.asarray(got), np.einsum(a, [Ellipsis, 1], b, [1, 2]), rtol=1e-6)


def test_non_contiguous_views_and_special_values():
    a = _data((6, 8), np.float32, 0)
    a[0, 0] = np.nan
    a[1, 1] = np.inf
    b = _data((8, 6), np.float32, 1)
    ka, kb = kd.asarray(a)[::2, 1::2], kd.asarray(b).T[::2, 1::2]
    want = np.einsum("ij,kj->ik", a[::2, 1::2], b.T[::2, 1::2])
    np.testing.assert_allclose(np.asarray(kd.einsum("ij,kj->ik", ka, kb)), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(kd.einsum("ii->i", kd.asarray(a)[:6, :6])), np.einsum("ii->i", a[:6, :6]))


def test_integer_overflow_wraps_and_bool_is_logical():
    a = np.array([1, 2], dtype=np.int8)
    b = np.array([100, 100], dtype=np.int8)
    assert kd.einsum("i,i", kd.asarray(a), kd.asarray(b)).item() == np.einsum("i,i", a, b)
    m = np.array([[True, False], [False, False]])
    got = kd.einsum("ij,jk->ik", kd.asarray(m), kd.asarray(m))
    assert got.dtype == kd.bool and np.array_equal(np.asarray(got), np.einsum("ij,jk->ik", m, m))


def test_dtype_argument_casts_first():
    a = np.arange(6).reshape(2, 3)
    got = kd.einsum("ij->i", kd.asarray(a), dtype=kd.float64)
    assert got.dtype == kd.float64 and np.asarray(got).tolist() == [3.0, 12.0]


@pytest.mark.parametrize("args,match", [
    (("ij,jk->ik", np.ones((2, 3)), np.ones((4, 5))), "size 3 in one operand and 4"),
    (("ij->ik", np.ones((2, 3))), "does not appear"),
    (("ij->ii", np.ones((2, 2))), "repeat"),
    (("ijk", np.ones((2, 3))), "name 3"),
    (("i,j", np.ones(2)), "name 2 operands but 1"),
    (("i1", np.ones((2, 2))), "not a subscript"),
    (("i..j", np.ones((2, 2))), "stray"),
])
def test_bad_subscripts_raise_clear_errors(args, match):
    spec, *hosts = args
    with pytest.raises(ValueError, match=match):
        kd.einsum(spec, *[kd.asarray(h) for h in hosts])


def test_out_takes_the_result():
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = kd.zeros(3)
    assert kd.einsum("ij->j", kd.asarray(host), out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.einsum("ij->j", host))
    with pytest.raises(ValueError, match="shape"):
        kd.einsum("i", kd.ones(2), out=kd.ones(3))


def test_numpy_dispatches_to_kdsl():
    a = kd.ones((2, 3))
    got = np.einsum("ij->j", a)
    assert isinstance(got, kd.Array) and np.asarray(got).tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("spec,shapes", [("...->", [(2, 3)]), ("...i->", [(2, 3)]), ("i...->i", [(2, 3, 4)]),
                                         ("...,...->", [(3,), (2, 3)])])
def test_output_without_ellipsis_refused_as_numpy(spec, shapes):
    # np.einsum('...->', a) is NumPy's ValueError (the '...' axes are never summed silently); kdsl summed them
    hosts = [np.ones(s, np.float32) for s in shapes]
    with pytest.raises(ValueError):
        np.einsum(spec, *hosts)
    with pytest.raises(ValueError, match=r"has no '\.\.\.'"):
        kd.einsum(spec, *[kd.asarray(h) for h in hosts])
    with pytest.raises(ValueError, match=r"has no '\.\.\.'"):
        kd.einsum(kd.asarray(hosts[0]), [Ellipsis, 0][: hosts[0].ndim - 1] or [Ellipsis], [])


@pytest.mark.parametrize("spec", ["...ij->j", "...->...", "...ii->...i", "i...->...i"])
def test_empty_or_kept_ellipsis_still_works(spec):
    host = np.arange(9.0, dtype=np.float32).reshape(3, 3)
    np.testing.assert_allclose(kd.einsum(spec, kd.asarray(host)).numpy(), np.einsum(spec, host))
