"""SPIR-V float controls added to a compiled module: keep signed zeros, inf and NaN, and subnormals.

Without ``SignedZeroInfNanPreserve`` a driver may assume no NaN, inf or -0.0 occurs (NVIDIA's compiler turns
``cosh(inf + inf j)`` into ``inf + nan j`` and ``arctan`` of ``+0 j`` into ``-0 j``); without ``DenormPreserve``
it may flush subnormals. NumPy keeps them all. The modes are added to the binary rather than written in GLSL:
glslang's ``spirv_execution_mode`` keeps one width per mode, and a kernel may use float and double.

A mode is valid only for the widths a device reports (``VkPhysicalDeviceFloatControlsProperties``, in
``list_devices()[i]["float_controls"]``); :func:`add_float_controls` adds it for the widths of the module's
``OpTypeFloat`` types among those. kdsl's generated kernels get them (``kdsl.engine.programs``), and so do
``@kd.kernel`` functions (their math must match the array API's bit for bit); GLSL a user compiles
(``kd.raw_kernel``, ``kp.Algorithm``) runs as compiled: the user's SPIR-V is not rewritten behind their back
(add the modes in GLSL with ``GL_EXT_spirv_intrinsics``, or call this function).

Example:
    >>> from kdsl.runtime.compiler import compile_source
    >>> spirv = compile_source("#version 450\\nlayout(local_size_x=1) in;\\n"
    ...                        "layout(binding=0) buffer B { float x[]; };\\nvoid main() { x[0] = -x[1]; }")
    >>> float_modes(add_float_controls(spirv, (16, 32, 64), (32,)))
    {4461: [32], 4459: [32]}
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np

_OP_EXTENSION, _OP_ENTRY_POINT, _OP_EXECUTION_MODE, _OP_CAPABILITY, _OP_TYPE_FLOAT = 10, 15, 16, 17, 22
_OP_FUNCTION = 54
SIGNED_ZERO_INF_NAN_PRESERVE, DENORM_PRESERVE, ROUNDING_RTE = 4461, 4459, 4462
_CAPABILITY = {SIGNED_ZERO_INF_NAN_PRESERVE: 4466, DENORM_PRESERVE: 4464, ROUNDING_RTE: 4467}
_EXTENSION = "SPV_KHR_float_controls"


def _instructions(words: np.ndarray) -> list[tuple[int, int, int]]:
    """``(position, word count, opcode)`` of each instruction after the header, up to the first function:
    capabilities, extensions, entry points, execution modes and types all come before it (SPIR-V's logical
    layout), and a kernel with the math helpers is mostly function bodies (the walk was ~100 ms of a first
    launch on lavapipe)."""
    out, at = [], 5
    head = words.tolist()
    while at < len(head):
        count, opcode = head[at] >> 16, head[at] & 0xFFFF
        if opcode == _OP_FUNCTION:
            break
        out.append((at, count, opcode))
        at += max(count, 1)
    return out


def _string_words(text: str) -> list[int]:
    raw = text.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    return [int(w) for w in np.frombuffer(raw, dtype="<u4")]


def _denorm_widths(supported: set[int], used: set[int], independence: str) -> set[int]:
    """The widths that get DenormPreserve: Vulkan wants one denormal mode for all widths (``"none"``) or for
    16 and 64 bits together (``"32_bit_only"``), so a group of used widths gets it only if all of it can."""
    groups = {"all": [{16}, {32}, {64}], "32_bit_only": [{32}, {16, 64}]}.get(independence, [{16, 32, 64}])
    out: set[int] = set()
    for g in groups:
        if g & used and g & used <= supported:
            out |= g & used
    return out


def add_float_controls(spirv: bytes, signed_zero_inf_nan: Iterable[int] = (),
                       denorm_preserve: Iterable[int] = (), denorm_independence: str = "all",
                       rounding_rte: Iterable[int] = ()) -> bytes:
    """``spirv`` with ``SignedZeroInfNanPreserve``, ``DenormPreserve`` and ``RoundingModeRTE`` for each float
    width it declares that is listed (the device's supported widths; ``denorm_independence`` is the device's
    ``denormBehaviorIndependence``: ``"all"``, ``"32_bit_only"`` or ``"none"``), their capabilities and
    ``SPV_KHR_float_controls``; unchanged when there is nothing to add or the module sets a float-controls mode
    already. (Round to nearest even is what every float op means already; kdsl's own kernels ask for none.)"""
    words = np.frombuffer(spirv, dtype="<u4")
    ins = _instructions(words)
    widths = {int(words[at + 2]) for at, _, op in ins if op == _OP_TYPE_FLOAT}
    if any(op == _OP_EXECUTION_MODE and int(words[at + 2]) in _CAPABILITY for at, _, op in ins):
        return spirv
    entries = [int(words[at + 2]) for at, _, op in ins if op == _OP_ENTRY_POINT]
    denorm = _denorm_widths(set(denorm_preserve), widths, denorm_independence)
    modes = [(mode, w) for mode, ws in ((SIGNED_ZERO_INF_NAN_PRESERVE, set(signed_zero_inf_nan) & widths),
                                        (DENORM_PRESERVE, denorm), (ROUNDING_RTE, set(rounding_rte) & widths))
             for w in sorted(ws)]
    if not modes or not entries:
        return spirv
    have_caps = {int(words[at + 1]) for at, _, op in ins if op == _OP_CAPABILITY}
    caps = [c for c in dict.fromkeys(_CAPABILITY[m] for m, _ in modes) if c not in have_caps]
    has_ext = any(op == _OP_EXTENSION and words[at + 1:at + c].tobytes().split(b"\0")[0] == _EXTENSION.encode()
                  for at, c, op in ins)
    last_cap = max(at + c for at, c, op in ins if op == _OP_CAPABILITY)
    last_mode = max((at + c for at, c, op in ins if op == _OP_EXECUTION_MODE),
                    default=max(at + c for at, c, op in ins if op == _OP_ENTRY_POINT))
    head = [((2 << 16) | _OP_CAPABILITY, c) for c in caps]
    ext = [] if has_ext else _string_words(_EXTENSION)
    new_caps = [w for pair in head for w in pair] + ([((1 + len(ext)) << 16) | _OP_EXTENSION, *ext] if ext else [])
    new_modes = [w for e in entries for m, width in modes for w in ((4 << 16) | _OP_EXECUTION_MODE, e, m, width)]
    out = np.concatenate([words[:last_cap], np.array(new_caps, dtype="<u4"), words[last_cap:last_mode],
                          np.array(new_modes, dtype="<u4"), words[last_mode:]])
    return out.astype("<u4").tobytes()


def float_modes(spirv: bytes) -> dict[int, list[int]]:
    """The float-controls execution modes of ``spirv``: ``{mode: [widths]}`` (4461 SignedZeroInfNanPreserve,
    4459 DenormPreserve, 4462 RoundingModeRTE)."""
    words = np.frombuffer(spirv, dtype="<u4")
    out: dict[int, list[int]] = {}
    for at, _, op in _instructions(words):
        if op == _OP_EXECUTION_MODE and int(words[at + 2]) in _CAPABILITY:
            out.setdefault(int(words[at + 2]), []).append(int(words[at + 3]))
    return out


@functools.lru_cache(maxsize=512)
def with_float_controls(spirv: bytes, controls: tuple) -> bytes:
    """:func:`add_float_controls` with a device's ``controls`` (``Device.float_controls``: the supported widths
    of both modes and the denormal independence), cached: a kernel launched again costs a dictionary lookup."""
    return add_float_controls(spirv, *controls)
