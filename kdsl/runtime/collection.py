"""No garbage collection inside kdsl's one-time start-up work (a device's Manager, the in-process compiler, the
FMA probe, a device's engine state).

A collection there runs user finalizers (``__del__``, ``weakref.finalize``) on this thread in the middle of it,
and a finalizer that computes with kdsl re-enters the start-up: it made a second Manager of the device (whose
collection destroyed the first one's objects) or waited forever for a lock its own thread held (the compiler's,
while it loaded glslang). Paused, those finalizers run at the next collection instead.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection inside the block (restored as it was after it; see the module docstring).

    >>> import gc
    >>> with collection_paused():
    ...     gc.isenabled()
    False
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


__all__ = ["collection_paused"]
