"""The lazy :class:`Array`: NumPy's interface over a node of the graph.

Operators and methods only build nodes; ``.numpy()``, ``print``, ``float()``, ``int()``, ``bool()`` and
:func:`kdsl.realize` run the kernels. The result stays on the device; the Array then holds it.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([1.0, 2.0, 3.0], np.float32))
    >>> b = (a * 2 + 1).sum()
    >>> float(b)
    15.0
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.engine import buffers
from kdsl.engine import realize as engine
from kdsl.frontend.array import array_dtype_methods as dtypes
from kdsl.frontend.array import array_host as host
from kdsl.frontend.array import array_math_methods as mm
from kdsl.frontend.array import array_operators as operators
from kdsl.frontend.array import array_protocols as proto
from kdsl.frontend.array import array_selection_methods as sel
from kdsl.frontend.array import array_shape_methods as shapes
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ndarray_constructor, scalar_like, scalar_number
from kdsl.frontend.array.array_flags import set_strides as _flags_set_strides
from kdsl.frontend.array.array_flags import strides as _flags_strides
from kdsl.frontend.array.array_operators import binary as _binary
from kdsl.frontend.array.inplace import inplace_operator
from kdsl.frontend.array.power_operator import power_operator
from kdsl.frontend.array.scalar_like import multiply_operator
from kdsl.frontend.array.view_links import ViewLinks
from kdsl.ir.graph import Node
from kdsl.ir.view import View


class Array(ViewLinks):
    """An n-dimensional array on a kdsl device, computed lazily."""

    # (the view links' slots are ViewLinks'); _readonly: setflags(write=False) (array_flags.py)
    __slots__ = ("_readonly", "_zero_d_array", "_broadcast_layout", "_warn_on_write", "_resized_strides",
                 "_retyped", "_unaligned", "_read_warnings", "__weakref__")
    __array_priority__ = 100  # NumPy defers to our reflected operators
    # kd.ndarray[Any, kd.dtype[kd.float64]] in a ported annotation, as NumPy's (evaluated where a def runs)
    __class_getitem__: Any = classmethod(types.GenericAlias)
    _readonly: bool  # set by setflags(write=False); unset means writeable (array_flags.py)
    _zero_d_array: bool  # a 0-d array made as an array, not a scalar's stand-in; unset: False (scalar_like.py)
    _broadcast_layout: View  # NumPy's layout of a broadcast lazy constant; unset: the node's (constant_layout.py)
    _warn_on_write: bool  # a broadcast_arrays result not yet written; unset: False (broadcast_writes.py)
    _resized_strides: tuple[int, ...]  # NumPy's byte strides of a view(dtype) of another itemsize (bitcast.py)
    _retyped: bool  # its dtype was assigned (a.dtype = t): views made before read it back; unset: False
    _unaligned: bool  # setflags(align=False) cleared its ALIGNED flag; unset: False (array_flags.py)
    _read_warnings: tuple[Any, ...]  # warnings whose condition is on the device, given when read (read_warnings.py)

    def __init__(self, node: Node = ndarray_constructor.NO_SHAPE, *args: Any, **kwargs: Any):
        if node.__class__ is not Node or type(self) is not Array or args or kwargs:  # not an op's result, whose
            if type(self) is not Array and hasattr(self, "_raw"):  # checks cost a fifth of building an op
                return  # MyArray(x): its __new__ made it by view(MyArray) (subclass_view.py), and Python calls
                # __init__ after __new__: NumPy's does nothing there
            if ndarray_constructor.is_constructor_call(node, args, kwargs):  # kd.ndarray((2, 3), dtype=...)
                node = ndarray_constructor.construct(node, args, kwargs)
            elif not isinstance(node, Node):  # Array(number): statistics converts its result with type(x)(value)
                node = scalar_number.number_node(node)
        node.refs += 1
        self._raw = node
        # (base, write) when this array is a view of ``base``: ``write(base, self)`` carries assignments back
        self._parent: tuple[Array, Callable[[Array, Array], None]] | None = None
        self._version = 0  # counts writes (node changes): views of this array compare it with ``_seen``
        # (the base's getter, read) of a view: ``read(base)`` is this view of the base's current values
        self._read: tuple[Callable[[], Array | None], Callable[[Array], Array]] | None = None
        self._seen = 0

    # The node is counted while an Array holds it (Node.refs): the scheduler then stores its value when it
    # computes it, so a loop such as ``w = w - lr * grad`` reads last step's buffer, not its whole history.
    @property
    def _n(self) -> Node:
        if self._read is not None:  # a view: the base may have been written since (NumPy's shared memory)
            self._refresh()
        return self._raw

    @property
    def _node(self) -> Node:
        return self._n

    @_node.setter
    def _node(self, node: Node) -> None:
        self._set_raw(node)
        self._version += 1

    def __del__(self) -> None:
        try:
            self._raw.refs -= 1
        except AttributeError:  # __init__ failed before holding a node
            pass

    # ----- properties
    @property
    def shape(self) -> tuple[int, ...]:
        return self._n.shape

    @shape.setter
    def shape(self, value) -> None:
        """``a.shape = (3, -1)`` reshapes ``a`` itself, as NumPy's (a view keeps writing through to its base)."""
        from kdsl.frontend.array.shape_arguments import host_ints

        old = self._n.shape
        value = host_ints(value)  # a.shape = dims_array, as NumPy takes it
        target = tuple(value) if isinstance(value, (tuple, list)) else (value,)
        new = mv.resolve_shape(target, self.size)
        if not self._reshapes_in_place(new):  # NumPy's rule: only where the reshape is a view (no copy)
            raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` to make a copy "
                                 "with the desired shape.")
        self._set_raw(mv.reshape_node(self._n, new))  # the same values: views of this array stay as they are
        if self._parent is not None:
            self._rewrap_write(lambda view: view.reshape(old))
        if self._read is not None:
            get_base, read = self._read
            self._read = (get_base, lambda b: read(b).reshape(new))

    @property
    def dtype(self) -> dt.DType:
        return self._n.dtype

    @dtype.setter
    def dtype(self, value) -> None:  # a.dtype = np.uint32: ``a`` becomes its own view as that dtype (bitcast.py)
        from kdsl.frontend.array.bitcast import set_dtype

        set_dtype(self, value)

    @property
    def ndim(self) -> int:
        return len(self._n.shape)

    @property
    def size(self) -> int:
        return self._n.size

    @property
    def device(self):
        return self._n.device

    @property
    def T(self) -> Array:
        return self.transpose()

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    # ----- getting data out: host copies, Python scalars, printing (array_host.py)
    numpy, __array__, item, tolist, __float__ = host.numpy, host.__array__, host.item, host.tolist, host.__float__
    __int__, _scalar_check, __index__, __bool__ = host.__int__, host.scalar_check, host.__index__, host.__bool__
    __len__, __contains__, __iter__, __repr__ = host.__len__, host.__contains__, host.__iter__, host.__repr__
    __str__, __format__, tofile, __hash__ = host.__str__, host.__format__, host.tofile, host.__hash__
    tobytes, __bytes__, __complex__ = host.tobytes, host.__bytes__, host.__complex__
    dump, dumps, __delitem__ = host.dump, host.dumps, host.__delitem__
    # a 0-d array as a NumPy scalar for statistics, fractions and math (scalar_number.py)
    as_integer_ratio, is_integer = scalar_number.as_integer_ratio, scalar_number.is_integer
    numerator, denominator = scalar_number.numerator, scalar_number.denominator
    bit_count = scalar_number.bit_count

    # ----- conversions; the element type and bytes (array_dtype_methods.py)
    astype, view, byteswap, getfield = dtypes.astype, dtypes.view, dtypes.byteswap, dtypes.getfield
    setfield = dtypes.setfield

    def copy(self, order: str = "C") -> Array:
        """A new array with the same values (its own buffer when realised); ``order='F'`` (or 'A'/'K' of a
        Fortran-ordered array) gives a Fortran-ordered copy, as NumPy's (``memory_order.fortran_copy``)."""
        from kdsl.frontend.array import memory_order

        if memory_order.fortran(order, a=self) and self.ndim >= 2:  # 'F', or 'A'/'K' of a Fortran-ordered self
            return memory_order.fortran_copy(self)
        node = self._n
        return scalar_like.copied(self, Array(Node("copy", (node,), node.dtype, node.shape)))

    def realize(self) -> Array:
        engine.realize_nodes([self._n])
        return self

    # the buffer protocol of custom kernels (array_protocols.py)
    _buffer, __kdsl_buffer__ = proto.buffer, proto.__kdsl_buffer__

    @staticmethod
    def _from_buffer(tensor, shape, dtype, device=None) -> Array:
        """Wrap an already computed runtime Tensor as a realised Array (no copy)."""
        dtype, shape, dev = dt.as_dtype(dtype), tuple(shape), current_device(device)
        size = math.prod(shape)
        if tensor.size() != size:
            raise ValueError(f"tensor has {tensor.size()} elements but shape {shape} needs {size}")
        if np.dtype(tensor.dtype) != dtype.np:
            raise TypeError(f"tensor holds {tensor.dtype} but dtype {dtype.name} was given")
        buf = buffers.Buffer(tensor, size, dtype, dev, pooled=False)  # the caller's tensor: never recycled
        return Array(Node("buffer", (), dtype, shape, buffer=buf, device=dev))

    @staticmethod
    def _uninitialized(shape, dtype, device=None) -> Array:
        """A realised array on a fresh (pooled) buffer whose contents are undefined: for library kernels that
        write every element (kd.fft), so no fill kernel runs before them as it would for ``kd.empty``."""
        dtype, shape, dev = dt.as_dtype(dtype), tuple(map(int, shape)), current_device(device)
        size = math.prod(shape)
        tensor = buffers.allocate(dev, size, dtype) if size else None
        buf = buffers.Buffer(tensor, size, dtype, dev)
        return Array(Node("buffer", (), dtype, shape, buffer=buf, device=dev))

    # ----- arithmetic
    __add__, __radd__, __iadd__ = _binary("add"), _binary("add", True), inplace_operator("add")
    __sub__, __rsub__, __isub__ = _binary("sub"), _binary("sub", True), inplace_operator("sub")
    __mul__, __rmul__, __imul__ = multiply_operator(False), multiply_operator(True), inplace_operator("mul")
    __truediv__, __rtruediv__, __itruediv__ = _binary("div"), _binary("div", True), inplace_operator("div")
    __floordiv__, __rfloordiv__, __ifloordiv__ = _binary("floordiv"), _binary("floordiv", True), \
        inplace_operator("floordiv")
    __mod__, __rmod__, __imod__ = _binary("mod"), _binary("mod", True), inplace_operator("mod")

    # unary operators, divmod and @ (array_operators.py)
    __divmod__, __rdivmod__, __neg__ = operators.__divmod__, operators.__rdivmod__, operators.__neg__
    __pos__, __abs__, __invert__ = operators.__pos__, operators.__abs__, operators.__invert__
    __matmul__, __rmatmul__, __imatmul__ = operators.__matmul__, operators.__rmatmul__, operators.__imatmul__

    __pow__, __rpow__, __ipow__ = power_operator, _binary("pow", True), inplace_operator("pow")
    __and__, __rand__, __iand__ = _binary("and"), _binary("and", True), inplace_operator("and")
    __or__, __ror__, __ior__ = _binary("or"), _binary("or", True), inplace_operator("or")
    __xor__, __rxor__, __ixor__ = _binary("xor"), _binary("xor", True), inplace_operator("xor")
    __lshift__, __rlshift__, __ilshift__ = _binary("shl"), _binary("shl", True), inplace_operator("shl")
    __rshift__, __rrshift__, __irshift__ = _binary("shr"), _binary("shr", True), inplace_operator("shr")
    __eq__, __ne__ = _binary("eq"), _binary("ne")
    __lt__, __le__, __gt__, __ge__ = _binary("lt"), _binary("le"), _binary("gt"), _binary("ge")

    # ----- movement (array_shape_methods.py)
    reshape, _reshapes_in_place = shapes.reshape, shapes.reshapes_in_place
    ravel, swapaxes, squeeze, resize = shapes.ravel, shapes.swapaxes, shapes.squeeze, shapes.resize

    def flatten(self, order: str = "C") -> Array:
        """A flat copy (writes to it do not reach this array, as in NumPy)."""
        return Array(self.ravel(order)._n)

    def fill(self, value) -> None:
        """Set every element to ``value`` (one scalar) in place (NumPy's assignment rules), as ``ndarray.fill``."""
        from kdsl.frontend.array.stored_values import check_fill_value  # cycle: that module builds Arrays

        check_fill_value(value, self)
        if isinstance(value, (list, tuple)):  # a bool array: NumPy stores the sequence's truth value
            value = bool(value)
        elif getattr(value, "ndim", 0):  # one element of any rank (a bool array), stored as a scalar
            value = value.reshape(())
        self[...] = value

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    strides = property(_flags_strides, _flags_set_strides)  # (array_flags.py)

    @property
    def ctypes(self) -> Any:
        """NumPy's ``a.ctypes`` (the data's host address) has no kdsl counterpart: the data is in device memory."""
        raise AttributeError("kdsl arrays live in device memory, so a.ctypes has no host address; use "
                             "np.asarray(a).ctypes on a host copy (and kd.asarray to bring results back)")

    @property
    def base(self) -> Array | None:
        """The array owning the data this view was taken from; None for an owner (``array_flags.py``)."""
        from kdsl.frontend.array.array_flags import base_of

        return base_of(self)

    @property
    def flags(self):
        """NumPy's flags of the equivalent NumPy array: ``c_contiguous``, ``writeable``... (``array_flags.py``)."""
        from kdsl.frontend.array.array_flags import Flags

        return Flags(self)

    def setflags(self, write=None, align=None, uic=None) -> None:
        """``write=False`` makes this array (and views of it) read-only, as NumPy's (``array_flags.py``)."""
        from kdsl.frontend.array.array_flags import setflags

        setflags(self, write, align, uic)

    @property
    def flat(self):
        """NumPy's flat iterator: ``a.flat[i]``, ``a.flat[k] = v``, ``for v in a.flat`` (``flat_iter.py``)."""
        from kdsl.frontend.array.flat_iter import FlatIter

        return FlatIter(self)

    @flat.setter
    def flat(self, value) -> None:
        """``a.flat = v`` writes ``v``'s elements into ``a`` in C order, repeated as needed (NumPy's)."""
        from kdsl.frontend.array.flat_iter import assign_flat

        assign_flat(self, value)

    def transpose(self, *axes) -> Array:
        from kdsl.frontend.array.shape_arguments import host_ints

        axes = tuple(host_ints(k) for k in axes)  # a.transpose(order_array), as NumPy takes it
        given = axes[0] if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))) else axes
        perm = mv.transpose_axes(given or None, self.ndim)
        inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
        out = Array(mv.permute_node(self._n, perm))
        return out._view_of(self, lambda base, view: base.__setitem__(Ellipsis, view.transpose(inverse)),
                            lambda base: Array(mv.permute_node(base._n, perm)))

    # indexing (array_selection_methods.py)
    __getitem__, __setitem__ = sel.__getitem__, sel.__setitem__

    # ----- reductions and the other math methods (array_math_methods.py)
    _reduce, sum, prod, mean, var, std, max, min = mm.reduce, mm.sum, mm.prod, mm.mean, mm.var, mm.std, mm.max, mm.min
    argmax, argmin, any, all, cumsum, cumprod = mm.argmax, mm.argmin, mm.any, mm.all, mm.cumsum, mm.cumprod
    nonzero, dot, __round__, round, clip = mm.nonzero, mm.dot, mm.__round__, mm.round, mm.clip
    __trunc__ = mm.__trunc__  # math.trunc of a 0-d array (NumPy's float64 scalar has it)

    # ----- the array API standard (2024.12), DLPack and NumPy's dispatch protocols (array_protocols.py)
    __array_namespace__, to_device, __dlpack__ = proto.__array_namespace__, proto.to_device, proto.__dlpack__
    __dlpack_device__, __array_ufunc__ = proto.__dlpack_device__, proto.__array_ufunc__
    __array_function__, __array_wrap__ = proto.__array_function__, proto.__array_wrap__

    @property
    def mT(self) -> Array:  # noqa: N802 - the standard's name
        """The matrix transpose: the last two axes swapped (a view)."""
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")  # NumPy's words
        return self.swapaxes(-1, -2)

    def __reduce__(self) -> tuple[Callable[[np.ndarray], Array], tuple[np.ndarray]]:
        """Pickled by value: its data (computed first if lazy) with dtype and shape; it unpickles on the
        receiving process's current device (so Dask and ``multiprocessing`` can ship arrays)."""
        return _unpickle, (self.numpy(),)

    # ----- complex numbers (kdsl.frontend.array.complex_math, which imports this module)
    @property
    def real(self) -> Array:
        """The real part, a view writing into a complex array (the array itself for real dtypes)."""
        from kdsl.frontend.array.complex_parts import real_view  # cycle: that module builds Arrays

        return real_view(self)

    @real.setter
    def real(self, value: Any) -> None:
        from kdsl.frontend.array.complex_parts import set_real  # cycle: that module builds Arrays

        set_real(self, value)

    @property
    def imag(self) -> Array:
        """The imaginary part, a view writing into a complex array (zeros for real dtypes)."""
        from kdsl.frontend.array.complex_parts import imag_view  # cycle: that module builds Arrays

        return imag_view(self)

    @imag.setter
    def imag(self, value: Any) -> None:
        from kdsl.frontend.array.complex_parts import set_imag  # cycle: that module builds Arrays

        set_imag(self, value)

    def conj(self) -> Array:
        """The complex conjugate; a real array itself (``ndarray.conj`` returns ``self`` there)."""
        from kdsl.frontend.array.complex_math import conj  # cycle: that module builds Arrays

        return conj(self) if self.dtype.kind == "c" else self

    conjugate = conj

    # ----- sorting and selection (array_selection_methods.py)
    sort, argsort, partition, argpartition = sel.sort, sel.argsort, sel.partition, sel.argpartition
    searchsorted, take, put, choose, repeat = sel.searchsorted, sel.take, sel.put, sel.choose, sel.repeat
    diagonal, trace, compress = sel.diagonal, sel.trace, sel.compress


def realize(*arrays: Array) -> None:
    """Compute every given array now (one submission for all of them); results stay on the device.

    Example:
        >>> import kdsl as kd
        >>> y = kd.ones(3) * 2
        >>> kd.realize(y)
        >>> y.tolist()
        [2.0, 2.0, 2.0]
    """
    engine.realize_nodes([arrays[0]._n] if len(arrays) == 1 else [a._n for a in arrays])


def _unpickle(data: np.ndarray) -> Array:
    """A pickled Array's data on this process's current device (see :meth:`Array.__reduce__`)."""
    from kdsl.frontend.array.creation import asarray  # cycle: that module builds Arrays

    return asarray(data)
