"""Shorter helper bodies on devices whose ``fma`` rounds once.

The portable helpers (:mod:`kdsl.codegen.helpers`) never rely on ``fma``: GLSL lets an implementation compute it
as a multiply and an add, and Mesa's lavapipe does so for ``double``. So their error-free products use Dekker's
split (17 operations), and ``sin``/``cos`` reduce their argument with three of those. Where a probe run on the
device shows that ``fma(a, b, -a * b)`` keeps the product's rounding error (:mod:`kdsl.engine.fma_probe`), the
program's source swaps in the bodies of :data:`kdsl.codegen.trig.FUSED`: the same exact products in two
operations, and Horner steps as ``fma``. Error-free products give identical results either way; the ``fma``
polynomials round differently in the last bit (both within the ulp bounds of tests/precision).

Example:
    >>> from kdsl.codegen.helpers import needed
    >>> src = "void main() { y = kd_sin_f(x); }\\n" + "\\n".join(needed("kd_sin_f(x)"))
    >>> applies(src), "fma(" in src, "fma(" in rewrite(src, frozenset({"f"})), rewrite(src, frozenset()) == src
    (True, False, True, True)
"""

from __future__ import annotations

from kdsl.codegen.helpers import LIBRARY
from kdsl.codegen.precise import exact
from kdsl.codegen.trig import FUSED

WIDTHS = {"f": "float", "d": "double"}
"""The helper-name suffixes a device's fused ``fma`` is probed for, with their GLSL types."""

_SWAPS = {name: (LIBRARY[name], exact(code)) for name, code in FUSED.items()}


def applies(source: str) -> bool:
    """Whether ``source`` holds a helper that has a fused-``fma`` body (only those kernels need the probe)."""
    return any(portable in source for portable, _ in _SWAPS.values())


def rewrite(source: str, widths: frozenset[str]) -> str:
    """``source`` with the helpers of the float widths in ``widths`` (suffixes ``"f"``, ``"d"``) that have a
    fused-``fma`` body using it (unchanged for the others, and where ``widths`` is empty)."""
    for name, (portable, fused) in _SWAPS.items():
        if name.rsplit("_", 1)[1] in widths and portable in source:
            source = source.replace(portable, fused)
    return source
