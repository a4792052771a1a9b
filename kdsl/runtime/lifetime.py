"""The one rule every runtime object that owns Vulkan objects follows: ``destroy()`` is idempotent, and it also
runs when the object is garbage-collected."""

from __future__ import annotations


class Destroyable:
    """Base of Manager, Memory, Algorithm and Sequence."""

    def destroy(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __del__(self):
        try:
            self.destroy()
        except Exception:  # pragma: no cover - interpreter shutdown: modules may already be gone
            pass
