"""Answers about a device that only running a kernel on it gives, worked out once per device and process and kept
in kdsl's cache folder (one JSON file per question, keyed by the device's name, UUID, vendor and driver
version), so a new process skips the probe's pipelines. An answer is a set of names (the float widths whose
``fma`` is fused: :mod:`kdsl.engine.fma_probe`; the float16 conversions that round exactly:
:mod:`kdsl.engine.half_probe`).

Example:
    >>> import kdsl as kd
    >>> answer("doc_example", kd.device(), lambda device: frozenset({"yes"}))
    frozenset({'yes'})
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import numpy as np

import kdsl.runtime as rt
from kdsl.runtime.collection import collection_paused
from kdsl.runtime.compiler import cache_dir, write_cache_file

Answer = frozenset[str]

_known: dict[tuple[str, int, str], Answer] = {}
_lock = threading.Lock()


def _new_lock_after_fork() -> None:
    """A parent thread may have been probing (holding the lock) at fork time: the child, whose first kernel
    needing an answer takes the lock, would wait for it forever. The answers found so far stay valid (the
    child runs on the same hardware and driver)."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_new_lock_after_fork)


def answer(question: str, device: Any, probe: Callable[[Any], Answer]) -> Answer:
    """``probe(device)``'s answer to ``question``, computed once per device in this process."""
    key = (question, device.index, device.name)
    found = _known.get(key)
    if found is None:
        with _lock, collection_paused():  # a finalizer computing with kdsl would wait for _lock
            found = _known.get(key)
            if found is None:
                found = _known[key] = probe(device)
    return found


def remembered(question: str, device: Any, allowed: Collection[str], run: Callable[[Any], Answer]) -> Answer:
    """The answer kept in ``<cache>/<question>.json`` for this device and driver when it is one of ``allowed``'s
    subsets; otherwise ``run(device)``'s, saved there (the file is written whole: the last writer wins, and a lost
    or damaged entry is only probed again)."""
    key = identity(device)
    saved = _saved(question).get(key)
    if isinstance(saved, list) and set(saved) <= set(allowed):
        return frozenset(saved)
    found = run(device)
    entries = _saved(question)
    entries[key] = sorted(found)
    write_cache_file(_file(question), json.dumps(entries).encode())
    return found


def run_once(device: Any, values: np.ndarray, spirv: bytes, groups: int, push: np.ndarray | None = None
             ) -> np.ndarray:
    """``values`` after one dispatch of ``spirv`` (``groups`` workgroups along x) that reads and writes them as
    its binding 0: a probe's kernel, run outside kdsl's plans and caches."""
    mgr = device.manager
    data = mgr.tensor_t(values.copy())
    algo = mgr.algorithm([data], spirv, workgroup=(groups, 1, 1), push_consts=push)
    try:
        seq = mgr.sequence()
        seq.record(rt.OpSyncDevice([data])).record(rt.OpAlgoDispatch(algo)).record(rt.OpSyncLocal([data]))
        seq.eval()
        seq.destroy()
        return np.array(data.data())
    finally:
        algo.destroy()
        data.destroy()


def identity(device: Any) -> str:
    """The key of a device's answers: what changes when the hardware or the driver does."""
    info = device.info
    return "|".join(str(info.get(k)) for k in ("device_name", "device_uuid", "vendor_id", "driver_version",
                                                "api_version"))


def _file(question: str) -> Path:
    return cache_dir() / f"{question}.json"


def _saved(question: str) -> dict[str, Any]:
    """The answers kept on disk (nothing when the file is missing, unreadable or not a JSON object)."""
    try:
        saved = json.loads(_file(question).read_text())
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}
