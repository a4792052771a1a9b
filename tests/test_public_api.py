"""Every public name of the previous release is still there (a refactor must not drop one), and ``kd.__all__``
lists only names that exist."""

import pytest

import kdsl
import kdsl.kp as kp

# The public names of kdsl 0.1.0 (generated from that release's ``dir(kdsl)`` and ``dir(kdsl.kp)``).
KD_NAMES = [
    'Array', 'DType', 'Device', 'ElementwiseKernel', 'Func', 'KdslError', 'KdslSyntaxError', 'Kernel',
    'KernelSyntaxError', 'KernelTypeError', 'RawKernel', 'ReductionKernel', 'ShaderCompileError', 'abs',
    'absolute', 'add', 'all', 'amax', 'amin', 'any', 'arange', 'arccos', 'arccosh', 'arcsin', 'arcsinh',
    'arctan', 'arctan2', 'arctanh', 'argmax', 'argmin', 'around', 'array', 'asarray', 'atomic_add',
    'atomic_and', 'atomic_cas', 'atomic_exchange', 'atomic_max', 'atomic_min', 'atomic_or', 'atomic_sub',
    'atomic_xor', 'barrier', 'bitwise_and', 'bitwise_not', 'bitwise_or', 'bitwise_xor', 'block_size', 'bool',
    'bool_', 'boolean', 'broadcast_arrays', 'broadcast_to', 'ceil', 'clip', 'compile_source', 'compute',
    'concatenate', 'constexpr', 'cos', 'cosh', 'cumsum', 'device', 'divide', 'dot', 'dtype', 'dtypes', 'e',
    'elementwise', 'empty', 'empty_like', 'equal', 'exp', 'exp2', 'expand_dims', 'explain', 'expm1', 'eye',
    'f16', 'f32', 'f64', 'flip', 'float16', 'float32', 'float64', 'floor', 'floor_divide', 'full', 'full_like',
    'func', 'global_id', 'greater', 'greater_equal', 'grid_size', 'group_id', 'i16', 'i32', 'i64', 'i8', 'inf',
    'int16', 'int32', 'int64', 'int8', 'invert', 'isfinite', 'isinf', 'isnan', 'jit', 'kernel', 'left_shift',
    'less', 'less_equal', 'linspace', 'local_array', 'local_id', 'log', 'log10', 'log1p', 'log2', 'logical_and',
    'logical_not', 'logical_or', 'logical_xor', 'matmul', 'max', 'maximum', 'mean', 'min', 'minimum', 'mod',
    'moveaxis', 'multiply', 'nan', 'negative', 'newaxis', 'not_equal', 'num_groups', 'ones', 'ones_like',
    'outer', 'pi', 'positive', 'power', 'prod', 'random', 'ravel', 'raw_kernel', 'realize', 'reciprocal',
    'reduction', 'relu', 'remainder', 'reshape', 'right_shift', 'rint', 'round', 'rsqrt', 'shared', 'sigmoid',
    'sign', 'sin', 'sinh', 'sqrt', 'square', 'squeeze', 'stack', 'stats', 'std', 'subgroup_add', 'subgroup_and',
    'subgroup_barrier', 'subgroup_broadcast_first', 'subgroup_elect', 'subgroup_exclusive_add', 'subgroup_id',
    'subgroup_inclusive_add', 'subgroup_invocation_id', 'subgroup_max', 'subgroup_min', 'subgroup_mul',
    'subgroup_or', 'subgroup_shuffle', 'subgroup_size', 'subgroup_xor', 'subtract', 'sum', 'swapaxes', 'tan',
    'tanh', 'transpose', 'true_divide', 'trunc', 'u16', 'u32', 'u64', 'u8', 'uint16', 'uint32', 'uint64',
    'uint8', 'var', 'where', 'zeros', 'zeros_like'
]
KP_NAMES = [
    'Algorithm', 'DataTypes', 'Image', 'Manager', 'Memory', 'MemoryTypes', 'OpAlgoDispatch', 'OpBase', 'OpCopy',
    'OpMemoryBarrier', 'OpMult', 'OpSyncDevice', 'OpSyncLocal', 'OpTensorCopy', 'OpTensorSyncDevice',
    'OpTensorSyncLocal', 'Sequence', 'ShaderCompileError', 'Tensor', 'TensorTypes', 'VulkanError', 'bool',
    'char', 'compile_source', 'custom', 'device', 'deviceAndHost', 'double', 'float', 'host', 'int',
    'list_devices', 'live_objects', 'short', 'storage', 'uchar', 'uint', 'ushort'
]


@pytest.mark.parametrize("name", KD_NAMES)
def test_kdsl_keeps_its_names(name):
    assert hasattr(kdsl, name), f"kdsl.{name} was public in 0.1.0 and is gone"


@pytest.mark.parametrize("name", KP_NAMES)
def test_kp_keeps_its_names(name):
    assert hasattr(kp, name), f"kdsl.kp.{name} was public in 0.1.0 and is gone"


def test_all_lists_existing_names():
    assert [n for n in kdsl.__all__ if not hasattr(kdsl, n)] == []

