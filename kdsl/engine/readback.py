"""Downloads replay recorded copies: reading the same buffer into the same host tensor again submits the
command buffer recorded the first time instead of recording a new one.

Recording a one-copy command buffer (reset, begin, barrier, copy, barrier, end, and the sequence's bookkeeping)
cost ~25 us of Python on the H200, half of a 16-float ``x.numpy()``; a replay costs the submission alone. The
cases that read one buffer again are the common ones: a loop printing ``float(loss)``, whose buffer the pool
hands out again each step, and repeated reads of one result.

A device keeps :data:`READBACKS_PER_DEVICE` recorded sequences, least recently used first. A miss re-records the
oldest one (so a miss costs what every download cost before) until there are that many. An entry holds its
source and host tensors, so their ids cannot be reused by other tensors while it exists, and it is replayed only
while both are alive (the pool or the staging cache may have destroyed either since). The copy op here has no
host step after the submission (``OpCopy``'s only one refreshes a ``device`` tensor's staging copy, and the
destination is a ``host`` tensor): that is what lets ``Sequence.eval()`` replay it.

Callers hold the device state's lock (as :func:`kdsl.engine.transfers.download` does).

Example:
    >>> import numpy as np, kdsl as kd
    >>> from kdsl.engine.state import state
    >>> x = kd.asarray(np.arange(4, dtype=np.float32)) * 2
    >>> x.numpy().tolist(), x.numpy().tolist()    # the second read replays the first one's recording
    ([0.0, 2.0, 4.0, 6.0], [0.0, 2.0, 4.0, 6.0])
    >>> len(state(x.device).readbacks) >= 1
    True
"""

from __future__ import annotations

from functools import cache
from typing import Any

READBACKS_PER_DEVICE = 8


@cache
def copy_op() -> type:
    """OpCopy without its host step: a GPU copy into a host-visible tensor (made on first use: building graphs
    must not import the runtime)."""
    from kdsl.runtime import OpCopy

    class ReadbackCopy(OpCopy):
        has_post_eval = False

    return ReadbackCopy


def copy_to_host(st: Any, src: Any, host: Any) -> None:
    """Copy device tensor ``src`` into host tensor ``host`` of the same size and dtype, and wait."""
    key = (id(src), id(host))
    hit = st.readbacks.pop(key, None)
    if hit is not None and not (src._destroyed or host._destroyed):
        seq = hit[0]
        seq.eval()
    else:
        if hit is not None:
            seq = hit[0]
        elif len(st.readbacks) >= READBACKS_PER_DEVICE:
            _, (seq, _, _) = st.readbacks.popitem(last=False)
        else:
            seq = st.device.manager.sequence()
        seq.eval(copy_op()([src, host]))
    st.readbacks[key] = (seq, src, host)  # most recently used last
