"""Whether a Python function is provably pure element-wise arithmetic, judged from its bytecode without calling it.

``kd.piecewise`` calls each function as NumPy does, ``f(x[cond])``, once per condition that selects something:
that needs the selection's size read from the device, and the function then sees a compacted copy. A function
that is only arithmetic on its arguments (``lambda v: v * v``, ``lambda t: 1 - np.abs(t) * k + np.pi``) has no
side effects and gives at each place what it gives for the whole array, so calling it once on the whole of ``x``
and keeping the selected places is the same answer with nothing observable changed (no call count to match) and
stays lazy. Anything this reader cannot prove pure (a call of anything but a ufunc, an attribute of an argument,
a store, a loop...) is called as NumPy calls it.

The proof is a small abstract run of the code object's instructions: the stack holds the values it can name
(modules ``numpy``/``kdsl``, ufuncs, numbers) or "an array value"; a ufunc may be called with at most ``nin``
positional arguments (a further one would be ``out=``, a write).

Example:
    >>> import numpy as np
    >>> is_pure_elementwise(lambda v: 1 - np.abs(v) * 2), is_pure_elementwise(lambda v: v - v.mean())
    (True, False)
"""

from __future__ import annotations

import builtins
import dis
import numbers
import sys
import types
from typing import Any

import numpy as np

from kdsl.frontend.array.ufunc_methods import Ufunc

_VALUE = object()  # an array or number computed from the arguments
_NULL = object()  # the interpreter's NULL slot before a callable
_NO_OPS = {"RESUME", "NOP", "CACHE", "COPY_FREE_VARS", "PRECALL", "MAKE_CELL"}
_UNARY = {"UNARY_NEGATIVE", "UNARY_INVERT", "UNARY_POSITIVE"}
# Python 3.10's binary operators (3.11 on: BINARY_OP, whose ``@`` is refused: a matrix product reduces)
_BINARY_310 = {"BINARY_ADD", "BINARY_SUBTRACT", "BINARY_MULTIPLY", "BINARY_TRUE_DIVIDE", "BINARY_FLOOR_DIVIDE",
               "BINARY_MODULO", "BINARY_POWER", "BINARY_AND", "BINARY_OR", "BINARY_XOR", "BINARY_LSHIFT",
               "BINARY_RSHIFT"}
_LOAD_ARGUMENTS = {"LOAD_FAST": 1, "LOAD_FAST_CHECK": 1, "LOAD_FAST_BORROW": 1, "LOAD_FAST_LOAD_FAST": 2,
                   "LOAD_FAST_BORROW_LOAD_FAST_BORROW": 2}  # (3.12 on: checked, borrowed and paired loads)
_MODULE_NAMES = ("numpy", "kdsl")
_METHOD_BIT = sys.version_info >= (3, 12)  # LOAD_ATTR's low bit: a method load (NULL or self pushed too)


def _allowed(obj: Any) -> bool:
    """A name the function may load: NumPy or kdsl itself, a ufunc of either, or a number."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__ in _MODULE_NAMES
    return isinstance(obj, (Ufunc, np.ufunc, numbers.Number, np.generic))


def _elementwise_ufunc(obj: Any) -> bool:
    """A ufunc of NumPy or kdsl that works element by element (not a generalised one such as ``np.matmul``)."""
    return isinstance(obj, (Ufunc, np.ufunc)) and getattr(obj, "signature", None) is None


def _global(func: types.FunctionType, name: str) -> Any:
    """The value of a global name as the function would see it (its module, then builtins); ``_NULL`` if none."""
    if name in func.__globals__:
        return func.__globals__[name]
    return getattr(builtins, name, _NULL)


def _call(stack: list[Any], argc: int) -> bool:
    """Pops a call's arguments, its callable and NULL slot; True if the callable is a ufunc given <= nin args."""
    if len(stack) < argc + 1:
        return False
    del stack[len(stack) - argc:]
    callee = stack.pop()
    if callee is _NULL and stack:  # 3.12's order: callable, then NULL
        callee = stack.pop()
    elif stack and stack[-1] is _NULL:  # 3.11's order: NULL, then callable
        stack.pop()
    if not _elementwise_ufunc(callee) or argc > callee.nin:
        return False
    stack.append(_VALUE)
    return True


def _step(func: types.FunctionType, ins: dis.Instruction, stack: list[Any]) -> bool:
    """One instruction of the abstract run; False where purity cannot be proved."""
    op = ins.opname
    if op in _NO_OPS:
        return True
    if op in _LOAD_ARGUMENTS:
        stack.extend([_VALUE] * _LOAD_ARGUMENTS[op])
        return True
    if op in ("LOAD_CONST", "LOAD_SMALL_INT"):
        stack.append(ins.argval)
        return isinstance(ins.argval, (numbers.Number, np.generic))
    if op == "PUSH_NULL":
        stack.append(_NULL)
        return True
    if op == "LOAD_GLOBAL":
        obj = _global(func, ins.argval)
        if ins.arg is not None and ins.arg & 1:
            stack.append(_NULL)
        stack.append(obj)
        return _allowed(obj)
    if op == "LOAD_DEREF":
        names = func.__code__.co_freevars
        if ins.argval not in names or func.__closure__ is None:
            return False
        try:
            obj = func.__closure__[names.index(ins.argval)].cell_contents
        except ValueError:  # an empty cell
            return False
        stack.append(obj)
        return _allowed(obj)
    if op in ("LOAD_ATTR", "LOAD_METHOD"):
        module = stack.pop() if stack else None
        if not isinstance(module, types.ModuleType):  # an attribute of a value (v.T, v.mean): not provable
            return False
        obj = getattr(module, ins.argval, _NULL)
        if op == "LOAD_METHOD" or (_METHOD_BIT and ins.arg is not None and ins.arg & 1):
            stack.append(_NULL)
        stack.append(obj)
        return _allowed(obj) and not isinstance(obj, types.ModuleType)
    if op in ("BINARY_OP", "COMPARE_OP") or op in _BINARY_310:
        if len(stack) < 2 or _NULL in stack[-2:] or (op == "BINARY_OP" and ins.argrepr.startswith("@")):
            return False
        del stack[-2:]
        stack.append(_VALUE)
        return True
    if op in _UNARY:
        if not stack or stack[-1] is _NULL:
            return False
        stack[-1] = _VALUE
        return True
    if op in ("CALL", "CALL_FUNCTION", "CALL_METHOD"):  # (the latter two: Python 3.10)
        return _call(stack, ins.arg or 0)
    return False


def is_pure_elementwise(func: Any) -> bool:
    """Whether ``func`` is a ufunc, or a plain Python function whose code only combines its arguments, numbers and
    ufuncs of NumPy/kdsl by operators and ufunc calls (see the module docstring)."""
    if isinstance(func, (Ufunc, np.ufunc)):
        return _elementwise_ufunc(func)
    if not isinstance(func, types.FunctionType):
        return False
    code = func.__code__
    if code.co_flags & (0x20 | 0x80 | 0x100 | 0x200):  # generator, coroutine, async generator
        return False
    stack: list[Any] = []
    for ins in dis.get_instructions(func):
        if ins.opname in ("RETURN_VALUE", "RETURN_CONST"):
            return True  # straight-line code: the first return ends it (anything jumping was refused)
        if not _step(func, ins, stack):
            return False
    return False


__all__ = ["is_pure_elementwise"]
