"""Deep learning from scratch in NumPy, as the books ("Deep Learning from Scratch" 1 and 2), blog posts and course
assignments write it: im2col/col2im by slice loops and by as_strided, convolution and pooling layers with their
backward passes, batch/layer normalisation, dropout with host masks, LSTM/GRU cells with np.split/np.hsplit gates,
truncated BPTT with gradient clipping, attention, embeddings with np.add.at, optimisers held in dicts of arrays,
numerical gradients with np.nditer, softmax cross-entropy with one-hot labels, a two-layer net trained on host
mini-batches and a word2vec corpus pipeline (tests/porting)."""

import io

import numpy as np
from harness import check


def im2col(np, input_data, filter_h, filter_w, stride=1, pad=0):
    N, C, H, W = input_data.shape
    out_h = (H + 2 * pad - filter_h) // stride + 1
    out_w = (W + 2 * pad - filter_w) // stride + 1
    img = np.pad(input_data, [(0, 0), (0, 0), (pad, pad), (pad, pad)], "constant")
    col = np.zeros((N, C, filter_h, filter_w, out_h, out_w))
    for y in range(filter_h):
        y_max = y + stride * out_h
        for x in range(filter_w):
            x_max = x + stride * out_w
            col[:, :, y, x, :, :] = img[:, :, y:y_max:stride, x:x_max:stride]
    return col.transpose(0, 4, 5, 1, 2, 3).reshape(N * out_h * out_w, -1)


def col2im(np, col, input_shape, filter_h, filter_w, stride=1, pad=0):
    N, C, H, W = input_shape
    out_h = (H + 2 * pad - filter_h) // stride + 1
    out_w = (W + 2 * pad - filter_w) // stride + 1
    col = col.reshape(N, out_h, out_w, C, filter_h, filter_w).transpose(0, 3, 4, 5, 1, 2)
    img = np.zeros((N, C, H + 2 * pad + stride - 1, W + 2 * pad + stride - 1))
    for y in range(filter_h):
        y_max = y + stride * out_h
        for x in range(filter_w):
            x_max = x + stride * out_w
            img[:, :, y:y_max:stride, x:x_max:stride] += col[:, :, y, x, :, :]
    return img[:, :, pad : H + pad, pad : W + pad]


def conv_layer_book(np, x_host, W_host, dout_seed=3):
    x, Wt = np.asarray(x_host), np.asarray(W_host)
    b = np.arange(Wt.shape[0]) * 0.1
    results = {}
    for stride, pad in ((1, 1), (2, 0)):
        FN, C, FH, FW = Wt.shape
        N, C, H, W = x.shape
        out_h = 1 + int((H + 2 * pad - FH) / stride)
        out_w = 1 + int((W + 2 * pad - FW) / stride)
        col = im2col(np, x, FH, FW, stride, pad)
        col_W = Wt.reshape(FN, -1).T
        out = np.dot(col, col_W) + b
        out = out.reshape(N, out_h, out_w, -1).transpose(0, 3, 1, 2)
        dout = np.cos(np.arange(out.size) * 0.37).reshape(out.shape)
        dout = dout.transpose(0, 2, 3, 1).reshape(-1, FN)
        db = np.sum(dout, axis=0)
        dW = np.dot(col.T, dout).transpose(1, 0).reshape(FN, C, FH, FW)
        dcol = np.dot(dout, col_W.T)
        dx = col2im(np, dcol, x.shape, FH, FW, stride, pad)
        results[f"s{stride}p{pad}"] = {"out": out, "db": db, "dW": dW, "dx": dx, "shape": out.shape}
    return results


def strided_im2col_einsum(np, x_host, w_host, stride=2, pad=1):
    x = np.asarray(x_host, dtype=np.float32)
    w = np.asarray(w_host, dtype=np.float32)
    N, C, H, W = x.shape
    F, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    Hp, Wp = xp.shape[2:]
    out_h, out_w = (Hp - kh) // stride + 1, (Wp - kw) // stride + 1
    s0, s1, s2, s3 = xp.strides
    cols = np.lib.stride_tricks.as_strided(xp, shape=(N, C, out_h, out_w, kh, kw),
                                           strides=(s0, s1, s2 * stride, s3 * stride, s2, s3))
    out = np.einsum("nchwij,fcij->nfhw", cols, w)
    win = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(2, 3))[:, :, ::stride, ::stride]
    out2 = np.tensordot(win, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)
    flat = cols.transpose(0, 2, 3, 1, 4, 5).reshape(N * out_h * out_w, -1)
    return {"out": out, "same": bool(np.allclose(out, out2, atol=1e-5)), "flat_sum": flat.sum(axis=1),
            "dtype": str(out.dtype)}


def pooling_book(np, x_host, pool=2, stride=2):
    x = np.asarray(x_host)
    N, C, H, W = x.shape
    out_h = int(1 + (H - pool) / stride)
    out_w = int(1 + (W - pool) / stride)
    col = im2col(np, x, pool, pool, stride, 0).reshape(-1, pool * pool)
    arg_max = np.argmax(col, axis=1)
    out = np.max(col, axis=1).reshape(N, out_h, out_w, C).transpose(0, 3, 1, 2)
    dout = (np.arange(out.size, dtype=float).reshape(out.shape) % 5 - 2).transpose(0, 2, 3, 1)
    pool_size = pool * pool
    dmax = np.zeros((dout.size, pool_size))
    dmax[np.arange(arg_max.size), arg_max.flatten()] = dout.flatten()
    dmax = dmax.reshape(dout.shape + (pool_size,))
    dcol = dmax.reshape(dmax.shape[0] * dmax.shape[1] * dmax.shape[2], -1)
    dx = col2im(np, dcol, x.shape, pool, pool, stride, 0)
    return {"out": out, "arg_max": arg_max, "dx": dx, "routed": float(dx.sum())}


def maxpool_masks(np, x_host, dout_host):
    x, dout = np.asarray(x_host), np.asarray(dout_host)
    N, C, H, W = x.shape
    ph = pw = s = 2
    Ho, Wo = (H - ph) // s + 1, (W - pw) // s + 1
    out = np.zeros((N, C, Ho, Wo))
    dx = np.zeros_like(x)
    for n in range(N):
        for c in range(C):
            for i in range(Ho):
                for j in range(Wo):
                    window = x[n, c, i * s : i * s + ph, j * s : j * s + pw]
                    out[n, c, i, j] = np.max(window)
                    r, q = np.unravel_index(np.argmax(window), window.shape)
                    dx[n, c, i * s + r, j * s + q] += dout[n, c, i, j]
    fast = x.reshape(N, C, Ho, 2, Wo, 2).max(axis=3).max(axis=4)
    up = np.repeat(np.repeat(fast, 2, axis=2), 2, axis=3)
    mask = x == up
    dx_fast = mask * np.kron(dout, np.ones((2, 2)))
    return {"out": out, "dx": dx, "fast": fast, "dx_fast": dx_fast, "ties": int(mask.sum())}


def batchnorm_book(np, x_host, dout_host, momentum=0.9):
    x4, dout4 = np.asarray(x_host), np.asarray(dout_host)
    input_shape = x4.shape
    N = x4.shape[0]
    x = x4.reshape(N, -1)
    D = x.shape[1]
    gamma, beta = np.ones(D) * 1.5, np.zeros(D) + 0.25
    running_mean, running_var = np.zeros(D), np.zeros(D)
    for _ in range(3):
        mu = x.mean(axis=0)
        xc = x - mu
        var = np.mean(xc**2, axis=0)
        std = np.sqrt(var + 10e-7)
        xn = xc / std
        running_mean = momentum * running_mean + (1 - momentum) * mu
        running_var = momentum * running_var + (1 - momentum) * var
    out = (gamma * xn + beta).reshape(*input_shape)
    dout = dout4.reshape(N, -1)
    dbeta = dout.sum(axis=0)
    dgamma = np.sum(xn * dout, axis=0)
    dxn = gamma * dout
    dxc = dxn / std
    dstd = -np.sum((dxn * xc) / (std * std), axis=0)
    dvar = 0.5 * dstd / std
    dxc += (2.0 / N) * xc * dvar
    dmu = np.sum(dxc, axis=0)
    dx = (dxc - dmu / N).reshape(*input_shape)
    test_out = gamma * ((x - running_mean) / np.sqrt(running_var + 10e-7)) + beta
    xs = x4.transpose(0, 2, 3, 1).reshape(-1, x4.shape[1])
    spatial = ((xs - xs.mean(axis=0)) / np.sqrt(xs.var(axis=0) + 1e-5)).reshape(
        N, x4.shape[2], x4.shape[3], -1).transpose(0, 3, 1, 2)
    mu_l = x.mean(axis=1, keepdims=True)
    var_l = x.var(axis=1, keepdims=True)
    layer = (x - mu_l) / np.sqrt(var_l + 1e-5)
    return {"out": out, "dx": dx, "dgamma": dgamma, "dbeta": dbeta, "test": test_out, "spatial": spatial,
            "layer": layer, "layer_std": layer.std(axis=1), "dx_sum": float(np.abs(dx.sum(axis=0)).max())}


def dropout_host_masks(np, x_host, r_host, ratio=0.4):
    x = np.asarray(x_host, dtype=np.float32)
    mask = np.asarray(r_host) > ratio
    train = x * mask
    test = x * (1.0 - ratio)
    dout = np.ones_like(x) * 2
    dx = dout * mask
    keep = 1 - ratio
    inv_mask = (np.asarray(r_host) < keep) / keep
    inverted = x * inv_mask
    one = x[:1] * mask[:1]
    return {"train": train, "test": test, "dx": dx, "inverted": inverted, "kept": int(mask.sum()),
            "one": one, "dtype": str(train.dtype), "inv_dtype": inverted.dtype.kind}


def sigmoid(np, x):
    return 1 / (1 + np.exp(-x))


def lstm_sequence(np, x_host, Wx_host, Wh_host, dh_host):
    x = np.asarray(x_host, dtype=np.float32)
    Wx, Wh = np.asarray(Wx_host, dtype=np.float32), np.asarray(Wh_host, dtype=np.float32)
    N, T, D = x.shape
    H = Wh.shape[0]
    b = np.zeros(4 * H, dtype=np.float32)
    b[H : 2 * H] = 1.0  # forget-gate bias
    h, c = np.zeros((N, H), dtype=np.float32), np.zeros((N, H), dtype=np.float32)
    hs, caches = np.empty((N, T, H), dtype=np.float32), []
    for t in range(T):
        A = np.dot(x[:, t, :], Wx) + np.dot(h, Wh) + b
        f, g, i, o = np.split(A, 4, axis=1)
        f, g, i, o = sigmoid(np, f), np.tanh(g), sigmoid(np, i), sigmoid(np, o)
        c_prev, h_prev = c, h
        c = f * c_prev + g * i
        h = o * np.tanh(c)
        hs[:, t, :] = h
        caches.append((x[:, t, :], h_prev, c_prev, i, f, g, o, c))
    dh_next = np.asarray(dh_host, dtype=np.float32)
    dc_next = np.zeros_like(dh_next)
    dWx, dWh, db = np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(b)
    for t in reversed(range(T)):
        xt, h_prev, c_prev, i, f, g, o, c_t = caches[t]
        tanh_c = np.tanh(c_t)
        ds = dc_next + (dh_next * o) * (1 - tanh_c**2)
        dc_next = ds * f
        di, df, do, dg = ds * g, ds * c_prev, dh_next * tanh_c, ds * i
        di *= i * (1 - i)
        df *= f * (1 - f)
        do *= o * (1 - o)
        dg *= 1 - g**2
        dA = np.hstack((df, dg, di, do))
        dWh += np.dot(h_prev.T, dA)
        dWx += np.dot(xt.T, dA)
        db += dA.sum(axis=0)
        dh_next = np.dot(dA, Wh.T)
    return {"hs": hs, "last": hs[:, -1], "dWx": dWx, "dWh": dWh, "db": db, "dh0": dh_next,
            "dtype": str(hs.dtype)}


def gru_hsplit(np, x_host, W_host, U_host):
    x = np.asarray(x_host)
    W, U = np.asarray(W_host), np.asarray(U_host)
    N, T, D = x.shape
    H = U.shape[0]
    Wz, Wr, Wh = np.hsplit(W, 3)
    Uz, Ur, Uh = np.hsplit(U, [H, 2 * H])
    h = np.zeros((N, H))
    outs = []
    for t in range(T):
        xt = x[:, t]
        z = sigmoid(np, xt @ Wz + h @ Uz)
        r = sigmoid(np, xt @ Wr + h @ Ur)
        h_hat = np.tanh(xt @ Wh + (r * h) @ Uh)
        h = (1 - z) * h + z * h_hat
        outs.append(h)
    hs = np.stack(outs, axis=1)
    gates = np.array_split(x.reshape(N * T, D) @ W, 3, axis=1)
    return {"hs": hs, "h": h, "gate_norms": [float(np.linalg.norm(gte)) for gte in gates],
            "pooled": hs.mean(axis=1), "single": hs[:1, -1:]}


def truncated_bptt(np, xs_host, Wx_host, Wh_host, max_norm=0.5):
    xs = np.asarray(xs_host)
    params = [np.asarray(Wx_host), np.asarray(Wh_host), np.zeros(Wh_host.shape[0])]
    grads = [np.zeros_like(p) for p in params]
    N, T, D = xs.shape
    state = None
    norms, losses = [], []
    for start in range(0, T, 3):
        chunk = xs[:, start : start + 3]
        Wx, Wh, b = params
        H = Wh.shape[0]
        if state is None:
            state = np.zeros((N, H))
        hs, cache = np.empty((N, chunk.shape[1], H)), []
        h = state
        for t in range(chunk.shape[1]):
            h_prev = h
            h = np.tanh(np.dot(h_prev, Wh) + np.dot(chunk[:, t, :], Wx) + b)
            hs[:, t, :] = h
            cache.append((chunk[:, t, :], h_prev, h))
        state = h
        loss = 0.5 * np.sum(hs**2)
        losses.append(float(loss))
        dhs = hs
        dWx, dWh, db = np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(b)
        dh = 0
        for t in reversed(range(chunk.shape[1])):
            x_t, h_prev, h_next = cache[t]
            dt = (dhs[:, t, :] + dh) * (1 - h_next**2)
            db += np.sum(dt, axis=0)
            dWh += np.dot(h_prev.T, dt)
            dWx += np.dot(x_t.T, dt)
            dh = np.dot(dt, Wh.T)
        grads[0][...] = dWx
        grads[1][...] = dWh
        grads[2][...] = db
        total_norm = 0
        for grad in grads:
            total_norm += np.sum(grad**2)
        total_norm = np.sqrt(total_norm)
        norms.append(float(total_norm))
        rate = max_norm / (total_norm + 1e-6)
        if rate < 1:
            for grad in grads:
                grad *= rate
        for i in range(len(params)):
            params[i] -= 0.1 * grads[i]
    return {"params": params, "grads": grads, "norms": norms, "losses": losses, "state": state}


def attention_book2(np, hs_host, h_host, q_host):
    hs, h = np.asarray(hs_host), np.asarray(h_host)
    N, T, H = hs.shape
    hr = h.reshape(N, 1, H)
    s = np.sum(hs * hr, axis=2)
    s = s - s.max(axis=1, keepdims=True)
    a = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    ar = a.reshape(N, T, 1)
    c = np.sum(hs * ar, axis=1)
    dc = np.ones((N, H)) * np.arange(H)
    dt = dc.reshape(N, 1, H).repeat(T, axis=1)
    dhs = dt * ar
    da = np.sum(dt * hs, axis=2)
    ds = a * (da - np.sum(a * da, axis=1, keepdims=True))
    q = np.asarray(q_host, dtype=np.float32)
    L, d = q.shape[1], q.shape[2]
    scores = q @ q.transpose(0, 2, 1) / np.sqrt(d)
    causal = np.triu(np.ones((L, L)), k=1).astype(bool)
    scores = np.where(causal, -1e9, scores)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    ctx = w @ q
    return {"a": a, "c": c, "dhs": dhs, "ds": ds, "w": w, "ctx": ctx, "rows": w.sum(-1),
            "upper": float(w[:, np.triu_indices(L, 1)[0], np.triu_indices(L, 1)[1]].max())}


def embedding_grads(np, W_host, idx_host, h_host):
    W = np.asarray(W_host)
    idx = np.asarray(idx_host)
    out = W[idx]
    dout = np.arange(out.size, dtype=float).reshape(out.shape) / 10
    dW = np.zeros_like(W)
    dW[...] = 0
    np.add.at(dW, idx, dout)
    dW_loop = np.zeros_like(W)
    for i, word_id in enumerate(idx):
        dW_loop[word_id] += dout[i]
    ctx = np.stack([idx[:-1], idx[1:]], axis=1)
    out2 = W[ctx]
    h = out2.sum(axis=1) / 2
    dW2 = np.zeros_like(W)
    np.add.at(dW2, ctx, np.repeat((h / 2)[:, None, :], 2, axis=1))
    target_W = W[idx[:-1]]
    dot = np.sum(target_W * np.asarray(h_host), axis=1)
    score = sigmoid(np, dot)
    return {"out": out, "dW": dW, "loop_same": bool(np.array_equal(dW, dW_loop)), "dW2": dW2, "score": score,
            "touched": np.flatnonzero(dW.any(axis=1))}


class Layer:
    def __init__(self, W):
        self.W = W


def optimizers_in_dicts(np, W1_host, W2_host, g1_host, g2_host):
    results = {}
    for name in ("sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adam"):
        params = {"W1": np.asarray(W1_host).copy(), "W2": np.asarray(W2_host, dtype=np.float32)}
        layer = Layer(params["W1"])
        state = {}
        lr = 0.01
        for it in range(1, 6):
            grads = {"W1": np.asarray(g1_host) * it, "W2": np.asarray(g2_host, dtype=np.float32) / it}
            if not state:
                for key, val in params.items():
                    state[key] = np.zeros_like(val)
                    state["m" + key] = np.zeros_like(val)
            for key in params.keys():
                g = grads[key]
                if name == "sgd":
                    params[key] -= lr * g
                elif name == "momentum":
                    state[key] = 0.9 * state[key] - lr * g
                    params[key] += state[key]
                elif name == "nesterov":
                    params[key] += 0.9 * 0.9 * state[key]
                    params[key] -= (1 + 0.9) * lr * g
                    state[key] *= 0.9
                    state[key] -= lr * g
                elif name == "adagrad":
                    state[key] += g * g
                    params[key] -= lr * g / (np.sqrt(state[key]) + 1e-7)
                elif name == "rmsprop":
                    state[key] *= 0.99
                    state[key] += (1 - 0.99) * g * g
                    params[key] -= lr * g / (np.sqrt(state[key]) + 1e-7)
                else:
                    lr_t = lr * np.sqrt(1.0 - 0.999**it) / (1.0 - 0.9**it)
                    state["m" + key] += (1 - 0.9) * (g - state["m" + key])
                    state[key] += (1 - 0.999) * (g**2 - state[key])
                    params[key] -= lr_t * state["m" + key] / (np.sqrt(state[key]) + 1e-7)
        results[name] = {"W1": params["W1"], "W2": params["W2"], "shared": bool(layer.W is params["W1"]),
                         "layer_W": layer.W, "W2_kind": params["W2"].dtype.kind}
    return results


def numerical_gradient_nditer(np, W_host, x_host, t_host):
    W, x, t = np.asarray(W_host), np.asarray(x_host), np.asarray(t_host)

    def loss(W):
        z = x @ W
        z = z - z.max(axis=1, keepdims=True)
        y = np.exp(z) / np.sum(np.exp(z), axis=1, keepdims=True)
        return -np.sum(np.log(y[np.arange(len(t)), t] + 1e-7)) / len(t)

    def numerical_gradient(f, x):
        h = 1e-4
        grad = np.zeros_like(x)
        it = np.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
        while not it.finished:
            idx = it.multi_index
            tmp_val = x[idx]
            x[idx] = float(tmp_val) + h
            fxh1 = f(x)
            x[idx] = tmp_val - h
            fxh2 = f(x)
            grad[idx] = (fxh1 - fxh2) / (2 * h)
            x[idx] = tmp_val
            it.iternext()
        return grad

    num = numerical_gradient(loss, W)
    z = x @ W
    y = np.exp(z - z.max(axis=1, keepdims=True))
    y /= y.sum(axis=1, keepdims=True)
    y[np.arange(len(t)), t] -= 1
    ana = x.T @ y / len(t)
    rel = np.max(np.abs(num - ana) / np.maximum(1e-8, np.abs(num) + np.abs(ana)))
    # an update while an nditer over W is open, then the gradient check again (cs231n's
    # eval_numerical_gradient_array walks a readwrite iterator while the program writes W itself)
    it = np.nditer(W, flags=["multi_index"], op_flags=["readwrite"])
    W -= 0.5 * ana
    while not it.finished:
        ix = it.multi_index
        W[ix] = W[ix] * 2
        it.iternext()
    vals = np.zeros(3)
    with np.nditer(vals, op_flags=["readwrite"]) as it2:
        for v in it2:
            v[...] = 7
    return {"num": num, "ana": ana, "close": bool(rel < 5e-2), "W_after": W, "vals": vals}


def softmax(np, x):
    if x.ndim == 2:
        x = x.T
        x = x - np.max(x, axis=0)
        y = np.exp(x) / np.sum(np.exp(x), axis=0)
        return y.T
    x = x - np.max(x)
    return np.exp(x) / np.sum(np.exp(x))


def cross_entropy_error(np, y, t):
    if y.ndim == 1:
        t = t.reshape(1, t.size)
        y = y.reshape(1, y.size)
    if t.size == y.size:
        t = t.argmax(axis=1)
    batch_size = y.shape[0]
    return -np.sum(np.log(y[np.arange(batch_size), t] + 1e-7)) / batch_size


def softmax_cross_entropy(np, a_host, y_host, k=4):
    a, y = np.asarray(a_host), np.asarray(y_host)
    p = softmax(np, a)
    onehot = np.eye(k)[y]
    loss_labels = cross_entropy_error(np, p, y)
    loss_onehot = cross_entropy_error(np, p, onehot)
    p1 = softmax(np, a[0])
    loss_one = cross_entropy_error(np, p1, onehot[0])
    loss_one_label = cross_entropy_error(np, p1, y[:1])
    acc = np.sum(np.argmax(p, axis=1) == y) / float(a.shape[0])
    acc2 = (p.argmax(axis=1) == onehot.argmax(axis=1)).mean()
    dx = (p - onehot) / a.shape[0]
    big = softmax(np, a * 300)
    return {"p": p, "loss": float(loss_labels), "same": bool(np.isclose(loss_labels, loss_onehot)),
            "one": float(loss_one), "one_label": float(loss_one_label), "acc": float(acc), "acc2": float(acc2),
            "dx": dx, "big_finite": bool(np.isfinite(big).all()), "p1": p1, "onehot_kind": onehot.dtype.kind}


def two_layer_net(np, X_host, y_host, perms, W1_host, W2_host, epochs=4, batch=8):
    X, y = np.asarray(X_host), np.asarray(y_host)
    D, Hn = W1_host.shape
    K = W2_host.shape[1]
    params = {"W1": np.asarray(W1_host) * np.sqrt(2.0 / D), "b1": np.zeros(Hn),
              "W2": np.asarray(W2_host) * np.sqrt(2.0 / Hn), "b2": np.zeros(K)}
    lam = 1e-3
    history, accs, lrs = [], [], []
    n = X.shape[0]
    for epoch in range(epochs):
        lr = 0.5 * 0.5 ** (epoch // 2)
        lr_cos = 0.5 * (1 + np.cos(np.pi * epoch / epochs)) * lr
        lrs.append(float(lr_cos))
        perm = perms[epoch]
        for s in range(0, n, batch):
            idx = perm[s : s + batch]
            xb, tb = X[idx], y[idx]
            h1 = np.dot(xb, params["W1"]) + params["b1"]
            mask = h1 <= 0
            r = h1.copy()
            r[mask] = 0
            scores = np.dot(r, params["W2"]) + params["b2"]
            p = softmax(np, scores)
            wd = 0.0
            for key in ("W1", "W2"):
                wd += 0.5 * lam * np.sum(params[key] ** 2)
            loss = cross_entropy_error(np, p, tb) + wd
            history.append(float(loss))
            bs = tb.shape[0]
            dx = p.copy()
            dx[np.arange(bs), tb] -= 1
            dx = dx / bs
            grads = {"W2": np.dot(r.T, dx) + lam * params["W2"], "b2": np.sum(dx, axis=0)}
            dr = np.dot(dx, params["W2"].T)
            dr[mask] = 0
            grads["W1"] = np.dot(xb.T, dr) + lam * params["W1"]
            grads["b1"] = np.sum(dr, axis=0)
            for key in params:
                params[key] -= lr_cos * grads[key]
        pred = np.argmax(np.maximum(0, X @ params["W1"] + params["b1"]) @ params["W2"] + params["b2"], axis=1)
        accs.append(float(np.sum(pred == y) / float(n)))
    return {"history": history, "accs": accs, "lrs": lrs, "W2": params["W2"], "b1": params["b1"]}


def time_softmax_ignore_label(np, xs_host, ts_host, ignore_label=-1):
    xs, ts = np.asarray(xs_host), np.asarray(ts_host)
    N, T, V = xs.shape
    mask = ts != ignore_label
    xs = xs.reshape(N * T, V)
    ts = ts.reshape(N * T)
    mask = mask.reshape(N * T)
    ys = softmax(np, xs)
    ls = np.log(ys[np.arange(N * T), ts])
    ls *= mask
    loss = -np.sum(ls)
    loss /= mask.sum()
    dx = ys.copy()
    dx[np.arange(N * T), ts] -= 1
    dx /= mask.sum()
    dx *= mask[:, np.newaxis]
    last_col = ys[np.arange(N * T), -1]
    return {"loss": float(loss), "dx": dx.reshape((N, T, V)), "ls": ls, "last_col": last_col}


def word2vec_pipeline(np, text, window_size=1):
    text = text.lower().replace(".", " .")
    words = text.split(" ")
    word_to_id, id_to_word = {}, {}
    for word in words:
        if word not in word_to_id:
            new_id = len(word_to_id)
            word_to_id[word] = new_id
            id_to_word[new_id] = word
    corpus = np.array([word_to_id[w] for w in words])
    vocab_size = len(word_to_id)
    target = corpus[window_size:-window_size]
    contexts = []
    for idx in range(window_size, len(corpus) - window_size):
        cs = []
        for t in range(-window_size, window_size + 1):
            if t == 0:
                continue
            cs.append(corpus[idx + t])
        contexts.append(cs)
    contexts = np.array(contexts)
    one_hot = np.zeros((target.shape[0], vocab_size), dtype=np.int32)
    for idx, word_id in enumerate(target):
        one_hot[idx, word_id] = 1
    C = np.zeros((vocab_size, vocab_size), dtype=np.int32)
    for idx, word_id in enumerate(corpus):
        for i in range(1, window_size + 1):
            if idx - i >= 0:
                C[word_id, corpus[idx - i]] += 1
            if idx + i < len(corpus):
                C[word_id, corpus[idx + i]] += 1
    M = np.zeros_like(C, dtype=np.float32)
    N = np.sum(C)
    S = np.sum(C, axis=0)
    for i in range(C.shape[0]):
        for j in range(C.shape[1]):
            pmi = np.log2(C[i, j] * N / (S[j] * S[i]) + 1e-8)
            M[i, j] = max(0, pmi)
    query = C[word_to_id["you"]]
    nx = query / (np.sqrt(np.sum(query**2)) + 1e-8)
    sims = np.array([np.dot(C[i] / (np.sqrt(np.sum(C[i] ** 2)) + 1e-8), nx) for i in range(vocab_size)])
    order = (-1 * sims).argsort(kind="stable")
    similar = [id_to_word[int(i)] for i in order[:3]]
    return {"corpus": corpus, "contexts": contexts, "target": target, "one_hot": one_hot, "C": C, "ppmi": M,
            "similar": similar, "sims": sims}


def views_and_edge_batches(np, X_host, W_host):
    X = np.asarray(X_host)
    W = np.asarray(W_host, dtype=np.float32)
    XT = X.T.copy().T  # Fortran-ordered copy
    half = X[:, ::2]
    out_full = X @ W
    out_T = XT @ W
    out_half = half @ W[::2]
    one = X[3] @ W
    one_batch = X[3:4] @ W
    orig_shape = X.reshape(X.shape[0], 2, -1).shape
    x4 = X.reshape(orig_shape)
    dx = (np.ones((X.shape[0], W.shape[1])) @ W.T).reshape(*orig_shape)
    norm = X / np.linalg.norm(X, axis=1, keepdims=True)
    clipped = np.clip(X, -1.0, 1.0)
    g = [X, W, clipped]
    gnorm = np.sqrt(sum(np.sum(gi**2) for gi in g))
    scaled = [gi * min(1.0, 1.0 / float(gnorm)) for gi in g]
    return {"full": out_full, "T": out_T, "half": out_half, "one": one, "one_batch": one_batch, "dx": dx,
            "x4": x4[:, 1], "norm": norm, "gnorm": float(gnorm), "scaled": scaled,
            "kinds": [out_full.dtype.kind, str(one.dtype)]}


def min_char_rnn(np, data, hidden_size, seq_length, seed_host):
    chars = sorted(set(data))
    vocab_size = len(chars)
    char_to_ix = {ch: i for i, ch in enumerate(chars)}
    Wxh = np.asarray(seed_host[0][:hidden_size, :vocab_size]) * 0.1
    Whh = np.asarray(seed_host[1][:hidden_size, :hidden_size]) * 0.1
    Why = np.asarray(seed_host[2][:vocab_size, :hidden_size]) * 0.1
    bh, by = np.zeros((hidden_size, 1)), np.zeros((vocab_size, 1))

    def lossFun(inputs, targets, hprev):
        xs, hs, ys, ps = {}, {}, {}, {}
        hs[-1] = np.copy(hprev)
        loss = 0
        for t in range(len(inputs)):
            xs[t] = np.zeros((vocab_size, 1))
            xs[t][inputs[t]] = 1
            hs[t] = np.tanh(np.dot(Wxh, xs[t]) + np.dot(Whh, hs[t - 1]) + bh)
            ys[t] = np.dot(Why, hs[t]) + by
            ps[t] = np.exp(ys[t]) / np.sum(np.exp(ys[t]))
            loss += -np.log(ps[t][targets[t], 0])
        dWxh, dWhh, dWhy = np.zeros_like(Wxh), np.zeros_like(Whh), np.zeros_like(Why)
        dbh, dby = np.zeros_like(bh), np.zeros_like(by)
        dhnext = np.zeros_like(hs[0])
        for t in reversed(range(len(inputs))):
            dy = np.copy(ps[t])
            dy[targets[t]] -= 1
            dWhy += np.dot(dy, hs[t].T)
            dby += dy
            dh = np.dot(Why.T, dy) + dhnext
            dhraw = (1 - hs[t] * hs[t]) * dh
            dbh += dhraw
            dWxh += np.dot(dhraw, xs[t].T)
            dWhh += np.dot(dhraw, hs[t - 1].T)
            dhnext = np.dot(Whh.T, dhraw)
        for dparam in [dWxh, dWhh, dWhy, dbh, dby]:
            np.clip(dparam, -5, 5, out=dparam)
        return loss, dWxh, dWhh, dWhy, dbh, dby, hs[len(inputs) - 1]

    # gradCheck: a few entries of each parameter perturbed through param.flat
    inputs = [char_to_ix[ch] for ch in data[:seq_length]]
    targets = [char_to_ix[ch] for ch in data[1 : seq_length + 1]]
    hprev = np.zeros((hidden_size, 1))
    _, dWxh, dWhh, dWhy, dbh, dby, _ = lossFun(inputs, targets, hprev)
    rel_errors = []
    for param, dparam in zip([Wxh, Whh, Why, bh, by], [dWxh, dWhh, dWhy, dbh, dby], strict=True):
        assert dparam.shape == param.shape
        for ri in (0, param.size // 2, param.size - 1):
            old_val = param.flat[ri]
            param.flat[ri] = old_val + 1e-2
            cg0 = lossFun(inputs, targets, hprev)[0]
            param.flat[ri] = old_val - 1e-2
            cg1 = lossFun(inputs, targets, hprev)[0]
            param.flat[ri] = old_val
            grad_analytic = dparam.flat[ri]
            grad_numerical = (cg0 - cg1) / (2 * 1e-2)
            rel_errors.append(float(abs(grad_analytic - grad_numerical) / abs(grad_numerical + grad_analytic + 1e-12)))
    mWxh, mWhh, mWhy = np.zeros_like(Wxh), np.zeros_like(Whh), np.zeros_like(Why)
    mbh, mby = np.zeros_like(bh), np.zeros_like(by)
    smooth_loss = -np.log(1.0 / vocab_size) * seq_length
    n, p = 0, 0
    losses = []
    while n < 6:
        if p + seq_length + 1 >= len(data) or n == 0:
            hprev = np.zeros((hidden_size, 1))
            p = 0
        inputs = [char_to_ix[ch] for ch in data[p : p + seq_length]]
        targets = [char_to_ix[ch] for ch in data[p + 1 : p + seq_length + 1]]
        loss, dWxh, dWhh, dWhy, dbh, dby, hprev = lossFun(inputs, targets, hprev)
        smooth_loss = smooth_loss * 0.999 + loss * 0.001
        losses.append(float(loss))
        for param, dparam, mem in zip([Wxh, Whh, Why, bh, by], [dWxh, dWhh, dWhy, dbh, dby],
                                      [mWxh, mWhh, mWhy, mbh, mby], strict=True):
            mem += dparam * dparam
            param += -0.1 * dparam / np.sqrt(mem + 1e-8)
        p += seq_length
        n += 1
    h = hprev
    x = np.zeros((vocab_size, 1))
    x[char_to_ix[data[0]]] = 1
    greedy = []
    for _ in range(8):
        h = np.tanh(np.dot(Wxh, x) + np.dot(Whh, h) + bh)
        y = np.dot(Why, h) + by
        ix = int(np.argmax(y))
        x = np.zeros((vocab_size, 1))
        x[ix] = 1
        greedy.append(chars[ix])
    return {"losses": losses, "smooth": float(smooth_loss), "grad_ok": max(rel_errors) < 0.05, "Why": Why,
            "greedy": "".join(greedy)}


def eval_numerical_gradient_array(np, f, x, df, h=1e-5):
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h
        pos = f(x).copy()
        x[ix] = oldval - h
        neg = f(x).copy()
        x[ix] = oldval
        grad[ix] = np.sum((pos - neg) * df) / (2 * h)
        it.iternext()
    return grad


def cs231n_layer_checks(np, x_host, w_host, dout_host):
    x = np.asarray(x_host)
    w = np.asarray(w_host)
    b = np.linspace(-0.1, 0.2, w.shape[1])
    dout = np.asarray(dout_host)

    def affine_forward(x, w, b):
        return x.reshape(x.shape[0], -1).dot(w) + b

    def relu_forward(x):
        return np.maximum(0, x)

    dx_num = eval_numerical_gradient_array(np, lambda x: affine_forward(x, w, b), x, dout)
    dw_num = eval_numerical_gradient_array(np, lambda w: affine_forward(x, w, b), w, dout)
    db_num = eval_numerical_gradient_array(np, lambda b: affine_forward(x, w, b), b, dout)
    dx = dout.dot(w.T).reshape(x.shape)
    dw = x.reshape(x.shape[0], -1).T.dot(dout)
    db = np.sum(dout, axis=0)
    a = affine_forward(x, w, b)
    da_num = eval_numerical_gradient_array(np, relu_forward, a, dout)
    da = dout * (a > 0)

    def rel_error(x, y):
        return np.max(np.abs(x - y) / (np.maximum(1e-8, np.abs(x) + np.abs(y))))

    return {"dx": dx, "dw": dw, "db": db, "da": da, "dx_num": dx_num, "db_num": db_num,
            "errors_small": [bool(rel_error(dx_num, dx) < 1e-2), bool(rel_error(dw_num, dw) < 1e-2),
                             bool(rel_error(db_num, db) < 1e-2), bool(rel_error(da_num, da) < 1e-2)]}


def mnist_style_loading(np, raw_images, raw_labels, n=6, side=4):
    images = np.frombuffer(raw_images, np.uint8, offset=16).reshape(-1, side * side)
    labels = np.frombuffer(raw_labels, np.uint8, offset=8)
    x = images.astype(np.float32)
    x /= 255.0
    T = np.zeros((labels.size, 10))
    for idx, row in enumerate(T):
        row[labels[idx]] = 1
    x4 = x.reshape(-1, 1, side, side)
    magic = int.from_bytes(raw_images[:4], "big")
    header = np.frombuffer(raw_images[:16], dtype=np.dtype(">u4"))
    window_len = 5
    curve = np.cumsum(np.asarray([0.9, 0.7, 0.8, 0.5, 0.55, 0.4, 0.45, 0.3, 0.35, 0.2]))
    s = np.r_[curve[window_len - 1 : 0 : -1], curve, curve[-1:-window_len:-1]]
    w = np.kaiser(window_len, 2)
    smooth = np.convolve(w / w.sum(), s, mode="valid")
    return {"x": x[:2], "T": T, "x4_mean": x4.mean(axis=(2, 3)), "magic": magic, "header": header,
            "labels": labels, "smooth": smooth[2 : len(smooth) - 2], "n": int(x.shape[0]), "kind": x.dtype.kind}


def negative_sampling(np, corpus_host, W_in_host, W_out_host, negatives_host, power=0.75):
    import collections

    corpus = np.asarray(corpus_host)
    counts = collections.Counter()
    for word_id in corpus:
        counts[word_id] += 1
    vocab_size = len(counts)
    word_p = np.zeros(vocab_size)
    for i in range(vocab_size):
        word_p[i] = counts[i]
    word_p = np.power(word_p, power)
    word_p /= np.sum(word_p)
    W_in, W_out = np.asarray(W_in_host), np.asarray(W_out_host)
    contexts = np.stack([corpus[:-2], corpus[2:]], axis=1)
    target = corpus[1:-1]
    h = W_in[contexts].mean(axis=1)
    batch_size = target.shape[0]
    negative_sample = np.asarray(negatives_host)

    def embed_dot(idx, h):
        target_W = W_out[idx]
        return np.sum(target_W * h, axis=1), target_W

    def sigmoid_with_loss(x, t):
        y = 1 / (1 + np.exp(-x))
        loss = -np.sum(np.log(np.c_[1 - y, y][np.arange(len(t)), t] + 1e-7)) / len(t)
        return loss, (y - t) / len(t)

    score, tW = embed_dot(target, h)
    correct_label = np.ones(batch_size, dtype=np.int32)
    loss, dscore = sigmoid_with_loss(score, correct_label)
    dW_out = np.zeros_like(W_out)
    np.add.at(dW_out, target, dscore.reshape(-1, 1) * h)
    dh = dscore.reshape(-1, 1) * tW
    negative_label = np.zeros(batch_size, dtype=np.int32)
    for i in range(negative_sample.shape[1]):
        negative_target = negative_sample[:, i]
        score, tW = embed_dot(negative_target, h)
        l, dscore = sigmoid_with_loss(score, negative_label)
        loss += l
        np.add.at(dW_out, negative_target, dscore.reshape(-1, 1) * h)
        dh += dscore.reshape(-1, 1) * tW
    dW_in = np.zeros_like(W_in)
    for i in range(contexts.shape[1]):
        np.add.at(dW_in, contexts[:, i], dh / contexts.shape[1])
    return {"word_p": word_p, "loss": float(loss), "dW_out": dW_out, "dW_in": dW_in, "vocab": vocab_size}


def conv_transpose_and_rot90(np, x_host, w_host, stride=2):
    x, w = np.asarray(x_host), np.asarray(w_host)
    N, C, H, W = x.shape
    _, F, k, _ = w.shape
    Ho, Wo = (H - 1) * stride + k, (W - 1) * stride + k
    out = np.zeros((N, F, Ho, Wo))
    for i in range(H):
        for j in range(W):
            out[:, :, i * stride : i * stride + k, j * stride : j * stride + k] += np.einsum(
                "nc,cfij->nfij", x[:, :, i, j], w)
    ii, jj = np.meshgrid(np.arange(H) * stride, np.arange(W) * stride, indexing="ij")
    out2 = np.zeros((N, F, Ho, Wo))
    for a in range(k):
        for b in range(k):
            np.add.at(out2, (slice(None), slice(None), ii + a, jj + b),
                      np.einsum("nchw,cf->nfhw", x, w[:, :, a, b]))
    dilated = np.zeros((N, C, (H - 1) * stride + 1, (W - 1) * stride + 1))
    dilated[:, :, ::stride, ::stride] = x
    padded = np.pad(dilated, ((0, 0), (0, 0), (k - 1, k - 1), (k - 1, k - 1)))
    wf = np.rot90(w, 2, axes=(2, 3))
    win = np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(2, 3))
    out3 = np.einsum("nchwij,cfij->nfhw", win, wf)
    return {"out": out, "same2": bool(np.allclose(out, out2)), "out3": out3,
            "flip_same": bool(np.array_equal(wf, np.flip(w, axis=(2, 3))))}


def transformer_block(np, x_host, Wq_host, heads=2):
    x = np.asarray(x_host, dtype=np.float32)
    B, T, D = x.shape
    pos = np.arange(T)[:, np.newaxis]
    i = np.arange(D)[np.newaxis, :]
    angle = pos / np.power(10000, (2 * (i // 2)) / np.float32(D))
    pe = np.zeros((T, D))
    pe[:, 0::2] = np.sin(angle[:, 0::2])
    pe[:, 1::2] = np.cos(angle[:, 1::2])
    x = x + pe
    Wq, Wk, Wv = np.split(np.asarray(Wq_host, dtype=np.float32), 3, axis=1)

    def split_heads(t):
        return t.reshape(B, T, heads, D // heads).transpose(0, 2, 1, 3)

    q, k, v = split_heads(x @ Wq), split_heads(x @ Wk), split_heads(x @ Wv)
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(D // heads)
    mask = np.tril(np.ones((T, T)))
    scores = np.where(mask == 0, -np.inf, scores)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    ctx = (w @ v).transpose(0, 2, 1, 3).reshape(B, T, D)
    h = x + ctx
    mu = h.mean(axis=-1, keepdims=True)
    var = ((h - mu) ** 2).mean(axis=-1, keepdims=True)
    ln = (h - mu) / np.sqrt(var + 1e-5)
    gelu = 0.5 * ln * (1 + np.tanh(np.sqrt(2 / np.pi) * (ln + 0.044715 * ln**3)))
    return {"pe": pe, "w": w, "ctx": ctx, "ln": ln, "gelu": gelu, "zeros_above": float(w[..., 0, 1:].sum()),
            "kind": ctx.dtype.kind}


def parameter_vectors(np, shapes, seed_vals):
    params = {}
    offset = 0
    for name, shape in shapes:
        size = int(np.prod(shape))
        params[name] = np.asarray(seed_vals[offset : offset + size]).reshape(shape)
        offset += size
    keys = list(params)
    vec = np.concatenate([params[k].ravel() for k in keys])
    sizes = [params[k].size for k in keys]
    parts = np.split(vec, np.cumsum(sizes)[:-1])
    rebuilt = {k: part.reshape(params[k].shape) for k, part in zip(keys, parts, strict=True)}
    grads = {k: np.sin(v) for k, v in params.items()}
    norm = np.linalg.norm([np.linalg.norm(g) for g in grads.values()])
    clip = 1.0
    coef = clip / (norm + 1e-6)
    if coef < 1:
        grads = {k: g * coef for k, g in grads.items()}
    best = {k: v.copy() for k, v in params.items()}
    for v in params.values():
        v *= 0.5
    buf = io.BytesIO()
    np.savez(buf, **best)
    buf.seek(0)
    loaded = np.load(buf)
    restored = {k: loaded[k] for k in loaded.files}
    lrs = []
    warmup, total = 3, 10
    for step in range(total):
        if step < warmup:
            lr = 1e-3 * (step + 1) / warmup
        else:
            lr = 1e-3 * 0.5 * (1 + np.cos(np.pi * (step - warmup) / (total - warmup)))
        lrs.append(float(lr))
    return {"vec": vec, "same": all(bool(np.array_equal(rebuilt[k], best[k])) for k in keys),
            "norm": float(norm), "clipped": float(np.linalg.norm(np.concatenate([g.ravel() for g in grads.values()]))),
            "restored": restored, "halved": params, "lrs": lrs, "files": sorted(loaded.files)}


def remove_duplicate(np, params, grads):
    params, grads = params[:], grads[:]
    while True:
        find_flg = False
        L = len(params)
        for i in range(0, L - 1):
            for j in range(i + 1, L):
                if params[i] is params[j]:
                    grads[i] += grads[j]
                    find_flg = True
                    params.pop(j)
                    grads.pop(j)
                elif params[i].ndim == 2 and params[j].ndim == 2 and \
                        params[i].T.shape == params[j].shape and np.all(params[i].T == params[j]):
                    grads[i] += grads[j].T
                    find_flg = True
                    params.pop(j)
                    grads.pop(j)
                if find_flg:
                    break
            if find_flg:
                break
        if not find_flg:
            break
    return params, grads


def seq2seq_weight_tying(np, questions_host, answers_host, embed_host, Wh_host, epochs=3, batch=3):
    questions = np.asarray(questions_host)[:, ::-1]  # the reversed-input trick
    answers = np.asarray(answers_host)
    V, D = embed_host.shape
    embed_W = np.asarray(embed_host).astype("f")
    Wh = np.asarray(Wh_host).astype("f")
    affine_b = np.zeros(V).astype("f")
    affine_W = embed_W.T  # weight tying: the output layer shares the embedding
    params = [embed_W, Wh, affine_W, affine_b]
    losses = []
    for epoch in range(epochs):
        idx = np.asarray([(epoch * 2 + k) % len(questions) for k in range(len(questions))])
        x, t = questions[idx], answers[idx]
        for it in range(len(x) // batch):
            bx, bt = x[it * batch : (it + 1) * batch], t[it * batch : (it + 1) * batch]
            N, T = bx.shape
            h = np.zeros((N, D), dtype="f")
            for s in range(T):
                h = np.tanh(embed_W[bx[:, s]] + np.dot(h, Wh))
            xs = embed_W[bt[:, :-1]]
            hs = np.tanh(xs + np.dot(h, Wh)[:, np.newaxis, :])
            rx = hs.reshape(-1, D)
            score = np.dot(rx, affine_W) + affine_b
            y = score - score.max(axis=1, keepdims=True)
            y = np.exp(y)
            y /= y.sum(axis=1, keepdims=True)
            ts = bt[:, 1:].reshape(-1)
            loss = -np.sum(np.log(y[np.arange(len(ts)), ts] + 1e-7)) / len(ts)
            dy = y.copy()
            dy[np.arange(len(ts)), ts] -= 1
            dy /= len(ts)
            grads = [np.zeros_like(embed_W), np.zeros_like(Wh), np.dot(rx.T, dy), np.sum(dy, axis=0)]
            dhs = np.dot(dy, affine_W.T).reshape(hs.shape) * (1 - hs**2)
            np.add.at(grads[0], bt[:, :-1], dhs)
            grads[1][...] = np.dot(h.T, dhs.sum(axis=1))
            p2, g2 = remove_duplicate(np, params, grads)
            for i in range(len(p2)):
                p2[i] -= 0.5 * g2[i]
            losses.append(float(loss))
    sample_id = answers[0, 0]
    h = np.zeros((1, D), dtype="f")
    for s in range(questions.shape[1]):
        h = np.tanh(embed_W[questions[:1, s]] + np.dot(h, Wh))
    sampled = []
    for _ in range(4):
        x = np.array(sample_id).reshape((1, 1))
        out = np.tanh(embed_W[x] + np.dot(h, Wh)[:, np.newaxis, :])
        score = np.dot(out.reshape(1, D), affine_W) + affine_b
        sample_id = np.argmax(score.flatten())
        sampled.append(int(sample_id))
    return {"losses": losses, "embed": embed_W, "tied": bool(np.all(affine_W.T == embed_W)),
            "n_unique": len(remove_duplicate(np, params, [np.zeros_like(q) for q in params])[0]),
            "sampled": sampled, "rev": questions[:2], "dtype": str(embed_W.dtype)}


def int8_quantization(np, W_host, X_host):
    w, x = np.asarray(W_host), np.asarray(X_host)
    scale = np.abs(w).max() / 127
    q = np.clip(np.round(w / scale), -128, 127).astype(np.int8)
    xs = np.abs(x).max() / 127
    qx = np.clip(np.round(x / xs), -128, 127).astype(np.int8)
    acc = qx.astype(np.int32) @ q.astype(np.int32)
    y = acc.astype(np.float32) * (scale * xs)
    wrapped = qx @ q  # int8 products wrap, as NumPy's int8 matmul does
    per_channel = np.abs(w).max(axis=0, keepdims=True) / 127
    qc = np.round(w / per_channel).astype(np.int8)
    err_c = np.abs(qc * per_channel - w).max()
    binary = (x > 0) @ (w > 0)
    return {"q": q, "acc": acc, "wrapped": wrapped, "y": y, "err": float(np.abs(y - x @ w).max()) < 0.2,
            "err_c": float(err_c) <= float(per_channel.max()) / 2 + 1e-6, "binary": binary,
            "dtypes": [str(q.dtype), str(acc.dtype), str(wrapped.dtype), str(binary.dtype)]}


def classification_metrics(np, y_host, scores_host, k=4):
    y, scores = np.asarray(y_host), np.asarray(scores_host)
    pred = np.argmax(scores, axis=1)
    cm = np.zeros((k, k), dtype=int)
    for t, p in zip(y, pred, strict=True):
        cm[t, p] += 1
    cm2 = np.zeros((k, k), dtype=int)
    np.add.at(cm2, (y, pred), 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.diag(cm) / cm.sum(axis=0)
        recall = np.diag(cm) / cm.sum(axis=1)
        f1 = 2 * precision * recall / (precision + recall)
    counts = np.bincount(y, minlength=k)
    class_weight = len(y) / (k * np.maximum(counts, 1))
    top3 = np.argsort(scores, axis=1, kind="stable")[:, -3:]
    top3_acc = (top3 == y[:, None]).any(axis=1).mean()
    part = np.argpartition(-scores, 2, axis=1)[:, :2]
    top2_acc = (part == y[:, None]).any(axis=1).mean()
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    nll = -np.log(np.clip(p[np.arange(len(y)), y], 1e-15, 1 - 1e-15)).mean()
    conf = p.max(axis=1)
    bins = np.linspace(0, 1, 6)
    which = np.digitize(conf, bins[1:-1])
    ece = 0.0
    for b in range(5):
        sel = which == b
        if sel.any():
            ece += sel.mean() * abs(float((pred[sel] == y[sel]).mean()) - float(conf[sel].mean()))
    return {"cm": cm, "same": bool(np.array_equal(cm, cm2)), "f1": np.nan_to_num(f1), "recall": recall,
            "weights": class_weight, "top3": float(top3_acc), "top2": float(top2_acc), "nll": float(nll),
            "ece": float(ece), "acc": float(np.mean(pred == y))}


class Tensor:
    """A scalar-free reverse-mode autograd value over whole arrays (micrograd, vectorised)."""

    def __init__(self, np, data, parents=()):
        self.np = np
        self.data = np.asarray(data)
        self.grad = np.zeros_like(self.data)
        self.parents = parents
        self._backward = lambda: None

    def _unbroadcast(self, grad, shape):
        while grad.ndim > len(shape):
            grad = grad.sum(axis=0)
        for i, dim in enumerate(shape):
            if dim == 1:
                grad = grad.sum(axis=i, keepdims=True)
        return grad

    def __add__(self, other):
        out = Tensor(self.np, self.data + other.data, (self, other))

        def backward():
            self.grad += self._unbroadcast(out.grad, self.data.shape)
            other.grad += self._unbroadcast(out.grad, other.data.shape)

        out._backward = backward
        return out

    def __mul__(self, other):
        out = Tensor(self.np, self.data * other.data, (self, other))

        def backward():
            self.grad += self._unbroadcast(other.data * out.grad, self.data.shape)
            other.grad += self._unbroadcast(self.data * out.grad, other.data.shape)

        out._backward = backward
        return out

    def __matmul__(self, other):
        out = Tensor(self.np, self.data @ other.data, (self, other))

        def backward():
            self.grad += out.grad @ other.data.T
            other.grad += self.data.T @ out.grad

        out._backward = backward
        return out

    def relu(self):
        out = Tensor(self.np, self.np.maximum(self.data, 0), (self,))

        def backward():
            self.grad += (self.data > 0) * out.grad

        out._backward = backward
        return out

    def log_softmax_nll(self, y):
        np = self.np
        z = self.data - self.data.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        n = len(y)
        out = Tensor(np, -logp[np.arange(n), y].mean(), (self,))

        def backward():
            g = np.exp(logp)
            g[np.arange(n), y] -= 1
            self.grad += g / n * out.grad

        out._backward = backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for p in v.parents:
                    build(p)
                topo.append(v)

        build(self)
        self.grad = self.np.ones_like(self.data)
        for v in reversed(topo):
            v._backward()


def autograd_engine(np, X_host, y_host, W1_host, W2_host, steps=4):
    X, y = np.asarray(X_host), np.asarray(y_host)
    W1 = Tensor(np, W1_host)
    b1 = Tensor(np, np.zeros((1, W1_host.shape[1])))
    W2 = Tensor(np, W2_host)
    gain = Tensor(np, np.ones(()))
    losses = []
    for _ in range(steps):
        for t in (W1, b1, W2, gain):
            t.grad = np.zeros_like(t.data)
        h = (Tensor(np, X) @ W1 + b1).relu()
        loss = ((h @ W2) * gain).log_softmax_nll(y)
        loss.backward()
        losses.append(float(loss.data))
        for t in (W1, b1, W2, gain):
            t.data -= 0.3 * t.grad
    return {"losses": losses, "W1": W1.data, "b1_grad": b1.grad, "gain": gain.data, "gain_shape": gain.grad.shape}


def augmentation(np, imgs_host, offsets, flips, cut):
    x = np.asarray(imgs_host)
    N, C, H, W = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), mode="reflect")
    out = np.empty_like(x)
    for n in range(N):
        dy, dx = offsets[n]
        crop = padded[n, :, dy : dy + H, dx : dx + W]
        out[n] = crop[:, :, ::-1] if flips[n] else crop
    cy, cx, size = cut
    y1, y2 = np.clip(cy - size // 2, 0, H), np.clip(cy + size // 2, 0, H)
    x1, x2 = np.clip(cx - size // 2, 0, W), np.clip(cx + size // 2, 0, W)
    mask = np.ones((H, W), np.float32)
    mask[y1:y2, x1:x2] = 0.0
    cutout = out * mask
    lam = 0.7
    mixed = lam * out + (1 - lam) * out[::-1]
    targets = lam * np.eye(3)[[0, 1, 2, 0][:N]] + (1 - lam) * np.eye(3)[[0, 1, 2, 0][:N][::-1]]
    u8 = np.clip(out * 255, 0, 255).round().astype(np.uint8)
    norm = (u8 / 255.0 - np.array([0.5, 0.4])[:, None, None]) / np.array([0.2, 0.3])[:, None, None]
    return {"out": out, "cutout": cutout, "mixed": mixed, "targets": targets, "u8": u8, "norm": norm,
            "zeroed": int((mask == 0).sum())}


def mixed_precision_loss_scaling(np, X_host, y_host, W_host, steps=5):
    X = np.asarray(X_host, dtype=np.float32)
    y = np.asarray(y_host)
    master = np.asarray(W_host, dtype=np.float32)
    scale = 2.0**10
    skipped, scales = 0, []
    for step in range(steps):
        w16 = master.astype(np.float16)
        logits = (X.astype(np.float16) @ w16).astype(np.float32)
        z = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
        g = p.copy()
        g[np.arange(len(y)), y] -= 1
        scaled = (X.T @ (g / len(y)) * scale).astype(np.float16)
        if step == 2:
            scaled[0, 0] = np.inf  # an overflowing step
        if not np.isfinite(scaled).all():
            skipped += 1
            scale /= 2
            scales.append(scale)
            continue
        master -= 0.5 * scaled.astype(np.float32) / scale
        scales.append(scale)
    return {"master": master, "skipped": skipped, "scales": scales, "dtype": str(w16.dtype)}


def dezero(np):
    """DeZero ("Deep Learning from Scratch 3"): a define-by-run autograd whose Variable outranks ndarray's
    operators (``__array_priority__``), functions with generations and weak references to their outputs."""
    import contextlib
    import weakref

    class Config:
        enable_backprop = True

    @contextlib.contextmanager
    def no_grad():
        old = Config.enable_backprop
        Config.enable_backprop = False
        try:
            yield
        finally:
            Config.enable_backprop = old

    def as_array(x):
        return np.array(x) if np.isscalar(x) else x

    def as_variable(obj):
        return obj if isinstance(obj, Variable) else Variable(obj)

    def sum_to(x, shape):
        lead = x.ndim - len(shape)
        axis = tuple(range(lead)) + tuple(i + lead for i, sx in enumerate(shape) if sx == 1)
        y = x.sum(axis, keepdims=True)
        return y.squeeze(tuple(range(lead))) if lead > 0 else y

    class Variable:
        __array_priority__ = 200

        def __init__(self, data, name=None):
            if data is not None and not isinstance(data, np.ndarray):
                raise TypeError(f"{type(data)} is not supported")
            self.data, self.name, self.grad, self.creator, self.generation = data, name, None, None, 0

        @property
        def shape(self):
            return self.data.shape

        def set_creator(self, func):
            self.creator = func
            self.generation = func.generation + 1

        def backward(self, retain_grad=False):
            if self.grad is None:
                self.grad = Variable(np.ones_like(self.data))
            funcs, seen = [], set()

            def add_func(f):
                if f not in seen:
                    funcs.append(f)
                    seen.add(f)
                    funcs.sort(key=lambda x: x.generation)

            add_func(self.creator)
            while funcs:
                f = funcs.pop()
                gys = [output().grad for output in f.outputs]
                gxs = f.backward(*gys)
                if not isinstance(gxs, tuple):
                    gxs = (gxs,)
                for x, gx in zip(f.inputs, gxs, strict=True):
                    x.grad = gx if x.grad is None else x.grad + gx
                    if x.creator is not None:
                        add_func(x.creator)
                if not retain_grad:
                    for y in f.outputs:
                        y().grad = None

        def __mul__(self, other):
            return Mul()(self, other)

        def __add__(self, other):
            return Add()(self, other)

        def __sub__(self, other):
            return Add()(self, Mul()(other, Variable(np.array(-1.0))))

        __rmul__, __radd__ = __mul__, __add__

        def __rsub__(self, other):
            return Add()(Mul()(self, Variable(np.array(-1.0))), other)

    class Function:
        def __call__(self, *inputs):
            inputs = [as_variable(as_array(x)) for x in inputs]
            ys = self.forward(*[x.data for x in inputs])
            if not isinstance(ys, tuple):
                ys = (ys,)
            outputs = [Variable(as_array(y)) for y in ys]
            if Config.enable_backprop:
                self.generation = max(x.generation for x in inputs)
                for output in outputs:
                    output.set_creator(self)
                self.inputs = inputs
                self.outputs = [weakref.ref(output) for output in outputs]
            return outputs if len(outputs) > 1 else outputs[0]

    class Add(Function):
        def forward(self, x0, x1):
            self.x0_shape, self.x1_shape = x0.shape, x1.shape
            return x0 + x1

        def backward(self, gy):
            return (Variable(as_array(sum_to(gy.data, self.x0_shape))),
                    Variable(as_array(sum_to(gy.data, self.x1_shape))))

    class Mul(Function):
        def forward(self, x0, x1):
            return x0 * x1

        def backward(self, gy):
            x0, x1 = self.inputs
            return (Variable(as_array(sum_to((gy * x1).data, x0.shape))),
                    Variable(as_array(sum_to((gy * x0).data, x1.shape))))

    class MatMul(Function):
        def forward(self, x, W):
            return x.dot(W)

        def backward(self, gy):
            x, W = self.inputs
            return Variable(gy.data.dot(W.data.T)), Variable(x.data.T.dot(gy.data))

    class Sigmoid(Function):
        def forward(self, x):
            return np.tanh(x * 0.5) * 0.5 + 0.5

        def backward(self, gy):
            y = self.outputs[0]()
            return gy * y * (1 - y)

    class MeanSquaredError(Function):
        def forward(self, x0, x1):
            diff = x0 - x1
            return (diff**2).sum() / len(diff)

        def backward(self, gy):
            x0, x1 = self.inputs
            diff = x0.data - x1.data
            gx0 = Variable(gy.data * diff * (2.0 / len(diff)))
            return gx0, Variable(-gx0.data)

    return Variable, MatMul, Sigmoid, MeanSquaredError, no_grad, Config


def dezero_training(np, x_host, y_host, W1_host, W2_host, iters=6):
    Variable, MatMul, Sigmoid, MeanSquaredError, no_grad, Config = dezero(np)
    x, y = Variable(np.asarray(x_host)), Variable(np.asarray(y_host))
    W1, b1 = Variable(np.asarray(W1_host)), Variable(np.zeros(W1_host.shape[1]))
    W2, b2 = Variable(np.asarray(W2_host)), Variable(np.zeros(W2_host.shape[1]))
    losses = []
    for _ in range(iters):
        y_pred = MatMul()(Sigmoid()(MatMul()(x, W1) + b1), W2) + b2
        loss = MeanSquaredError()(y, y_pred)
        for p in (W1, b1, W2, b2):
            p.grad = None
        loss.backward()
        for p in (W1, b1, W2, b2):
            p.data -= 0.2 * p.grad.data
        losses.append(float(loss.data))
    a = np.array(2.0)
    v = Variable(np.array(3.0))
    r = a * v + np.array(1.0) - v  # ndarray's operators defer to Variable (its __array_priority__)
    r.backward()
    with no_grad():
        z = Sigmoid()(MatMul()(x, W1))
    return {"losses": losses, "W1": W1.data, "b2": b2.data, "r": float(r.data), "v_grad": float(v.grad.data),
            "r_is_variable": type(r).__name__, "no_grad_creator": z.creator is None,
            "backprop_back": Config.enable_backprop}


def cs231n_fast_layers(np, x_host, w_host, b_host, dout_host, stride=2, pad=1):
    x, w, b = np.asarray(x_host), np.asarray(w_host), np.asarray(b_host)
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    x_padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    H += 2 * pad
    W += 2 * pad
    out_h = (H - HH) // stride + 1
    out_w = (W - WW) // stride + 1
    shape = (C, HH, WW, N, out_h, out_w)
    strides = (H * W, W, 1, C * H * W, stride * W, stride)
    strides = x.itemsize * np.array(strides)
    x_stride = np.lib.stride_tricks.as_strided(x_padded, shape=shape, strides=strides)
    x_cols = np.ascontiguousarray(x_stride)
    x_cols.shape = (C * HH * WW, N * out_h * out_w)
    res = w.reshape(F, -1).dot(x_cols) + b.reshape(-1, 1)
    res.shape = (F, N, out_h, out_w)
    conv = np.ascontiguousarray(res.transpose(1, 0, 2, 3))
    # max_pool_forward_reshape / max_pool_backward_reshape
    p = x[:, :, :4, :4]
    x_reshaped = p.reshape(N, C, 2, 2, 2, 2)
    out = x_reshaped.max(axis=3).max(axis=4)
    dout = np.asarray(dout_host)
    dx_reshaped = np.zeros_like(x_reshaped)
    out_newaxis = out[:, :, :, np.newaxis, :, np.newaxis]
    mask = x_reshaped == out_newaxis
    dout_newaxis = dout[:, :, :, np.newaxis, :, np.newaxis]
    dout_broadcast, _ = np.broadcast_arrays(dout_newaxis, dx_reshaped)
    dx_reshaped[mask] = dout_broadcast[mask]
    dx_reshaped /= np.sum(mask, axis=(3, 5), keepdims=True)
    dx = dx_reshaped.reshape(p.shape)
    return {"conv": conv, "pool": out, "dx": dx, "strides": strides, "cols_shape": x_cols.shape}


def test_conv_layer_im2col_col2im_book():
    rng = np.random.default_rng(901)
    check(conv_layer_book, rng.normal(size=(2, 3, 5, 6)), rng.normal(0, 0.3, (4, 3, 3, 3)), rtol=1e-3, atol=1e-4)


def test_strided_im2col_einsum_float32():
    rng = np.random.default_rng(902)
    check(strided_im2col_einsum, rng.normal(size=(2, 2, 7, 6)), rng.normal(size=(3, 2, 3, 3)), rtol=1e-3,
          atol=1e-4)


def test_pooling_layer_argmax_col2im():
    check(pooling_book, np.random.default_rng(903).normal(size=(2, 3, 4, 6)))


def test_maxpool_loops_masks_kron():
    rng = np.random.default_rng(904)
    check(maxpool_masks, rng.normal(size=(1, 2, 4, 6)), rng.normal(size=(1, 2, 2, 3)))


def test_batchnorm_4d_running_stats_layernorm():
    rng = np.random.default_rng(905)
    check(batchnorm_book, rng.normal(1, 2, (4, 2, 3, 3)), rng.normal(size=(4, 2, 3, 3)), rtol=1e-3, atol=1e-4)


def test_dropout_with_host_masks():
    rng = np.random.default_rng(906)
    check(dropout_host_masks, rng.normal(size=(5, 6)), rng.random((5, 6)))


def test_lstm_sequence_split_gates_backward():
    rng = np.random.default_rng(907)
    check(lstm_sequence, rng.normal(size=(2, 5, 3)), rng.normal(0, 0.4, (3, 16)), rng.normal(0, 0.4, (4, 16)),
          rng.normal(size=(2, 4)), rtol=1e-3, atol=1e-4)


def test_gru_hsplit_gates():
    rng = np.random.default_rng(908)
    check(gru_hsplit, rng.normal(size=(3, 4, 2)), rng.normal(0, 0.5, (2, 9)), rng.normal(0, 0.5, (3, 9)),
          rtol=1e-3, atol=1e-4)


def test_truncated_bptt_with_clipping():
    rng = np.random.default_rng(909)
    check(truncated_bptt, rng.normal(size=(2, 7, 3)), rng.normal(0, 0.5, (3, 4)), rng.normal(0, 0.5, (4, 4)),
          rtol=1e-3, atol=1e-4)


def test_attention_weight_sum_and_causal_softmax():
    rng = np.random.default_rng(910)
    check(attention_book2, rng.normal(size=(2, 5, 3)), rng.normal(size=(2, 3)), rng.normal(size=(2, 4, 3)),
          rtol=1e-3, atol=1e-5)


def test_embedding_gradients_add_at_and_loop():
    rng = np.random.default_rng(911)
    check(embedding_grads, rng.normal(size=(6, 3)), rng.integers(0, 6, 9), rng.normal(size=3), rtol=1e-3,
          atol=1e-5)


def test_optimizers_in_dicts_in_place():
    rng = np.random.default_rng(912)
    check(optimizers_in_dicts, rng.normal(size=(3, 4)), rng.normal(size=(4, 2)), rng.normal(size=(3, 4)),
          rng.normal(size=(4, 2)), rtol=1e-3, atol=1e-5)


def test_numerical_gradient_nditer_multi_index():
    rng = np.random.default_rng(913)
    # float32 central differences with h=1e-4 are good to ~1e-3 (NumPy's float64 to 1e-8): compared loosely
    check(numerical_gradient_nditer, rng.normal(0, 0.5, (3, 2)), rng.normal(size=(5, 3)), rng.integers(0, 2, 5),
          rtol=2e-2, atol=2e-3)


def test_softmax_cross_entropy_one_hot_size_one_batch():
    rng = np.random.default_rng(914)
    check(softmax_cross_entropy, rng.normal(size=(6, 4)), rng.integers(0, 4, 6), rtol=1e-3, atol=1e-5)


def test_two_layer_net_host_minibatches_schedules():
    rng = np.random.default_rng(915)
    X = rng.normal(size=(24, 3))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)
    perms = [rng.permutation(24) for _ in range(4)]
    check(two_layer_net, X, y, perms, rng.normal(size=(3, 8)), rng.normal(size=(8, 3)), rtol=2e-3, atol=1e-4)


def test_time_softmax_with_ignore_label():
    rng = np.random.default_rng(916)
    ts = rng.integers(0, 5, (2, 4))
    ts[0, 3] = ts[1, 0] = -1
    check(time_softmax_ignore_label, rng.normal(size=(2, 4, 5)), ts, rtol=1e-3, atol=1e-5)


def test_word2vec_corpus_contexts_ppmi():
    check(word2vec_pipeline, "You say goodbye and I say hello. You say hi and I say bye.", rtol=1e-3,
          atol=1e-4)


def test_noncontiguous_views_and_size_one_batches():
    rng = np.random.default_rng(917)
    check(views_and_edge_batches, rng.normal(size=(6, 4)), rng.normal(size=(4, 3)), rtol=1e-3, atol=1e-5)


def test_min_char_rnn_flat_gradcheck_adagrad():
    rng = np.random.default_rng(918)
    weights = [rng.normal(size=(12, 12)) for _ in range(3)]
    check(min_char_rnn, "hello world, hello there", 6, 5, weights, rtol=2e-3, atol=1e-4)


def test_cs231n_eval_numerical_gradient_array():
    rng = np.random.default_rng(919)
    # float32 central differences with h=1e-5 (cs231n's) are good to ~1e-2 in kdsl: the data here is float64
    check(cs231n_layer_checks, rng.normal(size=(3, 2, 2)), rng.normal(size=(4, 3)), rng.normal(size=(3, 3)),
          rtol=1e-3, atol=1e-4)


def test_mnist_style_loading_one_hot_rows_smooth_curve():
    rng = np.random.default_rng(920)
    header = np.array([2051, 6, 4, 4], dtype=">u4").tobytes()
    images = header + rng.integers(0, 256, 6 * 16, dtype=np.uint8).tobytes()
    labels = np.array([2049, 6], dtype=">u4").tobytes() + rng.integers(0, 10, 6, dtype=np.uint8).tobytes()
    check(mnist_style_loading, images, labels)


def test_negative_sampling_counter_unigram_c_():
    rng = np.random.default_rng(921)
    corpus = np.array([0, 1, 2, 3, 4, 1, 5, 6, 0, 1, 2, 3])
    check(negative_sampling, corpus, rng.normal(0, 0.5, (7, 3)), rng.normal(0, 0.5, (7, 3)),
          rng.integers(0, 7, (10, 2)), rtol=1e-3, atol=1e-5)


def test_conv_transpose_add_at_rot90():
    rng = np.random.default_rng(922)
    check(conv_transpose_and_rot90, rng.normal(size=(2, 2, 3, 3)), rng.normal(size=(2, 3, 3, 3)), rtol=1e-3,
          atol=1e-4)


def test_transformer_block_positional_causal_layernorm():
    rng = np.random.default_rng(923)
    check(transformer_block, rng.normal(size=(2, 5, 4)), rng.normal(0, 0.5, (4, 12)), rtol=1e-3, atol=1e-4)


def test_parameter_vectors_clipping_savez_schedules():
    shapes = [("W1", (3, 4)), ("b1", (4,)), ("W2", (4, 2))]
    check(parameter_vectors, shapes, np.random.default_rng(924).normal(size=24), rtol=1e-3, atol=1e-6)


def test_seq2seq_weight_tying_reversed_input_generate():
    rng = np.random.default_rng(925)
    questions = rng.integers(0, 6, (6, 4))
    answers = np.concatenate([np.full((6, 1), 6), np.sort(questions, axis=1)[:, :3]], axis=1)
    check(seq2seq_weight_tying, questions, answers, rng.normal(0, 0.5, (7, 4)), rng.normal(0, 0.5, (4, 4)),
          rtol=2e-3, atol=1e-4)


def test_int8_quantization_integer_matmul():
    rng = np.random.default_rng(926)
    check(int8_quantization, rng.normal(size=(6, 5)), rng.normal(size=(4, 6)), rtol=1e-3, atol=1e-4)


def test_classification_metrics_confusion_topk_calibration():
    rng = np.random.default_rng(927)
    y = rng.integers(0, 4, 20)
    scores = rng.normal(size=(20, 4)) + 1.5 * np.eye(4)[y]
    check(classification_metrics, y, scores, rtol=1e-3, atol=1e-5)


def test_autograd_engine_unbroadcast_topological_backward():
    rng = np.random.default_rng(928)
    X = rng.normal(size=(10, 3))
    check(autograd_engine, X, (X[:, 0] > 0).astype(int), rng.normal(0, 0.5, (3, 5)), rng.normal(0, 0.5, (5, 2)),
          rtol=1e-3, atol=1e-5)


def test_augmentation_crop_flip_cutout_mixup():
    rng = np.random.default_rng(929)
    check(augmentation, rng.random((3, 2, 5, 6)), [(0, 1), (2, 4), (4, 0)], [True, False, True], (1, 4, 4))


def test_mixed_precision_float16_loss_scaling():
    rng = np.random.default_rng(930)
    X = rng.normal(size=(8, 3))
    # float16 products: NumPy's half matmul rounds every partial sum, kdsl's accumulates in float32 (documented)
    check(mixed_precision_loss_scaling, X, (X[:, 1] > 0).astype(int), rng.normal(0, 0.5, (3, 2)), rtol=5e-3,
          atol=2e-3)


def test_dezero_variables_outrank_ndarray_operators():
    rng = np.random.default_rng(931)
    x = rng.random((12, 1))
    check(dezero_training, x, np.sin(2 * np.pi * x) + rng.random((12, 1)) * 0.1, rng.normal(0, 0.5, (1, 5)),
          rng.normal(0, 0.5, (5, 1)), rtol=1e-3, atol=1e-5)


def test_cs231n_fast_layers_strides_array_and_broadcast_masks():
    rng = np.random.default_rng(932)
    check(cs231n_fast_layers, rng.normal(size=(2, 3, 5, 5)).astype(np.float32), rng.normal(size=(4, 3, 3, 3)),
          rng.normal(size=4), rng.normal(size=(2, 3, 2, 2)), rtol=1e-3, atol=1e-4)
