"""Logistic regression trained on kdsl's runtime: Kompute's classic example, with a GLSL shader.

The shader computes, for each sample i, the gradient of the cross-entropy loss with respect to the weights
and the bias; the host sums them and takes a gradient step (100 iterations, learning rate 0.1). The data is
``x_i = [0, 1, 1, 1, 1]``, ``x_j = [0, 0, 0, 1, 1]``, ``y = [0, 0, 0, 1, 1]`` (``y = x_i AND x_j``), and the run
ends near ``w = [0.0003, 1.587]``, ``b = -0.794`` — the same as the NumPy version of the loop, printed beside it.

Run it with ``python examples/logistic_regression_kp.py``.
"""

import numpy as np

import kdsl.kp as kp

SHADER = """
#version 450
layout (local_size_x = 1) in;

layout(set = 0, binding = 0) buffer bxi { float xi[]; };
layout(set = 0, binding = 1) buffer bxj { float xj[]; };
layout(set = 0, binding = 2) buffer by { float y[]; };
layout(set = 0, binding = 3) buffer bwin { float win[]; };
layout(set = 0, binding = 4) buffer bwouti { float wouti[]; };
layout(set = 0, binding = 5) buffer bwoutj { float woutj[]; };
layout(set = 0, binding = 6) buffer bbin { float bin[]; };
layout(set = 0, binding = 7) buffer bbout { float bout[]; };
layout(set = 0, binding = 8) buffer blout { float lout[]; };

layout(constant_id = 0) const float m = 0;  // number of samples

float sigmoid(float z) { return 1.0 / (1.0 + exp(-z)); }

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 w = vec2(win[0], win[1]);
    vec2 x = vec2(xi[i], xj[i]);
    float y_hat = sigmoid(dot(w, x) + bin[0]);
    float d_z = y_hat - y[i];
    vec2 d_w = (1.0 / m) * x * d_z;
    wouti[i] = d_w.x;
    woutj[i] = d_w.y;
    bout[i] = (1.0 / m) * d_z;
    lout[i] = -(y[i] * log(y_hat) + (1.0 - y[i]) * log(1.0 - y_hat));
}
"""

X_I = np.array([0, 1, 1, 1, 1], dtype=np.float32)
X_J = np.array([0, 0, 0, 1, 1], dtype=np.float32)
Y = np.array([0, 0, 0, 1, 1], dtype=np.float32)


def train(iterations: int = 100, learning_rate: float = 0.1) -> tuple[np.ndarray, float]:
    """Train on the device; return (w, b)."""
    mgr = kp.Manager()
    n = Y.size
    x_i, x_j, y = mgr.tensor(X_I), mgr.tensor(X_J), mgr.tensor(Y)
    w_in, b_in = mgr.tensor([0.001, 0.001]), mgr.tensor([0.0])
    w_out_i, w_out_j, b_out, l_out = (mgr.tensor(np.zeros(n)) for _ in range(4))
    params = [x_i, x_j, y, w_in, w_out_i, w_out_j, b_in, b_out, l_out]

    mgr.sequence().eval(kp.OpSyncDevice(params))
    algo = mgr.algorithm(params, kp.compile_source(SHADER), workgroup=(n, 1, 1), spec_consts=[float(n)])
    step = (mgr.sequence()
            .record(kp.OpSyncDevice([w_in, b_in]))
            .record(kp.OpAlgoDispatch(algo))
            .record(kp.OpSyncLocal([w_out_i, w_out_j, b_out, l_out])))

    for _ in range(iterations):
        step.eval()  # replays the recorded batch
        w_in.data()[0] -= learning_rate * w_out_i.data().sum()
        w_in.data()[1] -= learning_rate * w_out_j.data().sum()
        b_in.data()[0] -= learning_rate * b_out.data().sum()
    return w_in.data().copy(), float(b_in.data()[0])


def train_numpy(iterations: int = 100, learning_rate: float = 0.1) -> tuple[np.ndarray, float]:
    """The same loop in NumPy (the oracle)."""
    w, b = np.array([0.001, 0.001], dtype=np.float32), np.float32(0)
    for _ in range(iterations):
        d_z = 1 / (1 + np.exp(-(w[0] * X_I + w[1] * X_J + b))) - Y
        w = w - learning_rate * np.array([(X_I * d_z).sum(), (X_J * d_z).sum()], np.float32) / Y.size
        b = b - learning_rate * d_z.sum() / Y.size
    return w, float(b)


if __name__ == "__main__":
    w_np, b_np = train_numpy()
    print(f"numpy: w = [{w_np[0]:.4f}, {w_np[1]:.4f}], b = {b_np:.4f}")
    w, b = train()
    print(f"kdsl:  w = [{w[0]:.4f}, {w[1]:.4f}], b = {b:.4f}")
