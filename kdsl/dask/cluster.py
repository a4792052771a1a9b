"""A Dask cluster on this machine with one worker process per Vulkan device (dask-cuda's ``LocalCUDACluster``,
for every vendor's GPU).

Each worker process gets ``KDSL_DEVICE=<its device>`` in its environment and imports :mod:`kdsl.dask` first
(``preload``), so its chunks and kernels live on its own device. With more workers than devices they share
devices round-robin (useful on a one-GPU machine, or in CI on lavapipe).

Example (not run here: starting processes takes seconds):

    from dask.distributed import Client
    import kdsl.dask as kdd

    with kdd.local_cluster() as cluster, Client(cluster) as client:
        x = kdd.from_array(data, chunks=(100_000, 64))
        print(x.sum().compute())
"""

from __future__ import annotations

import copy
from typing import Any

from distributed import LocalCluster

import kdsl as kd


class LocalVulkanCluster(LocalCluster):
    """A ``distributed.LocalCluster`` of worker processes pinned to Vulkan devices.

    ``n_workers`` defaults to the number of devices (``kd.devices()``); ``devices`` (indices) restricts the
    devices used; worker ``i`` uses ``devices[i % len(devices)]``. Other keyword arguments go to
    ``LocalCluster`` (``threads_per_worker`` defaults to 1: a device runs one submission at a time anyway, and
    Dask overlaps the next task's host work with it through the other workers)."""

    def __init__(self, n_workers: int | None = None, devices: list[int] | None = None, *,
                 threads_per_worker: int = 1, **kwargs: Any):
        if kwargs.get("processes") is False:
            raise ValueError("LocalVulkanCluster pins one worker *process* per device; for threads in this "
                             "process use dask's threaded scheduler with `with kd.device(i):` instead")
        self.kdsl_devices = list(range(len(kd.devices()))) if devices is None else [int(i) for i in devices]
        if not self.kdsl_devices:
            raise ValueError("LocalVulkanCluster needs at least one device index")
        n = len(self.kdsl_devices) if n_workers is None else int(n_workers)
        kwargs.setdefault("dashboard_address", None)
        kwargs.setdefault("preload", ["kdsl.dask"])
        # Chunks live in device memory, but Dask counts them (their nbytes, see chunks.py) against the worker's
        # *host* memory limit and would pause the worker or spill chunks through the host: no host limit.
        kwargs.setdefault("memory_limit", 0)
        super().__init__(n_workers=0, threads_per_worker=threads_per_worker, processes=True, **kwargs)
        self.scale(n)
        if not self.asynchronous:
            self.sync(self._correct_state)

    def device_of(self, name: int) -> int:
        """The device index worker ``name`` (0, 1, ...) is pinned to."""
        return self.kdsl_devices[name % len(self.kdsl_devices)]

    def new_worker_spec(self) -> dict[int, dict[str, Any]]:
        name = min(set(range(len(self.worker_spec) + 1)) - set(self.worker_spec))
        spec = copy.deepcopy(self.new_spec)
        options = spec["options"]
        options["env"] = {**options.get("env", {}), "KDSL_DEVICE": str(self.device_of(name))}
        return {name: spec}


def local_cluster(n_workers: int | None = None, **kwargs: Any) -> LocalVulkanCluster:
    """A :class:`LocalVulkanCluster`: one worker process per Vulkan device (or ``n_workers`` round-robin)."""
    return LocalVulkanCluster(n_workers, **kwargs)
