"""``kd.PerformanceWarning``: kdsl computed a result correctly, but on the host rather than on the device.

kdsl warns with it where it falls back to NumPy's own semantics for code that cannot run as a kernel (for
example ``kd.vectorize`` of a function that does Python control flow on an element), so that a slow port is
visible and can be silenced or turned into an error with the ``warnings`` filters.

    >>> import warnings, kdsl as kd
    >>> issubclass(kd.PerformanceWarning, RuntimeWarning)
    True
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", kd.PerformanceWarning)  # silence the host fallbacks
"""

from __future__ import annotations


class PerformanceWarning(RuntimeWarning):
    """The result is right but was computed on the host (a round trip and a Python loop), not on the device."""
