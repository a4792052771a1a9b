"""What a Sequence holds, declared once for the parts its methods live in (recording, evaluation, the fence
wait), and the two reads they share: the ops of the open command buffer and the check that it may be touched.

Example:
    >>> import kdsl.kp as kp
    >>> seq = kp.Manager().sequence()
    >>> seq._batch, seq.is_recording()
    ([], False)
"""

from __future__ import annotations

import threading
from typing import Any

from . import lifetime
from .lifetime import Destroyable
from .ops import OpBase


class SequenceState(Destroyable):
    """The attributes of a Sequence (set by ``Sequence.__init__`` and ``sequence_resources.create``)."""

    # Set by sequence_resources.create: the command buffer and the structs of the hot path.
    _cmds: Any
    _cmd: Any
    _submit: Any
    _begin_info: Any
    _dev: Any
    _ctx: Any
    _queue: Any
    _id: int
    _weak: Any
    _ops: list[OpBase]
    _batch_start: int
    _replayable: bool
    _pre: list[OpBase]
    _post: list[OpBase]
    _deps: list
    _checked: int
    _record_checked: int
    _recording: bool
    _running: bool
    _pending: bool
    _resume: bool  # the running batch is a synchronous eval()'s, whose wait was interrupted
    _evaluated: bool
    _destroyed: bool
    _n_timestamps: int
    _pool: Any
    _fence: Any
    _query_pool: Any
    _fence_pair: list[Any]
    _fences: Any
    _stale: Any
    _busy: threading.RLock
    _destroying: bool
    _fence_lock: threading.Lock

    def _check_idle(self, action: str) -> None:
        self._ctx.check_usable()
        if self._destroyed:
            why = self._ctx.destroyed_why("")
            raise lifetime.destroyed_error(f"cannot {action}: this sequence was destroyed{': ' + why if why else ''}")
        if self._pending:
            if self._resume:  # a synchronous eval() interrupted in its wait (KeyboardInterrupt): finish it now
                self.eval_await()  # type: ignore[attr-defined]
                return
            raise RuntimeError(f"cannot {action} while the sequence is running; call eval_await() first")

    @property
    def _batch(self) -> list[OpBase]:
        """The ops in the current command buffer."""
        return self._ops[self._batch_start:]
