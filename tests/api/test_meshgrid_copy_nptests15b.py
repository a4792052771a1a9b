"""kd.meshgrid's copy= as NumPy's: copy=True (the default) gives arrays of their own, sparse or not; copy=False
gives views of the coordinate vectors, which follow writes into them (and, sparse, write into them). kdsl's sparse
grids were views whatever copy said (a write into x changed them, a write into them changed x), and its dense
copy=False grids kept their first values."""

import numpy as np
import pytest

import kdsl as kd

VECTORS = [
    (np.array([1, 2, 3], np.int32), np.array([4, 5], np.int32)),
    (np.array([0.5, np.nan, np.inf], np.float32), np.array([-0.0], np.float32)),
    (np.arange(10, dtype=np.float64)[::3], np.array([1.0, 2.0])),                       # a strided view
    (np.array([7], np.int16), np.zeros(0, np.int16)),                                  # empty
]


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("i", range(len(VECTORS)))
def test_writes_into_the_vectors(i, sparse, copy, indexing):
    nx, ny = (v.copy() for v in VECTORS[i])
    kx, ky = kd.asarray(nx), kd.asarray(ny)
    expected = np.meshgrid(nx, ny, sparse=sparse, copy=copy, indexing=indexing)
    got = kd.meshgrid(kx, ky, sparse=sparse, copy=copy, indexing=indexing)
    nx[...] = nx * 2 - 1
    kx[...] = kx * 2 - 1
    if ny.size:
        ny[0] = 100
        ky[0] = 100
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(g.numpy(), e)


@pytest.mark.parametrize("copy", [True, False])
def test_writes_into_sparse_grids(copy):
    nx, kx = np.array([1.0, 2.0, 3.0]), kd.asarray([1.0, 2.0, 3.0])
    NX, _ = np.meshgrid(nx, np.array([4.0]), sparse=True, copy=copy)
    KX, _ = kd.meshgrid(kx, kd.asarray([4.0]), sparse=True, copy=copy)
    NX[0, 1] = -1.0
    KX[0, 1] = -1.0
    np.testing.assert_array_equal(kx.numpy(), nx)  # a view writes into x (copy=False); a copy does not
    np.testing.assert_array_equal(KX.numpy(), NX)
