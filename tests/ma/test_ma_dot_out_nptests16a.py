"""kd.ma.dot(out=) against numpy.ma's (numpy/ma/tests/test_extras.py's test_dot_out): the kd.ma out receives the
product's data and mask and is returned (kd.ma raised TypeError)."""

import numpy as np
import pytest

import kdsl as kd


def check(got, want):
    np.testing.assert_array_equal(np.ma.getmaskarray(got.to_numpy()), np.ma.getmaskarray(want))
    np.testing.assert_allclose(got.data.numpy(), want.data, rtol=1e-6)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("shapes", [((3, 3), (3, 3)), ((2, 4), (4,)), ((4,), (4, 3)), ((0, 2), (2, 2))])
def test_into_a_masked_array(strict, shapes):
    rng = np.random.default_rng(0)
    a = np.ma.array(rng.standard_normal(shapes[0]), mask=rng.random(shapes[0]) < 0.3)
    b = np.ma.array(rng.standard_normal(shapes[1]), mask=rng.random(shapes[1]) < 0.3)
    want = np.ma.array(np.full(np.dot(a.data, b.data).shape, 5.0))
    np.ma.dot(a, b, strict=strict, out=want)
    got = kd.ma.array(kd.asarray(np.full(want.shape, 5.0)))
    assert kd.ma.dot(kd.ma.array(a), kd.ma.array(b), strict=strict, out=got) is got
    check(got, want)


def test_numpys_example_and_views():
    a = kd.ma.array(np.eye(3))
    out = kd.ma.array(np.zeros((3, 3)), mask=np.ones((3, 3), bool))  # its mask is replaced, not kept
    assert kd.ma.dot(a, a, out=out) is out
    check(out, np.ma.array(np.eye(3)))
    n = np.ma.array(np.arange(12.0).reshape(3, 4), mask=np.arange(12).reshape(3, 4) % 5 == 0)
    want = np.ma.zeros((4, 4))
    np.ma.dot(n.T, n[:, ::-1], out=want)
    got = kd.ma.zeros((4, 4))
    kd.ma.dot(kd.ma.array(n).T, kd.ma.array(n)[:, ::-1], out=got)
    check(got, want)


def test_plain_out_is_refused():
    with pytest.raises(TypeError, match="out must be a kd.ma masked array"):
        kd.ma.dot(kd.ma.array(np.eye(2)), kd.ma.array(np.eye(2)), out=kd.zeros((2, 2)))
