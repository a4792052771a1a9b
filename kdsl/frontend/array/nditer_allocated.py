"""The kdsl arrays ``kd.nditer``'s ``it.operands`` gives for the operands NumPy allocated (``None`` with
``allocate``): NumPy's idiom writes into one before iterating (``it.operands[1][...] = 0``, the reduction's
initial value) and reads the result from it, with both the program and the iterator writing the same memory.
Here the iterator writes NumPy's host array and the program a kdsl array, so each is brought to the other:
the program's writes go into the host array before the iterator's next step (``push``: a kdsl write gives the
array a new graph node, an identity check), the iterator's into the kdsl array when an iteration ends or
``it.operands`` is read again (``pull``: one upload where the host array changed).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> it = kd.nditer([a, None], ["reduce_ok"], [["readonly"], ["readwrite", "allocate"]], op_axes=[None, [0, -1]])
    >>> with it:
    ...     it.operands[1][...] = 0
    ...     for x, y in it:
    ...         y[...] += x
    ...     total = it.operands[1]
    >>> total.tolist()
    [3, 12]
"""

from __future__ import annotations

from typing import Any

import numpy as np


class AllocatedOperands:
    """The kdsl array handed out for each allocated operand, kept in step with NumPy's host array."""

    def __init__(self) -> None:
        # operand index -> (kdsl array, its graph node when last in step, the host array as it was then)
        self._linked: dict[int, tuple[Any, Any, Any]] = {}

    def array(self, i: int, host: Any) -> Any:
        """The kdsl array standing for allocated operand ``i`` (the same object each time, as NumPy's)."""
        from kdsl.frontend.array.creation import asarray  # cycle: creation builds on Array

        if i not in self._linked:
            k = asarray(np.array(host, copy=True))
            self._linked[i] = (k, k._n, np.array(host, copy=True))
            return k
        self.pull({i: host})
        return self._linked[i][0]

    def push(self, hosts: dict[int, Any]) -> None:
        """Writes the program made into the kdsl arrays go into NumPy's host arrays (one download each)."""
        for i, (k, node, _) in list(self._linked.items()):
            if k._n is not node and i in hosts:
                hosts[i][...] = k.numpy()
                self._linked[i] = (k, k._n, np.array(hosts[i], copy=True))

    def pull(self, hosts: dict[int, Any]) -> None:
        """Writes the iterator made into NumPy's host arrays go into the kdsl arrays (one upload each)."""
        self.push(hosts)  # the program's writes first: they are older than anything the iterator did since
        for i, (k, _, before) in list(self._linked.items()):
            host = hosts.get(i)
            if host is not None and not np.array_equal(host, before, equal_nan=host.dtype.kind in "fc"):
                k[...] = host
                self._linked[i] = (k, k._n, np.array(host, copy=True))

    def __bool__(self) -> bool:
        return bool(self._linked)


__all__ = ["AllocatedOperands"]
