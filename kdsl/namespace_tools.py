"""kd's names that are not array functions: devices, cache limits and the buffer pool, explain/profile, shader
compilation, jit, autodiff and pytrees, kd.random, printing and number formatting, vectorize, memory sharing,
host iteration.

Only kdsl/__init__.py imports this module (``from kdsl.namespace_tools import *``): ``kd.<name>`` is
the public spelling, and the names are listed in kdsl's ``__all__``.
"""

# ruff: noqa: F401 - every import here is a re-export

from kdsl.autodiff import (
    custom_vjp,
    grad,
    jvp,
    stop_gradient,
    tree_flatten,
    tree_leaves,
    tree_map,
    tree_structure,
    tree_unflatten,
    value_and_grad,
    vjp,
)
from kdsl.device import Device, device, devices
from kdsl.engine.buffers import empty_cache
from kdsl.engine.explain import explain, stats
from kdsl.engine.profile import profile, profiling
from kdsl.engine.state import cache_limits, set_cache_limits
from kdsl.frontend.array import random
from kdsl.frontend.array.flat_iter import FlatIter as flatiter
from kdsl.frontend.array.float_formatting import format_float_positional, format_float_scientific
from kdsl.frontend.array.iteration import iterable, ndenumerate, ndindex
from kdsl.frontend.array.jit import jit
from kdsl.frontend.array.nditer import nditer
from kdsl.frontend.array.number_strings import base_repr, binary_repr
from kdsl.frontend.array.performance_warning import PerformanceWarning
from kdsl.frontend.array.printing import (
    array2string,
    array_repr,
    array_str,
    get_printoptions,
    printoptions,
    set_printoptions,
)
from kdsl.frontend.array.sharing import may_share_memory, shares_memory
from kdsl.frontend.array.vectorize import frompyfunc, vectorize
from kdsl.runtime.compiler import ShaderCompileError, compile_source
