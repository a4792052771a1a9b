"""``kd.nditer``: NumPy's ``np.nditer`` for kdsl arrays: iterating the elements of one array, or of several
broadcast together, with NumPy's ``flags`` (``multi_index``, ``c_index``, ``f_index``, ``external_loop``,
``buffered``...), ``op_flags``, ``order``, ``op_dtypes`` and ``casting``, and the iterator's attributes
(``multi_index``, ``index``, ``finished``, ``iternext()``, ``shape``, ``itersize``, ``value``, ``operands``...).

It is a host iteration, as NumPy's element-by-element loop is: the kdsl operands are downloaded once, each
laid out as NumPy lays out the equivalent array (a transpose is Fortran-ordered), and NumPy's ``nditer`` runs
over those copies, so the default ``order='K'`` visits the elements in NumPy's order and the items are NumPy's
0-d arrays. Operands flagged ``readwrite``/``writeonly`` are uploaded back into their kdsl arrays when the
iteration ends, the ``with`` block exits, ``close()`` is called or the iterator is dropped (a loop left by
``break``): only the elements written through the iterator (one ``where`` each), so the program's own writes into
the array while it iterates (``x[it.multi_index] = v``, the numerical gradient check's idiom) stay, as in NumPy,
where both write the same memory; and the program's writes reach the host copies before the iterator's next
step, so later steps read them (NumPy's reduction idiom sets the initial value through ``it.operands[1]``).
``None`` operands are allocated by NumPy (``allocate``) and ``it.operands`` gives them as kdsl arrays kept in
step with NumPy's (``nditer_allocated.py``); a kdsl operand is given back as itself.

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> [int(x) for x in kd.nditer(a.T)], [int(x) * int(y) for x, y in kd.nditer([a, kd.asarray([1, 0, 2])])]
    ([0, 1, 2, 3, 4, 5], [0, 0, 4, 3, 0, 10])
    >>> with kd.nditer(a, op_flags=["readwrite"]) as it:
    ...     for x in it:
    ...         x[...] = 2 * x
    >>> a.tolist()
    [[0, 2, 4], [6, 8, 10]]
    >>> it = kd.nditer(a, flags=["multi_index"], op_flags=["readwrite"])
    >>> while not it.finished:
    ...     a[it.multi_index] += 1
    ...     _ = it.iternext()
    >>> a.tolist()
    [[1, 3, 5], [7, 9, 11]]
"""

from __future__ import annotations

import atexit
import contextlib
import warnings
from collections.abc import Iterator
from typing import Any, cast

import numpy as np

from kdsl.frontend.array.nditer_allocated import AllocatedOperands

_WRITING = ("readwrite", "writeonly")
_exiting = False


@atexit.register  # registered after kp's device teardown, so it runs before it (atexit is last-in first-out)
def _at_exit() -> None:
    global _exiting
    _exiting = True


def _flags_of(op_flags: Any, i: int, n: int) -> list[str]:
    """Operand ``i``'s flags: NumPy takes one list for all operands or one list per operand."""
    if op_flags is None:
        return []
    if isinstance(op_flags, str):
        return [op_flags]
    groups = list(op_flags)
    if groups and all(isinstance(g, str) for g in groups):
        return groups
    return list(groups[i]) if i < len(groups) else []


def _host(x: Any) -> Any:
    """The host copy NumPy iterates: a read-only kdsl array gives a read-only copy, so NumPy refuses
    ``readwrite``/``writeonly`` on it (ValueError) as it refuses them on a read-only ndarray."""
    from kdsl.frontend.array.array import Array  # cycle: array.py is the base of this package
    from kdsl.frontend.array.array_flags import writeable
    from kdsl.frontend.array.memory_order import host_with_layout

    if not isinstance(x, Array):
        return x
    host = host_with_layout(x)
    if not writeable(x):
        host.flags.writeable = False
    return host


def _upload_changed(target: Any, host: Any, before: Any) -> None:
    """Writes into ``target`` the elements of ``host`` that differ from ``before`` (NaN == NaN, 0.0 != -0.0): the
    others may have been written by the program itself since the download, which NumPy's shared memory keeps."""
    changed = host != before
    if host.dtype.kind in "fc":
        changed &= ~(np.isnan(host) & np.isnan(before))
    if host.dtype.kind == "f":
        changed |= np.signbit(host) != np.signbit(before)
    if not changed.any():
        return
    if changed.all():
        target[...] = host
        return
    from kdsl.frontend.array.ops import where

    target[...] = where(changed, host, target)


def _refresh(host: Any, values: Any) -> None:
    """``host[...] = values``, also into a read-only host copy (of a read-only kdsl array)."""
    writeable = host.flags.writeable
    host.flags.writeable = True
    host[...] = values
    host.flags.writeable = writeable


class nditer:  # noqa: N801 - NumPy's name
    """NumPy's ``nditer`` over host copies of kdsl arrays (and any array-likes); written operands go back."""

    def __init__(self, op: Any, flags: Any = None, op_flags: Any = None, op_dtypes: Any = None, order: str = "K",
                 casting: str = "safe", op_axes: Any = None, itershape: Any = None, buffersize: int = 0) -> None:
        from kdsl.frontend.array.array import Array

        several = isinstance(op, (list, tuple))
        given = list(op) if several else [op]
        hosts = [_host(x) for x in given]
        # (kdsl array, its host copy, the copy as it was) for each operand NumPy may write: _write_back uploads
        # the elements that differ from the snapshot
        self._written = [(x, h, np.array(h, copy=True)) for i, (x, h) in enumerate(zip(given, hosts, strict=True))
                         if isinstance(x, Array) and set(_flags_of(op_flags, i, len(given))) & set(_WRITING)]
        self._it = cast(Any, np.nditer)(hosts if several else hosts[0], flags, op_flags, op_dtypes, order, casting,
                                        op_axes, itershape, buffersize)
        # operand i as NumPy holds it -> the kdsl array it stands for (it.operands gives that array back)
        # (the host copies are kept alive with it, so no other object can take one's id)
        self._hosts = hosts
        self._given = {id(h): x for x, h in zip(given, hosts, strict=True) if isinstance(x, Array)}
        # (kdsl array, its host copy, its graph node when the copy was last in step): a program's write into
        # the array gives it a new node, and the next step reads the new values, as NumPy's shared memory does
        self._nodes = [(x, h, x._n) for x, h in zip(given, hosts, strict=True) if isinstance(x, Array)]
        self._allocated = AllocatedOperands()
        self._done = False

    def _host_operands(self) -> dict[int, Any]:
        """NumPy's allocated operands by index ({} once the iterator is closed)."""
        try:
            held = self._it.operands
        except ValueError:  # closed: NumPy's operands are gone
            return {}
        return {i: o for i, o in enumerate(held) if id(o) not in self._given}

    def _push(self) -> None:
        """Before each step: what the program wrote into the operands since (``it.operands[1][...] = 0``, the
        reduction's initial value; ``x[it.multi_index] = v``) reaches the arrays NumPy iterates (a download
        of each array written; the write-back then leaves those values alone)."""
        for k, (x, host, node) in enumerate(self._nodes):
            if x._n is not node:
                for t, h, before in self._written:  # the iterator's writes so far first: both kinds stay
                    if h is host:
                        _upload_changed(t, np.asarray(h), before)
                _refresh(host, x.numpy())
                self._nodes[k] = (x, host, x._n)
                self._written = [(t, h, np.array(h, copy=True) if h is host else b) for t, h, b in self._written]
        if self._allocated:
            self._allocated.push(self._host_operands())

    def _write_back(self) -> None:
        """Uploads what the iterator wrote since the last write-back; the snapshots then become the host copies
        as they are, so an iteration started again (``reset()``, ``iterindex = 0``) is written back again."""
        if self._done:
            return
        self._done = True
        if self._allocated:
            self._allocated.pull(self._host_operands())
        for k, (target, host, before) in enumerate(self._written):
            _upload_changed(target, np.asarray(host), before)
            self._written[k] = (target, host, np.array(host, copy=True))
        # our own uploads are no program writes for _push to read back
        written = {id(t) for t, _, _ in self._written}
        self._nodes = [(x, h, x._n if id(x) in written else n) for x, h, n in self._nodes]

    def _writes_cast_copies(self) -> bool:
        """Whether NumPy writes a written operand into a cast copy (``op_dtypes`` without buffering), which
        reaches the host array only when NumPy's iterator is closed. Otherwise the iterator stays open, so
        ``reset()`` can start it again as NumPy's (inside its ``with`` block)."""
        try:
            held = {id(o) for o in self._it.operands}
        except ValueError:  # already closed (next() after close(): NumPy's StopIteration follows)
            return False
        return any(id(host) not in held for _, host, _ in self._written)

    def reset(self) -> None:
        """NumPy's ``it.reset()``: back to the first element; writes from then on are written back again."""
        self._push()
        self._it.reset()
        self._done = False

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        self._push()
        try:
            return next(self._it)
        except StopIteration:
            if self._writes_cast_copies():
                self._it.close()  # NumPy's write-back of cast copies into the host arrays, then ours
            self._write_back()
            raise

    def iternext(self) -> bool:
        self._push()
        more = bool(self._it.iternext())
        if not more:
            self._write_back()
        return more

    @property
    def operands(self) -> tuple[Any, ...]:
        """The operands as kdsl arrays, as NumPy's ``it.operands``: a kdsl operand NumPy iterates directly (no
        cast copy) is that array itself (``it.operands[0] is a``); any other (allocated, cast) is a kdsl array
        kept in step with NumPy's (``nditer_allocated``), so writes into it reach the iteration and back."""
        held = self._it.operands
        return tuple(self._given[id(o)] if id(o) in self._given else self._allocated.array(i, o)
                     for i, o in enumerate(held))

    def __len__(self) -> int:
        return len(self._it)

    def __getitem__(self, i: Any) -> Any:  # it[0]: operand 0's current value
        self._push()
        return self._it[i]

    def __setitem__(self, i: Any, value: Any) -> None:  # it[0] = v: written into the host copy
        self._it[i] = value

    def __delitem__(self, i: Any) -> None:  # NumPy's TypeError: an iterator's operands cannot be deleted
        del self._it[i]

    def __getattr__(self, name: str) -> Any:  # multi_index, index, finished, shape, itersize, value, ...
        if name.startswith("_"):  # our own attributes, missing when __init__ failed (seen by __del__)
            raise AttributeError(name)
        return getattr(self._it, name)

    def __setattr__(self, name: str, value: Any) -> None:
        """``it.multi_index = (0, 2)``, ``it.index``, ``it.iterindex``, ``it.iterrange`` move NumPy's iterator
        (and raise its errors); only our own ``_`` attributes live on the wrapper."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        setattr(self._it, name, value)
        self._done = False  # iterating again from there: its writes are written back again

    def __delattr__(self, name: str) -> None:  # NumPy's AttributeError ("Cannot delete nditer multi_index")
        if name.startswith("_"):
            object.__delattr__(self, name)
            return
        delattr(self._it, name)

    def close(self) -> None:
        self._push()  # writes into it.operands' cast copies go into NumPy's, which close() writes back
        self._it.close()
        self._write_back()

    def __del__(self) -> None:
        # a loop left by `break` (or an exception) drops the iterator before its end; NumPy's writes reached
        # the array as they happened, so the elements written so far go back now rather than being lost
        if getattr(self, "_done", True) or not getattr(self, "_written", None) or _exiting:
            return  # (at exit nothing can read the arrays any more, and the devices are being freed)
        try:
            self._write_back()
        except Exception as exc:  # noqa: BLE001 - a finaliser must not raise; say what was lost instead
            with contextlib.suppress(Exception):  # at interpreter exit even warnings may be gone
                warnings.warn(f"kd.nditer: writes through an iterator left before its end were lost ({exc}); "
                              "use `with kd.nditer(...) as it:` or call it.close()", RuntimeWarning, stacklevel=1)

    def __enter__(self) -> nditer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["nditer"]
