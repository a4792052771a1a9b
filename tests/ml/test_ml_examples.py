"""The machine-learning examples in examples/ml train at a small size on every device (CI: lavapipe).

Their full-size results (the docstrings' accuracies and losses) are for a GPU; here each runs a few steps and must
learn: the digits classifiers beat chance by far, the language model's loss falls.
"""

import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ml"
pytest.importorskip("sklearn", reason="the digits examples load scikit-learn's bundled dataset (kdsl[test])")


@pytest.fixture(autouse=True)
def _examples_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    yield
    for name in ("digits", "mlp_digits", "cnn_digits", "char_transformer"):
        sys.modules.pop(name, None)


def test_mlp_learns_the_digits():
    import mlp_digits
    from digits import fit

    _, loss, accuracy = fit(mlp_digits.forward, mlp_digits.init(), epochs=3)
    assert accuracy > 0.85 and loss < 0.6


def test_cnn_learns_the_digits():
    import cnn_digits
    from digits import fit

    _, loss, accuracy = fit(cnn_digits.forward, cnn_digits.init(), epochs=2)
    assert accuracy > 0.7


def test_character_transformer_loss_falls():
    import char_transformer

    model, losses = char_transformer.train(25, width=32, layers=1, heads=2, context=16, batch=8, log_every=0)
    assert losses[0] > 4.0 and sum(losses[-5:]) / 5 < losses[0] - 0.5
    text = char_transformer.sample(model, "kd", 5)
    assert text.startswith("kd") and len(text) == 7
    from kdsl.runtime import compiler

    before = dict(compiler.stats)
    assert len(char_transformer.sample(model, "kdsl", 9, seed=1)) == 13
    assert all(compiler.stats[k] == before[k] for k in ("compiled", "disk_hits"))  # one window shape: no new kernels
