"""``@kd.kernel``: GPU kernels written as Python functions (Numba/CUDA style), no GLSL, no build step.

The body is translated from Python's AST to GLSL on the first call for each combination of argument dtypes,
array ranks and ``kd.constexpr`` values, compiled to SPIR-V and cached. Kernels write into the arrays they
are given and return nothing. The grid is the number of invocations per axis; invocations past it do nothing
(unless the kernel uses ``kd.barrier()``: then it must guard itself, see docs/kernels.md).

Example (in a .py file; kernels need readable source):

    import numpy as np, kdsl as kd

    @kd.kernel
    def saxpy(a: kd.f32, x: kd.f32[:], y: kd.f32[:]):
        i = kd.global_id(0)
        y[i] = a * x[i] + y[i]

    x, y = np.arange(4, dtype=np.float32), np.ones(4, np.float32)
    saxpy[4](2.0, x, y)          # or saxpy(2.0, x, y, grid=4); y is now [1, 3, 5, 7]
"""

from __future__ import annotations

import functools
import inspect
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import ArrayType, DType
from kdsl.dtype.checked_values import checked_values
from kdsl.engine.programs import for_device
from kdsl.frontend.kernels.ast import lower
from kdsl.frontend.kernels.errors import KernelSyntaxError, KernelTypeError
from kdsl.frontend.kernels.func import Func, func
from kdsl.frontend.kernels.glsl import cast, glsl_type, push_layout, render
from kdsl.frontend.kernels.ir import ArrayRef, Expr, KernelProgram, PushField
from kdsl.frontend.kernels.launch import (
    AlgorithmCache,
    Binder,
    check_launch,
    device_features,
    groups_for,
    is_kd_array,
    launch_device,
    normalize_grid,
)
from kdsl.frontend.kernels.source import FunctionSource, function_from_state, function_state
from kdsl.frontend.kernels.types import Constexpr, as_kernel_dtype
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.float_controls import with_float_controls

__all__ = ["kernel", "func", "Kernel", "Func", "KernelSyntaxError", "KernelTypeError"]

_DEFAULT_BLOCKS = {1: (64, 1, 1), 2: (8, 8, 1), 3: (4, 4, 4)}


@dataclass
class Compiled:
    """One specialisation of a kernel: its program, GLSL and SPIR-V."""

    program: KernelProgram
    glsl: str
    spirv: bytes
    params: list[tuple]  # (name, kind, dtype, extra) in signature order


def _scalar_dtype(value: Any, annotation: Any) -> DType:
    if isinstance(annotation, DType):
        return annotation.value
    if isinstance(value, (bool, np.bool_)):
        return dt.bool_
    if isinstance(value, np.generic):
        return dt.as_dtype(value.dtype).value
    if isinstance(value, int):
        if -(2 ** 31) <= value < 2 ** 31:
            return dt.int32
        if -(2 ** 63) <= value < 2 ** 64:
            return dt.int64 if value < 2 ** 63 else dt.uint64
        raise OverflowError(f"{value} is too large for any kernel integer type (int64 or uint64); pass a float "
                            "or split it")
    return dt.float32


# lavapipe (Mesa's CPU driver) ends a shader invocation's loops after about this many iterations in total
# (nested loops count together); other device types have no such cap that kdsl knows of.
_LOOP_BUDGET = {"cpu": 65535}


def loop_budget(properties: dict) -> int | None:
    """The total loop iterations one invocation may run on this device, when the device type has a known cap.

    >>> loop_budget({"device_type": "cpu"}), loop_budget({"device_type": "discrete_gpu"})
    (65535, None)
    """
    return _LOOP_BUDGET.get(properties.get("device_type", ""))


def check_loops(name: str, program: KernelProgram, properties: dict) -> None:
    """RuntimeWarning when the kernel's constant-bound loops provably run past the device's loop budget."""
    budget = loop_budget(properties)
    if budget is not None and program.loop_trips > budget:
        warnings.warn(f"kernel {name}: its loops run {program.loop_trips} iterations per invocation, over the "
                      f"about {budget} that {properties.get('device_name', 'this device')} "
                      f"({properties.get('device_type')}) runs before it stops a loop early (nested loops "
                      "count together): results would be wrong; split the work over more invocations or launches",
                      RuntimeWarning, stacklevel=4)


def _classify(name: str, value: Any, annotation: Any) -> tuple:
    """``(name, kind, dtype, extra)``: kind is array (extra = ndim), scalar or const (extra = value)."""
    if isinstance(annotation, Constexpr):
        try:
            hash(value)
        except TypeError:
            raise TypeError(f"kd.constexpr argument '{name}' must be hashable (a number, bool or tuple), "
                            f"got {type(value).__name__}") from None
        return (name, "const", None, value)
    if is_kd_array(value) or isinstance(value, np.ndarray):
        try:
            dtype = as_kernel_dtype(value.dtype)
        except ValueError:
            raise TypeError(f"argument '{name}' has dtype {value.dtype}, which kernels do not support") from None
        ndim = len(value.shape)
        if ndim == 0:
            raise TypeError(f"argument '{name}' is a 0-d array; pass a Python scalar or a 1-element array")
        if isinstance(annotation, ArrayType) and (annotation.dtype, annotation.ndim) != (dtype, ndim):
            raise TypeError(f"argument '{name}' is annotated {annotation!r} but got a {ndim}-d {dtype.name} "
                            f"array; convert it (e.g. x.astype(np.{annotation.dtype.name}))")
        if isinstance(annotation, DType):
            raise TypeError(f"argument '{name}' is annotated as the scalar {annotation!r} but got an array")
        return (name, "array", dtype, ndim)
    if isinstance(value, np.generic) and value.dtype.kind not in "biuf":
        raise TypeError(f"argument '{name}' is a {value.dtype} scalar, which kernels do not support; pass a "
                        "bool, int or float")
    if isinstance(value, (bool, int, float, np.generic)):
        if isinstance(annotation, ArrayType):
            raise TypeError(f"argument '{name}' is annotated {annotation!r} but got the scalar {value!r}")
        return (name, "scalar", _scalar_dtype(value, annotation), None)
    raise TypeError(f"argument '{name}' is a {type(value).__name__}; kernels take kd arrays, NumPy arrays and "
                    "numbers (convert lists with np.asarray)")


class Kernel:
    """A ``@kd.kernel`` function. Launch with ``k[grid](*args)`` or ``k(*args, grid=..., block=...)``;
    inspect the generated shader with ``k.glsl(*args)``."""

    def __init__(self, fn: Callable[..., Any], block: Any = None):
        if not inspect.isfunction(fn):
            raise TypeError(f"@kd.kernel decorates a Python function, not {type(fn).__name__}")
        self.fn = fn
        self.block = None if block is None else normalize_grid(block, "block")
        self.signature = inspect.signature(fn)
        self._variants: dict[tuple, Compiled] = {}
        self._algorithms = AlgorithmCache()
        functools.update_wrapper(self, fn)

    @functools.cached_property
    def src(self) -> FunctionSource:
        """The function's source and AST, read on first use (decorating stays cheap)."""
        return FunctionSource(self.fn)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any], Any]]:
        """Pickled by source (the function's text and the values of the names it reads), so a kernel defined in
        a script or notebook reaches Dask workers and ``multiprocessing`` children; compiled on first use there."""
        return _unpickle_kernel, (function_state(self.fn), self.block)

    def __getitem__(self, launch: Any) -> Callable[..., None]:
        """``k[grid]`` or ``k[grid, block]`` with grid/block ints or tuples: a launcher to call."""
        grid, block = launch, None
        if isinstance(launch, tuple) and len(launch) == 2 and all(isinstance(x, tuple) for x in launch):
            grid, block = launch
        return functools.partial(self.__call__, grid=grid, block=block)

    def __call__(self, *args: Any, grid: Any = None, block: Any = None, **kwargs: Any) -> None:
        if grid is None:
            raise TypeError(f"{self.fn.__name__}: give the launch grid, as {self.fn.__name__}[n](...) or "
                            f"{self.fn.__name__}(..., grid=n)")
        grid3 = normalize_grid(grid)
        device = launch_device((*args, *kwargs.values()))
        manager = device.manager
        params, values = self._bind(args, kwargs)
        block3 = self._block(block, grid)
        groups = groups_for(grid3, block3)
        check_launch(self.fn.__name__, groups, block3, manager)
        variant = self._variant(params, block3, device_features(manager), device)
        if variant.program.loop_trips:
            check_loops(self.fn.__name__, variant.program, manager.get_device_properties())
        push = self._push(variant, params, values, grid3)
        if 0 in grid3:
            return None
        binder = Binder(device)
        arrays = {a.name: a for a in variant.program.buffers}
        binder.bind_all((f"argument '{name}'", value, arrays[name].written)
                        for (name, kind, _, _), value in zip(params, values, strict=False) if kind == "array")
        key = (tuple(params), block3)
        # the array API's float controls too: both faces compute bit-identical results
        launch = self._algorithms.get(key, with_float_controls(variant.spirv, device.float_controls), groups)
        binder.run(launch, push)
        return None

    def glsl(self, *args: Any, grid: Any = None, block: Any = None, features: set[str] | None = None,
             **kwargs: Any) -> str:
        """The GLSL source this kernel compiles to for these arguments (nothing runs)."""
        params, _ = self._bind(args, kwargs)
        return self._variant(params, self._block(block, grid or 1), features).glsl

    # ----- internals ----------------------------------------------------------------------------------
    def _bind(self, args: tuple, kwargs: dict[str, Any]) -> tuple[list[tuple], list]:
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{self.fn.__name__}(): {exc}") from None
        bound.apply_defaults()
        annotations = inspect.get_annotations(self.fn, eval_str=True)
        params = [_classify(n, v, annotations.get(n)) for n, v in bound.arguments.items()]
        return params, list(bound.arguments.values())

    def _block(self, block: Any, grid: Any) -> tuple[int, int, int]:
        if block is not None:
            b = normalize_grid(block, "block")
        elif self.block is not None:
            b = self.block
        else:
            rank = len(grid) if isinstance(grid, (tuple, list)) else 1
            b = _DEFAULT_BLOCKS[max(1, min(rank, 3))]
        if 0 in b:
            raise ValueError(f"block sizes must be positive, got {block!r}")
        return b

    def _variant(self, params: list[tuple], block: tuple[int, int, int], features: set[str] | None,
                 device: Any = None) -> Compiled:
        key = (tuple(params), block, None if device is None else device.index)
        variant = self._variants.get(key)
        if variant is None:
            variant = self._compile(params, block, features, device)
            self._variants[key] = variant
            if os.environ.get("KDSL_DEBUG"):
                print(f"[kdsl] kernel {self.fn.__name__}{tuple(p[2] or p[3] for p in params)}:\n{variant.glsl}")
        return variant

    def _compile(self, params: list[tuple], block: tuple[int, int, int], features: set[str] | None,
                 device: Any) -> Compiled:
        program = KernelProgram(self.fn.__name__, block)
        program.push += [PushField(f"grid_{a}", dt.uint32, ("grid", i)) for i, a in enumerate("xyz")]
        env: dict[str, tuple] = {}
        binding = 0
        for name, kind, dtype, extra in params:
            if kind == "array":
                array = ArrayRef(name, dtype, extra, "buffer", binding=binding)
                binding += 1
                program.arrays.append(array)
                env[name] = ("array", array)
                feature = dtype.feature
                if feature and features is not None and feature not in features:
                    raise TypeError(f"argument '{name}' holds {dtype.name}, which needs the device feature "
                                    f"'{feature}' this device lacks; convert it (e.g. to float32 or int32)")
            elif kind == "scalar":
                env[name] = ("var", dtype)
                program.push.append(PushField(f"p_{name}", dt.uint32 if dtype is dt.bool_ else dtype,
                                              ("scalar", name)))
            else:
                env[name] = ("const", extra)
        lw = lower(self.src, program, env, features)
        scalars = [n for n, k, _, _ in params if k == "scalar"]
        for name in scalars:
            field = next(f for f in program.push if f.source == ("scalar", name))
            value = cast(Expr(f"pc.{field.name}", field.dtype), lw.locals[name])
            program.prologue.append(f"{glsl_type(lw.locals[name])} v_{name} = {value.code};")
        program.locals = {n: t for n, t in lw.locals.items() if n not in scalars}
        program.body = lw.lines
        glsl = render(program)
        if device is not None:  # the helper bodies array kernels get on this device: both faces compute the same
            glsl = for_device(glsl, device)
        return Compiled(program, glsl, compile_source(glsl), params)

    def _push(self, variant: Compiled, params: list[tuple], values: list, grid3: tuple[int, int, int]) -> np.ndarray:
        fields = push_layout(variant.program)
        by_name = {p[0]: v for p, v in zip(params, values, strict=False)}
        out = bytearray()
        for f in fields:
            source = f.source
            if source[0] == "grid":
                value = grid3[source[1]]
            elif source[0] == "shape":
                value = by_name[source[1]].shape[source[2]]
            else:
                value = by_name[source[1]]
            what = f"argument '{source[1]}'" if source[0] == "scalar" else f"grid size {value}"
            out += checked_values(value, f.dtype.name, what).tobytes()
        return np.frombuffer(bytes(out), dtype=np.uint32).copy()


def kernel(fn: Callable[..., Any] | None = None, *, block: Any = None) -> Any:
    """Decorator: compile a Python function into a GPU kernel (see the module docstring).

    ``block`` sets the default workgroup size (local size), e.g. ``@kd.kernel(block=(16, 16))``.
    """
    if fn is None:
        return lambda f: Kernel(f, block)
    return Kernel(fn, block)


def _unpickle_kernel(state: dict[str, Any], block: Any) -> Kernel:
    return Kernel(function_from_state(state), block)
