"""The kdsl kernel language: ``kd.compute`` (index notation, grammar in ``kdsl.lark``) and the CuPy-style
factories ``kd.elementwise`` / ``kd.reduction``. Built on kdsl's public array API only.

Example:
    >>> import kdsl as kd
    >>> float(kd.compute("s = sum(i, x[i] * x[i])", x=kd.arange(4, dtype=kd.float32)))
    14.0
"""

from kdsl.frontend.lang.compute import KdslError, KdslSyntaxError, compute
from kdsl.frontend.lang.factories import ElementwiseKernel, ReductionKernel, elementwise, reduction

__all__ = ["compute", "KdslError", "KdslSyntaxError", "elementwise", "reduction", "ElementwiseKernel",
           "ReductionKernel"]
