"""kd.RawProgram: launches in order in one submission, temporaries from the pool, replay while the buffers are
the same, rebinding when they change, and clear errors for wrong arguments."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.runtime.sequence import Sequence

AXPY = """#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) y[i] += a * x[i]; }"""

COPY = """#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const float K = 1.0;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; };
void main() { uint i = gl_GlobalInvocationID.x; if (i < n) y[i] = K * x[i]; }"""


@pytest.fixture(scope="module")
def kernels():
    return kd.raw_kernel(AXPY), kd.raw_kernel(COPY)


def _submits(monkeypatch):
    count = [0]
    submit = Sequence._submit_batch

    def counting(self):
        count[0] += 1
        return submit(self)
    monkeypatch.setattr(Sequence, "_submit_batch", counting)
    return count


def test_launches_run_in_order_through_a_temporary_in_one_submission(monkeypatch, kernels):
    axpy, copy = kernels
    n = 300
    program = kd.RawProgram([kd.RawLaunch(copy, ("x", "t"), [n], groups=(5, 1, 1), spec={"K": 3.0}),
                             kd.RawLaunch(axpy, ("t", "y"), [2.0, n], groups=(5, 1, 1)),
                             kd.RawLaunch(axpy, ("x", "y"), [1.0, n], groups=(5, 1, 1))],
                            temps={"t": (n, kd.float32)})
    assert program.roles == ["x", "y"]
    x = kd.asarray(np.arange(n, dtype=np.float32))
    y = kd.zeros(n)
    kd.realize(y)  # its fill kernel is a submission of its own
    submits = _submits(monkeypatch)
    for _ in range(3):
        program(x=x, y=y)
    assert submits[0] == 3
    np.testing.assert_allclose(y.numpy(), 3 * 7 * np.arange(n))


def test_other_buffers_are_rebound(kernels):
    axpy, _ = kernels
    program = kd.RawProgram([kd.RawLaunch(axpy, ("x", "y"), [1.0, 4], groups=(1, 1, 1))])
    ys = [kd.zeros(4) for _ in range(3)]
    for i, y in enumerate(ys):
        program(x=kd.asarray(np.full(4, i + 1, np.float32)), y=y)
    assert [y.tolist() for y in ys] == [[1.0] * 4, [2.0] * 4, [3.0] * 4]


def test_a_call_binds_the_arrays_it_is_given_and_replays_when_they_are_the_same(monkeypatch, kernels):
    _, copy = kernels
    table = kd.asarray(np.arange(4, dtype=np.float32))
    program = kd.RawProgram([kd.RawLaunch(copy, (table, "y"), [4], groups=(1, 1, 1))])
    records = []
    record = kd.RawProgram._record
    monkeypatch.setattr(kd.RawProgram, "_record", lambda self: records.append(1) or record(self))
    a, b = kd.zeros(4), kd.zeros(4)
    for y in (a, a, b, a):
        program(y=y)
    assert len(records) == 3  # the second call replays; b and a again are bound anew
    table[...] = 7.0  # the constant written in place: its new buffer is read
    program(y=b)
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0] and b.tolist() == [7.0] * 4


def test_constant_arrays_and_profile(kernels):
    axpy, _ = kernels
    table = kd.asarray(np.ones(8, np.float32))
    program = kd.RawProgram([kd.RawLaunch(axpy, (table, "y"), [5.0, 8], groups=(1, 1, 1), label="add five")])
    y = kd.zeros(8)
    kd.realize(y)
    with kd.profile() as prof:
        program(y=y)
    stamped = kd.device().info.get("timestamps_supported")  # GPU time, else a submission of its own
    assert [name for name, _ in prof.records] == ["custom kernel add five" + (" (GPU time)" if stamped else "")]
    assert prof.records[0][1] > 0
    program(y=y)  # recorded again after the profile's one-by-one submissions
    assert y.tolist() == [10.0] * 8


def test_wrong_arguments_are_refused(kernels):
    axpy, _ = kernels
    with pytest.raises(TypeError, match="binds 2 array"):
        kd.RawLaunch(axpy, ("x",), [1.0, 4])
    with pytest.raises(TypeError, match="push constant"):
        kd.RawLaunch(axpy, ("x", "y"), [1.0])
    with pytest.raises(TypeError, match="role name or a kd array"):
        kd.RawLaunch(axpy, (np.ones(4, np.float32), "y"), [1.0, 4])
    with pytest.raises(TypeError, match="raw_kernel"):
        kd.RawLaunch("not a kernel", ("x", "y"), [1.0, 4])
    program = kd.RawProgram([kd.RawLaunch(axpy, ("x", "y"), [1.0, 4])])
    with pytest.raises(TypeError, match=r"takes the arrays \['x', 'y'\]"):
        program(x=kd.zeros(4))
