"""Seeing inside: :func:`explain` shows the kernel plan of an expression (which ops fused into which kernel)
without running it, and :func:`stats` counts kernels dispatched and compiled.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.ones((4, 4), np.float32))
    >>> print(kd.explain((kd.exp(a) * 2).sum(axis=1)))  # doctest: +ELLIPSIS
    kernel 0: Reduce sum over axes [1] of [4, 4] ... fuses [mul, exp] ...
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from kdsl.engine.describe import describe
from kdsl.engine.lowering import Step
from kdsl.engine.programs import stats as _run_stats
from kdsl.engine.schedule import schedule
from kdsl.ir.graph import Node
from kdsl.ir.kernels import Kernel
from kdsl.runtime import compiler


def stats(reset: bool = False) -> dict:
    """Counters: ``kernels`` dispatched, ``programs`` (distinct kernels built), ``compiled`` (glslang runs),
    ``realizes``, ``replays`` (batches re-run from a recorded command buffer), ``uploads``, ``downloads``.
    ``reset=True`` zeroes them after reading."""
    out = dict(_run_stats)
    out["compiled"] = compiler.stats["compiled"]
    out["compile_cache_hits"] = compiler.stats["memory_hits"] + compiler.stats["disk_hits"]
    if reset:
        for k in _run_stats:
            _run_stats[k] = 0
    return out


def _label(node: Node) -> str:
    if node.op == "reduce":
        return f"{node.arg[0]}{list(node.arg[1])}"
    if node.op == "view":
        return "view"
    if node.op == "cast":
        return f"cast:{node.dtype.name}"
    return node.op


def _describe(k: Kernel, step: Step) -> str:
    out = step.out
    return f"{describe(k)} -> {out.dtype.name}{list(out.shape)}"


def plan(*arrays: Any) -> list[Step]:
    """The kernel steps that realising ``arrays`` would run now."""
    return schedule([a._node for a in arrays])


def explain(*arrays: Any, dot: str | None = None) -> str:
    """The kernel plan of ``arrays`` as text; with ``dot="plan.dot"`` also a Graphviz file (and a PNG next to it
    when the ``dot`` program exists). Nothing is run."""
    steps = plan(*arrays)
    lines = []
    for i, step in enumerate(steps):
        fused = [_label(n) for n in step.fused if n.op not in ("const",)]
        inputs = ", ".join(f"{n.dtype.name}{list(n.shape)}" for n in step.inputs) or "none"
        lines.append(f"kernel {i}: {_describe(step.kernel, step)} fuses [{', '.join(fused)}] "
                     f"reads [{inputs}] push words {len(step.words)}")
    if not steps:
        lines.append("nothing to run: every array is already realised")
    text = "\n".join(lines)
    if dot is not None:
        write_dot(steps, Path(dot))
    return text


def write_dot(steps: list[Step], path: Path) -> None:
    """Graphviz: one cluster per kernel holding the ops fused into it; edges from the buffers it reads."""
    out = ["digraph kdsl {", "  rankdir=LR; node [shape=box, fontname=monospace];"]
    producer: dict[int, int] = {}
    for i, step in enumerate(steps):
        producer[step.out.id] = i
        out.append(f"  subgraph cluster_{i} {{ label=\"kernel {i}: {type(step.kernel).__name__}\";")
        out.append(f"    k{i} [label=\"{step.out.dtype.name}{list(step.out.shape)}\", style=bold];")
        for n in step.fused:
            out.append(f"    n{n.id}_{i} [label=\"{_label(n)}\"];")
        out.append("  }")
        for n in step.inputs:
            src = f"k{producer[n.id]}" if n.id in producer else f"b{n.id}"
            if n.id not in producer:
                out.append(f"  b{n.id} [label=\"buffer {n.dtype.name}{list(n.shape)}\", shape=cylinder];")
            out.append(f"  {src} -> k{i};")
    out.append("}")
    path.write_text("\n".join(out) + "\n")
    exe = shutil.which("dot")
    if exe:
        subprocess.run([exe, "-Tpng", str(path), "-o", str(path.with_suffix(".png"))], check=False,
                       capture_output=True)
