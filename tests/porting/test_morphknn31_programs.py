"""Image morphology and nearest neighbours by hand, as NumPy-only notebooks write them: dilation/erosion of binary
and grayscale images by `np.pad` and `sliding_window_view` with `np.max`/`np.min` over the window axes and a
structuring element (`where=`, `initial=`), a morphological gradient and top-hat, hit-or-miss end points, a
max-pooling layer by reshape, k-nearest-neighbour classification by broadcast distances with `np.argmin(keepdims=)`,
`argpartition` and a majority vote by `bincount`, and a k-means step with `np.add.at` centroid sums
(tests/porting)."""

import numpy as np
from harness import check


def binary_morphology(np, img, se):
    img = np.asarray(img, dtype=bool)
    se = np.asarray(se, dtype=bool)
    r = se.shape[0] // 2
    padded = np.pad(img, r, mode="constant", constant_values=False)
    win = np.lib.stride_tricks.sliding_window_view(padded, se.shape)
    dil = np.any(win & se, axis=(-2, -1))
    padded_e = np.pad(img, r, mode="constant", constant_values=True)
    win_e = np.lib.stride_tricks.sliding_window_view(padded_e, se.shape)
    ero = np.all(win_e | ~se, axis=(-2, -1))
    opening = np.any(np.lib.stride_tricks.sliding_window_view(np.pad(ero, r), se.shape) & se, axis=(-2, -1))
    boundary = img & ~ero
    return {"dil": dil, "ero": ero, "open": opening, "boundary": boundary, "areas": np.array(
        [img.sum(), dil.sum(), ero.sum(), opening.sum()]), "rows": np.flatnonzero(boundary.any(axis=1))}


def gray_morphology(np, img, se):
    img = np.asarray(img, dtype=np.uint8)
    se = np.asarray(se, dtype=bool)
    r = se.shape[0] // 2
    win = np.lib.stride_tricks.sliding_window_view(np.pad(img, r, mode="edge"), se.shape)
    dil = np.max(win, axis=(-2, -1), where=se, initial=0)
    ero = np.min(win, axis=(-2, -1), where=se, initial=255)
    grad = dil.astype(np.int16) - ero
    win_o = np.lib.stride_tricks.sliding_window_view(np.pad(ero, r, mode="edge"), se.shape)
    opened = np.max(win_o, axis=(-2, -1), where=se, initial=0)
    tophat = img - opened  # uint8: opened <= img, no wrap
    return {"dil": dil, "ero": ero, "grad": grad, "tophat": tophat, "dtype": str(tophat.dtype),
            "grad_hist": np.bincount(grad.ravel(), minlength=8)[:8]}


def hit_or_miss_endpoints(np, skel):
    skel = np.asarray(skel, dtype=np.uint8)
    p = np.pad(skel, 1)
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3))
    neighbours = win.sum(axis=(-2, -1)) - skel
    ends = (skel == 1) & (neighbours == 1)
    branches = (skel == 1) & (neighbours >= 3)
    ys, xs = np.nonzero(ends)
    kernel = np.array([[1, 2, 4], [8, 0, 16], [32, 64, 128]], dtype=np.uint16)
    codes = np.einsum("ijkl,kl->ij", win.astype(np.uint16), kernel)
    return {"ends": np.stack([ys, xs], axis=1), "n_branch": int(branches.sum()), "codes": codes[ends],
            "neighbours": neighbours}


def max_pool(np, x, k):
    x = np.asarray(x, dtype=np.float32)
    n, c, h, w = x.shape
    H, W = h // k, w // k
    t = x[:, :, :H * k, :W * k].reshape(n, c, H, k, W, k)
    pooled = t.max(axis=(3, 5))
    flat = t.transpose(0, 1, 2, 4, 3, 5).reshape(n, c, H, W, k * k)
    arg = flat.argmax(axis=-1)
    mask = np.zeros_like(flat)
    np.put_along_axis(mask, arg[..., None], 1.0, axis=-1)
    avg = t.mean(axis=(3, 5))
    return {"pooled": pooled, "arg": arg, "mask_sum": mask.sum(axis=-1), "avg": avg,
            "same": bool(np.array_equal(pooled, np.take_along_axis(flat, arg[..., None], -1)[..., 0]))}


def knn_classify(np, Xtr, ytr, Xte, k):
    Xtr, Xte = np.asarray(Xtr), np.asarray(Xte)
    ytr = np.asarray(ytr)
    d2 = np.sum((Xte[:, None, :] - Xtr[None, :, :]) ** 2, axis=-1)
    nearest = np.argmin(d2, axis=1, keepdims=True)
    nn_dist = np.take_along_axis(d2, nearest, axis=1)
    idx = np.argpartition(d2, k, axis=1)[:, :k]
    order = np.argsort(np.take_along_axis(d2, idx, axis=1), axis=1, kind="stable")
    idx = np.take_along_axis(idx, order, axis=1)
    labels = ytr[idx]
    n_cls = int(ytr.max()) + 1
    votes = np.zeros((len(Xte), n_cls), dtype=np.int64)
    np.add.at(votes, (np.arange(len(Xte))[:, None], labels), 1)
    pred = np.argmax(votes, axis=1)
    weights = 1 / (np.sqrt(np.take_along_axis(d2, idx, axis=1)) + 1e-9)
    wvotes = np.stack([np.sum(weights * (labels == c), axis=1) for c in range(n_cls)], axis=1)
    return {"nearest": nearest, "nn_dist": nn_dist, "idx": idx, "pred": pred,
            "wpred": np.argmax(wvotes, axis=1), "votes": votes}


def kmeans_step(np, X, centers, iters):
    X = np.asarray(X)
    C = np.array(centers, dtype=float)
    k = len(C)
    inertia = []
    for _ in range(iters):
        d = np.linalg.norm(X[:, None] - C[None], axis=2)
        lab = d.argmin(axis=1)
        inertia.append(np.sum(d[np.arange(len(X)), lab] ** 2))
        sums = np.zeros_like(C)
        np.add.at(sums, lab, X)
        counts = np.bincount(lab, minlength=k)
        C = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], C)
    return {"C": C, "lab": lab, "inertia": np.array(inertia), "counts": counts,
            "monotone": bool(np.all(np.diff(inertia) <= 1e-9))}


def _shapes():
    img = np.zeros((12, 14), dtype=bool)
    img[2:7, 3:9] = True
    img[8:11, 9:13] = True
    img[5, 11] = True  # a speck that opening removes
    img[4, 5] = False  # a hole
    return img


def test_binary_morphology():
    check(binary_morphology, _shapes(), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]]))


def test_binary_morphology_square():
    check(binary_morphology, _shapes(), np.ones((5, 5)))


def test_gray_morphology():
    rng = np.random.default_rng(3181)
    img = np.clip(rng.normal(100, 30, (10, 11)), 0, 255).astype(np.uint8)
    img[3:5, 4:6] = 250
    check(gray_morphology, img, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]]))


def test_hit_or_miss_endpoints():
    skel = np.zeros((9, 9), dtype=np.uint8)
    skel[4, 1:8] = 1
    skel[1:4, 4] = 1
    skel[5:8, 6] = 1
    check(hit_or_miss_endpoints, skel)


def test_max_pool():
    rng = np.random.default_rng(3182)
    check(max_pool, rng.normal(size=(2, 3, 7, 6)), 2)


def test_knn_classify():
    rng = np.random.default_rng(3183)
    Xtr = np.concatenate([rng.normal(0, 1, (15, 2)), rng.normal(3, 1, (15, 2)), rng.normal([0, 4], 1, (15, 2))])
    ytr = np.repeat(np.arange(3), 15)
    check(knn_classify, Xtr, ytr, rng.normal(1.5, 2, (10, 2)), 5)


def test_kmeans_step():
    rng = np.random.default_rng(3184)
    X = np.concatenate([rng.normal(0, 0.5, (20, 2)), rng.normal(3, 0.5, (20, 2))])
    check(kmeans_step, X, [[0.0, 3.0], [3.0, 0.0], [10.0, 10.0]], 5)
