"""Hostile calls across the array API: each must raise the exception type NumPy raises for the same call (issue 8,
point 11), with a message that names the problem. Each case runs on NumPy (``xp=np``) and on kdsl (``xp=kd``)."""


import numpy as np
import pytest

import kdsl as kd

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def z(xp, shape, dtype="float32"):
    return xp.asarray(np.zeros(shape, dtype))


CASES = {
    "eye negative": lambda xp: xp.eye(-2),
    "eye float": lambda xp: xp.eye(2.5),
    "eye None": lambda xp: xp.eye(None),
    "zeros negative": lambda xp: xp.zeros(-1),
    "zeros negative in tuple": lambda xp: xp.ones((2, -3)),
    "zeros float shape": lambda xp: xp.zeros(1.5),
    "zeros str shape": lambda xp: xp.zeros("a"),
    "full negative": lambda xp: xp.full((-1,), 1.0),
    "ones bad dtype": lambda xp: xp.ones(3, dtype="foo"),
    "bool of empty": lambda xp: bool(z(xp, 0)),
    "bool of 2 elements": lambda xp: bool(z(xp, 2)),
    "float of 1-d": lambda xp: float(z(xp, 1)),
    "int of 2-d": lambda xp: int(z(xp, (1, 1))),
    "index of 1-d": lambda xp: [1, 2][z(xp, 1, "int32")],
    "index of float": lambda xp: [1, 2][z(xp, (), "float32")],
    "len of 0-d": lambda xp: len(z(xp, ())),
    "iter of 0-d": lambda xp: iter(z(xp, ())),
    "hash": lambda xp: hash(z(xp, 3)),
    "reshape -1 -1": lambda xp: z(xp, 4).reshape(-1, -1),
    "reshape wrong size": lambda xp: z(xp, 4).reshape(3),
    "reshape negative": lambda xp: z(xp, 4).reshape(-2, -2),
    "linspace negative num": lambda xp: xp.linspace(0, 1, -1),
    "linspace float num": lambda xp: xp.linspace(0, 1, 2.5),
    "arange zero step": lambda xp: xp.arange(0, 1, 0),
    "arange inf": lambda xp: xp.arange(0, np.inf),
    "arange nan": lambda xp: xp.arange(np.nan),
    "concatenate shapes": lambda xp: xp.concatenate([z(xp, (2, 3)), z(xp, (2, 4))]),
    "concatenate ndim": lambda xp: xp.concatenate([z(xp, (2, 3)), z(xp, 3)]),
    "concatenate 0-d": lambda xp: xp.concatenate([z(xp, ()), z(xp, ())]),
    "concatenate nothing": lambda xp: xp.concatenate([]),
    "stack shapes": lambda xp: xp.stack([z(xp, 2), z(xp, 3)]),
    "stack nothing": lambda xp: xp.stack([]),
    "where shapes": lambda xp: xp.where(xp.asarray(np.ones(2, bool)), z(xp, 3), 1),
    "matmul core": lambda xp: z(xp, (2, 3)) @ z(xp, (2, 3)),
    "matmul 0-d": lambda xp: xp.matmul(z(xp, (2, 3)), z(xp, ())),
    "matmul batch": lambda xp: z(xp, (2, 2, 3)) @ z(xp, (3, 3, 2)),
    "dot 1-d": lambda xp: xp.dot(z(xp, 3), z(xp, 4)),
    "sum float axis": lambda xp: z(xp, 3).sum(axis=1.0),
    "sum repeated axis": lambda xp: z(xp, (3, 3)).sum(axis=(0, 0)),
    "transpose repeated": lambda xp: z(xp, (2, 3)).transpose(0, 0),
    "transpose too few": lambda xp: z(xp, (2, 3)).transpose(0),
    "squeeze non-1": lambda xp: xp.squeeze(z(xp, (2, 3)), 0),
    "broadcast_to": lambda xp: xp.broadcast_to(z(xp, 3), (4,)),
    "broadcast_to negative": lambda xp: xp.broadcast_to(z(xp, 3), (-1, 3)),
    "astype unknown": lambda xp: z(xp, 3).astype("foo"),
    "index out of bounds": lambda xp: z(xp, 3)[3],
    "index float": lambda xp: z(xp, 3)[1.0],
    "index too many": lambda xp: z(xp, 3)[1, 1],
    "index two ellipses": lambda xp: z(xp, 3)[..., ...],
    "argmax empty": lambda xp: z(xp, 0).argmax(),
    "max empty": lambda xp: z(xp, 0).max(),
    "bitwise and of floats": lambda xp: z(xp, 3) & 1,
    "round float decimals": lambda xp: xp.round(z(xp, 3), 1.5),
    "int8 plus 300": lambda xp: z(xp, 3, "int8") + 300,
    "uint8 plus -1": lambda xp: z(xp, 3, "uint8") + (-1),
    "int32 times 2**40": lambda xp: z(xp, 3, "int32") * 2**40,
    "maximum 2**40": lambda xp: xp.maximum(z(xp, 2, "int32"), 2**40),
    "asarray uint8 300": lambda xp: xp.asarray([300], dtype=xp.uint8),
    "asarray uint32 -1": lambda xp: xp.asarray(-1, dtype=xp.uint32),
    "asarray int nan": lambda xp: xp.asarray([np.nan], dtype=xp.int32),
    "asarray int 1e20": lambda xp: xp.asarray([1e20], dtype=xp.int32),
    "asarray strings": lambda xp: xp.asarray(["a"], dtype=xp.float32),
    "full int32 2**40": lambda xp: xp.full(3, 2**40, dtype=xp.int32),
    "full uint8 -1": lambda xp: xp.full(3, -1, dtype=xp.uint8),
    "setitem int 2**40": lambda xp: z(xp, 3, "int32").__setitem__(0, 2**40),
    "setitem uint8 -1": lambda xp: z(xp, 3, "uint8").__setitem__(0, -1),
    "setitem int nan": lambda xp: z(xp, 3, "int32").__setitem__(0, np.nan),
    "setitem int inf": lambda xp: z(xp, 3, "int32").__setitem__(0, np.inf),
    "setitem list 2**40": lambda xp: z(xp, 3, "int32").__setitem__(slice(None), [1, 2, 2**40]),
    "setitem shape": lambda xp: z(xp, 3).__setitem__(slice(None), np.ones((2, 3), np.float32)),
    "iadd shape": lambda xp: z(xp, 3).__iadd__(z(xp, (2, 3))),
    "iadd float into int": lambda xp: z(xp, 3, "int32").__iadd__(1.5),
    "imul float array into int": lambda xp: z(xp, 3, "int32").__imul__(z(xp, 3)),
    "iadd int into bool": lambda xp: z(xp, 3, "bool").__iadd__(1),
    "itruediv into int": lambda xp: z(xp, 3, "int32").__itruediv__(2),
    "imatmul shape": lambda xp: z(xp, (2, 3)).__imatmul__(z(xp, (3, 4))),
    "random normal scale < 0": lambda xp: (xp.random.normal(0, -1) if xp is kd
                                           else np.random.default_rng().normal(0, -1)),
    "random uniform size < 0": lambda xp: (xp.random.uniform(size=-1) if xp is kd
                                           else np.random.default_rng().uniform(size=-1)),
    "random integers low >= high": lambda xp: (xp.random.integers(5, 2) if xp is kd
                                               else np.random.default_rng().integers(5, 2)),
    "sum of string": lambda xp: xp.sum("abc"),
    "sin of None": lambda xp: xp.sin(None),
    "sqrt of string": lambda xp: xp.sqrt("a"),
    "add of object": lambda xp: xp.add(z(xp, 3), object()),
    "asarray of object": lambda xp: xp.asarray(object()) + 1,
    "asarray ragged": lambda xp: xp.asarray([[1, 2], [3]]),
    "concatenate int": lambda xp: xp.concatenate(5),
    "concatenate axis float": lambda xp: xp.concatenate([z(xp, 3), z(xp, 3)], axis=0.5),
    "stack 0-d axis": lambda xp: xp.stack([z(xp, ()), z(xp, ())], axis=1),
    "reshape two unknowns 3d": lambda xp: z(xp, 4).reshape(2, -1, -1),
    "reshape float": lambda xp: z(xp, 4).reshape(2.0, 2),
    "transpose bad axis": lambda xp: z(xp, (2, 3)).transpose(0, 2),
    "moveaxis bad": lambda xp: xp.moveaxis(z(xp, (2, 3)), 0, 5),
    "matmul 1d mismatch": lambda xp: z(xp, 3) @ z(xp, 4),
    "dot 2d mismatch": lambda xp: xp.dot(z(xp, (2, 3)), z(xp, (2, 3))),
    "outer string": lambda xp: xp.outer(z(xp, 3), "a"),
    "where one arg": lambda xp: xp.where(z(xp, 3) > 0, 1),
    "cumsum bad axis": lambda xp: xp.cumsum(z(xp, 3), axis=1),
    "mean bad axis": lambda xp: z(xp, 3).mean(axis=(0, 1)),
    "var ddof string": lambda xp: z(xp, 3).var(ddof="a"),
    "argmax tuple axis": lambda xp: z(xp, (2, 2)).argmax(axis=(0, 1)),
    "shift float": lambda xp: z(xp, 3) << 1,
    "invert float": lambda xp: ~z(xp, 3),
    "neg bool": lambda xp: -z(xp, 3, "bool"),
    "int pow negative": lambda xp: z(xp, 3, "int32") ** -1,
    "floor of bool arr": lambda xp: xp.floor(z(xp, 3, "bool")) + xp.floor("a"),
    "full shape string": lambda xp: xp.full("ab", 1.0),
    "arange string": lambda xp: xp.arange("a"),
    "linspace string": lambda xp: xp.linspace(0, 1, "a"),
    "eye k float": lambda xp: xp.eye(3, k=1.5),
    "index list of float": lambda xp: z(xp, 3)[[1.5]],
    "index str": lambda xp: z(xp, 3)["a"],
    "setitem str": lambda xp: z(xp, 3).__setitem__(0, "a"),
    "setitem object": lambda xp: z(xp, 3).__setitem__(0, object()),
    "squeeze bad axis": lambda xp: xp.squeeze(z(xp, (1, 3)), 2),
    "expand_dims repeated": lambda xp: xp.expand_dims(z(xp, 3), (0, 0)),
    "swapaxes float": lambda xp: xp.swapaxes(z(xp, (2, 3)), 0.0, 1),
    "flip repeated": lambda xp: xp.flip(z(xp, (2, 3)), (0, 0)),
    "broadcast_arrays": lambda xp: xp.broadcast_arrays(z(xp, 2), z(xp, 3)),
    "sum dtype bad": lambda xp: z(xp, 3).sum(dtype="foo"),
    "item of size 2": lambda xp: z(xp, 2).item(),
    "maximum 3 args": lambda xp: xp.maximum(z(xp, 2), z(xp, 2), z(xp, 2), z(xp, 2)),
    "clip string": lambda xp: xp.clip(z(xp, 3), "a", 1),
    "round None": lambda xp: xp.round(z(xp, 3), None),
    "random seed negative": lambda xp: xp.random.seed(-1) if xp is kd else np.random.seed(-1),
    "random size float": lambda xp: xp.random.uniform(size=1.5) if xp is kd
    else np.random.default_rng().uniform(size=1.5),
    "random integers float size": lambda xp: xp.random.integers(5, size=(2.5,))
    if xp is kd else np.random.default_rng().integers(5, size=(2.5,)),
}


def _error(fn, xp):
    try:
        fn(xp)
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return exc
    return None


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_call_raises_numpy_error_type(name):
    fn = CASES[name]
    expected = _error(fn, np)
    assert expected is not None, f"NumPy accepts {name!r}: the case is wrong"
    got = _error(fn, kd)
    assert got is not None, f"kdsl accepted {name!r}; NumPy raises {type(expected).__name__}: {expected}"
    want = TypeError if isinstance(expected, TypeError) else type(expected)  # UFuncTypeError is a TypeError
    assert isinstance(got, want), f"{name!r}: kdsl raised {type(got).__name__}: {got}; " \
        f"NumPy raises {type(expected).__name__}: {expected}"
    assert len(str(got)) > 15, f"{name!r}: message too short: {got!r}"


@pytest.mark.parametrize("returned,shown", [(None, "NoneType (a missing `return`?)"), (3, "int"),
                                            ([], "a list of nothing"), ((1.0,), "a tuple of float")])
def test_jit_function_must_return_arrays(returned, shown):
    fn = kd.jit(lambda x: returned)
    with pytest.raises(TypeError, match="must return an Array or a non-empty pytree") as err:
        fn(kd.ones(3))
    assert shown in str(err.value)


@pytest.mark.parametrize("params,column", [("T x,,", 5), ("T x,", 5), (",T x", 1), ("T x, , T y", 6)])
def test_elementwise_empty_parameter_is_a_syntax_error(params, column):
    with pytest.raises(kd.KdslSyntaxError, match="empty parameter") as err:
        kd.elementwise(params, "T z", "z = x")
    assert err.value.column == column
    assert kd.elementwise("", "float32 z", "z = 1.0") is not None  # no parameters at all stays fine


def test_bool_of_size_one_and_scalar_conversions_of_0d():
    assert bool(kd.ones((1, 1))) is True and float(kd.asarray(2.5)) == 2.5 and int(kd.asarray(7)) == 7
    assert [10, 20][kd.asarray(1)] == 20
    assert kd.clip(kd.ones(2), None, None).tolist() == [1.0, 1.0]  # NumPy 2.1+ accepts no bounds
