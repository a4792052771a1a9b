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

As NumPy's, the settings belong to the current context (``contextvars``): a thread or an asyncio task that
sets them changes only its own, and an ``errstate`` object is entered once (a decorator enters afresh per call).

Example:
    >>> import kdsl as kd
    >>> with kd.errstate(divide="ignore", invalid="ignore"):
    ...     (kd.asarray([1.0, 0.0]) / 0.0).tolist()
    [inf, nan]
    >>> kd.geterr()["divide"]
    'warn'
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

_KINDS = ("divide", "over", "under", "invalid")
_ACCEPTED = ("ignore", "warn", "print", "log")
_UNDETECTABLE = ("raise", "call")

# The modes and the callback of the current context (NumPy's defaults first); each change sets a new pair, so
# a dict once stored is never mutated.
_settings: contextvars.ContextVar[tuple[dict[str, str], Any]] = contextvars.ContextVar(
    "kdsl_errstate", default=({"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}, None))


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
    wanted = _wanted_modes(all, divide, over, under, invalid)
    modes, callback = _settings.get()
    _settings.set(({**modes, **wanted}, callback))
    # the host scalars (kd.float32(x) is NumPy's) follow the same settings; the modes are checked above
    np.seterr(**wanted)  # type: ignore[arg-type]
    return dict(modes)


def _wanted_modes(all: str | None, divide: str | None, over: str | None,  # noqa: A002 - NumPy's name
                  under: str | None, invalid: str | None) -> dict[str, str]:
    """The modes a call sets, by kind (``all`` first, the named kinds over it), each checked."""
    wanted = {kind: all for kind in _KINDS} if all is not None else {}
    wanted.update({k: v for k, v in zip(_KINDS, (divide, over, under, invalid), strict=True) if v is not None})
    for kind, mode in wanted.items():
        _check_mode(kind, mode)
    return wanted


def geterr() -> dict[str, str]:
    """The current floating-point error settings (NumPy's ``np.geterr``; a new dict).

    >>> import kdsl as kd
    >>> sorted(kd.geterr())
    ['divide', 'invalid', 'over', 'under']
    """
    return dict(_settings.get()[0])


def seterrcall(func: Any) -> Any:
    """Set the function (or object with a ``write`` method) for the ``'call'``/``'log'`` modes; returns the old
    one (NumPy's ``np.seterrcall``). kdsl never calls it: it detects no floating-point errors.

    >>> import kdsl as kd
    >>> kd.seterrcall(print) is None, kd.geterrcall() is print, kd.seterrcall(None) is print
    (True, True, True)
    """
    _check_callback(func)
    modes, old = _settings.get()
    _settings.set((modes, func))
    return old


def _check_callback(func: Any) -> None:
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise TypeError("python object must be callable or have a callable write method")


def geterrcall() -> Any:
    """The function set by :func:`seterrcall` (NumPy's ``np.geterrcall``), or None.

    >>> import kdsl as kd
    >>> kd.geterrcall() is None
    True
    """
    return _settings.get()[1]


_UNSET: Any = object()


class errstate:  # noqa: N801 - NumPy's name
    """``with kd.errstate(divide='ignore'):`` or ``@kd.errstate(all='ignore')``: floating-point error settings
    for a block (NumPy's ``np.errstate``); the old settings come back on exit. kdsl behaves as ``'ignore'``
    (see the module docstring); ``'raise'``/``'call'`` raise ``NotImplementedError`` on entry. The settings are
    the current context's (a thread's, an asyncio task's); one object is entered once, as NumPy's.

    >>> import kdsl as kd
    >>> @kd.errstate(all="ignore")
    ... def f():
    ...     return kd.geterr()["invalid"]
    >>> f(), f(), kd.geterr()["invalid"]
    ('ignore', 'ignore', 'warn')
    >>> state = kd.errstate(over="ignore")
    >>> with state:
    ...     pass
    >>> with state:
    ...     pass
    Traceback (most recent call last):
    TypeError: Cannot enter `np.errstate` twice.
    """

    def __init__(self, *, call: Any = _UNSET, all: str | None = None,  # noqa: A002 - NumPy's name
                 divide: str | None = None, over: str | None = None, under: str | None = None,
                 invalid: str | None = None) -> None:
        self._call = call
        self._kwargs = {"all": all, "divide": divide, "over": over, "under": under, "invalid": invalid}
        self._token: contextvars.Token[tuple[dict[str, str], Any]] | None = None
        self._numpy: Any = None

    def __enter__(self) -> None:
        if self._token is not None:  # NumPy's rule: a second entry could not restore both states
            raise TypeError("Cannot enter `np.errstate` twice.")
        wanted = _wanted_modes(**self._kwargs)  # validates first: a refused mode changes nothing
        modes, callback = _settings.get()
        if self._call is not _UNSET:
            _check_callback(self._call)
            callback = self._call
        # NumPy's own state (the host scalars') in the same context, given back by its own errstate
        self._numpy = np.errstate(**wanted)  # type: ignore[arg-type]
        self._numpy.__enter__()
        self._token = _settings.set(({**modes, **wanted}, callback))

    def __exit__(self, *exc: object) -> None:
        assert self._token is not None  # entered
        _settings.reset(self._token)
        self._numpy.__exit__(*exc)

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """``func`` run inside a fresh copy of these settings per call (so recursive and concurrent calls work)."""
        call, kwargs = self._call, self._kwargs

        @functools.wraps(func)
        def inner(*args: Any, **kw: Any) -> Any:
            with errstate(call=call, **kwargs):
                return func(*args, **kw)

        return inner
