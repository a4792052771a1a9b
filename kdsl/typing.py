"""``kd.typing``: NumPy's annotation names (``numpy.typing``) for ported code, so that
``def step(u: np.typing.NDArray[np.float64]) -> np.typing.NDArray[np.float64]:`` ported to ``kd`` defines its
function (annotations are evaluated where a ``def`` runs). ``NDArray[t]`` is kdsl's array type parametrised as
NumPy's (``kd.ndarray[tuple[Any, ...], np.dtype[t]]``); ``ArrayLike``, ``DTypeLike`` and ``NBitBase`` are
NumPy's own: they describe inputs, which kdsl takes as NumPy does. Annotations only: nothing here checks types.

    >>> import kdsl as kd
    >>> kd.typing.NDArray[kd.float32].__origin__ is kd.ndarray
    True
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NBitBase

import kdsl as kd

_ScalarT = TypeVar("_ScalarT")
NDArray = kd.ndarray[tuple[Any, ...], np.dtype[_ScalarT]]  # type: ignore[type-arg]

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]
