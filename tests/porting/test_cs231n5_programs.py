"""cs231n assignment code as students write it: the multiclass SVM loss naive and vectorised (with its gradient),
the softmax loss vectorised, k-NN distances with two loops, one loop and no loops, a two-layer net's forward and
backward pass with a numerical gradient check, batch normalisation forward/backward, inverted dropout,
a naive convolution forward pass with np.pad, max pooling, im2col by index arrays, the SGD-momentum / RMSProp
/ Adam update rules, a vanilla RNN forward and backward through time, word embeddings with np.add.at and the masked
temporal softmax loss, and HOG-like gradient-orientation features (tests/porting)."""

import numpy as np
from harness import check


def svm_loss(np, W_host, X_host, y_host, reg=0.1):
    W, X, y = np.asarray(W_host), np.asarray(X_host), np.asarray(y_host)
    num_train, num_classes = X.shape[0], W.shape[1]
    dW = np.zeros(W.shape)
    loss = 0.0
    for i in range(num_train):
        scores = X[i].dot(W)
        correct = scores[y[i]]
        for j in range(num_classes):
            if j == y[i]:
                continue
            margin = scores[j] - correct + 1
            if margin > 0:
                loss += margin
                dW[:, j] += X[i]
                dW[:, y[i]] -= X[i]
    loss = loss / num_train + reg * np.sum(W * W)
    dW = dW / num_train + 2 * reg * W
    scores = X.dot(W)
    correct = scores[np.arange(num_train), y].reshape(-1, 1)
    margins = np.maximum(0, scores - correct + 1)
    margins[np.arange(num_train), y] = 0
    loss_v = margins.sum() / num_train + reg * np.sum(W * W)
    mask = (margins > 0).astype(float)
    mask[np.arange(num_train), y] = -mask.sum(axis=1)
    dW_v = X.T.dot(mask) / num_train + 2 * reg * W
    return {"loss": float(loss), "dW": dW, "loss_v": float(loss_v), "dW_v": dW_v}


def softmax_loss(np, W_host, X_host, y_host, reg=0.05):
    W, X, y = np.asarray(W_host), np.asarray(X_host), np.asarray(y_host)
    N = X.shape[0]
    scores = X @ W
    scores -= np.max(scores, axis=1, keepdims=True)
    exp = np.exp(scores)
    probs = exp / np.sum(exp, axis=1, keepdims=True)
    loss = -np.sum(np.log(probs[np.arange(N), y])) / N + reg * np.sum(W**2)
    dscores = probs.copy()
    dscores[np.arange(N), y] -= 1
    dW = X.T @ dscores / N + 2 * reg * W
    h = 1e-3
    ix = (1, 2)
    old = W[ix]
    W[ix] = old + h
    s = X @ W
    lp = -np.mean(s[np.arange(N), y] - np.log(np.exp(s).sum(axis=1))) + reg * np.sum(W**2)
    W[ix] = old - h
    s = X @ W
    lm = -np.mean(s[np.arange(N), y] - np.log(np.exp(s).sum(axis=1))) + reg * np.sum(W**2)
    W[ix] = old
    numeric = (lp - lm) / (2 * h)
    rel = abs(numeric - dW[ix]) / max(abs(numeric) + abs(dW[ix]), 1e-8)
    return {"loss": float(loss), "dW": dW, "rel_ok": bool(rel < 1e-2), "pred": np.argmax(probs, axis=1)}


def knn_distances(np, train_host, test_host, ytr_host, k=3):
    Xtr, Xte, ytr = np.asarray(train_host), np.asarray(test_host), np.asarray(ytr_host)
    num_test, num_train = Xte.shape[0], Xtr.shape[0]
    d2 = np.zeros((num_test, num_train))
    for i in range(num_test):
        for j in range(num_train):
            d2[i, j] = np.sqrt(np.sum(np.square(Xte[i] - Xtr[j])))
    d1 = np.zeros((num_test, num_train))
    for i in range(num_test):
        d1[i, :] = np.sqrt(np.sum(np.square(Xtr - Xte[i, :]), axis=1))
    d0 = np.sqrt(np.sum(Xte**2, axis=1, keepdims=True) + np.sum(Xtr**2, axis=1) - 2 * Xte.dot(Xtr.T))
    y_pred = np.zeros(num_test, dtype=int)
    for i in range(num_test):
        closest_y = ytr[np.argsort(d0[i], kind="stable")[:k]]
        y_pred[i] = np.argmax(np.bincount(closest_y))
    diff = np.linalg.norm(d2 - d0, ord="fro")
    return {"d2": d2, "d1": d1, "d0": d0, "pred": y_pred, "same": bool(diff < 1e-3)}


def two_layer_net(np, X_host, y_host, W1_host, W2_host, reg=0.01):
    X, y = np.asarray(X_host), np.asarray(y_host)
    W1, W2 = np.asarray(W1_host), np.asarray(W2_host)
    b1, b2 = np.zeros(W1.shape[1]), np.zeros(W2.shape[1])
    N = X.shape[0]

    def loss_and_grads(W1, b1, W2, b2):
        h = np.maximum(0, X.dot(W1) + b1)
        scores = h.dot(W2) + b2
        shifted = scores - scores.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        loss = -log_probs[np.arange(N), y].mean() + reg * (np.sum(W1 * W1) + np.sum(W2 * W2))
        d = np.exp(log_probs)
        d[np.arange(N), y] -= 1
        d /= N
        grads = {"W2": h.T.dot(d) + 2 * reg * W2, "b2": d.sum(axis=0)}
        dh = d.dot(W2.T)
        dh[h <= 0] = 0
        grads["W1"] = X.T.dot(dh) + 2 * reg * W1
        grads["b1"] = np.sum(dh, axis=0)
        return loss, grads

    history = []
    for _ in range(25):
        loss, g = loss_and_grads(W1, b1, W2, b2)
        history.append(float(loss))
        W1 -= 0.5 * g["W1"]
        b1 -= 0.5 * g["b1"]
        W2 -= 0.5 * g["W2"]
        b2 -= 0.5 * g["b2"]
    pred = np.argmax(np.maximum(0, X @ W1 + b1) @ W2 + b2, axis=1)
    return {"history": history, "W1": W1, "b2": b2, "acc": float((pred == y).mean())}


def batchnorm(np, x_host, dout_host, eps=1e-5):
    x, dout = np.asarray(x_host), np.asarray(dout_host)
    gamma, beta = np.linspace(0.5, 1.5, x.shape[1]), np.linspace(-0.2, 0.2, x.shape[1])
    mu = x.mean(axis=0)
    xc = x - mu
    var = np.mean(xc**2, axis=0)
    std = np.sqrt(var + eps)
    xhat = xc / std
    out = gamma * xhat + beta
    N = x.shape[0]
    dbeta = dout.sum(axis=0)
    dgamma = np.sum(dout * xhat, axis=0)
    dxhat = dout * gamma
    dx = (1.0 / N) / std * (N * dxhat - dxhat.sum(axis=0) - xhat * np.sum(dxhat * xhat, axis=0))
    running_mean = np.zeros(x.shape[1])
    running_mean = 0.9 * running_mean + 0.1 * mu
    return {"out": out, "dx": dx, "dgamma": dgamma, "dbeta": dbeta, "mean0": out.mean(axis=0),
            "std0": out.std(axis=0), "running": running_mean}


def dropout(np, x_host, u_host, p=0.6):
    x, u = np.asarray(x_host), np.asarray(u_host)
    mask = (u < p) / p
    out = x * mask
    dout = np.ones_like(x)
    dx = dout * mask
    kept = np.count_nonzero(mask)
    return {"out": out, "dx": dx, "kept": kept, "mean_ratio": float(out.mean() / x.mean())}


def conv_forward_naive(np, x_host, w_host, stride=2, pad=1):
    x, w = np.asarray(x_host), np.asarray(w_host)
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    b = np.arange(F, dtype=float) * 0.1
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    out = np.zeros((N, F, Ho, Wo))
    for i in range(Ho):
        for j in range(Wo):
            window = xp[:, :, i * stride : i * stride + HH, j * stride : j * stride + WW]
            out[:, :, i, j] = np.tensordot(window, w, axes=([1, 2, 3], [1, 2, 3])) + b
    pool = out.reshape(N, F, Ho // 2, 2, Wo // 2, 2).max(axis=(3, 5))
    return {"out": out, "pool": pool, "shape": out.shape}


def im2col_indices(np, x_host, field=3, stride=1, padding=1):
    x = np.asarray(x_host)
    N, C, H, W = x.shape
    out_h = (H + 2 * padding - field) // stride + 1
    out_w = (W + 2 * padding - field) // stride + 1
    i0 = np.repeat(np.arange(field), field)
    i0 = np.tile(i0, C)
    i1 = stride * np.repeat(np.arange(out_h), out_w)
    j0 = np.tile(np.arange(field), field * C)
    j1 = stride * np.tile(np.arange(out_w), out_h)
    i = i0.reshape(-1, 1) + i1.reshape(1, -1)
    j = j0.reshape(-1, 1) + j1.reshape(1, -1)
    k = np.repeat(np.arange(C), field * field).reshape(-1, 1)
    x_padded = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), mode="constant")
    cols = x_padded[:, k, i, j]
    cols = cols.transpose(1, 2, 0).reshape(field * field * C, -1)
    w = np.ones((2, C * field * field)) / (C * field * field)
    w[1] = np.linspace(-1, 1, C * field * field)
    conv = (w @ cols).reshape(2, out_h, out_w, N).transpose(3, 0, 1, 2)
    x_back = np.zeros_like(x_padded)
    cols_reshaped = cols.reshape(C * field * field, -1, N).transpose(2, 0, 1)
    np.add.at(x_back, (slice(None), k, i, j), cols_reshaped)
    return {"cols": cols, "conv": conv, "overlap": x_back[:, :, padding:-padding, padding:-padding]}


def update_rules(np, w_host, g_host):
    w0, g = np.asarray(w_host), np.asarray(g_host)
    w, v = w0.copy(), np.zeros_like(w0)
    for _ in range(5):
        v = 0.9 * v - 1e-2 * g
        w += v
    sgd_m = w
    w, cache = w0.copy(), np.zeros_like(w0)
    for _ in range(5):
        cache = 0.99 * cache + 0.01 * g**2
        w += -1e-2 * g / (np.sqrt(cache) + 1e-8)
    rms = w
    w, m, vv = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    beta1, beta2 = 0.9, 0.999
    for t in range(1, 6):
        m = beta1 * m + (1 - beta1) * g
        vv = beta2 * vv + (1 - beta2) * g * g
        mt = m / (1 - beta1**t)
        vt = vv / (1 - beta2**t)
        w -= 1e-3 * mt / (np.sqrt(vt) + 1e-8)
    rel = np.max(np.abs(w - w0) / np.maximum(1e-8, np.abs(w) + np.abs(w0)))
    return {"sgd_m": sgd_m, "rms": rms, "adam": w, "rel": float(rel)}


def rnn_step(np, x_host, h0_host, Wx_host, Wh_host, dh_host):
    x, h0, Wx, Wh, dnext = (np.asarray(v) for v in (x_host, h0_host, Wx_host, Wh_host, dh_host))
    b = np.linspace(-0.1, 0.1, Wh.shape[0])
    N, T, D = x.shape
    H = h0.shape[1]
    h = np.zeros((N, T, H))
    prev = h0
    for t in range(T):
        prev = np.tanh(x[:, t, :].dot(Wx) + prev.dot(Wh) + b)
        h[:, t, :] = prev
    dx = np.zeros_like(x)
    dWx, dWh, db = np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(b)
    dprev = np.zeros_like(h0)
    for t in reversed(range(T)):
        hprev = h[:, t - 1, :] if t > 0 else h0
        dtanh = (dnext[:, t, :] + dprev) * (1 - h[:, t, :] ** 2)
        dx[:, t, :] = dtanh.dot(Wx.T)
        dWx += x[:, t, :].T.dot(dtanh)
        dWh += hprev.T.dot(dtanh)
        db += dtanh.sum(axis=0)
        dprev = dtanh.dot(Wh.T)
    return {"h": h, "dx": dx, "dWx": dWx, "dWh": dWh, "db": db, "dh0": dprev}


def embedding_and_temporal_softmax(np, idx_host, W_host, scores_host, mask_host):
    idx, W = np.asarray(idx_host), np.asarray(W_host)
    out = W[idx]
    dout = np.ones_like(out) * np.arange(out.shape[-1])
    dW = np.zeros_like(W)
    np.add.at(dW, idx, dout)
    x, mask = np.asarray(scores_host), np.asarray(mask_host)
    N, T, V = x.shape
    y = idx % V
    x_flat, y_flat, mask_flat = x.reshape(N * T, V), y.reshape(N * T), mask.reshape(N * T)
    probs = np.exp(x_flat - np.max(x_flat, axis=1, keepdims=True))
    probs /= np.sum(probs, axis=1, keepdims=True)
    loss = -np.sum(mask_flat * np.log(probs[np.arange(N * T), y_flat])) / N
    dx_flat = probs.copy()
    dx_flat[np.arange(N * T), y_flat] -= 1
    dx_flat /= N
    dx_flat *= mask_flat[:, None]
    return {"out": out, "dW": dW, "loss": float(loss), "dx": dx_flat.reshape(N, T, V)}


def hog_features(np, img_host, cell=4, bins=6):
    im = np.asarray(img_host)
    gy, gx = np.gradient(im)
    mag = np.sqrt(gx**2 + gy**2)
    ori = np.rad2deg(np.arctan2(gy, gx + 1e-15)) % 180
    n_y, n_x = im.shape[0] // cell, im.shape[1] // cell
    hist = np.zeros((n_y, n_x, bins))
    for i in range(bins):
        temp = np.where(ori < 180 / bins * (i + 1), ori, 0)
        temp = np.where(ori >= 180 / bins * i, temp, 0)
        cond = temp > 0
        m = np.where(cond, mag, 0)
        hist[:, :, i] = m[: n_y * cell, : n_x * cell].reshape(n_y, cell, n_x, cell).mean(axis=(1, 3))
    colour = np.histogram(im.ravel(), bins=5, range=(0, 1), density=True)[0]
    return {"hist": hist, "flat": hist.ravel()[:12], "colour": colour}


def test_svm_loss_naive_and_vectorised():
    rng = np.random.default_rng(521)
    check(svm_loss, rng.normal(0, 0.1, (6, 4)), rng.normal(size=(12, 6)), rng.integers(0, 4, 12), rtol=1e-3,
          atol=1e-4)


def test_softmax_loss_vectorised_with_gradient_check():
    rng = np.random.default_rng(522)
    check(softmax_loss, rng.normal(0, 0.1, (5, 3)), rng.normal(size=(20, 5)), rng.integers(0, 3, 20), rtol=1e-3,
          atol=1e-4)


def test_knn_two_loops_one_loop_no_loops():
    rng = np.random.default_rng(523)
    check(knn_distances, rng.normal(size=(15, 4)), rng.normal(size=(5, 4)), rng.integers(0, 3, 15), rtol=1e-3,
          atol=1e-3)


def test_two_layer_net_forward_backward_sgd():
    rng = np.random.default_rng(524)
    X = rng.normal(size=(30, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
    check(two_layer_net, X, y, rng.normal(0, 0.1, (4, 10)), rng.normal(0, 0.1, (10, 3)), rtol=2e-3, atol=1e-4)


def test_batchnorm_forward_backward():
    rng = np.random.default_rng(525)
    check(batchnorm, rng.normal(2, 3, (16, 5)), rng.normal(size=(16, 5)), rtol=1e-3, atol=1e-4)


def test_inverted_dropout_mask():
    rng = np.random.default_rng(526)
    check(dropout, rng.normal(1, 1, (8, 10)), rng.random((8, 10)))


def test_conv_forward_naive_pad_tensordot_pool():
    rng = np.random.default_rng(527)
    check(conv_forward_naive, rng.normal(size=(2, 3, 7, 7)), rng.normal(size=(4, 3, 3, 3)), rtol=1e-3, atol=1e-4)


def test_im2col_index_arrays_and_col2im_add_at():
    check(im2col_indices, np.random.default_rng(528).normal(size=(2, 2, 4, 5)), rtol=1e-3, atol=1e-4)


def test_sgd_momentum_rmsprop_adam_updates():
    rng = np.random.default_rng(529)
    check(update_rules, rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rtol=1e-3, atol=1e-5)


def test_rnn_forward_backward_through_time():
    rng = np.random.default_rng(530)
    check(rnn_step, rng.normal(size=(2, 4, 3)), rng.normal(size=(2, 5)), rng.normal(0, 0.3, (3, 5)),
          rng.normal(0, 0.3, (5, 5)), rng.normal(size=(2, 4, 5)), rtol=1e-3, atol=1e-4)


def test_word_embedding_add_at_temporal_softmax_mask():
    rng = np.random.default_rng(531)
    check(embedding_and_temporal_softmax, rng.integers(0, 7, (2, 5)), rng.normal(size=(7, 3)),
          rng.normal(size=(2, 5, 4)), rng.random((2, 5)) < 0.7, rtol=1e-3, atol=1e-4)


def test_hog_like_features_gradient_arctan2():
    check(hog_features, np.random.default_rng(532).random((16, 12)), rtol=1e-3, atol=1e-4)
