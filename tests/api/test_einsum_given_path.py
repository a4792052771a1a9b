"""``einsum(..., optimize=['einsum_path', ...])`` with NumPy's own path forms: steps of one operand (NumPy reduces
it alone) and of three or more (NumPy contracts them at once) give NumPy's values; a step past the operand list
and a path that leaves operands uncontracted raise NumPy's IndexError / RuntimeError."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(3)
A, B, C = RNG.random((2, 3)), RNG.random((3, 4)), RNG.random((4, 2))


@pytest.mark.parametrize("path", [[(2,), (0, 1), (0, 1)], [(0, 1, 2)], [(1, 2), (0, 1)], [(0, 2), (0, 1)],
                                  [(1,), (0,), (2,), (0, 1, 2)]])
def test_numpys_path_forms(path):
    want = np.einsum("ij,jk,kl->il", A, B, C, optimize=["einsum_path", *path])
    got = kd.einsum("ij,jk,kl->il", *(kd.asarray(x) for x in (A, B, C)), optimize=["einsum_path", *path])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_a_single_operand_step_with_private_labels():
    x = RNG.random((5, 3))
    want = np.einsum("ij,jk->i", x, B, optimize=["einsum_path", (0,), (0, 1)])
    got = kd.einsum("ij,jk->i", kd.asarray(x), kd.asarray(B), optimize=["einsum_path", (0,), (0, 1)])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("path, error", [([(0,)], RuntimeError), ([(0, 1)], RuntimeError), ([(0, 5)], IndexError)])
def test_bad_paths_raise_numpys_errors(path, error):
    with pytest.raises(error):
        np.einsum("ij,jk,kl->il", A, B, C, optimize=["einsum_path", *path])
    with pytest.raises(error):
        kd.einsum("ij,jk,kl->il", *(kd.asarray(x) for x in (A, B, C)), optimize=["einsum_path", *path])
