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
import sys
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.engine import buffers, transfers
from kdsl.engine import realize as engine
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.inplace import check_inplace, inplace_operator, store_inplace
from kdsl.frontend.array.scalar_like import multiply_operator
from kdsl.frontend.array.view_links import ViewLinks
from kdsl.ir.graph import Node


def _binary(name: str, reflected: bool = False):
    if reflected:
        def method(self, other):
            return ops.apply(name, other, self)
    else:
        def method(self, other):
            return ops.apply(name, self, other)
    method.__name__ = f"__{'r' if reflected else ''}{name}__"
    return method


class Array(ViewLinks):
    """An n-dimensional array on a kdsl device, computed lazily."""

    # (the view links' slots are ViewLinks'); _readonly: setflags(write=False) (array_flags.py)
    __slots__ = ("_readonly", "__weakref__")
    __array_priority__ = 100  # NumPy defers to our reflected operators
    _readonly: bool  # set by setflags(write=False); unset means writeable (array_flags.py)

    def __init__(self, node: Node):
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
        old = self._n.shape
        target = tuple(value) if isinstance(value, (tuple, list)) else (value,)
        new = mv.resolve_shape(target, self.size)
        if not self._reshapes_in_place(new):  # NumPy's rule: only where the reshape is a view (no copy)
            raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` to make a copy "
                                 "with the desired shape.")
        self._set_raw(mv.reshape_node(self._n, new))  # the same values: views of this array stay as they are
        if self._parent is not None:
            base, write = self._parent
            self._parent = (base, lambda b, view: write(b, view.reshape(old)))
        if self._read is not None:
            get_base, read = self._read
            self._read = (get_base, lambda b: read(b).reshape(new))

    @property
    def dtype(self) -> dt.DType:
        return self._n.dtype

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

    # ----- getting data out
    def numpy(self) -> np.ndarray:
        """Compute (if needed) and copy to a new NumPy array."""
        return transfers.to_numpy(self._n)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        out = self.numpy()
        return out if dtype is None else out.astype(dtype)

    def item(self, *args):
        """One element as a Python scalar: the only one, ``a.item(flat_index)`` or ``a.item(i, j)`` /
        ``a.item((i, j))`` (NumPy's; reads that element back)."""
        if args:
            key = args[0] if len(args) == 1 else tuple(args)
            if isinstance(key, tuple):
                return self[key].item()
            flat = self.reshape(-1)
            n = self.size
            if not -n <= int(key) < n:
                raise IndexError(f"index {int(key)} is out of bounds for size {n}")
            return flat[int(key)].item()
        if self.size != 1:
            raise ValueError(f"can only convert an array of size 1 to a Python scalar, not size {self.size}")
        return self.numpy().reshape(()).item()

    def tolist(self):
        return self.numpy().tolist()

    def __float__(self) -> float:
        self._scalar_check()
        return float(self.item())

    def __int__(self) -> int:
        self._scalar_check()
        return int(self.item())

    def _scalar_check(self) -> None:
        if self.ndim:  # NumPy 2.4 raises TypeError here for any array that is not 0-d (size 1 included)
            raise TypeError(f"only 0-dimensional arrays can be converted to Python scalars; this one has shape "
                            f"{self.shape}: use a.item() (size 1) or index it (a[0])")

    def __index__(self) -> int:
        if self.ndim or not self.dtype.is_int:
            raise TypeError(f"only integer scalar arrays can be converted to a scalar index; got shape {self.shape} "
                            f"and dtype {self.dtype.name}")
        return int(self.item())

    def __bool__(self) -> bool:
        if self.size == 0:
            raise ValueError("The truth value of an empty array is ambiguous. Use `a.size > 0` to check that an "
                             "array is not empty.")
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return bool(self.item())

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __contains__(self, value: Any) -> bool:
        """``value in a``: NumPy's ``(a == value).any()`` (``value`` broadcasts, so a row is found in a matrix only
        as elementwise matches; one bool read back). Without it Python iterated and compared whole rows."""
        return bool((self == value).any())

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self) -> str:  # kd.set_printoptions decides the layout (printing.py)
        from kdsl.frontend.array import printing
        return printing.array_repr_of(self)

    def __str__(self) -> str:
        from kdsl.frontend.array import printing
        return printing.array_str(self)

    def __format__(self, spec: str) -> str:
        """``f"{a:.3f}"``: a 0-d array formats as its NumPy scalar (a download); others only with an empty spec."""
        if self.ndim == 0:
            return format(self.numpy()[()], spec)
        if spec:
            raise TypeError(f"unsupported format string {spec!r} passed to kdsl.Array.__format__ (an array of shape "
                            f"{self.shape}); format its elements, or use kd.array2string")
        return str(self)

    def tofile(self, fid, sep: str = "", format: str = "%s") -> None:  # noqa: A002 - NumPy's name
        """Write the values to a file (NumPy's ``ndarray.tofile``: raw bytes in C order, or text with ``sep``);
        a download, then NumPy writes."""
        self.numpy().tofile(fid, sep=sep, format=format)

    def __hash__(self):
        """A 0-d array hashes as the Python scalar it holds (reads it back), so the 0-d arrays kdsl gives where
        NumPy gives scalars (``a[i]``, ``for v in a``, ``a.max()``) work as dict keys and set members, as NumPy's
        scalars do; other arrays are unhashable, as NumPy's."""
        if self.ndim == 0:
            return hash(self.item())
        raise TypeError("unhashable type: 'kdsl.Array'")

    # ----- conversions
    def astype(self, dtype, order: str = "K", casting: str = "unsafe", subok: bool = True,
               copy: bool = True) -> Array:
        """This array as ``dtype`` (lazy), NumPy's ``ndarray.astype``: ``casting`` is NumPy's rule (TypeError
        when it forbids the change), ``copy=False`` returns this array itself when the dtype is already right.
        See :func:`kdsl.frontend.array.conversion.array_astype`.

        >>> import kdsl as kd
        >>> a = kd.asarray([1.5, -2.5])
        >>> a.astype(kd.int32).tolist(), a.astype(kd.float32, copy=False) is a
        ([1, -2], True)
        """
        if order == "K" and casting == "unsafe" and copy:  # the common call, without the checks
            return ops.astype(self, dtype)
        from kdsl.frontend.array.conversion import array_astype  # cycle: that module imports this one

        return array_astype(self, dtype, order, casting, subok, copy)

    def view(self, dtype=None, type=None) -> Array:  # noqa: A002 - NumPy's name
        """This array's bytes read as ``dtype`` (NumPy's ``ndarray.view``: same itemsize, same shape; another
        itemsize scales the last axis, which must be contiguous); with no dtype, a new Array of the same data.
        Lazy: the bit-cast fuses with the work around it. See :mod:`kdsl.frontend.array.bitcast`.

        >>> import kdsl as kd, numpy as np
        >>> kd.asarray(np.array([1.0, -2.0], np.float32)).view(np.int32).tolist()
        [1065353216, -1073741824]
        """
        from kdsl.frontend.array.bitcast import view  # cycle: that module builds Arrays

        return view(self, dtype, type)

    def copy(self, order: str = "C") -> Array:
        """A new array with the same values (its own buffer when realised); ``order`` is checked (kdsl has one
        layout: the values and shape are the same for every order, as NumPy's)."""
        from kdsl.frontend.array import memory_order

        memory_order.fortran(order)
        node = self._n
        return Array(Node("copy", (node,), node.dtype, node.shape))

    def realize(self) -> Array:
        engine.realize_nodes([self._n])
        return self

    def _buffer(self):
        """The runtime Tensor holding this array as C-contiguous ``size`` elements (copying a view first)."""
        return engine.buffer_of(self._n)

    def __kdsl_buffer__(self, writable: bool = False):
        """The array protocol of custom kernels (``@kd.kernel``, ``kd.raw_kernel``): the runtime Tensor holding
        this array as C-contiguous data. ``writable=True``: the caller writes it in place, so lazy expressions
        that read this array are computed first (they keep the old values, as in NumPy)."""
        return engine.buffer_of(self._n, writable)

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
        dtype, shape, dev = dt.as_dtype(dtype), tuple(int(d) for d in shape), current_device(device)
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

    def __divmod__(self, other) -> tuple[Array, Array]:  # divmod(a, b): NumPy's (a // b, a % b)
        return self // other, self % other

    def __rdivmod__(self, other) -> tuple[Array, Array]:
        return other // self, other % self

    __pow__, __rpow__, __ipow__ = ops.power_operator, _binary("pow", True), inplace_operator("pow")
    __and__, __rand__, __iand__ = _binary("and"), _binary("and", True), inplace_operator("and")
    __or__, __ror__, __ior__ = _binary("or"), _binary("or", True), inplace_operator("or")
    __xor__, __rxor__, __ixor__ = _binary("xor"), _binary("xor", True), inplace_operator("xor")
    __lshift__, __rlshift__, __ilshift__ = _binary("shl"), _binary("shl", True), inplace_operator("shl")
    __rshift__, __rrshift__, __irshift__ = _binary("shr"), _binary("shr", True), inplace_operator("shr")
    __eq__, __ne__ = _binary("eq"), _binary("ne")
    __lt__, __le__, __gt__, __ge__ = _binary("lt"), _binary("le"), _binary("gt"), _binary("ge")

    def __neg__(self) -> Array:
        if self.dtype is dt.bool_:
            raise TypeError("The numpy boolean negative, the `-` operator, is not supported, "
                            "use the `~` operator or the logical_not function instead.")
        return ops.apply("neg", self)

    def __pos__(self) -> Array:
        return self

    def __abs__(self) -> Array:
        return ops.apply("abs", self)

    def __invert__(self) -> Array:
        return ops.apply("invert", self)

    def __matmul__(self, other) -> Array:
        from kdsl.frontend.array.linalg import matmul  # cycle: that module builds Arrays

        return matmul(self, other)

    def __rmatmul__(self, other) -> Array:
        from kdsl.frontend.array.linalg import matmul  # cycle: that module builds Arrays

        return matmul(other, self)

    def __imatmul__(self, other) -> Array:
        result = self.__matmul__(other)
        if result.shape != self.shape:  # NumPy: a @= b keeps a's shape
            raise ValueError(f"matmul: output operand of shape {self.shape} does not match the result's shape "
                             f"{result.shape} (a @= b keeps a's shape); write `a = a @ b`")
        check_inplace("matmul", self, other, result)
        return store_inplace(self, result)

    # ----- movement
    def reshape(self, *shape, order: str = "C", copy: bool | None = None) -> Array:
        from kdsl.frontend.array import memory_order

        target = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        if copy is not None:  # NumPy 2.1's copy=: kd.reshape checks whether a view is possible
            from kdsl.frontend.array.shape_ops import reshape

            return reshape(self, target, order, copy=copy)
        if memory_order.fortran(order, "CFA", self):
            return memory_order.reshape_fortran(self, tuple(target))
        new = mv.resolve_shape(target, self.size)
        out = Array(mv.reshape_node(self._n, new))
        if not self._reshapes_in_place(new):
            # NumPy copies (``a.T.reshape(-1)``) and returns a view of that copy: writes reach neither way, and
            # ``base`` is the (never computed) copy, as NumPy's. The values stay one lazy, fusable reshape.
            out._parent = (self.copy(), lambda base, view: None)
            return out
        return out._view_of(self, lambda base, view: base.__setitem__(Ellipsis, view.reshape(base.shape)),
                            lambda base: Array(mv.reshape_node(base._n, new)))

    def _reshapes_in_place(self, shape: tuple[int, ...]) -> bool:
        """Whether NumPy's reshape of the equivalent array to ``shape`` is a view (:meth:`View.reshape`'s rule
        on this view's strides) rather than a copy. A lazy constant (``kd.zeros``: a broadcast 0-d node) is a
        new C-ordered array, as NumPy's would be."""
        node = self._n
        if node.op != "view" or not node.srcs or not node.srcs[0].shape:
            return True
        return node.arg.reshape(shape) is not None

    def ravel(self, order: str = "C") -> Array:
        from kdsl.frontend.array import memory_order

        if isinstance(order, str) and order.upper() == "K":  # memory order, as NumPy's
            return memory_order.ravel_keep(self)
        if memory_order.fortran(order, "CFA", self):
            return self.reshape(-1, order=order)
        return memory_order.ravel_c(self)  # a copy unless C-contiguous (not reshape(-1)'s rule)

    def flatten(self, order: str = "C") -> Array:
        """A flat copy (writes to it do not reach this array, as in NumPy)."""
        return Array(self.ravel(order)._n)

    def fill(self, value) -> None:
        """Set every element to ``value`` in place (NumPy's assignment rules), as ``ndarray.fill``."""
        self[...] = value

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        """Byte steps between elements along each axis, as NumPy's for the same view of a C-ordered array
        (``as_strided`` takes them); a size-1 axis gets a C-contiguous array's step, and so does every axis of
        an owner (``kd.zeros``, a computed result) and of a view of a lazy constant not yet written (kdsl keeps no
        layout for those: ``kd.ones(6)[::2].strides`` is ``(4,)``, NumPy's ``(8,)``).

        >>> import kdsl as kd
        >>> kd.zeros((3, 4), dtype=kd.float32).strides, kd.arange(12.0).reshape(3, 4).T.strides
        ((16, 4), (4, 16))
        """
        from kdsl.frontend.array.array_flags import layout_strides

        view = layout_strides(self._n)  # (None: an owner, C-ordered; a realised view keeps its View)
        size, steps, acc = self.dtype.itemsize, [], self.dtype.itemsize
        for axis in reversed(range(self.ndim)):
            n = self.shape[axis]
            step = view[axis] * size if view is not None and n != 1 else acc
            steps.append(step)
            acc *= max(n, 1)
        return tuple(reversed(steps))

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

    def byteswap(self, inplace: bool = False) -> Array:
        """Each element's bytes reversed (``byte_swap.py``)."""
        from kdsl.frontend.array.byte_swap import byteswap

        return byteswap(self, inplace)

    def getfield(self, dtype, offset: int = 0) -> Array:
        """The ``dtype`` value at byte ``offset`` of each element (``fields.py``)."""
        from kdsl.frontend.array.fields import getfield

        return getfield(self, dtype, offset)

    def setfield(self, val, dtype, offset: int = 0) -> None:
        """Write ``val`` as ``dtype`` at byte ``offset`` of each element, in place (``fields.py``)."""
        from kdsl.frontend.array.fields import setfield

        setfield(self, val, dtype, offset)

    def resize(self, *new_shape, refcheck: bool = True) -> None:
        """Reshape this array in place to ``new_shape``, cut short or zero-filled (``in_place_resize.py``)."""
        from kdsl.frontend.array.in_place_resize import resize

        resize(self, *new_shape, refcheck=refcheck)

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

    def tobytes(self, order: Literal["C", "F", "A", "K"] = "C") -> bytes:
        """The elements' bytes (an explicit download), as ``ndarray.tobytes``."""
        return self.numpy().tobytes(order)

    def repeat(self, repeats, axis: int | None = None) -> Array:
        from kdsl.frontend.array.joining import repeat  # cycle: that module builds Arrays

        return repeat(self, repeats, axis)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
        from kdsl.frontend.array.constructors import diagonal  # cycle: that module builds Arrays

        return diagonal(self, offset, axis1, axis2)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None, out=None) -> Array:
        from kdsl.frontend.array.constructors import trace  # cycle: that module builds Arrays

        return trace(self, offset, axis1, axis2, dtype, out)

    def compress(self, condition, axis: int | None = None, out=None) -> Array:
        from kdsl.frontend.array.masks import compress  # cycle: that module builds Arrays

        return compress(condition, self, axis, out)

    def transpose(self, *axes) -> Array:
        given = axes[0] if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))) else axes
        perm = mv.transpose_axes(given or None, self.ndim)
        inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
        out = Array(mv.permute_node(self._n, perm))
        return out._view_of(self, lambda base, view: base.__setitem__(Ellipsis, view.transpose(inverse)),
                            lambda base: Array(mv.permute_node(base._n, perm)))

    def swapaxes(self, a: int, b: int) -> Array:
        from kdsl.frontend.array.shape_ops import swapaxes  # cycle: that module builds Arrays

        return swapaxes(self, a, b)

    def squeeze(self, axis=None) -> Array:
        from kdsl.frontend.array.shape_ops import squeeze  # cycle: that module builds Arrays

        return squeeze(self, axis)

    def __getitem__(self, key) -> Array:
        from kdsl.frontend.array.indexing import getitem  # cycle: that module builds Arrays

        return getitem(self, key)

    def __setitem__(self, key, value) -> None:
        from kdsl.frontend.array.array_flags import check_writeable
        from kdsl.frontend.array.indexing import setitem  # cycle: that module builds Arrays

        check_writeable(self)
        self._node = setitem(self, key, value)._n
        if self._parent is not None:  # a[0][1] = v, a.T[0] = v, row = a[0]; row[1] = v all reach a
            base, write = self._parent
            write(base, self)
            self._written_through()

    # ----- reductions
    def _reduce(self, name, *args, **kwargs):
        from kdsl.frontend.array import reductions  # cycle: that module builds Arrays

        return getattr(reductions, name)(self, *args, **kwargs)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return self._reduce("sum", axis, dtype=dtype, keepdims=keepdims, out=out, initial=initial, where=where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return self._reduce("prod", axis, dtype=dtype, keepdims=keepdims, out=out, initial=initial, where=where)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        return self._reduce("mean", axis, dtype=dtype, keepdims=keepdims, out=out, where=where)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
            correction=None):
        return self._reduce("var", axis, dtype=dtype, ddof=ddof, keepdims=keepdims, correction=correction, out=out,
                            where=where, mean=mean)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
            correction=None):
        return self._reduce("std", axis, dtype=dtype, ddof=ddof, keepdims=keepdims, correction=correction, out=out,
                            where=where, mean=mean)

    def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return self._reduce("max", axis, keepdims=keepdims, out=out, initial=initial, where=where)

    def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return self._reduce("min", axis, keepdims=keepdims, out=out, initial=initial, where=where)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return self._reduce("argmax", axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return self._reduce("argmin", axis, out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        return self._reduce("any", axis, keepdims=keepdims, out=out, where=where)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        return self._reduce("all", axis, keepdims=keepdims, out=out, where=where)

    def cumsum(self, axis=None, dtype=None, out=None):
        return self._reduce("cumsum", axis, dtype=dtype, out=out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return self._reduce("cumprod", axis, dtype=dtype, out=out)

    def nonzero(self) -> tuple[Array, ...]:
        from kdsl.frontend.array.masks import nonzero  # cycle: that module builds Arrays

        return nonzero(self)

    def dot(self, other, /, out=None) -> Array:
        from kdsl.frontend.array.linalg import dot  # cycle: that module builds Arrays

        return dot(self, other, out)

    def __round__(self, ndigits: int | None = None) -> Array:  # round(a, 2), as NumPy's arrays (an array)
        return self.round(0 if ndigits is None else ndigits)

    def round(self, decimals: int = 0, out=None) -> Array:
        from kdsl.frontend.array.math import round  # cycle: that module builds Arrays

        return round(self, decimals, out)

    def clip(self, min=None, max=None, out=None, *, a_min=None, a_max=None) -> Array:  # noqa: A002 - NumPy's names
        from kdsl.frontend.array.math import clip  # cycle: that module builds Arrays

        return clip(self, a_min, a_max, out, min=min, max=max)

    # ----- the array API standard (2024.12)
    def __array_namespace__(self, /, *, api_version: str | None = None):
        """The namespace of the array API standard these arrays belong to: :mod:`kdsl` itself."""
        from kdsl.frontend.array.api_info import API_VERSIONS  # cycle: that module builds Arrays

        if api_version is not None and api_version not in API_VERSIONS:
            raise ValueError(f"kdsl implements the array API versions {', '.join(API_VERSIONS)}, "
                             f"not {api_version!r}")
        return sys.modules["kdsl"]  # the package is imported before any of its modules: no import cycle

    @property
    def mT(self) -> Array:  # noqa: N802 - the standard's name
        """The matrix transpose: the last two axes swapped (a view)."""
        if self.ndim < 2:
            raise ValueError(f"mT needs an array of at least 2 dimensions, this one has {self.ndim}")
        return self.swapaxes(-1, -2)

    def __reduce__(self) -> tuple[Callable[[np.ndarray], Array], tuple[np.ndarray]]:
        """Pickled by value: its data (computed first if lazy) with dtype and shape; it unpickles on the
        receiving process's current device (so Dask and ``multiprocessing`` can ship arrays)."""
        return _unpickle, (self.numpy(),)

    def to_device(self, device, /, *, stream=None) -> Array:
        """This array on ``device`` (itself when it is already there; otherwise copied through the host)."""
        if stream is not None:
            raise ValueError("kdsl has no streams; call to_device without stream=")
        from kdsl.frontend.array.creation import asarray  # cycle: that module builds Arrays

        return asarray(self, device=device)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of a host copy of this array (device memory cannot be exported: docs/array-api.md)."""
        from kdsl.frontend.array.dlpack import dlpack  # cycle: that module builds Arrays

        return dlpack(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        """``(kDLCPU, 0)``: ``__dlpack__`` exports host copies."""
        from kdsl.frontend.array.dlpack import dlpack_device  # cycle: that module builds Arrays

        return dlpack_device(self)

    def __complex__(self) -> complex:
        """``complex(a)`` of a 0-d array."""
        self._scalar_check()
        return complex(self.item())

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
        from kdsl.frontend.array.complex_math import conj  # cycle: that module builds Arrays

        return conj(self)

    conjugate = conj

    # ----- NumPy's dispatch protocols: np.exp(a), np.sum(a) run kdsl's functions on the device
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from kdsl.frontend.array.numpy_protocol import array_ufunc  # it imports this module

        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        from kdsl.frontend.array.numpy_protocol import array_function  # it imports this module

        return array_function(func, types, args, kwargs)

    # ----- sorting and selection (kdsl.frontend.array.sorting, which imports this module)
    def sort(self, axis: int | None = -1, kind=None, order=None, *, stable=None, descending: bool = False) -> None:
        """Sort in place along ``axis`` (stable, NaNs last), as ``ndarray.sort``; ``descending`` as the array
        API's (and newer NumPy's)."""
        from kdsl.frontend.array.sorting import sort  # cycle: that module builds Arrays

        if axis is None:
            raise np.exceptions.AxisError("axis=None sorts a flattened copy: use kd.sort(a, axis=None)")
        self[...] = sort(self, axis, kind, order, stable=stable, descending=descending)

    def argsort(self, axis: int | None = -1, kind=None, order=None, *, stable=None, descending: bool = False) -> Array:
        from kdsl.frontend.array.sorting import argsort  # cycle: that module builds Arrays

        return argsort(self, axis, kind, order, stable=stable, descending=descending)

    def partition(self, kth, axis: int = -1, kind: str = "introselect", order=None) -> None:
        """Partition in place around ``kth`` (see :func:`kdsl.partition`)."""
        from kdsl.frontend.array.sorting import partition  # cycle: that module builds Arrays

        self[...] = partition(self, kth, axis, kind, order)

    def argpartition(self, kth, axis: int | None = -1, kind: str = "introselect", order=None) -> Array:
        from kdsl.frontend.array.sorting import argpartition  # cycle: that module builds Arrays

        return argpartition(self, kth, axis, kind, order)

    def searchsorted(self, v, side: str = "left", sorter=None) -> Array:
        from kdsl.frontend.array.sorting import searchsorted  # cycle: that module builds Arrays

        return searchsorted(self, v, side, sorter)

    def take(self, indices, axis: int | None = None, out=None, mode: str = "raise") -> Array:
        from kdsl.frontend.array.sorting import take  # cycle: that module builds Arrays

        return take(self, indices, axis, out, mode)

    def put(self, indices, values, mode: str = "raise") -> None:
        """``kd.put(self, indices, values, mode)``: replace elements of the flattened array, in place."""
        from kdsl.frontend.array.put import put  # cycle: that module builds Arrays

        put(self, indices, values, mode)

    def choose(self, choices, out=None, mode: str = "raise") -> Array:
        """``kd.choose(self, choices, out, mode)``: this array's integers pick among ``choices``."""
        from kdsl.frontend.array.choose import choose  # cycle: that module builds Arrays

        return choose(self, choices, out, mode)


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
