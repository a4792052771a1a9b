"""``Generator.bit_generator``: a view of a kdsl generator's state in the shape of NumPy's bit generators.

kdsl has one bit generator, Philox4x32-10 evaluated by counter inside the kernels: its whole state is a 64-bit
key and the next stream number. :class:`PhiloxCounter` shows them as NumPy's ``bit_generator.state`` dict (a
``'bit_generator'`` name and a ``'state'`` entry) and takes such a dict back, so NumPy code that saves and
restores ``rng.bit_generator.state`` works; ``seed_seq`` is the generator's SeedSequence. NumPy's raw-bit
methods (``random_raw``, ``jumped``, the ctypes/cffi interfaces) are not there: draws happen on the device.

Example:
    >>> import kdsl as kd
    >>> rng = kd.random.default_rng(1)
    >>> saved = rng.bit_generator.state
    >>> a = rng.random(3).numpy()
    >>> rng.bit_generator.state = saved
    >>> bool((rng.random(3).numpy() == a).all()), saved["bit_generator"]
    (True, 'Philox4x32Counter')
"""

from __future__ import annotations

from typing import Any

NAME = "Philox4x32Counter"


class PhiloxCounter:
    """The bit generator of a kdsl :class:`Generator` (module docstring); it reads and writes that generator."""

    def __init__(self, owner: Any) -> None:
        self._owner = owner

    def __repr__(self) -> str:
        return f"{NAME}(key={self._owner._key:#x}, stream={self._owner._stream})"

    @property
    def seed_seq(self) -> Any:
        """The ``numpy.random.SeedSequence`` the generator was seeded from (None for a legacy int seed)."""
        return self._owner._seed_seq

    @property
    def state(self) -> dict:
        """``{'bit_generator': 'Philox4x32Counter', 'state': {'key': int, 'stream': int}}``."""
        return {"bit_generator": NAME, "state": {"key": self._owner._key, "stream": self._owner._stream}}

    @state.setter
    def state(self, value: dict) -> None:
        if not isinstance(value, dict) or value.get("bit_generator") != NAME:
            raise ValueError(f"state must be a dict from a kdsl generator's bit_generator.state "
                             f"(bit_generator {NAME!r}); NumPy's bit generator states do not apply")
        self._owner._key, self._owner._stream = int(value["state"]["key"]), int(value["state"]["stream"])
