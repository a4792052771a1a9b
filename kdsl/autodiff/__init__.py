"""Automatic differentiation over the lazy graph (JAX's functional API) and pytree utilities.

See ``docs/autodiff.md``. The transforms are :mod:`kdsl.autodiff.transforms`; the derivative rules one module
per kind of node (:mod:`.elementwise`, :mod:`.movement`, :mod:`.reductions`, :mod:`.indexing`).
"""

from kdsl.autodiff.custom_vjp import custom_vjp
from kdsl.autodiff.transforms import grad, jvp, stop_gradient, value_and_grad, vjp
from kdsl.pytree import TreeDef, tree_flatten, tree_leaves, tree_map, tree_structure, tree_unflatten

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient", "custom_vjp", "tree_map", "tree_flatten",
           "tree_unflatten", "tree_leaves", "tree_structure", "TreeDef"]
