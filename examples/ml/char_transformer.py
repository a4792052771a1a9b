"""A character-level transformer language model (decoder only: token and position embeddings, causal
self-attention blocks with pre-layer-norm, a GELU MLP) trained on kdsl's own documentation with kd.grad and
kd.optim.adamw. The whole step is one kd.jit replay; at the end it samples a little text.

    python3 examples/ml/char_transformer.py --small --steps 300  # lavapipe: 78 s, loss 4.63 -> 2.89 (measured)
    python3 examples/ml/char_transformer.py                      # width 128, 2 layers, 600 steps: sized for a GPU
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

import kdsl as kd

ROOT = Path(__file__).resolve().parents[2]


def corpus() -> str:
    """The README and docs of this checkout (about 200 kB of English and code)."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n".join(f.read_text(encoding="utf-8") for f in files if f.exists())


def init(vocab: int, width: int, layers: int, context: int, seed: int = 0) -> dict:
    rng = kd.random.default_rng(seed)

    def dense(n_out, n_in):
        return kd.nn.init.normal((n_out, n_in), std=0.02, key=rng)

    blocks = [{"ln1": kd.ones(width), "ln1b": kd.zeros(width), "qkv": dense(3 * width, width),
               "proj": dense(width, width) * (1 / math.sqrt(2 * layers)), "ln2": kd.ones(width),
               "ln2b": kd.zeros(width), "up": dense(4 * width, width), "upb": kd.zeros(4 * width),
               "down": dense(width, 4 * width) * (1 / math.sqrt(2 * layers)), "downb": kd.zeros(width)}
              for _ in range(layers)]
    return {"tok": dense(vocab, width), "pos": dense(context, width), "blocks": blocks,
            "lnf": kd.ones(width), "lnfb": kd.zeros(width), "head": dense(vocab, width)}


def block(p: dict, x: kd.Array, heads: int) -> kd.Array:
    b, t, w = x.shape
    h = kd.nn.layer_norm(x, w, p["ln1"], p["ln1b"])
    q, k, v = kd.split(kd.nn.linear(h, p["qkv"]), 3, axis=-1)
    split = lambda z: z.reshape(b, t, heads, w // heads).transpose((0, 2, 1, 3))  # noqa: E731
    att = kd.nn.scaled_dot_product_attention(split(q), split(k), split(v), is_causal=True)
    x = x + kd.nn.linear(att.transpose((0, 2, 1, 3)).reshape(b, t, w), p["proj"])
    h = kd.nn.layer_norm(x, w, p["ln2"], p["ln2b"])
    return x + kd.nn.linear(kd.nn.gelu(kd.nn.linear(h, p["up"], p["upb"]), approximate="tanh"), p["down"],
                            p["downb"])


def logits(params: dict, tokens: kd.Array, heads: int) -> kd.Array:
    t = tokens.shape[1]
    x = kd.nn.embedding(tokens, params["tok"]) + params["pos"][:t]
    for p in params["blocks"]:
        x = block(p, x, heads)
    x = kd.nn.layer_norm(x, x.shape[-1], params["lnf"], params["lnfb"])
    return kd.nn.linear(x, params["head"])


GPU_SIZES = dict(width=128, layers=2, heads=4, context=64, batch=32)  # the default: sized for a GPU
SMALL_SIZES = dict(width=32, layers=1, heads=2, context=32, batch=8)  # --small: a narrow model for CPU drivers


def vocabulary() -> tuple[list[str], np.ndarray]:
    """The corpus's characters (sorted) and the corpus as their indices."""
    text = corpus()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    return chars, np.array([index[c] for c in text], np.int32)


def loss(params: dict, x: kd.Array, y: kd.Array, heads: int) -> kd.Array:
    """Mean cross entropy of the next character at every position of ``x`` ``(batch, context)``."""
    out = logits(params, x, heads)
    return kd.nn.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))


def make_step(opt: kd.optim.Optimizer, heads: int):
    """The training step, one kd.jit replay: ``params, state, loss = step(params, state, x, y)`` (forward,
    backward and ``opt``'s update; benchmarks/ml_training.py times it)."""

    @kd.jit
    def step(params, state, x, y):
        value, grads = kd.value_and_grad(loss)(params, x, y, heads)
        params, state = opt.update(grads, state, params)
        return params, state, value

    return step


def train(steps: int, width: int = 128, layers: int = 2, heads: int = 4, context: int = 64, batch: int = 32,
          lr: float = 3e-3, seed: int = 0, log_every: int = 50):
    """Train; returns (the model pieces, the losses of every step)."""
    chars, data = vocabulary()
    params = init(len(chars), width, layers, context, seed)
    opt = kd.optim.adamw(kd.optim.cosine_decay(lr, steps, alpha=0.1), weight_decay=0.01)
    state = opt.init(params)
    step = make_step(opt, heads)
    rng = np.random.default_rng(seed)
    losses = []
    for i in range(steps):
        starts = rng.integers(0, len(data) - context - 1, batch)
        window = np.stack([data[s:s + context + 1] for s in starts])
        params, state, value = step(params, state, kd.asarray(window[:, :-1]), kd.asarray(window[:, 1:]))
        losses.append(float(value))
        if log_every and (i % log_every == 0 or i == steps - 1):
            print(f"step {i:5d}  loss {losses[-1]:.3f}", flush=True)
    return (params, chars, heads, context), losses


def sample(model, prompt: str, length: int, seed: int = 0) -> str:
    """Greedy-with-temperature sampling, one character at a time (the host picks each next character).

    The window always has ``context`` positions, the text so far left-aligned and padded with character 0:
    the attention is causal, so the logits at the last real position do not see the padding, and one window
    shape means one set of kernels (a window growing by a character each step would be a new shape, and new
    kernels to compile, every step until it reached ``context``)."""
    params, chars, heads, context = model
    rng = np.random.default_rng(seed)
    ids = [chars.index(c) for c in prompt if c in chars] or [0]
    for _ in range(length):
        text = ids[-context:]
        window = kd.asarray(np.array([text + [0] * (context - len(text))], np.int32))
        last = logits(params, window, heads)[0, len(text) - 1].numpy().astype(np.float64) / 0.8
        probs = np.exp(last - last.max())
        ids.append(int(rng.choice(len(chars), p=probs / probs.sum())))
    return "".join(chars[i] for i in ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--small", action="store_true", help="a narrow model for CPU drivers")
    args = parser.parse_args()
    model, losses = train(args.steps, **(SMALL_SIZES if args.small else GPU_SIZES))
    print(f"loss: first {losses[0]:.3f}, mean of the last 10 steps {np.mean(losses[-10:]):.3f}")
    print(repr(sample(model, "kdsl ", 80)))


if __name__ == "__main__":
    main()
