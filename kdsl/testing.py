"""``kd.testing``: NumPy's test assertions (``np.testing``) for kdsl arrays.

Each function reads its kdsl arguments back to the host (``a.numpy()``: a testing module may, and must, look at
the values) - inside lists, tuples and dicts too - and hands them to NumPy's function of the same name, so
the checks, tolerances, messages and exceptions (``AssertionError``) are NumPy's. Arguments that are not kdsl
arrays reach NumPy unchanged, so a kdsl result compares directly with a NumPy one. The helpers that take no
arrays (``assert_raises``, ``assert_warns``, ``assert_no_warnings``, ``suppress_warnings``, ``tempdir``, the
platform flags such as ``IS_PYPY``...) are NumPy's own objects.

Example:
    >>> import kdsl as kd, numpy as np
    >>> kd.testing.assert_allclose(kd.sqrt(kd.asarray([4.0, 9.0])), [2.0, 3.0])
    >>> kd.testing.assert_array_equal(kd.arange(3), np.arange(3))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy.testing as _npt

import kdsl

# NumPy's helpers that take no arrays, re-exported as they are
_OWN = ("assert_", "assert_raises", "assert_raises_regex", "assert_warns", "assert_no_warnings",
        "assert_no_gc_cycles", "assert_string_equal", "suppress_warnings", "clear_and_catch_warnings", "tempdir",
        "temppath", "measure", "break_cycles", "SkipTest", "KnownFailureException", "IgnoreException", "verbose",
        "IS_PYPY", "HAS_REFCOUNT", "HAS_LAPACK64", "IS_64BIT", "IS_WASM", "IS_MUSL", "IS_PYSTON",
        "NOGIL_BUILD", "IS_EDITABLE", "IS_INSTALLED")

__all__ = ["assert_allclose", "assert_almost_equal", "assert_approx_equal", "assert_array_almost_equal",
           "assert_array_almost_equal_nulp", "assert_array_compare", "assert_array_equal", "assert_array_less",
           "assert_array_max_ulp", "assert_equal", "print_assert_equal", *_OWN]


def _host(x: Any) -> Any:
    """``x`` with every kdsl array replaced by its values on the host (a download each); a kd.ma array becomes
    NumPy's masked array, so NumPy's checks skip its masked entries as they do for ``np.ma`` arrays."""
    if isinstance(x, kdsl.Array):
        return x.numpy()
    if isinstance(x, kdsl.ma.MaskedArray):
        return x.to_numpy()
    if isinstance(x, (list, tuple)) and any(isinstance(v, (kdsl.Array, kdsl.ma.MaskedArray, list, tuple, dict))
                                            for v in x):
        return type(x)(_host(v) for v in x) if not hasattr(x, "_fields") else type(x)(*map(_host, x))
    if isinstance(x, dict):
        return {k: _host(v) for k, v in x.items()}
    return x


def _on_host(check: Callable[..., Any]) -> Callable[..., None]:
    """NumPy's ``check`` with its array arguments read back from the device first."""
    @functools.wraps(check)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        __tracebackhide__ = True  # pytest shows the caller's line, as for NumPy's own assertions
        check(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})
    wrapper.__doc__ = (f"NumPy's ``np.testing.{check.__name__}`` on host copies of kdsl arrays (see "
                       f"kdsl.testing).\n\n{check.__doc__ or ''}")
    return wrapper


assert_allclose = _on_host(_npt.assert_allclose)
assert_array_equal = _on_host(_npt.assert_array_equal)
assert_array_almost_equal = _on_host(_npt.assert_array_almost_equal)
assert_almost_equal = _on_host(_npt.assert_almost_equal)
assert_approx_equal = _on_host(_npt.assert_approx_equal)
assert_equal = _on_host(_npt.assert_equal)
assert_array_less = _on_host(_npt.assert_array_less)
assert_array_max_ulp = _on_host(_npt.assert_array_max_ulp)
assert_array_almost_equal_nulp = _on_host(_npt.assert_array_almost_equal_nulp)
assert_array_compare = _on_host(_npt.assert_array_compare)
print_assert_equal = _on_host(_npt.print_assert_equal)

globals().update({name: getattr(_npt, name) for name in _OWN})

