"""Neural networks from scratch in float16 and float32, as mixed-precision tutorials write them: a float16
softmax cross-entropy with the max trick and its gradient, a two-layer MLP forward/backward in float16 with
float32 master weights (astype round trips, `W -= lr * g` in place), batch normalisation statistics of a float16
batch, global-norm gradient clipping over a dict of arrays, symmetric int8 quantisation with per-row scales and
a dequantised matmul, a float16 overflow check that skips a step (np.isfinite, dynamic loss scaling), and
one-hot encodings by np.eye indexed with labels (tests/porting)."""

import numpy as np
from harness import check


def softmax_xent_half(np, logits, labels):
    z = np.asarray(logits, dtype=np.float16)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    p = e / e.sum(axis=1, keepdims=True)
    n = len(labels)
    loss = -np.log(p[np.arange(n), labels] + np.float16(1e-4)).mean()
    grad = p.copy()
    grad[np.arange(n), labels] -= 1
    grad /= n
    pred = p.argmax(axis=1)
    return {"p": p, "loss": loss, "grad": grad, "acc": float((pred == labels).mean()), "dtype": str(p.dtype),
            "row_sums": p.sum(axis=1)}


def mlp_mixed_precision(np, X, y, W1, W2, lr, steps):
    # (W1.astype(np.float32) of a NumPy W1 stays a NumPy array, and `master1 -= kd_array` is refused by design)
    master1, master2 = np.asarray(W1, dtype=np.float32), np.asarray(W2, dtype=np.float32)
    Xh = np.asarray(X, dtype=np.float16)
    losses = []
    for _ in range(steps):
        w1, w2 = master1.astype(np.float16), master2.astype(np.float16)
        h = Xh @ w1
        a = np.maximum(h, 0)
        out = a @ w2
        diff = out.astype(np.float32) - y[:, None]
        losses.append(float(np.mean(diff ** 2)))
        g_out = (2 * diff / len(y)).astype(np.float16)
        g_w2 = a.T @ g_out
        g_a = g_out @ w2.T
        g_h = g_a * (h > 0)
        g_w1 = Xh.T @ g_h
        master1 -= lr * g_w1.astype(np.float32)
        master2 -= lr * g_w2.astype(np.float32)
    return {"losses": np.array(losses), "W1": master1, "W2": master2, "dec": losses[-1] < losses[0],
            "dtype": [str(master1.dtype), str(g_w1.dtype)]}


def batchnorm_half(np, x, gamma, beta, eps):
    xh = x.astype(np.float16)
    mu = xh.astype(np.float32).mean(axis=0)
    var = xh.astype(np.float32).var(axis=0)
    xhat = (xh - mu) / np.sqrt(var + eps)
    out = (gamma * xhat + beta).astype(np.float16)
    running = np.zeros_like(mu)
    running = 0.9 * running + 0.1 * mu
    return {"mu": mu, "var": var, "out": out, "out_mean": out.astype(np.float32).mean(axis=0),
            "running": running, "dtype": str(out.dtype)}


def clip_global_norm(np, grads, max_norm):
    total = np.sqrt(sum(np.sum(g.astype(np.float32) ** 2) for g in grads.values()))
    scale = min(1.0, max_norm / (float(total) + 1e-6))
    clipped = {k: (g * scale).astype(g.dtype) for k, g in grads.items()}
    after = np.sqrt(sum(np.sum(g.astype(np.float32) ** 2) for g in clipped.values()))
    return {"total": total, "scale": scale, "after": after, "clipped": clipped,
            "dtypes": {k: str(v.dtype) for k, v in clipped.items()}}


def int8_quantise(np, W, X):
    scale = np.abs(W).max(axis=1, keepdims=True) / 127.0
    q = np.clip(np.round(W / scale), -127, 127).astype(np.int8)
    deq = q.astype(np.float32) * scale
    err = np.abs(W - deq).max()
    acc = (X.astype(np.float32) @ q.T.astype(np.int32).astype(np.float32)) * scale.T
    ref = X @ W.T
    zero_rows = np.flatnonzero(np.all(q == 0, axis=1))
    packed = q.view(np.uint8)
    return {"q": q, "err": err, "acc": acc, "rel": np.abs(acc - ref).max() / np.abs(ref).max(),
            "zero_rows": zero_rows, "bytes": packed[:2].tolist(), "sat": int((np.abs(q) == 127).sum())}


def loss_scaling(np, grads16, scale0, steps):
    scale = scale0
    skipped = []
    applied = np.zeros(grads16.shape[1], dtype=np.float32)
    for t in range(steps):
        with np.errstate(over="ignore"):  # the overflow is what the check below looks for
            g = grads16[t % len(grads16)] * np.float16(scale)
        if not np.all(np.isfinite(g)):
            scale /= 2
            skipped.append(t)
            continue
        applied += g.astype(np.float32) / scale
        if t % 3 == 2:
            scale *= 2
    return {"applied": applied, "skipped": skipped, "scale": scale,
            "overflowing": int((np.abs(grads16.astype(np.float32)) * scale0 > np.finfo(np.float16).max).sum())}


def one_hot_metrics(np, labels, scores, k):
    Y = np.eye(k, dtype=np.float32)[labels]
    pred = np.argmax(scores, axis=1)
    conf = np.zeros((k, k), dtype=np.int64)
    np.add.at(conf, (labels, pred), 1)
    tp = np.diag(conf)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = tp / conf.sum(axis=0)
        recall = tp / conf.sum(axis=1)
    f1 = np.nan_to_num(2 * precision * recall / (precision + recall))
    top2 = np.argsort(-scores, axis=1, kind="stable")[:, :2]
    top2_acc = np.mean(np.any(top2 == labels[:, None], axis=1))
    return {"Y": Y, "conf": conf, "precision": precision, "recall": recall, "f1": f1, "top2": float(top2_acc),
            "macro": float(np.mean(f1))}


def test_float16_softmax_cross_entropy():
    rng = np.random.default_rng(1161)
    check(softmax_xent_half, rng.normal(0, 3, (12, 5)), rng.integers(0, 5, 12), rtol=2e-3, atol=2e-3)


def test_mlp_with_float32_master_weights():
    rng = np.random.default_rng(1162)
    X = rng.normal(size=(32, 4))
    y = X @ np.array([0.5, -1.0, 0.25, 2.0]) + 0.1
    check(mlp_mixed_precision, X, y, rng.normal(0, 0.5, (4, 8)), rng.normal(0, 0.5, (8, 1)), 0.05, 10,
          rtol=2e-2, atol=2e-2)


def test_batchnorm_of_a_float16_batch():
    rng = np.random.default_rng(1163)
    check(batchnorm_half, rng.normal(3, 2, (16, 6)), np.float32(1.5), np.float32(-0.5), 1e-5, rtol=5e-3,
          atol=5e-3)


def test_global_norm_clipping():
    rng = np.random.default_rng(1164)
    grads = {"w1": rng.normal(0, 2, (4, 3)).astype(np.float16), "b1": rng.normal(0, 1, 3).astype(np.float32),
             "w2": rng.normal(0, 3, (3, 2)).astype(np.float32)}
    check(clip_global_norm, grads, 1.0, rtol=2e-3, atol=2e-3)


def test_int8_quantisation():
    rng = np.random.default_rng(1165)
    W = rng.normal(0, 1, (6, 10)).astype(np.float32)
    W[2] = 0.001
    check(int8_quantise, W, rng.normal(size=(3, 10)).astype(np.float32), rtol=1e-4, atol=1e-4)


def test_dynamic_loss_scaling():
    rng = np.random.default_rng(1166)
    g = rng.normal(0, 1, (4, 6)).astype(np.float16)
    g[1, 2] = 30.0
    check(loss_scaling, g, 4096.0, 9, rtol=2e-3, atol=2e-3)


def test_one_hot_and_confusion_metrics():
    rng = np.random.default_rng(1167)
    labels = rng.integers(0, 4, 40)
    scores = rng.normal(size=(40, 4)) + 1.5 * np.eye(4)[labels]
    check(one_hot_metrics, labels, scores, 4)
