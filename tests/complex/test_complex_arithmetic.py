"""Complex arithmetic against NumPy: shapes, views, broadcasting, mixed dtypes, scalars, special values and
magnitudes near overflow."""

import operator

import numpy as np
import pytest
from cx_testing import ARITH_RTOL, BIG, CDTYPES, assert_complex_close, csample, need, special_grid

import kdsl as kd

OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}
SHAPES = [((0,), (0,)), ((1,), (1,)), ((3, 4), (3, 4)), ((3, 1), (4,)), ((2, 1, 5), (1, 3, 1)), ((), (4,))]


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_binary_ops_broadcast(cd, op, shapes):
    need(cd)
    a, b = csample(shapes[0], cd, seed=1), csample(shapes[1], cd, seed=2)
    assert_complex_close(OPS[op](kd.asarray(a), kd.asarray(b)), OPS[op](a, b), 4 * ARITH_RTOL[cd],
                         zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
def test_non_contiguous_views(cd):
    need(cd)
    a, b = csample((6, 8), cd, seed=3), csample((8, 6), cd, seed=4)
    x, y = kd.asarray(a), kd.asarray(b)
    assert_complex_close(x[::2, 1::3] * y.T[1::2, ::3], a[::2, 1::3] * b.T[1::2, ::3], 4 * ARITH_RTOL[cd])
    assert_complex_close(x[:, ::-1] / y.T, a[:, ::-1] / b.T, 4 * ARITH_RTOL[cd])
    assert_complex_close(x.reshape(4, 12)[1:3] - 1j, a.reshape(4, 12)[1:3] - 1j, 0)


@pytest.mark.parametrize("cd", CDTYPES)
def test_scalars_and_reflected(cd):
    need(cd)
    a = csample((7,), cd, special=True)
    x = kd.asarray(a)
    c = np.dtype(cd).type
    for s in (2, -1.5, 0.5j, 3 - 4j, True):
        sc = c(s)  # NEP 50: the weak scalar takes the array's dtype
        with np.errstate(all="ignore"):
            cases = [(x + s, a + sc), (s - x, sc - a), (x * s, a * sc), (s * x, sc * a)]
            if s != 0:
                cases += [(x / s, a / sc)]
            cases += [(s / x, sc / a)]
        for got, want in cases:
            assert_complex_close(got, want, 4 * ARITH_RTOL[cd], zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("real", ["float32", "float64", "int32", "int8", "bool"])
def test_mixed_real_and_complex_operands(cd, real):
    need(cd)
    need(real)
    a = csample((5,), cd)
    r = np.array([1, 0, 3, 1, 2]).astype(real)
    x, y = kd.asarray(a), kd.asarray(r)
    for got, want in ((x + y, a + r), (y * x, r * a), (x / (y + 1), a / (r + 1))):
        assert_complex_close(got, want, 4 * ARITH_RTOL[str(want.dtype)])


@pytest.mark.parametrize("cd", CDTYPES)
def test_negative_conj_keep_signed_zeros(cd):
    need(cd)
    g = special_grid(cd)
    x = kd.asarray(g)
    assert_complex_close(-x, -g, 0)
    assert_complex_close(kd.negative(x), np.negative(g), 0)
    assert_complex_close(kd.conj(x), np.conj(g), 0)
    assert_complex_close(+x, g, 0)


@pytest.mark.parametrize("cd", CDTYPES)
def test_add_sub_special_values(cd):
    need(cd)
    g = special_grid(cd)
    a, b = np.meshgrid(g, g)
    with np.errstate(all="ignore"):
        assert_complex_close(kd.asarray(a) + kd.asarray(b), a + b, 0)
        assert_complex_close(kd.asarray(a) - kd.asarray(b), a - b, 0)


@pytest.mark.parametrize("cd", CDTYPES)
def test_division_special_values(cd):
    """Smith's algorithm as NumPy's loop: every pair of zeros, infinities, NaNs and finite values gives
    NumPy's NaN/inf placement and signed zeros."""
    need(cd)
    g = special_grid(cd)
    a, b = np.meshgrid(g, g)
    with np.errstate(all="ignore"):
        assert_complex_close(kd.asarray(a) / kd.asarray(b), a / b, 4 * ARITH_RTOL[cd])


@pytest.mark.parametrize("cd", CDTYPES)
def test_multiplication_special_values(cd):
    """The textbook product; NumPy's x86 loops fuse multiply-adds, which rescues products whose partial products
    overflow (inf - inf there is inf here NaN), so the grid leaves out values that overflow when squared."""
    need(cd)
    g = special_grid(cd)
    a, b = np.meshgrid(g, g)
    with np.errstate(all="ignore"):
        assert_complex_close(kd.asarray(a) * kd.asarray(b), a * b, 4 * ARITH_RTOL[cd], zero_sign=False)
        assert_complex_close(kd.square(kd.asarray(g)), np.square(g), 4 * ARITH_RTOL[cd], zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
def test_large_magnitudes_do_not_overflow(cd):
    """abs and / stay finite wherever NumPy's do (no squares of components near the overflow threshold), and
    denominators near it do not flush the quotient to zero."""
    need(cd)
    big, top = BIG[cd], BIG[cd + "_max"]
    a = np.array([complex(top, top), complex(big, -big), complex(-top, 1), complex(1 / big, 1 / big),
                  complex(top, 0.5 * top), complex(3 * big, 4 * big)], cd)
    b = np.array([complex(top, -top), complex(big, big), complex(top, top), complex(1 / big, -1 / big),
                  complex(0.5 * top, top), complex(big, 2 * big)], cd)
    x, y = kd.asarray(a), kd.asarray(b)
    with np.errstate(all="ignore"):
        assert_complex_close(kd.abs(x), np.abs(a), 2 * ARITH_RTOL[cd])
        assert_complex_close(x / y, a / b, 4 * ARITH_RTOL[cd], zero_sign=False)
        assert_complex_close(kd.reciprocal(y) * big, np.reciprocal(b) * np.dtype(cd).type(big), 8 * ARITH_RTOL[cd],
                             zero_sign=False)
    assert np.isfinite(kd.abs(x).numpy()[[1, 2, 3, 5]]).all()  # squares of these components overflow


@pytest.mark.parametrize("cd", CDTYPES)
def test_abs_special_values(cd):
    need(cd)
    g = special_grid(cd)
    assert_complex_close(kd.abs(kd.asarray(g)), np.abs(g), 2 * ARITH_RTOL[cd])
    assert kd.abs(kd.asarray(g)).dtype.np == np.abs(g).dtype


@pytest.mark.parametrize("cd", CDTYPES)
def test_equality(cd):
    need(cd)
    g = special_grid(cd)
    a, b = np.meshgrid(g, g)
    x, y = kd.asarray(a), kd.asarray(b)
    np.testing.assert_array_equal((x == y).numpy(), a == b)  # NaN != NaN, -0.0 == 0.0
    np.testing.assert_array_equal((x != y).numpy(), a != b)
    np.testing.assert_array_equal((x == 1.0).numpy(), a == 1.0)
    np.testing.assert_array_equal(kd.equal(x, 1j).numpy(), np.equal(a, 1j))
    r = np.array([1.0, 0.0], np.float32)
    np.testing.assert_array_equal((kd.asarray(r) == kd.asarray(np.array([1, 0j], cd))).numpy(), [True, True])


@pytest.mark.parametrize("cd", CDTYPES)
def test_fused_expression_is_one_kernel(cd):
    need(cd)
    a = csample((64,), cd)
    x = kd.asarray(a)
    y = kd.abs(x * x + 1j) / (kd.conj(x) + 2)
    assert_complex_close(y, np.abs(a * a + 1j) / (np.conj(a) + 2), 8 * ARITH_RTOL[cd])
    assert kd.explain(kd.abs(x * x + 1j) / (kd.conj(x) + 2)).count("elementwise") <= 1
