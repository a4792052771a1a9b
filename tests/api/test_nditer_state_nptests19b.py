"""``kd.nditer``'s state, from NumPy's ``test_nditer.py``: the settable attributes (``multi_index``, ``index``,
``iterindex``, ``iterrange``) move the iterator (kdsl's wrapper used to keep them as its own attributes, silently
iterating from the start), ``reset()`` starts a written iteration again and its writes reach the array,
``it.operands`` gives the kdsl operands themselves, a read-only array refuses write flags, and deleting items or
attributes raises NumPy's errors. Each case runs on NumPy and kdsl and compares."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(6,), (2, 3), (2, 3, 4)]


def values(it):
    return [x.tolist() for x in it]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[::-1]])
def test_multi_index_set_moves_the_iterator(shape, view):
    def run(xp):
        it = xp.nditer(view(xp.arange(int(np.prod(shape)), dtype="int32").reshape(shape)), ["multi_index"])
        it.multi_index = tuple(d - 1 for d in it.shape)[:-1] + (0,)
        return it.multi_index, values(it)

    assert run(kd) == run(np)


@pytest.mark.parametrize("flag", ["c_index", "f_index"])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_index_set_moves_the_iterator(flag, dtype):
    def run(xp):
        it = xp.nditer(xp.arange(12, dtype=dtype).reshape(3, 4), [flag])
        it.index = 5
        return it.index, values(it)

    assert run(kd) == run(np)


@pytest.mark.parametrize("flags", [["ranged"], ["ranged", "buffered"]])
@pytest.mark.parametrize("where", [(0, 24), (1, 2), (3, 24), (5, 5), (23, 24)])
def test_iterrange_and_iterindex(flags, where):
    def run(xp):
        it = xp.nditer(xp.arange(24, dtype="int32").reshape(4, 3, 2), flags, order="F", buffersize=5)
        it.iterrange = where
        first = (it.iterrange, values(it))
        it.iterrange = (0, 24)
        it.iterindex = 7
        return first, it.iterindex, values(it)

    assert run(kd) == run(np)


@pytest.mark.parametrize("flags", [[], ["buffered"]])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_reset_inside_with_writes_both_passes(flags, dtype):
    def run(xp):
        a = xp.arange(6, dtype=dtype).reshape(2, 3)
        with xp.nditer(a, flags, op_flags=["readwrite"]) as it:
            for x in it:
                x[...] = x + 1
            it.reset()
            for x in it:
                x[...] = x * 2
        return np.asarray(a)

    np.testing.assert_array_equal(run(kd), run(np))


def test_reset_after_iternext_writes_again():
    def run(xp):
        a = xp.arange(5.0)
        it = xp.nditer(a, op_flags=["readwrite"])
        while not it.finished:
            it[0] = it[0] * 3
            it.iternext()
        it.reset()
        while not it.finished:
            it[0] = it[0] + 1
            it.iternext()
        return np.asarray(a)

    np.testing.assert_array_equal(run(kd), run(np))


def test_cast_copy_is_still_written_back():
    def run(xp):
        a = xp.arange(4.0)
        with xp.nditer(a, op_flags=["readwrite", "updateifcopy"], op_dtypes=["f4"], casting="same_kind") as it:
            for x in it:
                x[...] = x + 0.5
        return np.asarray(a)

    np.testing.assert_array_equal(run(kd), run(np))


@pytest.mark.parametrize("shape", SHAPES)
def test_operands_are_the_arrays(shape):
    a, b = kd.ones(shape), kd.zeros(shape[-1:])
    it = kd.nditer([a, b, None])
    assert it.operands[0] is a and it.operands[1] is b
    assert it.operands[2].shape == shape  # allocated by NumPy: a kdsl copy of it
    with kd.nditer(a, [], ["readwrite"]) as it:
        it.operands[0][...] = 14  # writes through it.operands reach the array, as NumPy's
    np.testing.assert_array_equal(np.asarray(a), np.full(shape, 14))


@pytest.mark.parametrize("op_flags", [["readwrite"], ["writeonly"]])
def test_read_only_array_refuses_write_flags(op_flags):
    for xp in (np, kd):
        a = xp.arange(6)
        a.flags.writeable = False
        with pytest.raises(ValueError, match="operand array with iterator write flag set is read-only"):
            xp.nditer(a, [], [op_flags])
        a.flags.writeable = True
        xp.nditer(a, [], [op_flags]).close()


@pytest.mark.parametrize("xp", [np, kd])
def test_errors(xp):
    it = xp.nditer(xp.ones(3))
    with pytest.raises(TypeError, match="Cannot delete iterator elements"):
        del it[1]
    for name in ("multi_index", "index", "iterrange", "iterindex"):
        with pytest.raises(AttributeError):
            delattr(it, name)
    with pytest.raises(ValueError, match="Iterator is not tracking a multi-index"):
        it.multi_index = (0,)
    with pytest.raises(ValueError, match="Iterator does not have an index"):
        it.index = 0


@pytest.mark.parametrize("shape", [(2, 3, 4), (3, 1, 5), (1, 4, 2)])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_reduction_into_an_allocated_operand(shape, dtype):
    """NumPy's reduction idiom (its nditer docs' sum_squares): the initial value is written through it.operands
    before iterating and the result read from it; kdsl handed out a copy, so the sums started from garbage."""
    def run(xp):
        a = xp.asarray(np.arange(np.prod(shape)).reshape(shape).astype(dtype))
        it = xp.nditer([a, None], ["reduce_ok"], [["readonly"], ["readwrite", "allocate"]],
                       op_axes=[None, [0, 1, -1]])
        with it:
            out = it.operands[1]
            out[...] = 0
            for x, y in it:
                y[...] += x * x
            assert it.operands[1] is out
            return np.asarray(out)

    np.testing.assert_array_equal(run(kd), run(np))


@pytest.mark.parametrize("flags", [["buffered", "delay_bufalloc"], ["buffered", "delay_bufalloc", "reduce_ok"]])
def test_allocated_operand_written_before_reset(flags):
    def run(xp):
        a = xp.arange(6, dtype="int32")
        it = xp.nditer([a, None], flags, [["readonly"], ["allocate", "readwrite"]])
        with it:
            it.operands[1][:] = 1
            it.reset()
            for x in it:
                x[1][...] += x[0][...]
            return np.asarray(it.operands[1])

    np.testing.assert_array_equal(run(kd), run(np))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_reduction_into_a_given_operand_set_through_operands(dtype):
    def run(xp):
        a = xp.asarray(np.arange(24).reshape(2, 3, 4).astype(dtype))
        out = xp.ones((2, 3), dtype=dtype)
        with xp.nditer([a, out], ["reduce_ok"], [["readonly"], ["readwrite"]], op_axes=[None, [0, 1, -1]]) as it:
            it.operands[1][...] = 0  # the iterator reads these zeros (kdsl: it summed onto the ones)
            for x, y in it:
                y[...] += x
        return np.asarray(out)

    np.testing.assert_array_equal(run(kd), run(np))


@pytest.mark.parametrize("flags", [["c_index"], ["multi_index"]])
def test_program_writes_are_read_by_later_steps(flags):
    def run(xp):
        b = xp.arange(6.0).reshape(2, 3)
        seen = []
        for x in xp.nditer(b, flags):
            if len(seen) == 1:
                b[1, 2] = 30.0  # an element not reached yet: NumPy's iterator reads the new value
            seen.append(float(x))
        return seen

    assert run(kd) == run(np)


@pytest.mark.parametrize("xp", [np, kd])
def test_next_after_close_stops(xp):
    it = xp.nditer(xp.arange(3), op_flags=["readwrite"])
    it.close()
    with pytest.raises(StopIteration):
        next(it)


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::-1]])
def test_writes_into_a_cast_copy_through_operands(view):
    """``op_dtypes`` with ``updateifcopy``: it.operands[0] is NumPy's cast copy, written back when the iterator
    closes (kdsl's was a throwaway copy: the writes were lost)."""
    def run(xp):
        a = view(xp.arange(24, dtype="f8").reshape(2, 3, 4))
        with xp.nditer(a, [], [["readwrite", "updateifcopy"]], casting="same_kind", op_dtypes=["f4"]) as it:
            assert it.operands[0].dtype == np.float32
            it.operands[0][...] = 3
            it.operands[0][:1] = 14
        return np.asarray(a)

    np.testing.assert_array_equal(run(kd), run(np))


VIEWS = [lambda a: a[:, :, :-1], lambda a: a[:, :-1, :], lambda a: a[::-1, :, ::2], lambda a: a.T[1:],
         lambda a: a[:, 1], lambda a: a[..., ::3]]


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_external_loop_chunks_of_strided_views(view, dtype):
    """A view with gaps keeps NumPy's strides on the host, so ``external_loop`` cuts NumPy's chunks (kdsl's
    compact copy coalesced them into one)."""
    def run(xp):
        it = xp.nditer(view(xp.arange(24, dtype=dtype).reshape(2, 3, 4)), ["external_loop"], [["readonly"]])
        return it.ndim, [c.tolist() for c in it]

    assert run(kd) == run(np)


@pytest.mark.parametrize("view", VIEWS)
def test_external_loop_writes_of_strided_views(view):
    def run(xp):
        a = xp.arange(24.0).reshape(2, 3, 4)
        with xp.nditer(view(a), ["external_loop"], [["readwrite"]]) as it:
            for c in it:
                c[...] = -c * 2
        return np.asarray(a).tolist()

    assert run(kd) == run(np)


def test_copy_if_overlap_of_two_views_of_one_array():
    def run(xp):
        x = xp.arange(10)
        with xp.nditer([x[1:], x[:-1]], ["copy_if_overlap"], [["readonly"], ["readwrite"]]) as it:
            for p, q in it:
                q[...] = p * 2
        return np.asarray(x).tolist()

    assert run(kd) == run(np)
