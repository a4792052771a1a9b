"""What ``kd.<name>`` says when kdsl has no such name: that kdsl lacks it and, where one exists, the kdsl way.

Example:
    >>> print(missing_name("ndarray"))
    module 'kdsl' has no attribute 'ndarray': kdsl's array type is kd.Array
"""

from __future__ import annotations

_HINTS: dict[str, str] = {
    "ndarray": "kdsl's array type is kd.Array",
    "asnumpy": "use a.numpy() or np.asarray(a)",
    "float_": "use kd.float32 (kdsl's default float) or kd.float64",
    "double": "use kd.float64",
    "single": "use kd.float32",
    "int_": "use kd.int32 (kdsl's default int) or kd.int64",
    "intp": "use kd.int64 (or kd.int32)",
    "save": "use np.save(path, a.numpy())",
    "load": "use kd.asarray(np.load(path))",
    "savetxt": "use np.savetxt(path, a.numpy())",
    "loadtxt": "use kd.asarray(np.loadtxt(path))",
}
_HINTS["complex_"] = "use kd.complex64 (kdsl's default complex) or kd.complex128"
_HINTS["cdouble"] = "use kd.complex128"
_HINTS["csingle"] = "use kd.complex64"


def missing_name(name: str) -> str:
    """The AttributeError message for ``kd.<name>``."""
    hint = _HINTS.get(name)
    if hint is None:
        hint = f"kdsl does not implement {name} (docs/numpy-api.md lists what it has)"
    return f"module 'kdsl' has no attribute {name!r}: {hint}"
