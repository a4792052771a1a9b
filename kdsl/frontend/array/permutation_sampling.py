"""``Generator.permutation``, ``shuffle``, ``permuted`` and ``choice``: random orders and samples.

* ``permutation``/``shuffle``/``permuted``: a random 64-bit key per element (32-bit where the device has no
  int64), then a stable ``kd.argsort`` of the keys.
* ``choice``: ``p`` given: inverse CDF (host cumsum, device ``searchsorted``); without replacement: the prefix of
  a random permutation, or with ``p`` the ``size`` smallest ``Exp(1)/p_i`` keys (Efraimidis-Spirakis: the same law
  as drawing one at a time proportionally to the remaining ``p``). ``p`` is read back to the host to check it,
  as NumPy does.

Example:
    >>> import kdsl as kd
    >>> sorted(kd.random.default_rng(11).choice(5, size=5, replace=False).tolist())
    [0, 1, 2, 3, 4]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.bounded_integers import BoundedIntegers
from kdsl.frontend.array.creation import asarray, full
from kdsl.frontend.array.random_draws import Size, draw_shape
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.sorting import argsort, searchsorted
from kdsl.frontend.array.take import take, take_along_axis


class PermutationSampling(BoundedIntegers):
    """Permutations, shuffles and ``choice`` (mixed into :class:`kdsl.random.Generator`; ``choice`` with
    replacement and no ``p`` draws bounded integers)."""

    def _perm(self, n: int) -> Array:
        """A uniformly random permutation of range(n): stable argsort of random keys (64-bit where possible)."""
        return argsort(self._bits((n,), wide=self._device.supports(dt.uint64))[0])

    def permutation(self, x: Any, axis: int = 0) -> Array:
        """``x`` an int: a random permutation of ``range(x)``; an array: a copy shuffled along ``axis``.

        >>> import kdsl as kd
        >>> sorted(kd.random.default_rng(5).permutation(kd.asarray([3.0, 1.0, 2.0])).tolist())
        [1.0, 2.0, 3.0]
        """
        x = host_length(x)  # a 0-d integer (rng.permutation(mask.sum())) is a count, as NumPy's np.int64
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            if x < 0:
                raise ValueError(f"negative dimensions are not allowed (permutation({x}))")
            return self._perm(int(x)).astype(self._index_dtype())
        a = x if isinstance(x, Array) else asarray(x, device=self._device)
        if a.ndim == 0:
            raise np.exceptions.AxisError("x must be an integer or at least 1-dimensional")
        ax = axis + a.ndim if axis < 0 else axis
        if not 0 <= ax < a.ndim:
            raise np.exceptions.AxisError(axis, a.ndim)
        return take(a, self._perm(a.shape[ax]), axis=ax)

    def shuffle(self, x: Any, axis: int = 0) -> None:
        """Shuffle ``x`` in place along ``axis``: a kdsl array lazily (the write is a graph update); a NumPy array
        or a list, the host containers NumPy also shuffles, by a permutation drawn on the device and read back.

        >>> import kdsl as kd
        >>> a = kd.arange(6)
        >>> kd.random.default_rng(6).shuffle(a)
        >>> sorted(a.tolist())
        [0, 1, 2, 3, 4, 5]
        """
        if isinstance(x, Array):
            if x.ndim == 0:
                raise TypeError("shuffle needs an array of at least 1 dimension, not a 0-d array")
            x[...] = self.permutation(x, axis)
        elif isinstance(x, np.ndarray):
            if x.ndim == 0:
                raise TypeError("shuffle needs an array of at least 1 dimension, not a 0-d array")
            ax = np.lib.array_utils.normalize_axis_index(axis, x.ndim)
            x[...] = np.take(x, self._perm(x.shape[ax]).numpy(), axis=ax)
        elif isinstance(x, list):
            if axis != 0:  # NumPy's error for any other axis of a list, even one in range
                raise NotImplementedError("Axis argument is only supported on ndarray objects")
            x[:] = [x[i] for i in self._perm(len(x)).numpy().tolist()]
        else:
            raise TypeError(f"shuffle works in place on a kdsl array, a NumPy array or a list, not "
                            f"{type(x).__name__}; use permutation(x) for a shuffled copy")

    def permuted(self, x: Any, axis: int | None = None, out: Any = None) -> Any:
        """``x`` with each slice along ``axis`` shuffled independently (``axis=None``: all elements, as one flat
        array); ``out`` (a kdsl or NumPy array, may be ``x``) receives the result in place and is returned.

        >>> import kdsl as kd
        >>> y = kd.random.default_rng(8).permuted(kd.arange(6).reshape(2, 3), axis=1)
        >>> sorted(y.tolist()[0]), sorted(y.tolist()[1])
        ([0, 1, 2], [3, 4, 5])
        """
        a = x if isinstance(x, Array) else asarray(x, device=self._device)
        if axis is None:
            flat = a.reshape(-1)
            result = take(flat, self._perm(flat.shape[0])).reshape(a.shape)
        else:
            ax = axis + a.ndim if axis < 0 else axis
            if not 0 <= ax < a.ndim:
                raise np.exceptions.AxisError(axis, a.ndim)
            keys = self._bits(a.shape, wide=self._device.supports(dt.uint64))[0]
            result = take_along_axis(a, argsort(keys, axis=ax), axis=ax)
        if out is None:
            return result
        _check_permuted_out(out, a)
        out[...] = result if isinstance(out, Array) else result.numpy()  # a NumPy out is filled on the host
        return out

    def choice(self, a: Any, size: Size = None, replace: bool = True, p: Any = None, axis: int = 0,
               shuffle: bool = True) -> Array:
        """Samples of ``a`` (an int n: ``range(n)``; an array: its slices along ``axis``).

        ``p`` (read on the host to check it, as NumPy does) gives each entry's probability; zero-probability
        entries are never drawn. Without replacement the samples are distinct entries.

        >>> import kdsl as kd
        >>> kd.random.default_rng(7).choice(3, size=4, p=[0.0, 1.0, 0.0]).tolist()
        [1, 1, 1, 1]
        """
        pop, n, axis = _population(a, self._device, axis)
        shape = draw_shape(size)
        k = math.prod(shape)
        if n == 0 and k > 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        probs = None if p is None else _check_p(p, n)
        if not replace:
            if k > n:
                raise ValueError("Cannot take a larger sample than population when replace=False")
            if probs is not None and np.count_nonzero(probs) < k:
                raise ValueError("Fewer non-zero entries in p than size")
        idx = self._choice_indices(n, k, replace, probs).reshape(shape)
        return idx.astype(self._index_dtype()) if pop is None else take(pop, idx, axis=axis)

    def _choice_indices(self, n: int, k: int, replace: bool, probs: np.ndarray | None) -> Array:
        fd = dt.float64 if self._device.supports(dt.float64) else dt.float32
        if replace and probs is None:
            return self.integers(0, n, size=k) if k else full((0,), 0, self._index_dtype(), device=self._device)
        if replace:
            assert probs is not None
            cdf = np.cumsum(probs)
            cdf /= cdf[-1]
            cdf[np.flatnonzero(probs)[-1]:] = 1.0  # u < 1: rounding can never select a trailing zero entry
            table = asarray(cdf, dtype=fd, device=self._device)
            return searchsorted(table, self._unit((k,), fd)[0], side="right")
        if probs is None:
            return self._perm(n)[:k]
        keys = -km.log1p(-self._unit((n,), fd)[0]) / asarray(probs, dtype=fd, device=self._device)  # p=0: inf
        return argsort(keys)[:k]


def _population(a: Any, device, axis: int) -> tuple[Array | None, int, int]:
    """(the population array or None for ``range(a)``, its length along ``axis``, ``axis`` normalised)."""
    a = host_length(a)  # choice(k) with k = y.max() + 1: a count, as NumPy's scalar
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
        if a < 0:
            raise ValueError(f"a must be a positive integer unless no samples are taken (got {a})")
        return None, int(a), 0
    if not isinstance(a, Array) and np.asarray(a).dtype.kind in "USO":  # names, labels, mixed objects
        raise TypeError(f"choice: kdsl arrays hold numbers, not {np.asarray(a).dtype} data; draw indices and pick "
                        "on the host: `names[i]` for `i` in `rng.choice(len(names), size).tolist()`")
    pop = a if isinstance(a, Array) else asarray(a, device=device)
    if pop.ndim == 0:
        raise ValueError("a must be a positive integer or an array of at least 1 dimension")
    ax = np.lib.array_utils.normalize_axis_index(axis, pop.ndim)
    return pop, pop.shape[ax], ax


def _check_p(p: Any, n: int) -> np.ndarray:
    probs = np.asarray(p.numpy() if isinstance(p, Array) else p, dtype=np.float64)
    if probs.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if probs.shape[0] != n:
        raise ValueError(f"a and p must have same size (a has {n} entries, p {probs.shape[0]})")
    if not np.isfinite(probs).all() or (probs < 0).any():
        raise ValueError("probabilities are not non-negative (or not finite)")
    if abs(probs.sum() - 1.0) > _sum_tolerance(p):
        raise ValueError(f"probabilities do not sum to 1 (they sum to {probs.sum()!r})")
    return probs


def _sum_tolerance(p: Any) -> float:
    """NumPy's tolerance on ``sum(p) == 1``: float64's sqrt(eps), or that of ``p``'s own float dtype where it is
    coarser (a float32 ``p``, kdsl's default for ``kd.array([0.1, 0.2, 0.3, 0.4])``, sums to 1.00000002)."""
    atol = math.sqrt(np.finfo(np.float64).eps)
    dtype = p.dtype.np if isinstance(p, Array) else getattr(p, "dtype", None) if isinstance(p, np.ndarray) else None
    if dtype is not None and dtype.kind == "f":
        atol = max(atol, math.sqrt(np.finfo(dtype).eps))
    return atol


def _check_permuted_out(out: Any, a: Array) -> None:
    """NumPy's checks on ``permuted``'s ``out``: an array of ``x``'s shape, writable, that ``x`` casts to safely.

    >>> import numpy as np, kdsl as kd
    >>> _check_permuted_out(np.zeros(3, dtype=np.int8), kd.arange(3))
    Traceback (most recent call last):
    ...
    TypeError: Cannot cast array data from dtype('int32') to dtype('int8') according to the rule 'safe'
    """
    if not isinstance(out, (Array, np.ndarray)):
        raise TypeError(f"out must be a kdsl or NumPy array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(a.shape):
        raise ValueError("out must have the same shape as x")
    if isinstance(out, np.ndarray) and not out.flags.writeable:
        raise ValueError("out is read-only")
    src, dst = a.dtype.np, dt.as_dtype(out.dtype).np
    if not np.can_cast(src, dst, casting="safe"):
        raise TypeError(f"Cannot cast array data from {np.dtype(src)!r} to {np.dtype(dst)!r} according to the "
                        "rule 'safe'")
