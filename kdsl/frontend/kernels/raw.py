"""``kd.raw_kernel``: run hand-written GLSL on kdsl arrays, with the layout read from the SPIR-V.

The shader is compiled once; :func:`kdsl.codegen.reflect.reflect` tells which storage buffers it binds, what
its push-constant block holds and which specialization constants it has. A call then takes the arrays (one per
binding, in binding order) followed by the push-constant values (in member order), so users pass data, not
layouts. kd Arrays are written in place; NumPy arrays are uploaded and, when the shader may write them, copied
back.

Example (runs as written):

    >>> import numpy as np
    >>> scale = raw_kernel('''
    ... #version 450
    ... layout(local_size_x = 64) in;
    ... layout(set = 0, binding = 0) readonly buffer X { float x[]; };
    ... layout(set = 0, binding = 1) buffer Y { float y[]; };
    ... layout(push_constant) uniform P { float a; uint n; };
    ... void main() {
    ...     uint i = gl_GlobalInvocationID.x;
    ...     if (i < n) y[i] = a * x[i];
    ... }''')
    >>> y = np.zeros(3, np.float32)
    >>> scale(np.array([1, 2, 3], np.float32), y, 2.0, 3, grid=3)
    >>> y
    array([2., 4., 6.], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from kdsl.dtype.checked_values import checked_values
from kdsl.frontend.kernels.launch import (
    AlgorithmCache,
    Binder,
    check_launch,
    groups_for,
    is_kd_array,
    launch_device,
    normalize_grid,
)
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.reflect import ShaderInfo, reflect

__all__ = ["raw_kernel", "RawKernel"]

_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}


class RawKernel:
    """A compiled GLSL compute shader callable on arrays and numbers (see :func:`raw_kernel`)."""

    def __init__(self, source: str, name: str | None = None, entry_point: str | None = None):
        if not isinstance(source, str):
            raise TypeError(f"raw_kernel takes GLSL source text, got {type(source).__name__}")
        self.source = source
        self.name = name or "raw_kernel"
        self.entry_point = entry_point
        self.spirv = compile_source(source)
        self.info: ShaderInfo = reflect(self.spirv, entry_point)
        other_sets = self.info.descriptor_sets - {0}
        if other_sets:
            raise ValueError(f"{self.name}: the shader uses descriptor set(s) {sorted(other_sets)}; raw_kernel binds "
                             "arrays to set 0 only: write layout(set = 0, binding = N)")
        numbers = [b.binding for b in self.info.bindings]
        if numbers != list(range(len(numbers))):
            raise ValueError(f"{self.name}: bindings must be numbered 0, 1, 2... without gaps; found {numbers}")
        for b in self.info.bindings:
            if b.kind != "storage_buffer":
                raise ValueError(f"{self.name}: binding {b.binding} ({b.name}) is a {b.kind}; raw_kernel binds "
                                 "arrays to storage buffers only (use kdsl.kp for images and uniforms)")
        self._algorithms = AlgorithmCache()

    def __reduce__(self) -> tuple[type, tuple[str, str, str | None]]:
        """Pickled by its GLSL source (compiled again where it is unpickled)."""
        return RawKernel, (self.source, self.name, self.entry_point)

    def signature(self) -> str:
        """What a call takes, e.g. ``(X: float32[], Y: float32[], a: float32, n: uint32)``."""
        parts = [f"{b.name or f'binding{b.binding}'}: {b.dtype}[]" for b in self.info.bindings]
        for m in self.info.push_members:
            t = m.type
            parts.append(f"{m.name}: {t.dtype}" + (f"[{t.count}]" if t.kind != "scalar" else ""))
        return "(" + ", ".join(parts) + ")"

    def __call__(self, *args, grid=None, groups=None, spec: dict | None = None) -> None:
        nb = len(self.info.bindings)
        if len(args) != nb + len(self.info.push_members):
            raise TypeError(f"{self.name} takes {nb} array(s) then {len(self.info.push_members)} push constant(s) "
                            f"{self.signature()}, got {len(args)} argument(s)")
        spec_values, local = self._spec(spec or {})
        if (grid is None) == (groups is None):
            raise TypeError(f"{self.name}: give exactly one of grid= (invocations) or groups= (workgroups)")
        count = normalize_grid(groups, "groups") if groups is not None else \
            groups_for(normalize_grid(grid), local)
        device = launch_device(args)
        manager = device.manager
        check_launch(self.name, count, local, manager)
        for b, value in zip(self.info.bindings, args[:nb], strict=False):
            self._check_array(b, value)
        push = self._push(args[nb:])
        if 0 in count:
            return None
        binder = Binder(device)
        binder.bind_all((f"{self.name}: binding {b.binding} ({b.name})", value, not b.readonly)
                        for b, value in zip(self.info.bindings, args[:nb], strict=False))
        key = tuple(spec_values.tolist())
        launch = self._algorithms.get(key, self.spirv, count, spec=spec_values if spec else None)
        binder.run(launch, push)
        return None

    def _check_array(self, b, value) -> None:
        if not (is_kd_array(value) or isinstance(value, np.ndarray)):
            raise TypeError(f"{self.name}: binding {b.binding} ({b.name}) needs an array, got "
                            f"{type(value).__name__}")
        dtype = str(getattr(value.dtype, "name", value.dtype))
        if b.components == 2 and _COMPLEX_PARTS.get(dtype) == b.dtype:
            return  # a complex array is (real, imag) pairs: it binds a vec2/dvec2 buffer as it is
        if b.dtype is not None and dtype != b.dtype:
            raise TypeError(f"{self.name}: binding {b.binding} ({b.name}) holds {b.dtype} but the array is "
                            f"{dtype}; convert it (e.g. x.astype(np.{b.dtype}))")

    def _push(self, values) -> np.ndarray:
        out = bytearray(self.info.push_size + (-self.info.push_size) % 4)
        for m, value in zip(self.info.push_members, values, strict=False):
            count = m.type.count if m.type.kind != "scalar" else 1
            if m.type.dtype is None:
                raise TypeError(f"{self.name}: push constant '{m.name}' has a type raw_kernel cannot fill (a "
                                "struct or matrix); use scalar, vector or array members")
            data = checked_values(value, m.type.dtype, f"{self.name}: push constant '{m.name}'")
            if data.size != count:
                raise TypeError(f"{self.name}: push constant '{m.name}' takes {count} value(s), got {data.size}")
            raw = data.tobytes()
            out[m.offset:m.offset + len(raw)] = raw
        return np.frombuffer(bytes(out), dtype=np.uint32).copy()

    def _spec(self, spec: dict) -> tuple[np.ndarray, tuple[int, int, int]]:
        """Spec constants as one uint32 word per id 0..max (raw bits), and the resulting local size."""
        known = {s.id: s for s in self.info.spec_constants}
        by_name = {s.name: s.id for s in self.info.spec_constants if s.name}
        values = {i: s.default for i, s in known.items()}
        for k, v in spec.items():
            sid = by_name.get(k, k)
            if sid not in known:
                raise KeyError(f"{self.name} has no specialization constant {k!r}; it has "
                               f"{sorted(by_name) or sorted(known)}")
            values[sid] = v
        if known and sorted(known) != list(range(len(known))):
            raise ValueError(f"{self.name}: specialization constant ids must be 0, 1, 2...; found {sorted(known)}")
        words = []
        for i in sorted(known):
            dtype = known[i].dtype
            if dtype not in ("float32", "int32", "uint32", "bool"):
                raise TypeError(f"{self.name}: specialization constant {i} is {dtype}; only 32-bit ones are "
                                "supported by raw_kernel")
            word = np.asarray(values[i], dtype=np.uint32 if dtype == "bool" else dtype).reshape(1)
            words.append(word.view(np.uint32)[0])
        lx, ly, lz = (int(values.get(sid, size)) if sid is not None else size
                      for size, sid in zip(self.info.local_size, self.info.local_size_spec_ids, strict=False))
        return np.array(words, dtype=np.uint32), (lx, ly, lz)


def raw_kernel(source: str, name: str | None = None, entry_point: str | None = None) -> RawKernel:
    """Compile GLSL compute shader ``source`` into a callable: ``k(arrays..., push values..., grid=n)``.

    ``grid`` counts invocations (workgroups = ceil(grid / local size)); ``groups=`` gives workgroups directly;
    ``spec={"NAME": value}`` sets specialization constants by name or id.
    """
    return RawKernel(source, name, entry_point)
