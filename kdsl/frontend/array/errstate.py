"""NumPy's floating-point error state: ``seterr geterr errstate seterrcall geterrcall``.

kdsl never signals floating-point errors: its arithmetic runs on the GPU, which has no floating-point
exception flags, so a division by zero quietly gives ``inf`` and an invalid operation ``nan``. The modes
``'ignore'``, ``'warn'``, ``'print'`` and ``'log'`` are accepted and remembered (``geterr`` returns them, as
NumPy's does), and kdsl behaves as ``'ignore'`` under all of them. ``'raise'`` and ``'call'`` would promise an
exception or a callback kdsl cannot deliver, so they raise ``NotImplementedError``: check results explicitly
instead, e.g. ``if not kd.isfinite(x).all(): ...``.

The settings are passed on to NumPy's own error state too: ``kd.float32(x)`` and the other scalar types are
NumPy's, so their host arithmetic (``kd.float32(3e38) * kd.float32(2)``) warns as NumPy's does unless a
``kd.errstate(over="ignore")`` block says otherwise.

Example:
    >>> import kdsl as kd
    >>> with kd.errstate(divide="ignore", invalid="ignore"):
    ...     (kd.asarray([1.0, 0.0]) / 0.0).tolist()
    [inf, nan]
    >>> kd.geterr()["divide"]
    'warn'
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

_KINDS = ("divide", "over", "under", "invalid")
_ACCEPTED = ("ignore", "warn", "print", "log")
_UNDETECTABLE = ("raise", "call")

# NumPy's defaults.
_state: dict[str, str] = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
_callback: list[Any] = [None]


def _check_mode(kind: str, mode: str) -> None:
    if mode in _UNDETECTABLE:
        raise NotImplementedError(
            f"errstate {kind}={mode!r}: kdsl cannot detect floating-point errors (GPU arithmetic has no error "
            f"flags; it gives inf/nan silently), so it cannot {'raise' if mode == 'raise' else 'call a function'}; "
            f"check results explicitly instead, e.g. `if not kd.isfinite(x).all(): ...`")
    if mode not in _ACCEPTED:
        raise ValueError(f"invalid error mode {mode!r} for {kind}; use one of 'ignore', 'warn', 'print', 'log'")


def seterr(all: str | None = None, divide: str | None = None, over: str | None = None,  # noqa: A002 - NumPy's name
           under: str | None = None, invalid: str | None = None) -> dict[str, str]:
    """Set how floating-point errors are treated; returns the old settings (NumPy's ``np.seterr``). kdsl
    behaves as ``'ignore'`` whatever is set (see the module docstring); ``'raise'``/``'call'`` raise
    ``NotImplementedError``.

    >>> import kdsl as kd
    >>> old = kd.seterr(all="ignore")
    >>> kd.geterr()["over"], old["under"]
    ('ignore', 'ignore')
    >>> _ = kd.seterr(**old)
    """
    wanted = {kind: all for kind in _KINDS} if all is not None else {}
    wanted.update({k: v for k, v in zip(_KINDS, (divide, over, under, invalid), strict=True) if v is not None})
    for kind, mode in wanted.items():
        _check_mode(kind, mode)
    old = geterr()
    _state.update(wanted)
    # the host scalars (kd.float32(x) is NumPy's) follow the same settings; the modes are checked above
    np.seterr(**wanted)  # type: ignore[arg-type]
    return old


def geterr() -> dict[str, str]:
    """The current floating-point error settings (NumPy's ``np.geterr``; a new dict).

    >>> import kdsl as kd
    >>> sorted(kd.geterr())
    ['divide', 'invalid', 'over', 'under']
    """
    return dict(_state)


def seterrcall(func: Any) -> Any:
    """Set the function (or object with a ``write`` method) for the ``'call'``/``'log'`` modes; returns the old
    one (NumPy's ``np.seterrcall``). kdsl never calls it: it detects no floating-point errors.

    >>> import kdsl as kd
    >>> kd.seterrcall(print) is None, kd.geterrcall() is print, kd.seterrcall(None) is print
    (True, True, True)
    """
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise TypeError("python object must be callable or have a callable write method")
    old = _callback[0]
    _callback[0] = func
    return old


def geterrcall() -> Any:
    """The function set by :func:`seterrcall` (NumPy's ``np.geterrcall``), or None.

    >>> import kdsl as kd
    >>> kd.geterrcall() is None
    True
    """
    return _callback[0]


_UNSET: Any = object()


class errstate(contextlib.ContextDecorator):  # noqa: N801 - NumPy's name
    """``with kd.errstate(divide='ignore'):`` or ``@kd.errstate(all='ignore')``: floating-point error settings
    for a block (NumPy's ``np.errstate``); the old settings come back on exit. kdsl behaves as ``'ignore'``
    (see the module docstring); ``'raise'``/``'call'`` raise ``NotImplementedError`` on entry.

    >>> import kdsl as kd
    >>> @kd.errstate(all="ignore")
    ... def f():
    ...     return kd.geterr()["invalid"]
    >>> f(), kd.geterr()["invalid"]
    ('ignore', 'warn')
    """

    def __init__(self, *, call: Any = _UNSET, all: str | None = None,  # noqa: A002 - NumPy's name
                 divide: str | None = None, over: str | None = None, under: str | None = None,
                 invalid: str | None = None) -> None:
        self._call = call
        self._kwargs = {"all": all, "divide": divide, "over": over, "under": under, "invalid": invalid}
        self._saved: list[tuple[dict[str, str], Any, Any]] = []

    def __enter__(self) -> None:
        numpy_old = np.geterr()  # NumPy's own state may differ from kdsl's (set by np.seterr): restored as it was
        old = seterr(**self._kwargs)  # validates first: a refused mode changes nothing
        old_call = seterrcall(self._call) if self._call is not _UNSET else geterrcall()
        self._saved.append((old, old_call, numpy_old))

    def __exit__(self, *exc: object) -> None:
        old, old_call, numpy_old = self._saved.pop()
        _state.update(old)
        _callback[0] = old_call
        np.seterr(**numpy_old)
