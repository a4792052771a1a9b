"""NumPy's ``ndarray.flags``, ``ndarray.base`` and ``ndarray.setflags`` for kdsl arrays.

``flags`` reports what NumPy reports for the equivalent NumPy array: a kdsl view (a slice, a transpose, a
reshape...) has strides over its source's C-ordered elements, so ``c_contiguous``/``f_contiguous`` follow from
them as NumPy's do (size-1 axes ignored, empty arrays both); every other array (a buffer, a computed result) is
a C-ordered owner. Views of a lazy constant not yet written (``kd.zeros(s).T``) have the layout NumPy's have
too (``constant_layout.py``). ``owndata`` is ``base is None``; ``aligned`` is True (device buffers are aligned) unless
``setflags(align=False)`` cleared it on that array object, as NumPy lets it be cleared (a new view is aligned);
``writeable`` is True unless ``setflags(write=False)`` (or ``a.flags.writeable = False``) was called on the
array or on an array it is a view of, as in NumPy: then assigning to it raises ``ValueError: assignment
destination is read-only``.

``base`` is the array a view was taken from, followed to the array that owns the data (NumPy collapses chains
of views the same way), None for an owner. Differences from NumPy: ``kd.broadcast_to`` and ``kd.diagonal``
return new arrays (base None; NumPy returns read-only views), and a reshape NumPy must copy reports the reshaped
array as its base (NumPy reports its internal copy).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6.0).reshape(2, 3)
    >>> a.T.flags.f_contiguous, a.T.flags["C_CONTIGUOUS"], a[:, ::2].base is a.base
    (True, False, True)
    >>> a.setflags(write=False)
    >>> a[0, 0] = 1.0
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kdsl.frontend.array import broadcast_writes

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array

_KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
         "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous", "OWNDATA": "owndata",
         "O": "owndata", "WRITEABLE": "writeable", "W": "writeable", "ALIGNED": "aligned", "A": "aligned",
         "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc",
         "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray",
         "FA": "farray"}
_SHOWN = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")


def _contiguous(shape: tuple[int, ...], strides: tuple[int, ...], fortran: bool) -> bool:
    """Whether element ``strides`` are those of a dense array of ``shape`` in C (or Fortran) order, ignoring
    size-1 axes as NumPy does."""
    if 0 in shape:
        return True
    axes = range(len(shape)) if fortran else reversed(range(len(shape)))
    step = 1
    for axis in axes:
        if shape[axis] != 1:
            if strides[axis] != step:
                return False
            step *= shape[axis]
    return True


def layout_strides(a: Array) -> tuple[int, ...] | None:
    """The element strides (over a C-ordered source) of the NumPy array the view ``a`` stands for, a view of a
    lazy constant included (``constant_layout.py``); None for an owner."""
    from kdsl.frontend.array.constant_layout import layout

    view = layout(a)
    return None if view is None else tuple(view.strides)


def set_strides(a: Array, value: Any) -> None:
    """``a.strides = ...`` (deprecated by NumPy 2.4) is refused: a kdsl array's strides follow from its view of
    its owner's C-ordered data, so a new strided view is made by ``as_strided`` instead.

    >>> import kdsl as kd
    >>> a = kd.arange(6, dtype=kd.int32)
    >>> try:
    ...     a.strides = (8,)
    ... except AttributeError as e:
    ...     print(str(e).split(";")[0])
    kdsl arrays cannot take new strides in place (a.strides = ..., deprecated in NumPy 2.4)
    """
    raise AttributeError("kdsl arrays cannot take new strides in place (a.strides = ..., deprecated in NumPy 2.4); "
                         "make the view with kd.lib.stride_tricks.as_strided(a, shape, strides)")


def strides(a: Array) -> tuple[int, ...]:
    """``a.strides``: byte steps between elements along each axis, as NumPy's for the same view of a C-ordered
    array (``as_strided`` takes them); a size-1 axis gets a C-contiguous array's step, and so does every axis of
    an owner (``kd.zeros``, a computed result). A view of a lazy constant has NumPy's strides too
    (``kd.ones(6, dtype=kd.float32)[::2].strides`` is ``(8,)``: ``constant_layout.py``).

    >>> import kdsl as kd
    >>> kd.zeros((3, 4), dtype=kd.float32).strides, kd.arange(12.0).reshape(3, 4).T.strides
    ((16, 4), (4, 16))
    """
    resized = getattr(a, "_resized_strides", None)  # a view(dtype) of another itemsize: NumPy's, kept
    if resized is not None:
        return resized
    view = layout_strides(a)  # (None: an owner, C-ordered)
    broadcast = getattr(a, "_broadcast_layout", None) is not None  # NumPy's broadcast_to: 0 on length-1 axes too
    size, steps, acc = a.dtype.itemsize, [], a.dtype.itemsize
    for axis in reversed(range(a.ndim)):
        n = a.shape[axis]
        step = view[axis] * size if view is not None and (n != 1 or broadcast) else acc
        steps.append(step)
        acc *= max(n, 1)
    return tuple(reversed(steps))


def contiguity(a: Array) -> tuple[bool, bool]:
    """``(c_contiguous, f_contiguous)`` of the NumPy array equivalent to ``a``."""
    resized = getattr(a, "_resized_strides", None)
    if resized is not None:  # byte strides: whole elements only where they divide (NumPy ignores size-1 axes)
        size = a.dtype.itemsize
        strides = [s // size if s % size == 0 else 0 for s in resized]
        return _contiguous(a.shape, tuple(strides), False), _contiguous(a.shape, tuple(strides), True)
    kept = layout_strides(a)
    if kept is not None:
        strides = list(kept)
    else:  # an owner: C order
        strides, step = [0] * a.ndim, 1
        for axis in reversed(range(a.ndim)):
            strides[axis], step = step, step * max(a.shape[axis], 1)
    return _contiguous(a.shape, tuple(strides), False), _contiguous(a.shape, tuple(strides), True)


def _parent_of(a: Array) -> Array | None:
    """The array ``a`` is a view of, or None; for a view that reads through without writing back (``diagonal``,
    ``broadcast_to``, ``sliding_window_view``) the array it follows. A dtype view of an owner (``a.view()``,
    ``a.view(np.int32)``) holds its base weakly, through its write-back (``bitcast._writes_through``: ``_parent`` is
    ``(None, write)``); a base nobody holds any more is gone, and then the view is its data's only holder."""
    if a._parent is None:  # a view that only reads through (diagonal, broadcast_to): its base, as NumPy's
        return a._read[0]() if a._read is not None else None
    parent, write = a._parent
    if parent is None:
        ref = getattr(write, "base_ref", None)
        return ref() if ref is not None else None
    return parent


def base_of(a: Array) -> Array | None:
    """The array owning the data ``a`` is a view of (None when ``a`` owns it).

    >>> import kdsl as kd
    >>> a = kd.arange(6.0)
    >>> base_of(a[1:]) is a, base_of(a.view()) is a, base_of(a) is None
    (True, True, True)
    """
    root = _parent_or_revived(a)
    if root is None:
        return None
    while (up := _parent_or_revived(root)) is not None:
        root = up
    return root


def _parent_or_revived(a: Array) -> Array | None:
    """``a``'s parent; for ``x.view()`` of a temporary nobody holds any more, ``x`` made again (revived_base.py)."""
    from kdsl.frontend.array.revived_base import revived_base  # cycle: it builds Arrays

    parent = _parent_of(a)
    return parent if parent is not None else revived_base(a)


def writeable(a: Array) -> bool:
    """False when ``a`` or an array it is a view of was made read-only."""
    node: Array | None = a
    while node is not None:
        if getattr(node, "_readonly", False):
            return False
        node = node._parent[0] if node._parent is not None else None
    return True


def check_writeable(a: Array, message: str = "assignment destination is read-only") -> None:
    """Raise NumPy's ValueError when ``a`` is read-only; NumPy's DeprecationWarning for the first write into a
    ``broadcast_arrays`` result (``broadcast_writes.py``)."""
    if not writeable(a):
        raise ValueError(message)
    broadcast_writes.before_write(a)


def setflags(a: Array, write: Any = None, align: Any = None, uic: Any = None) -> None:
    """NumPy's ``ndarray.setflags``: ``write`` makes ``a`` writeable or read-only (a view of a read-only array
    cannot be made writeable: ValueError, as NumPy); ``align`` sets the ALIGNED flag of ``a`` alone, as NumPy's
    (the data is aligned whatever it says, so True is always allowed); ``uic=True`` is refused as NumPy
    refuses it for an array that is no writeback copy.

    >>> import kdsl as kd
    >>> a = kd.arange(3.0)
    >>> a.setflags(align=False)
    >>> a.flags.aligned, a.flags.behaved, a[1:].flags.aligned
    (False, False, True)
    """
    if uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
    if align is not None:
        a._unaligned = not align
    if write is None:
        return
    broadcast_writes.clear(a)  # an explicit flag: no more broadcast_arrays warnings, as NumPy's
    if write:
        parent = a._parent[0] if a._parent is not None else None
        if parent is not None and not writeable(parent):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
        a._readonly = False
    else:
        a._readonly = True


class Flags:
    """NumPy's ``flagsobj`` for a kdsl array: attributes (``a.flags.c_contiguous``), items
    (``a.flags['C_CONTIGUOUS']``, ``a.flags['C']``) and ``writeable`` assignable; read live from the array.

    >>> import kdsl as kd
    >>> f = kd.zeros((2, 2)).flags
    >>> f.c_contiguous, f["F"], f.owndata, f.writeable, f.aligned
    (True, False, True, True, True)
    """

    __slots__ = ("_array",)
    _array: Array

    def __init__(self, a: Array) -> None:
        object.__setattr__(self, "_array", a)

    @property
    def c_contiguous(self) -> bool:
        return contiguity(self._array)[0]

    @property
    def f_contiguous(self) -> bool:
        return contiguity(self._array)[1]

    contiguous = c_contiguous
    fortran = f_contiguous

    @property
    def owndata(self) -> bool:
        return base_of(self._array) is None

    @property
    def writeable(self) -> bool:
        broadcast_writes.flag_read(self._array)
        return writeable(self._array)

    @property
    def aligned(self) -> bool:
        return not getattr(self._array, "_unaligned", False)

    @property
    def writebackifcopy(self) -> bool:
        return False

    @property
    def fnc(self) -> bool:
        c, f = contiguity(self._array)
        return f and not c

    @property
    def forc(self) -> bool:
        c, f = contiguity(self._array)
        return f or c

    @property
    def behaved(self) -> bool:
        return self.aligned and self.writeable

    @property
    def carray(self) -> bool:
        return self.behaved and self.c_contiguous

    @property
    def farray(self) -> bool:
        # NumPy reports FARRAY for any aligned array that is not C-contiguous (its test is on any of the
        # ALIGNED, WRITEABLE, F_CONTIGUOUS bits): the same answer here
        return not self.c_contiguous

    @property
    def num(self) -> int:
        """NumPy's bit set: C 1, F 2, OWNDATA 4, ALIGNED 256, WRITEABLE 1024."""
        bits = (1, 2, 4, 256, 1024)
        values = (self.c_contiguous, self.f_contiguous, self.owndata, self.aligned, self.writeable)
        return sum(b for b, v in zip(bits, values, strict=True) if v)

    def __getitem__(self, key: str) -> bool:
        name = _KEYS.get(key.upper()) if isinstance(key, str) else None
        if name is None:
            raise KeyError(f"Unknown flag {key!r}")
        return bool(getattr(self, name))

    def __setitem__(self, key: str, value: Any) -> None:
        name = _KEYS.get(key.upper()) if isinstance(key, str) else None
        if name not in ("writeable", "aligned", "writebackifcopy"):  # NumPy sets only these by key
            raise KeyError(f"Unknown flag {key!r} (only WRITEABLE, ALIGNED and WRITEBACKIFCOPY can be set)")
        setattr(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "writeable":
            setflags(self._array, write=value)
        elif name == "aligned":
            setflags(self._array, align=value)
        elif name == "writebackifcopy":
            setflags(self._array, uic=value)
        else:
            raise AttributeError(f"attribute {name!r} of 'numpy.flagsobj' objects is not writable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Flags) and self.num == other.num

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "\n".join(f"  {key} : {self[key]}" for key in _SHOWN) + "\n"


__all__ = ["Flags", "base_of", "check_writeable", "contiguity", "set_strides", "setflags", "writeable"]
