"""How a view stays NumPy's view of its base: writes into it reach the base (``write``, held in ``_parent``), and
writes into the base show in it (``read``, held in ``_read``): the base counts its writes (``_version``), and a view
whose base was written since it was made or last rebuilt rebuilds its node from the base's current one.

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros((2, 3), dtype=kd.int32)
    >>> row = a[1]
    >>> a[1, 2] = 7
    >>> row.tolist()
    [0, 0, 7]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from kdsl.frontend.array import broadcast_writes

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array
    from kdsl.ir.graph import Node


class ViewLinks:
    """The view links of :class:`kdsl.frontend.array.array.Array` (which holds the slots)."""

    __slots__ = ("_raw", "_parent", "_version", "_read", "_seen")
    _raw: Node
    _parent: tuple[Array, Callable[[Array, Array], None]] | None
    _version: int
    _read: tuple[Callable[[], Array | None], Callable[[Array], Array]] | None
    _seen: int

    def _set_raw(self, node: Node) -> None:
        node.refs += 1
        old, self._raw = self._raw, node
        old.refs -= 1

    def _refresh(self) -> None:
        """Rebuild this view from its base when the base was written after the view was made or last rebuilt
        (``v = a[1:3]; a[1] = 5`` shows in ``v``, as in NumPy): its node becomes ``read(base)`` again. A base
        that is gone (a weakly held bitcast base) or changed size (``resize``) leaves the view as it is."""
        assert self._read is not None
        get_base, read = self._read
        base = get_base()
        if base is None:
            return
        base._n  # noqa: B018  (rebuilds a base that is itself a stale view, bumping its version)
        if base._version == self._seen:
            return
        self._seen = base._version
        try:
            fresh = read(base)
        except (ValueError, IndexError):  # the base was reshaped or resized incompatibly: keep the values
            self._read = None
            return
        if fresh._raw is not self._raw:
            self._set_raw(fresh._raw)
            self._version += 1

    def _stored(self) -> None:
        """After a write replaced this array's node (``a[k] = v``, ``a += 1``): a view carries it into its base
        (``r = a[0]; r += 1`` writes into ``a``, as in NumPy), any other array holds its own values from now on."""
        if self._parent is not None:
            base, write = self._parent
            with broadcast_writes.writing_through():
                write(base, cast("Array", self))
            self._written_through()
        else:
            self._own_values()

    def _written_through(self) -> None:
        """After a write into this view reached its base: the view already holds those values."""
        if self._read is not None:
            base = self._read[0]()
            if base is not None:
                self._seen = base._version

    def _own_values(self) -> None:
        """After a write into an array that follows a base without writing into it (``kd.broadcast_to``'s
        result, writeable in kdsl): it holds its own values from now on, later writes into the base do not
        replace them."""
        if self._parent is None:
            self._read = None

    def _rewrap_write(self, convert: Callable[[Array], Array]) -> None:
        """After ``v.shape = ...`` or ``v.dtype = ...`` of a view ``v``: writes into it reach its base through
        ``convert`` (back to the shape or dtype the old write-back takes). A base held weakly (a bitcast view's:
        ``a.view()``) stays findable through ``base_ref``, so ``kd.may_share_memory(a, v)`` still sees it."""
        assert self._parent is not None
        base, write = self._parent

        def rewrapped(b: Array, target: Array) -> None:
            write(b, convert(target))

        if hasattr(write, "base_ref"):
            rewrapped.base_ref = write.base_ref  # type: ignore[attr-defined]  # (read by sharing._base_of)
        rewrapped.rewrapped = True  # type: ignore[attr-defined]  # kd.shares_memory traces no footprint through it
        self._parent = (base, rewrapped)

    def _view_of(self, base: Array, write, read: Callable[[Array], Array]) -> Array:
        """Mark this array as a view of ``base``: ``write(base, self)`` carries assignments into this view back
        to ``base`` (NumPy's view semantics for ``a.T[0] = 1``, ``a[0][1] = 1``, ``a.reshape(...)[i] = v``),
        and ``read(base)`` makes the view again after ``base`` is written (``row = a[0]; a[0, 1] = 7``)."""
        self._parent = (base, write)
        self._follow(lambda: base, read, base)
        return cast("Array", self)

    def _follow(self, get_base: Callable[[], Array | None], read: Callable[[Array], Array], base: Array) -> None:
        """Rebuild this view with ``read`` from ``get_base()`` whenever that array is written (see
        :meth:`_refresh`); ``read`` sees the base in the shape and dtype it has now (``base.shape = ...`` or
        ``base.dtype = ...`` later does not change what the view reads: the same bytes, as NumPy's)."""
        shape, dtype = base.shape, base.dtype

        def as_made(b: Array) -> Array:
            # (only a retyped base: the layout replay passes int32 index arrays through the links)
            b = b.view(dtype) if b.dtype is not dtype and getattr(b, "_retyped", False) else b
            return b if b.shape == shape else b.reshape(shape)

        self._read = (get_base, lambda b: read(as_made(b)))
        self._seen = base._version
