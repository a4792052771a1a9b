"""NumPy type annotations in ported code: they are evaluated where the ``def`` runs, so each must build.

``def step(u: np.ndarray[Any, np.dtype[np.float64]], dt: np.float64 | None = None) -> np.ndarray:`` ported to
kdsl raised at the ``def``: ``kd.dtype[...]`` (TypeError: '_CallableModule' object is not subscriptable),
``kd.ndarray[...]`` ('Array' is not subscriptable) and ``kd.float64 | None`` (unsupported operand types for |).
They now give NumPy's generic aliases and unions, a kdsl dtype standing for NumPy's scalar type; ``kd.typing``
(``np.typing.NDArray[np.float64]`` ported: AttributeError) holds ``numpy.typing``'s names.
"""

from typing import Any, Optional

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("name", ["float32", "float64", "int8", "uint16", "int64", "bool_", "complex64"])
def test_dtype_subscript_is_numpys(name):
    assert kd.dtype[getattr(kd, name)] == np.dtype[getattr(np, name)]
    assert kd.dtype[Any] == np.dtype[Any]
    assert kd.dtype[kd.floating] == np.dtype[np.floating]


def test_ndarray_subscript():
    alias = kd.ndarray[Any, kd.dtype[kd.float64]]
    assert alias.__origin__ is kd.ndarray
    assert alias.__args__ == (Any, np.dtype[np.float64])
    assert kd.ndarray[tuple[int, ...], kd.dtype[Any]].__args__ == (tuple[int, ...], np.dtype[Any])


@pytest.mark.parametrize("name", ["float32", "float64", "int64", "bool_"])
def test_dtype_unions_as_numpys(name):
    k, n = getattr(kd, name), getattr(np, name)
    assert (k | None) == (n | None)
    assert (None | k) == (None | n)
    assert (k | kd.int8) == (n | np.int8)
    assert (int | k) == (int | n)
    assert (kd.ndarray | k) == (kd.ndarray | n)
    assert Optional[k | kd.float32] == Optional[n | np.float32]  # noqa: UP045 - the spelling ported code uses
    assert isinstance(n(1), k | None) and isinstance(None, k | None) and not isinstance(1.5j, k | None)


def _define(np):
    # the def runs with `np` as the module given (an annotation is evaluated where its def runs)
    def heat_step(u: np.ndarray[Any, np.dtype[np.float64]], alpha: np.float64 | None = None) -> np.ndarray:
        a = 0.25 if alpha is None else alpha
        return u + a * (np.roll(u, 1) + np.roll(u, -1) - 2 * u)

    return heat_step


def test_annotated_program_runs():
    kd_step, np_step = _define(kd), _define(np)
    assert kd_step.__annotations__["alpha"] == (np.float64 | None)
    u = np.sin(np.linspace(0, np.pi, 9))
    np.testing.assert_allclose(kd_step(kd.asarray(u)).numpy(), np_step(u))
    np.testing.assert_allclose(kd_step(kd.asarray(u), np.float64(0.1)).numpy(), np_step(u, np.float64(0.1)))


def test_no_arithmetic_on_dtypes():
    with pytest.raises(TypeError):
        kd.float32 & None  # noqa: B018 - only | (annotation unions) is defined


def test_typing_module_names():
    import numpy.typing as npt

    for name in npt.__all__:
        assert hasattr(kd.typing, name), name
    assert kd.typing.ArrayLike is npt.ArrayLike and kd.typing.DTypeLike is npt.DTypeLike
    alias = kd.typing.NDArray[kd.float64]
    assert alias.__origin__ is kd.ndarray
    assert alias.__args__[0] == tuple[Any, ...]
    assert kd.typing.NDArray[Any].__args__[1] == np.dtype[Any]


def test_np_typing_ndarray_annotation_ported():
    def define(np):
        def normalise(x: np.typing.NDArray[np.float64], eps: np.typing.ArrayLike = 1e-12) -> np.typing.NDArray[Any]:
            return x / (np.linalg.norm(x) + eps)

        return normalise

    v = np.array([3.0, 4.0])
    np.testing.assert_allclose(define(kd)(kd.asarray(v)).numpy(), define(np)(v))
