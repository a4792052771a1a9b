"""``np.vectorize(f, signature="(m,n),(n)->(m)")``: a generalised ufunc from a Python function.

Each argument's last dimensions are its core dimensions (named in the signature); the dimensions before them
broadcast together as the loop dimensions. As NumPy does, the function is called once per loop index with the
core slices (kdsl arrays: the slicing and the function's math stay on the device), and each output's results
are stacked into an array of the loop shape followed by its core shape. A Python loop, as NumPy's: fine for
tens or hundreds of slices; write the function with ``axis=`` arguments for more.

Example:
    >>> import kdsl as kd
    >>> centre = kd.vectorize(lambda v: v - v.mean(), signature="(n)->(n)")
    >>> centre(kd.asarray([[1.0, 2.0, 6.0], [0.0, 0.0, 3.0]])).tolist()
    [[-2.0, -1.0, 3.0], [-1.0, -1.0, 2.0]]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.errors import shape_text
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, empty
from kdsl.frontend.array.ops import broadcast_shapes
from kdsl.frontend.array.shape_ops import broadcast_values_to, stack

_DIMS = r"\(\s*(?:\w+\s*(?:,\s*\w+\s*)*)?\)"
_SIGNATURE = re.compile(rf"^{_DIMS}(?:\s*,\s*{_DIMS})*\s*->\s*{_DIMS}(?:\s*,\s*{_DIMS})*$")

Core = tuple[str, ...]


def parse_signature(signature: str) -> tuple[list[Core], list[Core]]:
    """The core dimension names of each input and each output (NumPy's ValueError for a bad signature).

    >>> parse_signature("(m,n),(n)->(m),()")
    ([('m', 'n'), ('n',)], [('m',), ()])
    """
    if not _SIGNATURE.match(signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = signature.split("->")
    return _cores(ins), _cores(outs)


def _cores(part: str) -> list[Core]:
    return [tuple(re.findall(r"\w+", group)) for group in re.findall(r"\(([^)]*)\)", part)]


def _bind_sizes(arrays: list[Array], cores: list[Core], sizes: dict[str, int]) -> tuple[int, ...]:
    """Record each core dimension's size (checking they agree); returns the broadcast loop shape."""
    loops = []
    for arr, core in zip(arrays, cores, strict=True):
        if arr.ndim < len(core):
            raise ValueError(f"{arr.ndim}-dimensional argument does not have enough dimensions for all core "
                             f"dimensions {core!r}")
        _check_sizes(arr.shape[arr.ndim - len(core):], core, sizes)
        loops.append(arr.shape[: arr.ndim - len(core)])
    return broadcast_shapes(*loops)


def _check_ndim(got: Array, core: Any) -> None:
    """A result with the wrong number of core dimensions: NumPy's ValueError, worded as NumPy's loop words it
    (too few: the core dimensions named; too many: the store into the output fails).

    >>> import kdsl as kd
    >>> _check_ndim(kd.ones(3), ("n", "n"))
    Traceback (most recent call last):
    ...
    ValueError: 1-dimensional argument does not have enough dimensions for all core dimensions ('n', 'n')
    """
    n = len(core)
    if got.ndim < n:
        raise ValueError(f"{got.ndim}-dimensional argument does not have enough dimensions for all core dimensions "
                         f"{tuple(core)!r}")
    if got.ndim > n:
        if n == 0:
            raise ValueError("setting an array element with a sequence.")
        raise ValueError(f"could not broadcast input array from shape {shape_text(got.shape)} into shape "
                         f"{shape_text(got.shape[got.ndim - n:])}")


def _check_sizes(shape: tuple[int, ...], core: Core, sizes: dict[str, int]) -> None:
    for name, size in zip(core, shape, strict=True):
        if sizes.setdefault(name, size) != size:
            raise ValueError(f"inconsistent size for core dimension {name!r}: {size} vs {sizes[name]}")


def _outputs(result: Any, n_out: int) -> list[Array]:
    values = result if n_out > 1 or isinstance(result, tuple) else (result,)
    if not isinstance(values, tuple) or len(values) != n_out:
        got = len(values) if isinstance(values, tuple) else 1
        raise ValueError(f"wrong number of outputs from pyfunc: expected {n_out}, got {got}")
    return [v if isinstance(v, Array) else asarray(np.asarray(v)) for v in values]


def _empty_outputs(out_cores: list[Core], sizes: dict[str, int], loop: tuple[int, ...],
                   otypes: list[Any] | None) -> list[Array]:
    """Outputs of a size-0 loop: NumPy needs ``otypes`` (no call gives a dtype) and sizes known from inputs."""
    if not otypes:
        raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
    if any(name not in sizes for core in out_cores for name in core):
        raise ValueError("cannot call `vectorize` with a signature including new output dimensions on size 0 "
                         "inputs")
    return [empty(loop + tuple(sizes[n] for n in core), dtype=otype)
            for core, otype in zip(out_cores, otypes, strict=False)]


def call(invoke: Callable[[list[Array]], Any], signature: str, args: list[Array], otypes: list[Any] | None) -> Any:
    """``invoke`` (the Python function, given one core slice of each argument) applied over the loop dimensions
    of ``args`` by ``signature``; ``otypes`` (kdsl dtypes or None) fix the output dtypes."""
    in_cores, out_cores = parse_signature(signature)
    if len(args) != len(in_cores):
        raise TypeError(f"wrong number of positional arguments: expected {len(in_cores)}, got {len(args)}")
    sizes: dict[str, int] = {}
    loop = _bind_sizes(args, in_cores, sizes)
    if 0 in loop:
        outs = _empty_outputs(out_cores, sizes, loop, otypes)
        return tuple(outs) if len(out_cores) > 1 else outs[0]
    wide = [broadcast_values_to(a, loop + a.shape[a.ndim - len(c):]) for a, c in zip(args, in_cores, strict=True)]
    per_output: list[list[Array]] = [[] for _ in out_cores]
    for index in itertools.product(*(range(n) for n in loop)):
        results = _outputs(invoke([w[index] for w in wide]), len(out_cores))
        for got, core, keep in zip(results, out_cores, per_output, strict=True):
            _check_ndim(got, core)
            _check_sizes(got.shape, core, sizes)
            keep.append(got)
    # NumPy's output takes the first call's dtype (or otypes); later results are cast to it
    types = [otypes[i] if otypes and i < len(otypes) else keep[0].dtype for i, keep in enumerate(per_output)]
    outs = [stack(keep).astype(t).reshape(loop + keep[0].shape) for keep, t in zip(per_output, types, strict=True)]
    return tuple(outs) if len(out_cores) > 1 else outs[0]
