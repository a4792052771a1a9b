"""One line naming a kernel: its kind and sizes (``kd.explain`` and ``kd.profile`` print it).

Example:
    >>> from kdsl.engine.schedule import schedule
    >>> import kdsl as kd
    >>> describe(schedule([(kd.arange(5.0) * 2)._node])[0].kernel)
    'Elementwise [5]'
"""

from __future__ import annotations

import math

from kdsl.ir.kernels import Attention, Elementwise, Kernel, Matmul, Reduce, RowNorm, Scan


def describe(k: Kernel) -> str:
    """The kernel's kind and the sizes that set its cost."""
    if isinstance(k, Reduce):
        head = f"Reduce {k.op} over axes {list(k.axes)} of {list(k.shape)} ({k.mode} mode"
        head += f", {k.splits} splits)" if k.splits > 1 else ", size-generic)" if k.size_word is not None else ")"
        return head + (" + epilogue" if k.epilogue is not None else "")
    if isinstance(k, RowNorm):
        ops = [op for op, _ in k.stages if op != "let"]
        head = f"RowNorm {'+'.join(ops)} over the rows of {list(k.shape)} ({k.mode} mode"
        return head + (", row in registers)" if k.cache else ")")
    if isinstance(k, Matmul):
        return f"Matmul batch={k.batch} m={k.m} n={k.n} k={k.k}" + (f" ({k.splits} k chunks)" if k.splits > 1 else "")
    if isinstance(k, Scan):
        head = f"Scan cum{k.op} axis {k.axis} of {list(k.shape)}"
        return head + (f" ({'block totals' if k.phase == 'sums' else 'scan'}, blocks of {k.block})" if k.block else "")
    if isinstance(k, Attention):
        mask = " causal" if k.causal else "" if k.mask is None else f" {k.mask.dtype.name} mask"
        return (f"Attention (fused sdpa) batch={math.prod(k.batch)} L={k.l} S={k.s} E={k.e} Ev={k.ev}{mask}"
                f" ({k.block}-key blocks)")
    if isinstance(k, Elementwise) and k.size_word is not None:  # its shape bounds the count it reads
        return f"Elementwise [<= {k.shape[0]}] (size-generic)"
    if isinstance(k, Elementwise):
        return f"Elementwise {list(k.shape)}"
    return type(k).__name__
