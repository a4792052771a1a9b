"""kdsl with Dask: ``dask.array`` with kdsl chunks, one worker per GPU, the same code on a laptop and a cluster.

Needs the optional extra: ``pip install kdsl[dask]``. See docs/scale-out.md.

* :func:`from_array`, :func:`from_numpy`, :func:`from_chunks`, :func:`to_numpy`, :func:`meta`,
  :func:`chunk_bytes`: Dask arrays of kdsl chunks
  (``dask.array`` operations on them run on the device through NumPy's protocols; ``compute()`` returns a kdsl
  array, ``to_numpy(x).compute()`` a NumPy one).
* :class:`LocalVulkanCluster` / :func:`local_cluster`: one ``dask.distributed`` worker process per device.
* :class:`DevicePlugin` / :func:`pin`: workers started by hand pin themselves to a device of their host.
* :class:`Realiser` / :func:`flush`: the lazy kdsl results Dask stores are computed on a background thread, in
  batches, while the next tasks run (:mod:`kdsl.dask.realiser`).

Importing this module registers kdsl's chunk type with Dask (:func:`register`).
"""

from kdsl.dask.chunks import chunk_bytes, from_array, from_chunks, from_numpy, meta, register, to_numpy
from kdsl.dask.cluster import LocalVulkanCluster, local_cluster
from kdsl.dask.plugin import DevicePlugin, claim_slot, dask_setup, pin
from kdsl.dask.realiser import Realiser, TaskResults, flush

register()

__all__ = ["from_array", "from_numpy", "from_chunks", "chunk_bytes", "to_numpy", "meta", "register",
           "LocalVulkanCluster", "local_cluster", "DevicePlugin", "pin", "claim_slot", "dask_setup", "Realiser",
           "TaskResults", "flush"]
