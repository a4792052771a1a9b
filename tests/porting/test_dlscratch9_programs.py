"""Deep learning from scratch in NumPy, as the books ("Deep Learning from Scratch" 1 and 2), blog posts and course
assignments write it: im2col/col2im by slice loops and by as_strided, convolution and pooling layers with their
backward passes, batch/layer normalisation, dropout with host masks, LSTM/GRU cells with np.split/np.hsplit gates,
truncated BPTT with gradient clipping, attention, embeddings with np.add.at, optimisers held in dicts of arrays,
numerical gradients with np.nditer, softmax cross-entropy with one-hot labels, a two-layer net trained on host
mini-batches and a word2vec corpus pipeline (tests/porting)."""

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
