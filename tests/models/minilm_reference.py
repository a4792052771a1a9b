"""A NumPy reference of all-MiniLM-L6-v2's forward pass (BERT encoder, mean pooling, L2 normalisation), in
float64, written from the architecture (the oracle of test_minilm.py)."""

import math

import numpy as np

erf = np.vectorize(math.erf, otypes=[np.float64])


def _ln(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def _dense(x, weights, name):
    return x @ weights[name + ".weight"].T + weights[name + ".bias"]


def embed(weights, ids, mask, layers=6, heads=12, eps=1e-12):
    w = {k: v.astype(np.float64) for k, v in weights.items()}
    b, s = ids.shape
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:s] \
        + w["embeddings.token_type_embeddings.weight"][0]
    x = _ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    h = x.shape[-1]
    d = h // heads
    bias = np.where(mask[:, None, None, :] != 0, 0.0, -np.inf)
    for i in range(layers):
        p = f"encoder.layer.{i}."

        def split(t):
            return t.reshape(b, s, heads, d).transpose(0, 2, 1, 3)
        q, k, v = (split(_dense(x, w, p + "attention.self." + n)) for n in ("query", "key", "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + bias
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        ctx = (scores / scores.sum(-1, keepdims=True)) @ v
        ctx = ctx.transpose(0, 2, 1, 3).reshape(b, s, h)
        x = _ln(x + _dense(ctx, w, p + "attention.output.dense"), w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"], eps)
        up = _dense(x, w, p + "intermediate.dense")
        up = 0.5 * up * (1 + erf(up / math.sqrt(2)))
        x = _ln(x + _dense(up, w, p + "output.dense"), w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"], eps)
    m = mask[:, :, None].astype(np.float64)
    pooled = (x * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return pooled / np.linalg.norm(pooled, axis=-1, keepdims=True)
