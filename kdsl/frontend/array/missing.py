"""What ``kd.<name>`` says when kdsl has no such name: that kdsl lacks it and, where one exists, the kdsl way.

Example:
    >>> print(missing_name("asnumpy"))
    module 'kdsl' has no attribute 'asnumpy': use a.numpy() or np.asarray(a)
"""

from __future__ import annotations

_HINTS: dict[str, str] = {
    "asnumpy": "use a.numpy() or np.asarray(a)",
    "float_": "use kd.float32 (kdsl's default float) or kd.float64",
}
_HINTS["complex_"] = "use kd.complex64 (kdsl's default complex) or kd.complex128"
_HINTS["matrix"] = "kdsl has no matrix class; use 2-D arrays and the @ operator"
_HINTS["memmap"] = "map the file with np.memmap and upload the part you need with kd.asarray"
_HINTS["asmatrix"] = _HINTS["bmat"] = _HINTS["matrix"]
# datetimes, strings and records are NumPy's alone (kdsl arrays hold numbers): NumPy's functions on the host
_HINTS.update({name: f"kdsl arrays hold no datetimes: call NumPy's np.{name} on the host and upload the numbers "
                     "it gives (kd.asarray), or keep dates as int64 day counts"
               for name in ("busday_count", "busday_offset", "is_busday", "busdaycalendar", "datetime_as_string",
                            "datetime_data")})
_HINTS.update({name: f"kdsl arrays hold no strings: use NumPy's np.{name} on the host (codes or lengths upload "
                     "as numbers)" for name in ("char", "strings", "fromregex")})
_HINTS.update({name: f"kdsl arrays hold no structured records: keep one kdsl array per field (np.{name} stays "
                     "NumPy's)" for name in ("rec", "recarray", "record")})

def missing_name(name: str) -> str:
    """The AttributeError message for ``kd.<name>``."""
    hint = _HINTS.get(name)
    if hint is None:
        hint = f"kdsl does not implement {name} (docs/numpy-api.md lists what it has)"
    return f"module 'kdsl' has no attribute {name!r}: {hint}"
