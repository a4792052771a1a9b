"""The raw draws every kdsl random distribution is built from, and the parameter handling they share.

:class:`PhiloxDraws` holds a Philox4x32-10 key and a stream counter: a draw of shape ``s`` is the lazy array whose
element ``i`` is ``philox(counter=(i, stream), key)`` (computed inside whatever kernel consumes it), and each draw
takes the next stream. Uniforms, normals and bounded integers are derived from those 32-bit words here; the
distributions (:mod:`generator`, :mod:`distributions`, :mod:`gamma_sampling`, :mod:`binomial_sampling`) only
transform them.

Example:
    >>> import kdsl as kd
    >>> u = kd.random.default_rng(0)._open_unit((4,), kd.float32)[0].numpy()
    >>> bool(((u > 0) & (u < 1)).all())
    True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, full
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.shape_arguments import as_shape
from kdsl.ir.graph import Node

Size = int | tuple[int, ...] | None


def draw_float_dtype(dtype: Any, device) -> dt.DType:
    d = dt.float32 if dtype is None else dt.as_dtype(dtype)
    if d not in (dt.float32, dt.float64):
        raise TypeError(f"Unsupported dtype {d.name!r}: random floats are float32 or float64")
    return device.check(d)


def _shape_of(x: Any) -> tuple[int, ...]:
    return tuple(x.shape) if isinstance(x, Array) else np.shape(x)


def draw_shape(size: Size, *params: Any) -> tuple[int, ...]:
    """``size`` if given (it must hold the parameters' broadcast shape, as NumPy checks), else that shape."""
    pshape = np.broadcast_shapes(*[_shape_of(p) for p in params]) if params else ()
    if size is None:
        return pshape
    shape = as_shape(size)
    joint = np.broadcast_shapes(shape, pshape)  # NumPy's "shape mismatch" when they cannot broadcast at all
    if joint != shape:
        raise ValueError(f"Output size {shape} is not compatible with broadcast dimensions of inputs {joint}.")
    return shape


def _not_none(x: Any) -> None:
    """A missing parameter (None) is NumPy's TypeError, not a NaN parameter (``np.asarray(None, float)``)."""
    if x is None:
        raise TypeError("must be real number, not NoneType (a distribution parameter cannot be None)")


def param_value(x: Any, device) -> Any:
    """A distribution parameter as an operand: Python scalars stay weak, host arrays become float32 arrays."""
    _not_none(x)
    if isinstance(x, (Array, int, float)):
        return x
    return asarray(np.asarray(x, dtype=np.float32), device=device)


def param_operand(x: Any, d: dt.DType, device) -> Array:
    """A distribution parameter as a kdsl array of dtype ``d`` (a 0-d constant for a Python scalar)."""
    _not_none(x)
    if isinstance(x, Array):
        return x if x.dtype is d else x.astype(d)
    return asarray(np.asarray(x, dtype=d.np), device=device)


def param_dtype(*params: Any) -> dt.DType:
    """float64 when a parameter is a float64 kdsl array (its draw then gets 53 random bits), else float32."""
    return dt.float64 if any(isinstance(p, Array) and p.dtype is dt.float64 for p in params) else dt.float32


def host_param(value: Any) -> Any:
    """A distribution parameter's values for NumPy's checks: a kdsl array is read back (NumPy raises
    ValueError for an invalid parameter, so its values must be known before drawing), others as they are; None is
    NumPy's TypeError."""
    _not_none(value)
    return value.numpy() if isinstance(value, Array) else value


def host_check(value: Any, name: str, ok, message: str) -> None:
    """NumPy's parameter checks, on host values (a kdsl array parameter is read back: :func:`host_param`)."""
    host = np.asarray(host_param(value), dtype=float)
    if not ok(host).all():
        raise ValueError(f"{name} {message}")


def host_span(low: Any, high: Any) -> np.ndarray | None:
    """``high - low`` of the bounds in float64 (overflow to inf is the check's point, not a warning); kdsl array
    bounds are read back (:func:`host_param`)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.subtract(np.asarray(host_param(high), dtype=float), np.asarray(host_param(low), dtype=float))


def host_nonnegative(value: Any, name: str) -> None:
    """NumPy's "``name`` < 0" check: a negative sign bit raises, -0.0 included; NaN passes (its draw is NaN)."""
    host_check(value, name, lambda v: np.isnan(v) | ~np.signbit(v), "< 0")


def host_positive(value: Any, name: str) -> None:
    """NumPy's "``name`` <= 0" check: zero or a negative value raises; NaN passes (its draw is NaN)."""
    host_check(value, name, lambda v: ~(v <= 0), "<= 0")


def out_request(out: Any, size: Size, dtype: Any) -> tuple[Size, Any]:
    """(size, dtype) of a draw into ``out`` (NumPy's ``out=``): its shape and float dtype, with NumPy's errors."""
    if out is None:
        return size, dtype
    if not isinstance(out, (Array, np.ndarray)):
        raise TypeError(f"out must be a kdsl or NumPy array, not {type(out).__name__}")
    od = dt.as_dtype(out.dtype)
    if od not in (dt.float32, dt.float64) or (dtype is not None and dt.as_dtype(dtype) is not od):
        want = "float32 or float64" if dtype is None else dt.as_dtype(dtype).name
        raise TypeError(f"Supplied output array has the wrong type. Expected {want}, got {od.name}")
    if size is not None and as_shape(size) != tuple(out.shape):
        raise ValueError("size must match out.shape when used together")
    if isinstance(out, np.ndarray) and not _writable_block(out):
        raise ValueError("Supplied output array must be contiguous, writable, aligned, and in machine byte-order.")
    return tuple(out.shape), od


def _writable_block(out: np.ndarray) -> bool:
    """NumPy's requirement on a host ``out``: one contiguous block (C or Fortran order), writable, aligned, native
    byte order (the draw is read back into it whole)."""
    f = out.flags
    return (f.c_contiguous or f.f_contiguous) and f.writeable and f.aligned and out.dtype.isnative


def store_out(out: Any, result: Array) -> Any:
    """``result`` written into ``out`` (a kdsl array: a lazy in-place update; a NumPy array: read back into it,
    the host destination the caller asked for), or ``result`` itself without ``out``."""
    if out is None:
        return result
    out[...] = result if isinstance(out, Array) else result.numpy()
    return out


class PhiloxDraws:
    """A Philox key, a stream counter and a device: the source of raw random words (see the module docstring)."""

    _key: int
    _stream: int
    _dev: Any

    @property
    def _device(self):
        return self._dev

    # ----- raw draws
    def _draw(self, dist: str, shape: tuple[int, ...], d: dt.DType) -> Array:
        key = (dist, self._key & 0xFFFFFFFF, self._key >> 32, self._stream & 0xFFFFFFFF)
        self._stream += 1  # the next draw reads a disjoint counter range
        return Array(Node("rand", (), d, shape, key, device=self._device))

    def _words(self, m: int, shape: tuple[int, ...]) -> list[Array]:
        """``m`` independent arrays of 32 random bits (uint32): rows of one draw of shape ``(m, *shape)``, so
        they cost one stream and one set of push constants (a kernel has room for only ~10 draws' keys)."""
        n = math.prod(shape)
        rows = max(1, min(m, ((1 << 32) - 1) // max(n, 1)))  # the element counter is 32-bit: rows*n < 2**32
        out: list[Array] = []
        while len(out) < m:
            take_rows = min(rows, m - len(out))
            block = self._draw("bits", (take_rows,) + shape, dt.uint32)
            out.extend(block[i] for i in range(take_rows))
        return out

    def _bits(self, shape: tuple[int, ...], wide: bool = False, count: int = 1) -> list[Array]:
        """``count`` arrays of 32 (``wide``: 64) uniformly random bits per element, as uint32 (uint64)."""
        w = self._words(count * (2 if wide else 1), shape)
        if not wide:
            return w
        return [(w[2 * i].astype(dt.uint64) << 32) | w[2 * i + 1].astype(dt.uint64) for i in range(count)]

    def _const(self, value: float | int, d: dt.DType) -> Array:
        """A 0-d constant. Reusing one such node for every row of a block costs one push word instead of one per
        row: a kernel has 32, and once they run out the draws' keys are baked into the source, which then
        compiles anew on every call."""
        return full((), value, dtype=d, device=self._device)

    def _unit(self, shape: tuple[int, ...], d: dt.DType, count: int = 1) -> list[Array]:
        """``count`` arrays uniform in [0, 1) with the dtype's full mantissa (24 bits float32, 53 float64)."""
        if d is dt.float32:
            sh, sc = self._const(8, dt.uint32), self._const(5.9604644775390625e-8, dt.float32)
            return [(w >> sh).astype(dt.float32) * sc for w in self._words(count, shape)]
        w = self._words(2 * count, shape)
        s5, s6 = self._const(5, dt.uint32), self._const(6, dt.uint32)
        hi, scale = self._const(67108864.0, d), self._const(1.0 / 9007199254740992.0, d)
        return [((w[2 * i] >> s5).astype(dt.float64) * hi + (w[2 * i + 1] >> s6).astype(dt.float64)) * scale
                for i in range(count)]

    def _std_normal(self, shape: tuple[int, ...], d: dt.DType) -> Array:
        if d is dt.float32:  # one Philox call gives both uniforms of Box-Muller
            return self._draw("normal", shape, dt.float32)
        u1, u2 = self._unit(shape, d, 2)
        return km.sqrt(-2.0 * km.log1p(-u1)) * km.cos(6.283185307179586 * u2)  # log1p(-u1): u1 < 1, finite

    # ----- integers
    def _index_dtype(self) -> dt.DType:
        return dt.int64 if self._device.supports(dt.int64) else dt.int32

    def _float_work(self) -> dt.DType:
        """The dtype of internal arithmetic that needs precision (tables, log-densities): float64 if possible."""
        return dt.float64 if self._device.supports(dt.float64) else dt.float32

    def _open_unit(self, shape: tuple[int, ...], d: dt.DType, count: int = 1) -> list[Array]:
        """``count`` arrays uniform on the open interval (0, 1): ``(k + 1/2) / 2**m`` for a random m-bit ``k``
        (m = 23 for float32, 52 for float64; exact in the dtype), so ``log(u)`` and ``log(1 - u)`` are finite."""
        if d is dt.float32:
            sh, sc, half = (self._const(9, dt.uint32), self._const(1.1920928955078125e-07, d),
                            self._const(5.9604644775390625e-08, d))
            return [(w >> sh).astype(dt.float32) * sc + half for w in self._words(count, shape)]
        w = self._words(2 * count, shape)
        sh, hi, half, sc = (self._const(6, dt.uint32), self._const(67108864.0, d), self._const(0.5, d),
                            self._const(2.220446049250313e-16, d))
        return [((w[2 * i] >> sh).astype(dt.float64) * hi + (w[2 * i + 1] >> sh).astype(dt.float64) + half) * sc
                for i in range(count)]

    def _normals(self, shape: tuple[int, ...], d: dt.DType, count: int) -> list[Array]:
        """``count`` independent standard normal arrays from one draw (float32) or one block of words."""
        if d is dt.float32:
            n = math.prod(shape)
            if count * n < 1 << 32:
                block = self._draw("normal", (count,) + shape, dt.float32)
                return [block[i] for i in range(count)]
            return [self._std_normal(shape, d) for _ in range(count)]
        u = self._unit(shape, d, 2 * count)
        m2, tau = self._const(-2.0, d), self._const(6.283185307179586, d)
        return [km.sqrt(m2 * km.log1p(-u[2 * i])) * km.cos(tau * u[2 * i + 1]) for i in range(count)]

    # ----- bounded rejection
    def _first_accepted(self, shape: tuple[int, ...], d: dt.DType, rounds: int, round_fn, fallback: Any) -> Array:
        """The first accepted candidate over ``rounds`` rounds of a rejection sampler, or ``fallback``.

        ``round_fn()`` builds one round: fresh draws, several candidates, the first accepted one's value and NaN
        where none was. Each round runs as its own kernel (realized here), and every round has the same source
        (only the draw's key differs, a push constant), so it compiles once: a few small kernels instead of one
        long one, which a CPU Vulkan driver compiles many times faster."""
        out = full(shape, math.nan, dtype=d, device=self._device).realize()
        for _ in range(rounds):
            out = where(km.isnan(out), round_fn(), out).realize()
        return where(km.isnan(out), fallback, out)
