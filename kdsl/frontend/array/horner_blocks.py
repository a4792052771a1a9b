"""Horner's rule for long polynomials (``kd.polyval`` with thousands of coefficients) in a few lazy steps.

NumPy's ``polyval`` runs ``y = y * x + p[i]`` once per coefficient; as kdsl lazy steps that is one graph node per
coefficient (70 000 coefficients: seconds of graph building). Here the coefficients are cut into blocks of
``BLOCK`` (leading zeros pad the first one: a zero step of Horner's rule changes nothing, ``y`` starts at zero),
every block is evaluated by Horner's rule at once (``BLOCK`` steps over arrays with one row per block), and the
block values are themselves the coefficients of a polynomial in ``z = x**BLOCK`` (``BLOCK`` a power of two:
``z`` by squarings, exact modulo ``2**bits`` for integers), evaluated the same way: ``BLOCK * log_BLOCK(n)``
lazy steps in all instead of ``n``.

Numerics: every block value is NumPy's Horner evaluation of that block, and ``Y * z + Q`` stands for the block's
``BLOCK`` Horner steps (``((Y * x + q0) * x + q1) ...``): the same sums in a different grouping, so results agree
to rounding (integers exactly, wrap-around included; booleans exactly). NaN and infinity follow Horner's rule
(``x`` infinite or NaN gives NaN, as NumPy's first step ``0 * x``). Where ``z`` over- or underflows although
``x`` is finite and nonzero, ``Y * z`` would be ``0 * inf`` or ``inf * 0`` (NaN) where Horner's ``BLOCK``
multiplications keep ``0`` (leading zero coefficients at ``|x| > 1``) or ``inf`` (an infinite coefficient at
``|x| < 1``): there ``z``'s sign stands in for it (real floats). What remains different is an overflow of
intermediate values of both signs (NumPy's ``inf`` may be NaN here) and a block value below the underflow or above
the overflow threshold whose product with ``z`` is not (a block of tiny coefficients times a huge ``z``).

Example:
    >>> import kdsl as kd
    >>> evaluate(kd.ones(1000, dtype=kd.int32), kd.asarray([1, -1, 2], dtype=kd.int32)).tolist()  # 2**1000 - 1 wraps
    [1000, 0, -1]
"""

from __future__ import annotations

from kdsl.frontend.array import math as km
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import zeros_like
from kdsl.frontend.array.elementwise_extra import copysign
from kdsl.frontend.array.padding import pad

BLOCK = 64  # coefficients per block (a power of two: x**BLOCK by squarings)
LONG = 4 * BLOCK  # polynomials up to this many coefficients take NumPy's own steps (its exact bits)


def evaluate(c: Array, x: Array, guard: Guard | None = None) -> Array:
    """``c`` (coefficients along axis 0, highest power first; further axes broadcast with ``x``) at ``x``:
    Horner's rule, by blocks when ``c`` is long. ``guard``: ``x`` stands for a power of the caller's variable
    (see :class:`Guard`; None on the first level)."""
    n = c.shape[0]
    if n <= LONG:
        return horner(c, x, guard)
    blocks = -(-n // BLOCK)
    c = pad(c, [(blocks * BLOCK - n, 0)] + [(0, 0)] * (c.ndim - 1))
    ndim = max(x.ndim, c.ndim - 1)  # the result's
    rows = c.reshape((blocks, BLOCK) + (1,) * (ndim - c.ndim + 1) + c.shape[1:])
    per_block = (1,) * (1 + ndim - x.ndim) + x.shape  # x against (blocks,) + the result's shape
    values = _steps([rows[:, j] for j in range(BLOCK)], x.reshape(per_block),
                    None if guard is None else guard.reshape(per_block))
    z = x.astype(values.dtype)  # the product Horner forms: in the result's dtype
    for _ in range(BLOCK.bit_length() - 1):
        z = z * z
    live = km.isfinite(x) & (x != 0) if guard is None else guard.live
    return evaluate(values, z, Guard(z, live) if values.dtype.kind == "f" else None)


class Guard:
    """What ``y * z`` needs where ``z`` stands for ``x**k`` computed as one power (real floats): ``live``, where
    ``x`` is finite and nonzero; ``big``/``tiny``, where ``z`` overflowed/underflowed there; ``one``, ``z``'s
    sign as +-1. Horner's ``k`` multiplications by ``x`` keep a ``0`` (leading zero coefficients at ``|x| > 1``)
    and an ``inf`` (an infinite coefficient at ``|x| < 1``) where the single product gives NaN."""

    def __init__(self, z: Array, live: Array):
        self.z, self.live = z, live
        self.big, self.tiny = live & km.isinf(z), live & (z == 0)
        self.one = copysign(1.0, z)  # (a Python 1.0 takes z's float dtype)

    def reshape(self, shape: tuple[int, ...]) -> Guard:
        return Guard(self.z.reshape(shape), self.live.reshape(shape))

    def times(self, y: Array) -> Array:
        """``y * z``, with ``z``'s sign standing in where it over- or underflowed and ``y`` is 0 or inf."""
        lost = (self.big & (y == 0)) | (self.tiny & km.isinf(y))
        return y * ops.where(lost, self.one, self.z)


def horner(c: Array, x: Array, guard: Guard | None = None) -> Array:
    """NumPy's loop: ``y = zeros_like(x)``, then ``y = y * x + c[i]`` for each row of ``c`` (a 0-d ``c``: one
    step).

    >>> import kdsl as kd
    >>> horner(kd.asarray([2, 0, 1]), kd.asarray(3)).item()
    19
    """
    return _steps([c[i] for i in range(c.shape[0])] if c.ndim else [c], x, guard)


def _steps(rows: list[Array], x: Array, guard: Guard | None) -> Array:
    y = zeros_like(x)
    for row in rows:
        y = (y * x if guard is None else guard.times(y)) + row
    return y


__all__ = ["BLOCK", "LONG", "Guard", "evaluate", "horner"]
