"""Small metadata and host-side helpers against NumPy: binary_repr, base_repr, min_scalar_type, common_type,
mintypecode, typename, euler_gamma, ndindex, ndenumerate, iterable, isfortran, asfortranarray, require,
apply_over_axes, mask_indices."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.dtype import as_dtype


@pytest.mark.parametrize("width", [None, 0, 1, 3, 4, 8, 12])
def test_binary_repr(width):
    for n in [*range(-20, 21), 127, 128, -128, -129, 2 ** 40, -(2 ** 40)]:
        try:
            want = np.binary_repr(n, width)
        except ValueError:
            with pytest.raises(ValueError, match="Insufficient bit width"):
                kd.binary_repr(n, width)
            continue
        assert kd.binary_repr(n, width) == want
    if width is None or width >= 3:
        assert kd.binary_repr(kd.asarray(5), width) == np.binary_repr(5, width)  # a 0-d integer array


@pytest.mark.parametrize("base", [2, 3, 8, 10, 16, 36])
@pytest.mark.parametrize("padding", [0, 1, 4])
def test_base_repr(base, padding):
    for n in [*range(-40, 41), 10 ** 12, -(10 ** 12)]:
        assert kd.base_repr(n, base, padding) == np.base_repr(n, base, padding)


@pytest.mark.parametrize("base", [0, 1, 37])
def test_base_repr_bad_base(base):
    with pytest.raises(ValueError):
        np.base_repr(3, base)
    with pytest.raises(ValueError, match="Bases"):
        kd.base_repr(3, base)
    with pytest.raises(TypeError):
        kd.binary_repr(1.5)


@pytest.mark.parametrize("value", [0, 10, 255, 256, -1, -129, 2 ** 40, 1.0, 1e5, 1e50, -2.5, True, 1 + 1j])
def test_min_scalar_type(value):
    assert kd.min_scalar_type(value) is as_dtype(np.min_scalar_type(value))


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.uint64, np.bool_, np.complex64])
def test_min_scalar_type_of_arrays(dtype):
    host = np.zeros((2, 3), dtype)
    assert kd.min_scalar_type(kd.asarray(host)) is as_dtype(np.min_scalar_type(host))


@pytest.mark.parametrize("host", [np.array([1, 200, 3]), np.array([-3, 5]), np.array([1.0, 2.5]),
                                  np.array([1e5, 3.0]), np.array([70000, 2], np.uint32)])
def test_min_scalar_type_of_zero_d_results(host):
    """A 0-d result (``a.max()``: NumPy's scalar) gives the type its value needs, as NumPy's, not its dtype."""
    assert kd.min_scalar_type(kd.asarray(host).max()) is as_dtype(np.min_scalar_type(host.max()))
    assert kd.min_scalar_type(kd.asarray(host[:1])) is as_dtype(np.min_scalar_type(host[:1]))


@pytest.mark.parametrize("dtypes", [[np.int8], [np.float16], [np.float16, np.float32], [np.int32, np.float32],
                                    [np.complex64, np.float64], [np.uint8, np.float16], [np.float32, np.complex64]])
def test_common_type(dtypes):
    arrays = [np.zeros(2, d) for d in dtypes]
    assert kd.common_type(*[kd.asarray(a) for a in arrays]) is np.common_type(*arrays)  # NumPy's scalar type


def test_common_type_rejects_bool_like_numpy():
    with pytest.raises(TypeError):
        np.common_type(np.zeros(1, bool))
    with pytest.raises(TypeError):
        kd.common_type(kd.zeros(1, dtype=kd.bool))


@pytest.mark.parametrize("chars", ["if", "dF", ["S", "d"], "bhi", "", ["f", "D"], "G"])
def test_mintypecode_and_typename(chars):
    assert kd.mintypecode(chars) == np.mintypecode(chars)
    assert kd.mintypecode(chars, typeset="fd", default="f") == np.mintypecode(chars, typeset="fd", default="f")
    assert kd.mintypecode([kd.ones(1, dtype=kd.float32), kd.ones(1, dtype=kd.complex64)]) == \
        np.mintypecode([np.ones(1, np.float32), np.ones(1, np.complex64)])
    for c in "?bBhHiIlLqQfdgFDGSUVO":
        assert kd.typename(c) == np.typename(c)


def test_euler_gamma():
    assert kd.euler_gamma == np.euler_gamma


@pytest.mark.parametrize("shape", [(2, 3), (0, 2), (), (1,), (3, 1, 2)])
def test_ndindex_ndenumerate(shape):
    assert list(kd.ndindex(*shape)) == list(np.ndindex(*shape))
    assert list(kd.ndindex(shape)) == list(np.ndindex(shape))
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = list(kd.ndenumerate(kd.asarray(host)))
    want = list(np.ndenumerate(host))
    assert [i for i, _ in got] == [i for i, _ in want]
    assert all(type(g) is type(w) and g == w for (_, g), (_, w) in zip(got, want, strict=True))
    if host.ndim == 2:
        assert [i for i, _ in kd.ndenumerate(kd.asarray(host).T)] == [i for i, _ in np.ndenumerate(host.T)]
    with pytest.raises(ValueError):
        kd.ndindex(-1, 2)


@pytest.mark.parametrize("y", [[1], (), 3, 2.5, "ab", np.arange(2), np.float32(1)])
def test_iterable(y):
    assert kd.iterable(y) == np.iterable(y)
    if isinstance(y, np.ndarray):
        assert kd.iterable(kd.asarray(y)) and not kd.iterable(kd.asarray(y)[0])


def test_isfortran_asfortranarray_require():
    host = np.arange(6).reshape(2, 3)
    a = kd.asarray(host)
    for view in (lambda x: x, lambda x: x.T, lambda x: x[:, ::2], lambda x: x[:1].T):
        assert kd.isfortran(view(a)) == np.isfortran(view(host))
    assert kd.isfortran(np.asfortranarray(host)) == np.isfortran(np.asfortranarray(host))
    f = kd.asfortranarray(a)
    np.testing.assert_array_equal(f.numpy(), np.asfortranarray(host))
    assert f is not a
    f[0, 0] = 99
    assert a[0, 0].item() == 0  # a copy, as NumPy's
    assert kd.asfortranarray([1.0, 2.0], dtype=kd.float64).dtype is kd.float64
    for req in [None, "C", "CW", ["A", "E"], ["C_CONTIGUOUS", "WRITEABLE"], "F", "O"]:
        got = kd.require(a, kd.float32, req)
        np.testing.assert_array_equal(got.numpy(), np.require(host, np.float32, req))
        assert got.dtype is kd.float32
    # 'O' copies what does not own its data (NumPy's flags rule: np.require(owner, requirements="O") is owner)
    v = a[:, 1:]
    assert kd.require(v, requirements="O") is not v and kd.require(a, requirements="O") is a
    assert kd.require(a, requirements="C") is a
    with pytest.raises(ValueError):
        np.require(host, requirements="CF")
    with pytest.raises(ValueError, match="both C and Fortran"):
        kd.require(a, requirements="CF")
    with pytest.raises(KeyError):
        kd.require(a, requirements=["X"])


@pytest.mark.parametrize("axes", [0, [0], [0, 2], [-1], (1, 2), []])
@pytest.mark.parametrize("func", ["sum", "max", "mean"])
def test_apply_over_axes(axes, func):
    host = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = kd.apply_over_axes(getattr(kd, func), kd.asarray(host), axes)
    want = np.apply_over_axes(getattr(np, func), host, axes)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    with pytest.raises(ValueError, match="correct shape"):
        kd.apply_over_axes(lambda x, ax: x.sum(), kd.asarray(host), [0])


@pytest.mark.parametrize("n", [0, 1, 3, 5])
@pytest.mark.parametrize("k", [-1, 0, 2])
@pytest.mark.parametrize("fn", ["triu", "tril"])
def test_mask_indices(n, k, fn):
    got = kd.mask_indices(n, getattr(kd, fn), k)
    want = np.mask_indices(n, getattr(np, fn), k)
    assert len(got) == 2
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g.numpy(), w)
        assert g.numpy().dtype == w.dtype
    host = np.arange(n * n).reshape(n, n)
    np.testing.assert_array_equal(kd.asarray(host)[got].numpy(), host[want])
