"""A small CNN (two 3x3 convolutions, max pooling, a linear classifier) trained on scikit-learn's bundled
digits with kd.nn.conv2d, kd.value_and_grad and kd.optim.adam, one kd.jit replay per step.

    python3 examples/ml/cnn_digits.py             # 12 epochs: 97.5% test accuracy (measured on lavapipe)
    python3 examples/ml/cnn_digits.py --epochs 3  # a quick run
"""

from __future__ import annotations

import argparse

from digits import fit

import kdsl as kd


def init(channels: int = 16, seed: int = 0) -> dict:
    rng = kd.random.default_rng(seed)
    return {
        "c1": kd.nn.init.kaiming_uniform((channels, 1, 3, 3), key=rng), "b1": kd.zeros(channels),
        "c2": kd.nn.init.kaiming_uniform((channels, channels, 3, 3), key=rng), "b2": kd.zeros(channels),
        "w": kd.nn.init.kaiming_uniform((10, channels * 16), key=rng), "b": kd.zeros(10),
    }


def forward(params: dict, x: kd.Array) -> kd.Array:
    images = x.reshape(x.shape[0], 1, 8, 8)
    h = kd.nn.relu(kd.nn.conv2d(images, params["c1"], params["b1"], padding=1))
    h = kd.nn.relu(kd.nn.conv2d(h, params["c2"], params["b2"], padding=1))
    h = kd.nn.max_pool2d(h, 2)  # (batch, channels, 4, 4)
    return kd.nn.linear(h.reshape(h.shape[0], -1), params["w"], params["b"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=12)
    args = parser.parse_args()
    _, loss, accuracy = fit(forward, init(), args.epochs)
    print(f"training loss {loss:.4f}, test accuracy {accuracy:.2%}")


if __name__ == "__main__":
    main()
