"""Complex numbers: ``real``, ``imag``, ``conj``, ``angle``, building a complex array from its parts, the
complex matrix product and ``vdot``; NumPy's names and semantics (see ``docs/complex.md``).

``complex64`` and ``complex128`` arrays go through the same lazy pipeline as real ones: arithmetic, ``abs``,
``exp``, ``log``, ``sqrt`` and the rest are the ordinary ops (:mod:`kdsl.codegen.complex` renders them), and
everything here fuses with them.

Example:
    >>> import kdsl as kd, numpy as np
    >>> z = kd.asarray(np.array([3 + 4j, 1j], np.complex64))
    >>> kd.abs(z).tolist(), kd.real(z).tolist(), kd.conj(z).tolist()
    ([5.0, 1.0], [3.0, 0.0], [(3-4j), -1j])
    >>> kd.complex_from_parts(kd.asarray([1.0]), kd.asarray([2.0])).tolist()
    [(1+2j)]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node


def _arr(x: Any) -> Array:
    if isinstance(x, Array):
        return x
    from kdsl.frontend.array.creation import asarray  # cycle: creation imports ops, which imports array

    return asarray(x)


def real(val: Any) -> Array:
    """The real part (a float array for complex input; real input is returned as it is, as NumPy does)."""
    x = _arr(val)
    return ops.apply("real", x) if x.dtype.kind == "c" else x


def imag(val: Any) -> Array:
    """The imaginary part (a float array for complex input; zeros of ``val``'s dtype for real input)."""
    x = _arr(val)
    if x.dtype.kind == "c":
        return ops.apply("imag", x)
    return Array(mv.broadcast_node(ops.const_node(0, x.dtype, x.device), x.shape))


def conj(x: Any) -> Array:
    """The complex conjugate (real input: a copy, a new array as NumPy's ufunc gives, booleans as int8, NumPy's
    ufunc loop for them; the method ``a.conj()`` returns a real ``a`` itself, as ``ndarray.conj``).

    >>> import kdsl as kd
    >>> kd.conj(kd.asarray([1 + 2j])).tolist(), kd.conjugate(kd.asarray([True])).dtype
    ([(1-2j)], kdsl.int8)
    """
    x = _arr(x)
    if x.dtype is dt.bool_:
        return x.astype(dt.int8)
    return ops.apply("conj", x) if x.dtype.kind == "c" else x.copy()


conjugate = conj


def angle(z: Any, deg: bool = False) -> Array:
    """The counterclockwise angle from the positive real axis, ``arctan2(imag, real)``, in radians (degrees with
    ``deg=True``). Real input: 0 or pi (pi for negative numbers and -0.0, as NumPy).

    >>> import kdsl as kd
    >>> kd.angle(kd.asarray([1j, -1.0 + 0j]), deg=True).tolist()
    [90.0, 180.0]
    """
    z = _arr(z)
    # real input: NumPy's arctan2(0, z), whose Python int 0 gives int8 data float16 and int32 data float64
    zero = 0 if z.device.supports(dt.float64) else 0.0  # (0.0: float32 where the device has no float64)
    out = ops.apply("angle", z) if z.dtype.kind == "c" else ops.apply("arctan2", zero, z)
    return out * (180.0 / np.pi) if deg else out


def complex_from_parts(re: Any, im: Any) -> Array:
    """``re + 1j * im`` in one step (no complex multiply, so ``im = inf`` gives ``(re, inf)``, not NaN): a
    complex64 array for float32 (and narrower) parts, complex128 when either is float64. Broadcasts."""
    dev = ops.device_of((re, im))
    re, im = ops.as_operand(re, dev), ops.as_operand(im, dev)
    keys = [x.dtype if isinstance(x, Array) else x for x in (re, im)]
    part = promotion.result_dtype(np.add, *keys)
    if part.kind == "c":
        raise TypeError(f"complex_from_parts takes real parts, got {part.name}")
    part = part.value if part.kind == "f" else dt.default_float  # float16 computes as float32, ints: float32
    out = dt.complex128 if part is dt.float64 else dt.complex64
    shape = ops.broadcast_shapes(*[x.shape for x in (re, im) if isinstance(x, Array)])
    srcs = tuple(ops.operand_node(x, part, shape, dev) for x in (re, im))
    return Array(Node("complex", srcs, out, shape, device=dev))


def iscomplexobj(x: Any) -> bool:
    """Whether ``x`` has a complex dtype (whatever its values)."""
    return _kind_of(x) == "c"


def isrealobj(x: Any) -> bool:
    """Whether ``x`` does not have a complex dtype."""
    return not iscomplexobj(x)


def iscomplex(x: Any) -> Array:
    """Elementwise: whether the imaginary part is nonzero (False for real dtypes)."""
    x = _arr(x)
    return imag(x) != 0 if x.dtype.kind == "c" else Array(
        mv.broadcast_node(ops.const_node(False, dt.bool_, x.device), x.shape))


def isreal(x: Any) -> Array:
    """Elementwise: whether the imaginary part is zero (True for real dtypes)."""
    x = _arr(x)
    return imag(x) == 0 if x.dtype.kind == "c" else Array(
        mv.broadcast_node(ops.const_node(True, dt.bool_, x.device), x.shape))


def _kind_of(x: Any) -> str:
    """NumPy's kind letter of ``x``'s dtype: a kdsl array's, a duck array's ``.dtype`` (pandas' dtypes carry a
    ``kind``), or host data's, whatever it holds (strings and objects are just not complex)."""
    if isinstance(x, Array):
        return x.dtype.kind
    if isinstance(x, complex):
        return "c"
    d = getattr(x, "dtype", None)
    if isinstance(getattr(d, "kind", None), str):
        return d.kind  # type: ignore[union-attr]
    try:
        return np.dtype(d).kind if d is not None else np.asarray(x).dtype.kind
    except TypeError:
        return np.asarray(x).dtype.kind


def warn_discarded_imag(src: dt.DType, dst: dt.DType) -> None:
    """NumPy's ComplexWarning for a complex -> real (not bool) conversion, which keeps the real part."""
    if src.kind == "c" and dst.kind not in "cb":
        warnings.warn(f"Casting complex values to real discards the imaginary part ({src.name} -> {dst.name}); "
                      "use kd.real(z) or kd.abs(z) to say which real number you want",
                      np.exceptions.ComplexWarning, stacklevel=3)


def matmul(a: Array, b: Array, out: dt.DType, real_matmul: Any) -> Array:
    """The complex matrix product from real ones: (ar + i ai)(br + i bi) = (ar br - ai bi) + i (ar bi + ai br),
    each a product of the (tiled, tuned) real kernel; a real operand saves two of the four products."""
    part = out.real_dtype

    def parts(x: Array) -> tuple[Array, Array | None]:
        if x.dtype.kind != "c":
            return x.astype(part), None
        return real(x).astype(part), imag(x).astype(part)

    (ar, ai), (br, bi) = parts(a), parts(b)
    re, im = real_matmul(ar, br), None
    if ai is not None and bi is not None:
        re = re - real_matmul(ai, bi)
    if bi is not None:
        im = real_matmul(ar, bi)
    if ai is not None:
        cross = real_matmul(ai, br)
        im = cross if im is None else im + cross
    return complex_from_parts(re, im if im is not None else 0.0).astype(out)


def vdot(a: Any, b: Any) -> Array:
    """NumPy's ``vdot``: the dot product of the flattened arrays, conjugating the first (a 0-d array).

    >>> import kdsl as kd
    >>> complex(kd.vdot(kd.asarray([1j, 2.0 + 0j]), kd.asarray([1j, 1.0 + 0j])))
    (3+0j)
    """
    dev = ops.device_of((a, b))
    x, y = ops.as_operand(a, dev), ops.as_operand(b, dev)
    if not isinstance(x, Array) or not isinstance(y, Array):
        raise TypeError("vdot takes arrays, not Python scalars; wrap them with kd.asarray")
    from kdsl.frontend.array.creation import as_array_beside  # cycle: that module builds on this one

    x, y = (as_array_beside(v, other, dev) if not isinstance(v, Array) else conv
            for v, other, conv in ((a, y, x), (b, x, y)))  # a float list beside a float64 array at float64
    x, y = x.reshape(-1), y.reshape(-1)
    if x.size != y.size:
        raise ValueError(f"vdot: vectors of different sizes {x.size} and {y.size}")
    prod = (conj(x) if x.dtype.kind == "c" else x) * y  # (conj of bool is int8: bool . bool stays bool)
    if prod.dtype is dt.bool_:
        return prod.any()
    return prod.sum(dtype=prod.dtype)
