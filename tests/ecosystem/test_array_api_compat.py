"""array-api-compat (what scikit-learn, SciPy and others use to find an array's namespace) recognises kdsl arrays:
``array_namespace(x)`` is ``kdsl`` itself, and its helpers (``device``, ``to_device``, ``size``) work on them."""

import numpy as np
import pytest

aac = pytest.importorskip("array_api_compat", reason="array-api-compat is a test-only dependency (pip install "
                          "kdsl[test])")

import kdsl as kd  # noqa: E402


@pytest.mark.parametrize("make", [lambda: kd.zeros((2, 3)), lambda: kd.asarray(np.arange(4, dtype=np.int64)),
                                  lambda: kd.ones(()), lambda: kd.zeros((0, 5), dtype=kd.float64),
                                  lambda: kd.arange(6).reshape(2, 3).T])
def test_array_namespace_is_kdsl(make):
    x = make()
    assert aac.array_namespace(x) is kd
    assert aac.array_namespace(x, kd.ones(2)) is kd
    assert aac.is_array_api_obj(x)
    assert not aac.is_numpy_array(x) and not aac.is_torch_array(x)


def test_array_namespace_api_version():
    x = kd.ones(3)
    assert aac.array_namespace(x, api_version=kd.__array_api_version__) is kd
    with pytest.raises(ValueError):
        aac.array_namespace(x, api_version="1999.01")


def test_mixing_with_numpy_is_refused():
    with pytest.raises(TypeError, match="[Mm]ultiple namespaces"):
        aac.array_namespace(kd.ones(2), np.ones(2))


def test_device_and_to_device():
    x = kd.asarray(np.array([1.5, -0.0, np.nan], np.float32))
    dev = aac.device(x)
    assert dev == x.device
    y = aac.to_device(x, dev)
    assert isinstance(y, kd.Array) and y.device == dev
    np.testing.assert_array_equal(y.numpy(), x.numpy())


@pytest.mark.parametrize("shape", [(), (0,), (3, 4), (2, 1, 5)])
def test_size(shape):
    assert aac.size(kd.zeros(shape)) == int(np.prod(shape))
