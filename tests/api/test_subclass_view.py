"""``a.view(MyArray)`` of a Python subclass of ``kd.ndarray`` (numpy-100 #63, #85): subclass_view.py."""

import numpy as np

import kdsl as kd


class Named(kd.ndarray):
    def __new__(cls, array, name="no name"):
        obj = kd.asarray(array).view(cls)
        obj.name = name
        return obj

    def __array_finalize__(self, obj):
        self.name = getattr(obj, "name", "no name")


class Symmetric(kd.ndarray):
    def __setitem__(self, index, value):
        i, j = index
        super().__setitem__((i, j), value)
        super().__setitem__((j, i), value)


def test_subclass_new_calling_view_keeps_its_attribute_and_data():
    z = Named(kd.arange(4), "range_4")
    assert type(z) is Named and z.name == "range_4"
    assert z.tolist() == [0, 1, 2, 3]
    assert (z + 1).tolist() == [1, 2, 3, 4]  # results are plain kdsl arrays (a documented difference)


def test_array_finalize_reads_the_source():
    src = Named(kd.arange(3), "src")
    assert src.view(Named).name == "src"
    assert kd.arange(2).view(Named).name == "no name"


def test_overridden_setitem_and_writes_reaching_the_base():
    base = kd.zeros((3, 3), dtype=kd.int32)
    s = base.view(Symmetric)
    s[0, 2] = 5
    expected = np.zeros((3, 3), np.int32)
    expected[0, 2] = expected[2, 0] = 5
    np.testing.assert_array_equal(base.numpy(), expected)


def test_subclass_with_a_dtype_bit_casts():
    v = kd.asarray(np.array([1.0], np.float32)).view(kd.int32, Named)
    assert type(v) is Named and v.tolist() == [1065353216]
