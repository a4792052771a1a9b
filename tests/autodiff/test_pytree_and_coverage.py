"""kd.tree_* utilities, and a guard: every float-valued node kind of the graph has a derivative rule."""

from collections import namedtuple

import pytest

import kdsl as kd
from kdsl.autodiff.registry import NO_GRADIENT, RULES
from kdsl.codegen import ops as codegen_ops

Pair = namedtuple("Pair", "a b")


def test_flatten_unflatten_round_trip():
    tree = {"z": [1, (2, None)], "a": Pair(3, {"k": 4}), "e": ()}
    leaves, td = kd.tree_flatten(tree)
    assert leaves == [3, 4, 1, 2]
    back = kd.tree_unflatten(td, leaves)
    assert back == tree and isinstance(back["a"], Pair) and isinstance(back["z"][1], tuple)
    assert kd.tree_leaves(tree) == leaves and kd.tree_structure(tree).num_leaves == 4
    assert kd.tree_flatten(5) == ([5], kd.tree_structure(0))


def test_tree_map_several_trees_and_errors():
    assert kd.tree_map(lambda x, y: x * y, {"a": [1, 2]}, {"a": [3, 4]}) == {"a": [3, 8]}
    with pytest.raises(ValueError, match=r"differ in structure: \{'a': \[\*, \*\]\} and \{'a': \(\*, \*\)\}"):
        kd.tree_map(lambda x, y: x, {"a": [1, 2]}, {"a": (1, 2)})
    _, td = kd.tree_flatten([1, 2])
    with pytest.raises(ValueError, match="fewer leaves"):
        kd.tree_unflatten(td, [1])
    with pytest.raises(ValueError, match="more leaves"):
        kd.tree_unflatten(td, [1, 2, 3])


def test_every_float_op_has_a_rule():
    # ops whose result is bool or integer only never carry a gradient
    non_float = {"eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf", "isfinite", "not", "invert", "and", "or",
                 "xor", "land", "lor", "lxor", "shl", "shr"}
    missing = [op for op in codegen_ops.UNARY + codegen_ops.BINARY + codegen_ops.TERNARY
               if op not in non_float and op not in RULES]
    assert not missing, f"elementwise ops without a derivative rule: {missing}"
    from kdsl.ir import graph
    kinds = {"view", "reduce", "matmul", "scan", "rows", "assemble", "sort", "gather", "copy", "cast"} | \
        set(graph.MATERIALISED)
    assert not [k for k in kinds if k not in RULES and k not in NO_GRADIENT]
