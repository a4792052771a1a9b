"""Warm transform calls replayed: a ``kd.fft`` call whose whole work was one recorded program run on its input
(:class:`kdsl.fft.launches.Transform`) is remembered by its arguments, and the next call with the same ones
skips the argument checks, the conversions and the planning: it takes a fresh output and runs the program.

The first call with a given key runs the transform as written while recording what it does (the programs it
runs, and any step a replay would skip, such as a warning: :func:`side_effect`). It is remembered only when
it ran exactly one program, reading the input array itself and writing the very array it returned; every
other call (a conversion first, a pass after, several submissions) is remembered as one to run as written.
So a replay does what the call did, and the result is the same.

The key holds everything the plan depends on: the function, the input's shape, dtype and device (kdsl
arrays are C-contiguous to a kernel, which reads ``__kdsl_buffer__``: a view is copied first, as before),
the current device (whose limits pick the launches), and the other arguments, which must be None, ints,
strings or sequences of ints (anything else, such as ``out=`` or a NumPy integer, runs as written). The
cache is bounded (:data:`LIMIT` keys) and shared by threads; it holds the programs weakly: one dropped
from :mod:`kdsl.fft.transform`'s own cache is planned again by the next call as written.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 3.0, 4.0])
    >>> first, again = kd.fft.rfft(x), kd.fft.rfft(x)  # the second call replays the first's program
    >>> first.tolist() == again.tolist(), first is not again
    (True, True)
"""

from __future__ import annotations

import functools
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import kdsl as kd
from kdsl.fft import plan

LIMIT = 256
"""Keys kept (the least recently remembered go first; under :mod:`kdsl.fft.plan`'s lock, renewed in a forked
child): each a tuple and a small record, no device memory."""
_calls: OrderedDict[tuple, Any] = plan.forget_in_child(OrderedDict())
_local = threading.local()  # .runs: the recording call's list of (program, source, output), None outside one
_SLOW = object()
"""The record of a key whose call is not one program run: it runs as written, unrecorded."""


class _Replay:
    """One program run: a fresh output of ``shape`` and ``dtype`` on ``device``, written by ``program``."""

    __slots__ = ("program", "shape", "dtype", "device")

    def __init__(self, program: Any, out: Any):
        self.program = weakref.ref(program)
        self.shape, self.dtype, self.device = out.shape, out.dtype, out.device

    def __call__(self, a: Any) -> Any:
        """The result for input ``a``, or None when the program is no longer the cached one (dropped)."""
        program = self.program()
        if program is None or plan.lookup(*program.cached_as) is not program:  # (the lookup keeps it recent)
            return None
        out = kd.Array._uninitialized(self.shape, self.dtype, self.device)
        program.run(a, out)
        return out


def replayable(fun: Callable[..., Any]) -> Callable[..., Any]:
    """``fun(a, ...)`` (a public transform) with its warm calls replayed (see the module docstring)."""
    name = fun.__qualname__

    def call(a: Any, *args: Any, **kwargs: Any) -> Any:
        key = _key(name, a, args, kwargs)
        if key is None:
            return fun(a, *args, **kwargs)
        hit = _calls.get(key)  # (a dict read is atomic: no lock on the hot path)
        if hit is _SLOW:
            return fun(a, *args, **kwargs)
        if hit is not None:
            out = hit(a)
            if out is not None:
                return out
        return _recorded(fun, key, a, args, kwargs)
    # named as ``fun`` in tracebacks and in autodiff's error, which names the kdsl function a user called by
    # its outermost kdsl frame (kdsl.frontend.array.array_protocols)
    code = call.__code__.replace(co_name=fun.__code__.co_name)
    if sys.version_info >= (3, 11):
        code = code.replace(co_qualname=fun.__code__.co_qualname)
    call.__code__ = code
    return functools.wraps(fun)(call)


def _key(name: str, a: Any, args: tuple, kwargs: dict[str, Any]) -> tuple | None:
    """The call's key, or None when an argument is not one a key can hold exactly."""
    if type(a) is not kd.Array:  # (a subclass may change what its methods return)
        return None
    node = a._n  # (once: a view's property refreshes it from its base)
    # (the count of positional arguments: the keyword names that follow them are no positional strings)
    key = (name, len(args), node.shape, node.dtype.name, node.device, kd.device())
    if not args and not kwargs:  # (the common call: every argument at its default)
        return key
    parts: list[Any] = []
    for value in args:
        value = _plain(value)
        if value is _SLOW:
            return None
        parts.append(value)
    for item in kwargs.items():
        value = _plain(item[1])
        if value is _SLOW:
            return None
        parts += (item[0], value)
    return key + tuple(parts)


def _plain(value: Any) -> Any:
    """``value`` as a key part: None, an int, a str, a tuple of ints (from a tuple or list); else ``_SLOW``
    (a bool, a float, a NumPy integer or an array: their own checks and conversions must run)."""
    kind = type(value)
    if value is None or kind is int or kind is str:
        return value
    if (kind is tuple or kind is list) and all(type(v) is int for v in value):
        return (tuple, *value)  # (tagged: the sequence (3,) is no int 3)
    return _SLOW


def _recorded(fun: Callable[..., Any], key: tuple, a: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``fun``'s call as written, remembered under ``key`` as a replay or as one to run as written."""
    outer = getattr(_local, "runs", None)
    runs: list[Any] = []
    _local.runs = runs
    try:
        result = fun(a, *args, **kwargs)
    finally:
        _local.runs = outer
        if outer is not None:  # an enclosing recording sees the steps of the calls inside it
            outer.extend(runs)
    one = len(runs) == 1 and runs[0] is not None
    if one and runs[0][1] is a and runs[0][2] is result and runs[0][0].cached_as is not None:
        plan.remember(_calls, key, _Replay(runs[0][0], result), limit=LIMIT)
    else:
        plan.remember(_calls, key, _SLOW, limit=LIMIT)
    return result


def ran(program: Any, src: Any, out: Any) -> None:
    """Note a program run (``program`` read ``src``, wrote ``out``) for the call being recorded, if any."""
    runs = getattr(_local, "runs", None)
    if runs is not None:
        runs.append((program, src, out))


def side_effect() -> None:
    """Note a step that a replay would skip (a warning): the call being recorded runs as written every time."""
    runs = getattr(_local, "runs", None)
    if runs is not None:
        runs.append(None)
