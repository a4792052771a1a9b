"""Pinning Dask workers to Vulkan devices: one worker per device, each using only its own.

A worker is pinned by the ``KDSL_DEVICE`` environment variable (kdsl reads it on every ``kd.device()`` call
outside a ``with kd.device(...)`` block, so every thread of the worker uses that device).
:class:`~kdsl.dask.LocalVulkanCluster` sets it in each worker's environment; workers started by hand
(``dask worker tcp://scheduler:8786 --nworkers 2``, on any machine) pin themselves when the client registers
:class:`DevicePlugin`: each claims the first free *slot* of its host - a lock file that the operating system
releases when the process ends, so a restarted worker gets its slot back - and uses device ``slot % devices``.

Example:
    >>> plugin = DevicePlugin()
    >>> plugin.name
    'kdsl-device'
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from distributed import WorkerPlugin

import kdsl as kd
from kdsl.dask.realiser import enabled, shared

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; workers fall back to their process id
    fcntl = None  # type: ignore[assignment]

_held: list[Any] = []  # the open lock file of this process's slot (kept open: the lock lasts as long as it)
_MAX_SLOTS = 4096


def claim_slot(directory: str | None = None) -> int:
    """The lowest slot number no other live process on this host holds (held until this process ends).

    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> claim_slot(d), claim_slot(d)   # one process holding two slots, as two workers would
    (0, 1)
    >>> release_slots()
    """
    if fcntl is None:
        return os.getpid()
    directory = directory or os.path.join(tempfile.gettempdir(), "kdsl-dask-slots")
    os.makedirs(directory, exist_ok=True)
    for slot in range(_MAX_SLOTS):
        f = open(os.path.join(directory, f"slot-{slot}.lock"), "a")  # noqa: SIM115 - kept open on purpose
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            continue
        _held.append(f)
        return slot
    raise RuntimeError(f"more than {_MAX_SLOTS} Dask workers on this host hold a kdsl device slot "
                       f"(lock files in {directory}); remove stale ones or use fewer workers")


def release_slots() -> None:
    """Give back every slot this process holds (they are also freed when it ends)."""
    while _held:
        _held.pop().close()


def pin(index: int | None = None) -> kd.Device:
    """Pin this process to device ``index`` (default: ``KDSL_DEVICE`` if set, else a free slot of this host)
    and return that device."""
    if index is None:
        env = os.environ.get("KDSL_DEVICE", "").strip()
        index = int(env) if env else claim_slot() % len(kd.devices())
    os.environ["KDSL_DEVICE"] = str(index)
    return kd.device()


class DevicePlugin(WorkerPlugin):
    """A Dask worker plugin that pins each worker to one Vulkan device of its host (see the module docstring).

    ``client.register_plugin(kdsl.dask.DevicePlugin())`` pins every worker, and every worker that joins later.
    ``device=i`` pins them all to device ``i``."""

    name = "kdsl-device"

    def __init__(self, device: int | None = None):
        self.device = device

    def setup(self, worker: Any) -> None:
        dev = pin(self.device)
        worker.kdsl_device = dev.index  # for the dashboard and tests: which device this worker uses
        self._worker = worker

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        """Queue a task's lazy kdsl result for the worker's background :class:`~kdsl.dask.realiser.Realiser`
        when Dask stores it: a lazy array kept there would be recomputed by every task that reads it (a
        persisted chunk, at every step). Computing it here instead would block the worker's event loop, and
        the next task, for as long as the device runs (kdsl.dask.realiser says more)."""
        if finish != "memory":
            return
        value = self._worker.data.get(key)
        if enabled():
            shared().put(value)
        elif isinstance(value, kd.Array):
            kd.realize(value)


async def dask_setup(worker: Any) -> None:
    """Run by Dask on a worker started with ``--preload kdsl.dask`` (as :class:`~kdsl.dask.LocalVulkanCluster`
    starts them): the worker gets :class:`DevicePlugin` (its device from ``KDSL_DEVICE``, else a free slot)."""
    await worker.plugin_add(DevicePlugin(), name=DevicePlugin.name)

