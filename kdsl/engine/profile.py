"""``kd.profile()``: time each kernel that code run inside the block dispatches, to find the slow ones.

While a profile is active in a thread, every kernel that thread dispatches is submitted on its own and waited
for, so its time is the wall time of one submission: the kernel plus a fixed submit-and-wait cost (tens of
microseconds; compare the rows with each other, not with a peer's kernel times). Batched submission, and so
overlap between kernels, is off inside the block, ``kd.jit`` replays included. Custom kernels (``@kd.kernel``,
``kd.raw_kernel``, and so ``kd.linalg``) always run one launch at a time; they are listed by their buffer count
and workgroups. The launches of a ``kd.RawProgram`` (``kd.fft``'s) are timed by GPU timestamps where the device
has them: those rows, labelled "(GPU time)", hold no submit or wait.

Example:
    >>> import kdsl as kd
    >>> x = kd.ones((256, 256))
    >>> with kd.profile() as prof:
    ...     kd.realize((x * 2).sum(axis=1))
    >>> [(name.split()[0], count) for name, count, total_ms in prof.rows()]
    [('Reduce', 1)]
"""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

from kdsl.engine.describe import describe
from kdsl.ir.kernels import Kernel


class _Active(threading.local):
    """The profile active in the thread that reads it. The class default makes the read a plain attribute
    lookup in threads that never set one (``getattr`` with a default raises and catches inside: ~0.5 us on every
    submission)."""

    profile: Profile | None = None


active = _Active()  # .profile: the kd.profile() block active in this thread (engine.submission reads it directly)


class Profile:
    """The kernels timed in a ``with kd.profile()`` block (see the module docstring)."""

    def __init__(self) -> None:
        self.records: list[tuple[str, float]] = []  # (kernel description, ms), in dispatch order

    def add(self, kernel: Kernel, ms: float) -> None:
        self.records.append((describe(kernel), ms))

    def add_custom(self, label: str, ms: float) -> None:
        """A custom kernel's launch (``@kd.kernel``, ``kd.raw_kernel``: kd.fft and kd.linalg use them)."""
        self.records.append((label, ms))

    def rows(self) -> list[tuple[str, int, float]]:
        """(kernel, times run, total ms) per distinct kernel, the most expensive first."""
        count: dict[str, int] = defaultdict(int)
        total: dict[str, float] = defaultdict(float)
        for name, ms in self.records:
            count[name] += 1
            total[name] += ms
        return sorted(((n, count[n], total[n]) for n in count), key=lambda r: -r[2])

    def table(self, top: int = 20) -> str:
        """The ``top`` most expensive kernels as text, with the share of the total each takes."""
        rows = self.rows()
        whole = sum(r[2] for r in rows) or 1.0
        how = "kernel + one submit-and-wait"
        if any(name.endswith("(GPU time)") for name, _ in self.records):
            how += ", or the GPU time where marked"
        lines = [f"{len(self.records)} kernels, {whole:.3f} ms in all (each: {how})",
                 f"{'total ms':>10} {'share':>6} {'runs':>5}  kernel"]
        lines += [f"{t:10.3f} {100 * t / whole:5.1f}% {c:5d}  {n}" for n, c, t in rows[:top]]
        return "\n".join(lines)

    def __enter__(self) -> Profile:
        self._outer = current()
        active.profile = self
        return self

    def __exit__(self, *exc: Any) -> None:
        active.profile = self._outer


def profile() -> Profile:
    """A context manager timing each kernel dispatched in its block (this thread only)."""
    return Profile()


def current() -> Profile | None:
    """The profile active in this thread, if any."""
    return active.profile


def profiling() -> bool:
    """``kd.profiling()``: whether a ``kd.profile()`` block is active in this thread. Code that replays recorded
    launches as one submission (kd.linalg) runs them one by one instead then, so that the profile times each.

    >>> import kdsl as kd
    >>> with kd.profile():
    ...     kd.profiling()
    True
    """
    return current() is not None
