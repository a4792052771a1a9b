"""``.base`` along chains of views, as NumPy's: collapsed to the array owning the memory, also for ``x.view()`` of
a temporary (``(a + 1).view().base``: kdsl said None, revived_base.py); and the complex parts ``z.real``/``z.imag``
with NumPy's layout (float halves: strides twice the complex ones in float units), so their flags, strides,
``ravel`` and ``reshape`` copy where NumPy's do (kdsl called ``z.real`` of a C-ordered ``z`` C-contiguous, so
``z.real.ravel()`` was a view whose writes reached ``z``)."""

import numpy as np
import pytest

import kdsl as kd

OPS = {
    "view": lambda x: x.view(),
    "view_bits": lambda x: x.view(np.uint32 if x.dtype == np.float32 else np.uint64 if x.dtype.itemsize == 8 else
                                  np.int32),
    "reshape": lambda x: x.reshape(-1),
    "T": lambda x: x.T,
    "slice": lambda x: x[1:][..., ::-1],
    "real": lambda x: x.real,
    "imag": lambda x: x.imag,
    "diagonal": lambda x: x.diagonal(),
    "ravel": lambda x: x.ravel(),
    "swapaxes": lambda x: x.swapaxes(0, 1),
    "newaxis": lambda x: x[None],
    "ellipsis": lambda x: x[...],
    "flatten": lambda x: x.flatten(),
}


def _which(v, named):
    """Which of ``named`` arrays ``v.base`` is: its name, None, or 'other' (a copy NumPy makes, e.g. reshape's)."""
    if v.base is None:
        return None
    return next((name for name, x in named.items() if v.base is x), "other")


def _chain(xp, host, temporary, first, second):
    a = xp.asarray(host)
    named = {"a": a}
    source = a + 1 if temporary else a
    if temporary:
        named["tmp"] = source
    v1 = OPS[first](source)
    v = OPS[second](v1) if second else v1
    named["v1"] = v1
    del source  # a temporary is held by nothing but the views now (NumPy's base holds it)
    return _which(v, named), _which(v1, named), v.flags.owndata


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("temporary", [False, True])
@pytest.mark.parametrize("first", list(OPS))
@pytest.mark.parametrize("second", [None, "view", "slice", "T", "ravel", "reshape", "real"])
def test_base_chains_match_numpy(dtype, temporary, first, second):
    host = np.arange(12, dtype=dtype).reshape(3, 4).copy() + (1j if dtype == np.complex64 else 0)
    host = host.astype(dtype)
    want = _chain(np, host, temporary, first, second)
    got = _chain(kd, host, temporary, first, second)
    assert got == want


@pytest.mark.parametrize("make", [lambda xp: (xp.arange(4.0, dtype=np.float32) + 1).view(),
                                  lambda xp: xp.arange(3.0, dtype=np.float32).view(),
                                  lambda xp: (xp.ones((2, 3), dtype=np.float32) * 2).view(np.int16),
                                  lambda xp: (xp.zeros(0, dtype=np.float32) - 0.0).view(),
                                  # (no NaN: the bits of a NaN an addition returns are the GPU's own)
                                  lambda xp: (xp.asarray([-0.0, 1.5, np.inf], dtype=np.float32) + 0).view(np.int32)])
def test_base_of_a_view_of_a_temporary(make):
    want, got = make(np), make(kd)
    b = got.base
    assert b is not None and b is got.base and b.base is None and b.flags.owndata and not got.flags.owndata
    assert b.shape == want.base.shape and b.dtype == want.base.dtype
    np.testing.assert_array_equal(b.numpy(), want.base)
    assert kd.shares_memory(got, b) == np.shares_memory(want, want.base)
    if got.size:  # the revived base and the view share their data both ways, as NumPy's
        b[(0,) * b.ndim] = 5
        want.base[(0,) * want.base.ndim] = 5
        np.testing.assert_array_equal(got.numpy(), want)
        got[(-1,) * got.ndim] = 3
        want[(-1,) * want.ndim] = 3
        np.testing.assert_array_equal(b.numpy(), want.base)


def test_views_of_a_view_of_a_temporary_name_it_as_base():
    v = (kd.arange(6.0) + 1).view()
    part = v[::2]
    assert part.base is v.base and v.base.base is None
    assert (v.view(kd.int32)[1:]).base is v.base


PARTS = {"real": lambda z: z.real, "imag": lambda z: z.imag, "real.T": lambda z: z.real.T,
         "strided real": lambda z: z[:, ::2].real, "T.real": lambda z: z.T.real,
         "imag[:, 1:].T": lambda z: z.imag[:, 1:].T, "row real": lambda z: z[0].real,
         "reversed real": lambda z: z.real[:, ::-1], "imag reshaped": lambda z: z.imag.reshape(3, 2),
         "real of a column": lambda z: z[:, 1].real}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", list(PARTS))
def test_complex_parts_have_numpys_layout(name, dtype):
    if not kd.device().supports(kd.dtype(dtype)):
        pytest.skip(f"this device has no float64, so no {np.dtype(dtype).name}")
    host = (np.arange(6) + 1j * np.arange(6, 12)).astype(dtype).reshape(2, 3)
    want, got = PARTS[name](host), PARTS[name](kd.asarray(host))
    assert got.strides == want.strides
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (want.flags.c_contiguous, want.flags.f_contiguous)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("shape", [(2, 3), (1, 4), (3,), (0, 2)])
@pytest.mark.parametrize("part", ["real", "imag"])
@pytest.mark.parametrize("op", ["ravel", "reshape", "flatten"])
def test_writes_into_a_flattened_part_reach_z_as_numpys(shape, part, op):
    host = (np.arange(np.prod(shape)) * (1 + 2j)).astype(np.complex64).reshape(shape)
    z = kd.asarray(host)
    flat = {"ravel": lambda p: p.ravel(), "reshape": lambda p: p.reshape(-1), "flatten": lambda p: p.flatten()}[op]
    want, got = flat(getattr(host, part)), flat(getattr(z, part))
    assert got.flags.owndata == want.flags.owndata
    assert kd.shares_memory(got, z) == np.shares_memory(want, host)
    if want.size:
        want[0] = -7
        got[0] = -7
    np.testing.assert_array_equal(z.numpy(), host)  # NumPy's ravel copies: z unchanged; a view: z written
    np.testing.assert_array_equal(got.numpy(), want)


def test_part_of_a_non_contiguous_last_axis_cannot_change_itemsize():
    host = np.zeros(3, np.complex64)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        host.real.view(np.int16)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        kd.asarray(host).real.view(np.int16)


SHARING_VIEWS = [lambda z: z, lambda z: z.real, lambda z: z.imag, lambda z: z[1], lambda z: z.real[1],
                 lambda z: z.imag[:, :1], lambda z: z.real.T[2:], lambda z: z[1:, 2:].real, lambda z: z[1:, :1]]


@pytest.mark.parametrize("lazy", [True, False], ids=["lazy constant", "stored"])
def test_sharing_of_parts_and_their_views(lazy):
    """With the parts' float layout, ``shares_memory`` stays exact and ``may_share_memory`` never says False
    where NumPy says True (it may say True where NumPy's bounds say False: kdsl's bound is coarser there)."""
    host = np.zeros((2, 3), np.complex64)
    z = kd.zeros((2, 3), dtype=kd.complex64) if lazy else kd.asarray(np.arange(6, dtype=np.complex64).reshape(2, 3))
    for f in SHARING_VIEWS:
        for g in SHARING_VIEWS:
            assert kd.shares_memory(f(z), g(z)) == np.shares_memory(f(host), g(host))
            if np.may_share_memory(f(host), g(host)):
                assert kd.may_share_memory(f(z), g(z))


TOBYTES_VIEWS = [lambda x: x.T[::2], lambda x: x.T[:, ::2], lambda x: x.T, lambda x: x[::2].T, lambda x: x.T[1:],
                 lambda x: x, lambda x: x[:, ::-1], lambda x: x[None].T, lambda x: x[:1].T, lambda x: x.real.T,
                 lambda x: x.imag[:, 1:].T]


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64])
@pytest.mark.parametrize("view", range(len(TOBYTES_VIEWS)))
def test_tobytes_in_each_order_is_numpys(view, dtype):
    """``tobytes('A')`` is Fortran order exactly where NumPy's flags say Fortran-contiguous: a transposed view
    that is not (``a.T[::2]``) gave its bytes in Fortran order (its host copy's), NumPy's in C order."""
    host = (np.arange(24) * (1 + 1j) if dtype == np.complex64 else np.arange(24)).astype(dtype).reshape(4, 6)
    want, got = TOBYTES_VIEWS[view](host), TOBYTES_VIEWS[view](kd.asarray(host))
    for order in ("C", "F", "A", "K", "a"):
        assert got.tobytes(order) == want.tobytes(order), order
