"""``x.view().base`` where nobody holds ``x`` any more: NumPy's answer, the array the view was taken from.

``x.view()`` and ``x.view(dtype)`` of an owner hold ``x`` weakly (``bitcast._writes_through``): a live base Array
would make the scheduler store it, and ``(x * 2).view(np.uint32) & 1`` would not fuse into one kernel. A base
that was a temporary (``(a + 1).view()``, ``kd.arange(3.0).view()``) is gone then, but its data is the view's
own data in the base's dtype and shape, so asking for ``.base`` makes that array again: an owner (NumPy's
``flags.owndata``), the view's base from then on (held, so ``v.base is v.base``), writes reaching either way.
Only programs that ask for ``.base`` pay for it; nothing else can reach such a base.

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(4.0)
    >>> v = (a + 1).view()
    >>> b = v.base
    >>> b is v.base, b.base is None, b.tolist()
    (True, True, [1.0, 2.0, 3.0, 4.0])
    >>> b[0] = 9
    >>> v.tolist()
    [9.0, 2.0, 3.0, 4.0]
"""

from __future__ import annotations

from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array


def remember_base(write: object, base: Array) -> None:
    """Keep what a weakly held base was (its shape and dtype) beside the view's write-back ``write``."""
    write.base_meta = (base.shape, base.dtype)  # type: ignore[attr-defined]


def revived_base(v: Array) -> Array | None:
    """``v``'s base made again from ``v``'s data, when ``v`` is a bit-cast view whose weakly held base is gone;
    None for any other array (an owner, a view whose base lives)."""
    from kdsl.frontend.array.bitcast import view  # cycle: bitcast uses this module

    if v._parent is None or v._parent[0] is not None:
        return None
    write = v._parent[1]
    ref, meta = getattr(write, "base_ref", None), getattr(write, "base_meta", None)
    if ref is None or meta is None or ref() is not None:
        return None  # (a view whose shape or dtype was set since keeps no meta: its base stays unknown)
    shape, dtype = meta
    base = Array(view(Array(v._n), dtype)._n)  # the same bytes in the base's dtype: a new owner
    if base.shape != shape:
        base = Array(mv.reshape_node(base._n, shape))
    own = v.dtype

    def write_into(b: Array, target: Array) -> None:
        b[...] = view(target, b.dtype)

    write_into.bitcast = True  # for kd.shares_memory (footprints.py)
    v._view_of(base, write_into, lambda b: view(b, own))
    return base
