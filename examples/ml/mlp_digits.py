"""A two-layer MLP trained on scikit-learn's bundled digits (8x8 images, 10 classes) with kd.value_and_grad,
kd.nn and kd.optim.adam; the whole training step (forward, backward, update) is one kd.jit replay.

    python3 examples/ml/mlp_digits.py             # 40 epochs: 97.8% test accuracy (measured on lavapipe)
    python3 examples/ml/mlp_digits.py --epochs 5  # a quick run
"""

from __future__ import annotations

import argparse

from digits import fit

import kdsl as kd


def init(hidden: int = 256, seed: int = 0) -> dict:
    rng = kd.random.default_rng(seed)
    return {
        "w1": kd.nn.init.kaiming_uniform((hidden, 64), key=rng), "b1": kd.zeros(hidden),
        "w2": kd.nn.init.kaiming_uniform((10, hidden), key=rng), "b2": kd.zeros(10),
    }


def forward(params: dict, x: kd.Array) -> kd.Array:
    h = kd.nn.relu(kd.nn.linear(x, params["w1"], params["b1"]))
    return kd.nn.linear(h, params["w2"], params["b2"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=40)
    args = parser.parse_args()
    _, loss, accuracy = fit(forward, init(), args.epochs, lr=1e-3, weight_decay=0.05)
    print(f"training loss {loss:.4f}, test accuracy {accuracy:.2%}")


if __name__ == "__main__":
    main()
