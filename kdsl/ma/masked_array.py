"""``kd.ma.MaskedArray``: a kdsl data array and a kdsl bool mask (``True`` = invalid), NumPy's ``numpy.ma``
semantics. Both arrays are lazy device arrays; the mask is ``nomask`` while nothing was ever masked.

Its arithmetic, ufuncs and reductions live in :mod:`kdsl.ma.operators` and :mod:`kdsl.ma.reductions`, which bind
themselves as methods (``a + b``, ``a.sum()``); this module holds the container: construction, properties,
``filled``/``compressed``/``count``, shapes, indexing and printing (which, like kdsl's own printing, reads the
data to the host).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.MaskedArray([1.0, 2.0, 3.0], mask=[False, True, False])
    >>> print(x)
    [1.0 -- 3.0]
    >>> x.filled(0.0).tolist(), x.compressed().tolist(), x.count()
    ([1.0, 0.0, 3.0], [1.0, 3.0], np.int64(2))
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import MaskError, fill_scalar, masked, nomask, numpy_dtype
from kdsl.ma.host_conversions import HostConversions


def _is_kd_masked(x: Any) -> bool:
    return isinstance(x, MaskedArray)


def as_mask_array(mask: Any, shape: tuple[int, ...]) -> Any:
    """``mask`` (anything array-like) as a kdsl bool array of ``shape`` (a broadcast scalar mask is copied so
    that items can be set in it)."""
    if isinstance(mask, MaskedArray):
        mask = mask.filled(True)
    m = mask if isinstance(mask, kd.Array) else kd.asarray(np.asarray(mask, dtype=bool))
    if m.dtype != kd.bool_:
        m = m.astype(kd.bool_)
    if m.shape != shape:
        size = int(np.prod(shape))
        if m.size == size and m.ndim and len(shape):
            return m.reshape(shape)  # NumPy accepts a mask of the right size in another shape
        if m.size != 1:
            raise MaskError(f"Mask and data not compatible: data size is {size}, mask size is {m.size}.")
        m = kd.broadcast_to(m.reshape(()), shape).copy()
    return m


def _flat_mask(value: Any, shape: tuple[int, ...], current: Any) -> Any:
    """``value`` as a mask of ``shape`` the way NumPy's ``mask.flat = value`` fills one: the right size (any
    shape) or one value as :func:`as_mask_array`; another size repeated (or cut) in flat order; an empty one
    leaves ``current`` (all False for ``nomask``) as it is."""
    m = value.filled(True) if isinstance(value, MaskedArray) else value
    m = m if isinstance(m, kd.Array) else kd.asarray(np.asarray(m, dtype=bool))
    size = int(np.prod(shape))
    if m.size in (1, size):
        return as_mask_array(m, shape)
    if m.size == 0:
        return kd.zeros(shape, dtype=kd.bool_) if current is nomask else current
    return kd.asarray(np.resize(m.numpy().astype(bool), shape))  # a rare mistake: repeated on the host


def _sequence_mask(items: Any, shape: tuple[int, ...]) -> Any:
    """numpy.ma's mask of ``np.ma.array([row0, row1])`` or ``np.ma.array([1.0, np.ma.masked])``: each item's mask
    (``masked`` itself True, a plain item False) stacked; ``nomask`` when no item is masked, or when the items'
    masks do not stack to the data's shape (nested or ragged items, as NumPy's)."""
    if not any(e is masked or isinstance(e, (MaskedArray, np.ma.MaskedArray)) for e in items):
        return nomask  # plain items only: nothing to read
    parts = []
    for e in items:
        if e is masked:
            parts.append(kd.asarray(True))
        elif isinstance(e, MaskedArray):
            parts.append(kd.zeros(e.shape, dtype=kd.bool_) if e._mask is nomask else e._mask)
        elif isinstance(e, np.ma.MaskedArray):
            parts.append(kd.asarray(np.ma.getmaskarray(e)))
        else:
            parts.append(kd.zeros(e.shape if isinstance(e, kd.Array) else np.shape(e), dtype=kd.bool_))
    if len({p.shape for p in parts}) != 1 or (len(parts),) + tuple(parts[0].shape) != tuple(shape):
        return nomask
    mask = kd.stack(parts)
    return mask if bool(kd.any(mask)) else nomask  # NumPy keeps the mask only if something is masked


class MaskedArray(HostConversions):
    """An array with a mask (``True`` where a value is invalid), as NumPy's ``np.ma.MaskedArray``."""

    __array_priority__ = 15  # NumPy's MaskedArray's: ndarray operators defer to it
    _data: Any  # a kdsl Array
    _mask: Any  # a kdsl bool Array of the data's shape, or nomask
    _fill_value: Any  # a Python scalar, or None for NumPy's default
    _hardmask: bool

    def __new__(cls, *args: Any, **kwargs: Any) -> MaskedArray:
        out = super().__new__(cls)
        # numpy.ma's operators (``np.ma.masked * x``) defer to ours where the other operand's __array_ufunc__ reads
        # None (its Python-level _delegate_binop); NumPy's ufunc machinery looks the class's up, so np.add(x, y)
        # still runs kd.ma's (operators.py)
        out.__dict__["__array_ufunc__"] = None
        return out

    def __init__(self, data: Any = None, mask: Any = nomask, dtype: Any = None, copy: bool = False,
                 fill_value: Any = None, keep_mask: bool = True, hard_mask: bool = False, shrink: bool = True,
                 **kwargs: Any) -> None:
        base_mask: Any = nomask
        given = fill_value is not None  # the user's (checked as NumPy's), not one carried from ``data``
        if isinstance(data, MaskedArray):
            if fill_value is None:
                fill_value = data._fill_value
            base_mask, data = data._mask, data._data
            if copy and base_mask is not nomask:  # copy=True copies the mask too, as NumPy's
                base_mask = base_mask.copy()
        elif isinstance(data, np.ma.MaskedArray):
            if fill_value is None and data._fill_value is not None:  # type: ignore[attr-defined]
                fill_value = data.fill_value
            base_mask = nomask if data.mask is nomask else kd.asarray(np.ma.getmaskarray(data))
            data = np.ma.getdata(data)
        arr = data if isinstance(data, kd.Array) else kd.asarray(data, dtype=dtype)
        if dtype is not None and numpy_dtype(arr.dtype) != numpy_dtype(dtype):
            arr = arr.astype(dtype)
        elif copy:
            arr = arr.copy()
        self._data = arr
        if (mask is nomask or mask is None) and keep_mask and isinstance(data, (list, tuple)):
            self._mask = _sequence_mask(data, arr.shape)  # np.ma.array([masked_row, row]) keeps the rows' masks
        elif mask is nomask or mask is None:
            self._mask = base_mask if base_mask is nomask else as_mask_array(base_mask, arr.shape)
        else:
            m = as_mask_array(mask, arr.shape)
            if keep_mask and base_mask is not nomask:
                m = m | base_mask
            elif copy and m is mask:  # a given kdsl mask is shared unless copy=True, as NumPy's
                m = m.copy()
            self._mask = m
        self._fill_value = None if fill_value is None else fill_scalar(fill_value, arr.dtype, checked=given)
        self._hardmask = bool(hard_mask)

    @classmethod
    def wrap(cls, data: Any, mask: Any = nomask, fill_value: Any = None) -> MaskedArray:
        """A masked array of a kdsl ``data`` array and a kdsl bool ``mask`` of its shape (or ``nomask``), unchecked."""
        out = cls.__new__(cls)
        out._data, out._mask, out._hardmask = data, mask, False
        out._fill_value = None if fill_value is None else fill_scalar(fill_value, data.dtype)
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        """Attributes as kd.ma keeps them, also when numpy.ma sets them (its comparisons with a kd.ma array on the
        right, :mod:`kdsl.ma.numpy_ma_results`): a host mask (a NumPy bool array) becomes a kdsl mask of the
        data's shape, a host fill value (a 0-d NumPy array) a Python scalar. A masked 0-d result, where numpy.ma
        gives its ``masked`` constant, gets ``masked``'s data, 0, so that ``bool()`` and ``data`` read as NumPy's."""
        if isinstance(value, (np.ndarray, np.generic)) and value is not nomask:
            if name == "_mask":
                if self._data.ndim == 0 and bool(np.all(value)):  # numpy.ma's 0-d comparison gives ``masked``
                    object.__setattr__(self, "_data", kd.zeros((), dtype=self._data.dtype))  # (data 0: bool False)
                value = kd.broadcast_to(kd.asarray(np.asarray(value, dtype=bool)), self._data.shape).copy()
            elif name == "_fill_value":
                value = fill_scalar(value, self._data.dtype)
        object.__setattr__(self, name, value)

    def _update_from(self, obj: Any) -> None:
        """numpy.ma's ``_update_from``, which its comparisons call on a kd.ma result (``np.ma.masked < x``,
        ``numpy_ma_results.py``): the hard-mask flag and fill value of ``obj``, the left operand."""
        self._hardmask = bool(getattr(obj, "_hardmask", False))
        fill = getattr(obj, "_fill_value", None)
        self._fill_value = None if fill is None else fill_scalar(fill, self._data.dtype)

    # ----- properties
    @property
    def data(self) -> Any:
        """The underlying kdsl array (masked entries hold whatever they held)."""
        return self._data

    @property
    def mask(self) -> Any:
        """The kdsl bool mask, or ``nomask`` when nothing is masked."""
        return self._mask

    @mask.setter
    def mask(self, value: Any) -> None:
        """NumPy's ``a.mask = value``: ``value`` fills the mask as ``mask.flat = value`` does (a mask of another
        size is repeated or cut to the data's size, an empty one changes nothing); a hard mask only gains
        masked entries (``mask |= value``, which must broadcast to the data's shape).

        >>> import kdsl as kd
        >>> x = kd.ma.array([1.0, 2.0, 3.0])
        >>> x.mask = [True, False]
        >>> x.mask.tolist()
        [True, False, True]
        """
        if self._hardmask:
            if value is not nomask:
                old = self._ensure_mask()
                old[...] = kd.broadcast_to(old | as_mask_array(value, kd.asarray(value).shape), self.shape)
            return
        if self._mask is nomask:
            self._mask = nomask if value is nomask else _flat_mask(value, self.shape, nomask)
        else:  # written in place, as NumPy's: a view's ``v.mask = m`` reaches its base's mask
            self._mask[...] = False if value is nomask else _flat_mask(value, self.shape, self._mask)

    @property
    def recordmask(self) -> Any:
        return self._mask

    @property
    def hardmask(self) -> bool:
        return self._hardmask

    @property
    def fill_value(self) -> Any:
        """The value ``filled()`` puts in masked entries (NumPy's defaults: 1e20, 999999, True)."""
        d = numpy_dtype(self.dtype)
        if self._fill_value is None:  # NumPy's default, of NumPy's type (np.float64(1e+20) for float32 too)
            return np.ma.MaskedArray(np.empty(0, d)).fill_value
        return np.asarray(self._fill_value).astype(d)[()]

    @fill_value.setter
    def fill_value(self, value: Any) -> None:
        self._fill_value = None if value is None else fill_scalar(value, self.dtype, checked=True)

    shape = property(lambda self: self._data.shape, doc="The shape (as the data's).")
    dtype = property(lambda self: self._data.dtype, doc="The data's dtype.")
    ndim = property(lambda self: self._data.ndim, doc="The number of dimensions.")
    size = property(lambda self: self._data.size, doc="The number of elements.")
    device = property(lambda self: self._data.device, doc="The device of the data.")

    def __len__(self) -> int:
        return len(self._data)

    @property
    def T(self) -> MaskedArray:
        return self.transpose()

    @property
    def mT(self) -> MaskedArray:
        return self._apply(lambda a: a.mT)

    # ----- values
    def filled(self, fill_value: Any = None) -> Any:
        """The data with masked entries replaced by ``fill_value`` (default: :attr:`fill_value`), a kdsl array."""
        if self._mask is nomask:
            return self._data
        value = self.fill_value if fill_value is None else fill_value
        if isinstance(value, (kd.Array, MaskedArray)):
            value = value._data if isinstance(value, MaskedArray) else value
            return kd.where(self._mask, value.astype(self.dtype), self._data)
        return kd.where(self._mask, fill_scalar(value, self.dtype, checked=fill_value is not None), self._data)

    def compressed(self) -> Any:
        """The unmasked values as a 1-D kdsl array (its length is read back from the device)."""
        flat = self._data.ravel()
        return flat if self._mask is nomask else flat[~self._mask.ravel()]

    def count(self, axis: Any = None, keepdims: bool = False) -> Any:
        """The number of unmasked entries: for ``axis=None`` (read back) an ``int`` without a mask and an
        ``np.intp`` with one (as numpy.ma's), else an int64 kdsl array."""
        if self._mask is nomask:
            if axis is None and not keepdims:
                return self.size
            return kd.sum(kd.ones(self.shape, dtype=kd.int64), axis=axis, keepdims=keepdims)
        counts = kd.sum(~self._mask, axis=axis, keepdims=keepdims, dtype=kd.int64)
        return np.intp(int(counts)) if axis is None and not keepdims else counts

    # ----- shapes and copies
    def _apply(self, fn: Any) -> MaskedArray:
        """The same function of the data and of the mask (views and reshapes)."""
        mask = nomask if self._mask is nomask else fn(self._mask)
        return self._like(fn(self._data), mask)

    def _like(self, data: Any, mask: Any) -> MaskedArray:
        """A masked array of ``data`` and ``mask`` with this one's fill value and hard mask (NumPy's views and
        slices keep both)."""
        out = MaskedArray.wrap(data, mask, self._fill_value)
        out._hardmask = self._hardmask
        return out

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> MaskedArray:
        return MaskedArray.wrap(self._data.astype(dtype, *args, **kwargs), self._mask, self._fill_value)

    def copy(self, order: str = "C") -> MaskedArray:
        return self._apply(lambda a: a.copy())

    def view(self, dtype: Any = None, type: Any = None) -> Any:  # noqa: A002 - NumPy's name
        """NumPy's ``MaskedArray.view``: a masked array sharing this one's data and mask (writes through either
        reach the other); ``view(dtype)`` reads the data's bytes as ``dtype`` (the mask kept while the element size
        is the same, NumPy's ValueError otherwise); ``view(kd.ndarray)`` is the plain data array.

        >>> import kdsl as kd
        >>> x = kd.ma.array([1, 2], mask=[False, True])
        >>> v = x.view()
        >>> v[0] = kd.ma.masked
        >>> x.mask.tolist()
        [True, True]
        """
        if isinstance(dtype, builtins.type) and type is None and issubclass(dtype, (kd.Array, MaskedArray)):
            dtype, type = None, dtype  # view(kd.ndarray), as NumPy's view(np.ndarray)
        if type is np.ndarray:  # NumPy's plain array type: kdsl's plain array
            type = kd.Array
        data = self._data.view() if dtype is None else self._data.view(dtype)
        if type is not None and not (isinstance(type, builtins.type) and issubclass(type, MaskedArray)):
            return data if type is kd.Array else self._data.view(dtype, type)
        mask = self._mask
        if mask is not nomask and data.shape != self.shape:
            raise ValueError(f"cannot view a masked array of shape {self.shape} as {data.dtype}: the mask of "
                             f"{mask.size} items cannot cover {data.size} (use x.filled().view(dtype))")
        return self._like(data, nomask if mask is nomask else mask.view())

    # ``order`` applies to the data and to the mask alike, as NumPy's ('F': first index fastest)
    def reshape(self, *shape: Any, order: str = "C") -> MaskedArray:
        return self._apply(lambda a: a.reshape(*shape, order=order))

    def ravel(self, order: str = "C") -> MaskedArray:
        return self._apply(lambda a: a.ravel(order))

    def flatten(self, order: str = "C") -> MaskedArray:
        """A flat copy (data and mask), as NumPy's: writes into it reach nothing else."""
        return self._apply(lambda a: a.ravel(order).copy())

    def transpose(self, *axes: Any) -> MaskedArray:
        return self._apply(lambda a: a.transpose(*axes))

    def swapaxes(self, a1: int, a2: int) -> MaskedArray:
        return self._apply(lambda a: a.swapaxes(a1, a2))

    def squeeze(self, axis: Any = None) -> MaskedArray:
        return self._apply(lambda a: a.squeeze(axis) if axis is not None else a.squeeze())

    # ----- indexing
    def __getitem__(self, key: Any) -> Any:
        key = _plain_key(key)
        data = self._data[key]
        if self._mask is nomask:
            return data if data.ndim == 0 else self._like(data, nomask)
        mask = self._mask[key]
        if data.ndim == 0:  # NumPy: a masked scalar is ``masked`` (one bool read back)
            return masked if bool(mask) else data
        return self._like(data, mask)

    def __setitem__(self, key: Any, value: Any) -> None:
        # numpy.ma's rule for a masked-array key and a value that is not one (x[x > 3] = 0): the data is written
        # where the key's data is True, the mask is left as it was (masked entries stay masked)
        data_only = isinstance(key, MaskedArray) and not isinstance(value, MaskedArray)
        key = _plain_key(key)
        if value is masked:
            self._ensure_mask()[key] = True
            return
        if isinstance(value, MaskedArray):
            vmask = value._mask
            value = value._data
        else:
            vmask = nomask
        if self._hardmask and self._mask is not nomask:  # hard mask: masked entries keep their values
            keep = self._mask[key]
            value = kd.where(keep, self._data[key], value)
        self._data[key] = value
        if self._hardmask:
            if vmask is not nomask:
                self._ensure_mask()[key] = self._mask[key] | vmask
        elif vmask is not nomask:
            self._ensure_mask()[key] = vmask
        elif self._mask is not nomask and not data_only:
            self._mask[key] = False

    def _ensure_mask(self) -> Any:
        if self._mask is nomask:
            self._mask = kd.zeros(self.shape, dtype=kd.bool_)
        return self._mask

    def harden_mask(self) -> MaskedArray:
        self._hardmask = True
        return self

    def soften_mask(self) -> MaskedArray:
        self._hardmask = False
        return self

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    # kdsl Arrays' binary operators return NotImplemented for operands that have this (``x + masked_array``
    # runs the masked array's reflected operator)
    __kdsl_defer__ = True


def _plain_key(key: Any) -> Any:
    """An index key with masked arrays replaced by their data (NumPy indexes with ``key.data``)."""
    if isinstance(key, MaskedArray):
        return key._data
    if isinstance(key, tuple):
        return tuple(k._data if isinstance(k, MaskedArray) else k for k in key)
    return key


def is_masked_array(x: Any) -> bool:
    """Whether ``x`` is a kdsl masked array."""
    return _is_kd_masked(x)
