"""Object-detection and classifier-evaluation code as NumPy users write it: pairwise IoU of boxes by
broadcasting, greedy non-maximum suppression, anchor grids from meshgrid, ROC curves and AUC by argsort and
cumsum with tied scores, precision-recall and average precision, a multi-class confusion matrix with
np.add.at and its per-class metrics, box encoding/decoding for regression targets, and top-k accuracy with
argpartition (tests/porting)."""

import numpy as np
from harness import check


def _iou(np, a, b):
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    wh = np.clip(rb - lt, 0, None)
    inter = wh[..., 0] * wh[..., 1]
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def pairwise_iou(np, boxes_host, gt_host):
    boxes, gt = np.asarray(boxes_host), np.asarray(gt_host)
    iou = _iou(np, boxes, gt)
    best_gt = iou.argmax(axis=1)
    best_iou = iou.max(axis=1)
    labels = np.where(best_iou >= 0.5, 1, np.where(best_iou < 0.3, 0, -1))
    forced = iou.argmax(axis=0)
    labels[forced] = 1
    return {"iou": iou, "best_gt": best_gt, "labels": labels, "n_pos": int((labels == 1).sum()),
            "n_ignored": int((labels == -1).sum())}


def nms(np, boxes_host, scores_host, thresh=0.4):
    boxes, scores = np.asarray(boxes_host), np.asarray(scores_host)
    x1, y1, x2, y2 = boxes.T
    areas = (x2 - x1) * (y2 - y1)
    order = scores.argsort()[::-1]
    keep = []
    while order.size > 0:
        i = order[0]
        keep.append(int(i))
        xx1 = np.maximum(x1[i], x1[order[1:]])
        yy1 = np.maximum(y1[i], y1[order[1:]])
        xx2 = np.minimum(x2[i], x2[order[1:]])
        yy2 = np.minimum(y2[i], y2[order[1:]])
        w = np.maximum(0.0, xx2 - xx1)
        h = np.maximum(0.0, yy2 - yy1)
        inter = w * h
        ovr = inter / (areas[i] + areas[order[1:]] - inter)
        inds = np.where(ovr <= thresh)[0]
        order = order[inds + 1]
    return {"keep": keep, "kept_scores": scores[keep], "suppressed": len(scores) - len(keep)}


def anchors(np, feat=(4, 5), stride=16, scales=(32, 64), ratios=(0.5, 1.0, 2.0)):
    scales, ratios = np.array(scales, dtype=float), np.array(ratios)
    ws = (scales[:, None] / np.sqrt(ratios)[None, :]).ravel()
    hs = (scales[:, None] * np.sqrt(ratios)[None, :]).ravel()
    base = np.stack([-ws / 2, -hs / 2, ws / 2, hs / 2], axis=1)
    sx = (np.arange(feat[1]) + 0.5) * stride
    sy = (np.arange(feat[0]) + 0.5) * stride
    cx, cy = np.meshgrid(sx, sy)
    shifts = np.stack([cx.ravel(), cy.ravel(), cx.ravel(), cy.ravel()], axis=1)
    all_anchors = (shifts[:, None, :] + base[None, :, :]).reshape(-1, 4)
    inside = np.all((all_anchors[:, :2] >= 0) & (all_anchors[:, 2:] <= [feat[1] * stride, feat[0] * stride]),
                    axis=1)
    return {"base": base, "anchors": all_anchors, "inside": np.flatnonzero(inside), "shape": all_anchors.shape}


def roc_auc(np, y_host, s_host):
    y, s = np.asarray(y_host), np.asarray(s_host)
    order = np.argsort(-s, kind="stable")
    s_sorted, y_sorted = s[order], y[order]
    distinct = np.where(np.diff(s_sorted))[0]
    thresh_idx = np.r_[distinct, y_sorted.size - 1]
    tps = np.cumsum(y_sorted)[thresh_idx]
    fps = 1 + thresh_idx - tps
    tpr = np.r_[0, tps] / tps[-1]
    fpr = np.r_[0, fps] / fps[-1]
    auc = np.trapezoid(tpr, fpr)
    pos, neg = s[y == 1], s[y == 0]
    pairs = (pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean()
    j = np.argmax(tpr - fpr)
    return {"tpr": tpr, "fpr": fpr, "auc": float(auc), "pairs": float(pairs),
            "youden": float(s_sorted[thresh_idx][max(j - 1, 0)])}


def precision_recall(np, y_host, s_host):
    y, s = np.asarray(y_host), np.asarray(s_host)
    order = np.argsort(s)[::-1]
    hits = y[order]
    tp = np.cumsum(hits)
    fp = np.cumsum(1 - hits)
    precision = tp / (tp + fp)
    recall = tp / hits.sum()
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    ap = np.sum(np.diff(np.r_[0, recall]) * envelope)
    interp11 = np.array([envelope[recall >= r].max() if np.any(recall >= r) else 0.0
                         for r in np.linspace(0, 1, 11)])
    f1 = 2 * precision * recall / (precision + recall + 1e-12)
    return {"precision": precision, "recall": recall, "ap": float(ap), "ap11": float(interp11.mean()),
            "best_f1": float(f1.max()), "best_k": int(f1.argmax())}


def confusion_metrics(np, y_host, p_host, k=4):
    y, p = np.asarray(y_host), np.asarray(p_host)
    C = np.zeros((k, k), dtype=int)
    np.add.at(C, (y, p), 1)
    C2 = np.bincount(y * k + p, minlength=k * k).reshape(k, k)
    tp = np.diag(C)
    precision = tp / np.maximum(C.sum(axis=0), 1)
    recall = tp / np.maximum(C.sum(axis=1), 1)
    f1 = np.divide(2 * precision * recall, precision + recall, out=np.zeros(k), where=(precision + recall) > 0)
    accuracy = tp.sum() / C.sum()
    expected = np.outer(C.sum(1), C.sum(0)) / C.sum() ** 2
    kappa = (accuracy - expected.trace()) / (1 - expected.trace())
    normed = C / C.sum(axis=1, keepdims=True)
    return {"C": C, "same": bool((C == C2).all()), "precision": precision, "recall": recall, "f1": f1,
            "macro_f1": float(f1.mean()), "accuracy": float(accuracy), "kappa": float(kappa), "normed": normed}


def box_coding(np, anchors_host, gt_host):
    a, g = np.asarray(anchors_host), np.asarray(gt_host)
    aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
    ax, ay = a[:, 0] + 0.5 * aw, a[:, 1] + 0.5 * ah
    gw, gh = g[:, 2] - g[:, 0], g[:, 3] - g[:, 1]
    gx, gy = g[:, 0] + 0.5 * gw, g[:, 1] + 0.5 * gh
    deltas = np.stack([(gx - ax) / aw, (gy - ay) / ah, np.log(gw / aw), np.log(gh / ah)], axis=1)
    dx, dy, dw, dh = deltas.T
    dw = np.minimum(dw, np.log(1000.0 / 16))
    px, py = dx * aw + ax, dy * ah + ay
    pw, ph = np.exp(dw) * aw, np.exp(dh) * ah
    decoded = np.stack([px - 0.5 * pw, py - 0.5 * ph, px + 0.5 * pw, py + 0.5 * ph], axis=1)
    clipped = decoded.copy()
    clipped[:, 0::2] = np.clip(clipped[:, 0::2], 0, 100)
    clipped[:, 1::2] = np.clip(clipped[:, 1::2], 0, 80)
    return {"deltas": deltas, "decoded": decoded, "roundtrip": float(np.abs(decoded - g).max()),
            "clipped": clipped}


def topk_accuracy(np, logits_host, y_host):
    logits, y = np.asarray(logits_host), np.asarray(y_host)
    top5 = np.argpartition(-logits, 5, axis=1)[:, :5]
    order = np.take_along_axis(logits, top5, axis=1).argsort(axis=1)[:, ::-1]
    top5 = np.take_along_axis(top5, order, axis=1)
    hit5 = (top5 == y[:, None]).any(axis=1)
    hit1 = logits.argmax(axis=1) == y
    rank = (logits > logits[np.arange(len(y)), y][:, None]).sum(axis=1)
    return {"top5": top5, "acc1": float(hit1.mean()), "acc5": float(hit5.mean()), "rank": rank,
            "mrr": float((1.0 / (rank + 1)).mean())}


def _boxes(rng, n, size=100):
    xy = rng.random((n, 2)) * size * 0.8
    wh = rng.random((n, 2)) * size * 0.3 + 5
    return np.concatenate([xy, xy + wh], axis=1).round(1)


def test_pairwise_iou_anchor_labels():
    rng = np.random.default_rng(651)
    check(pairwise_iou, _boxes(rng, 20), _boxes(rng, 4))


def test_greedy_non_maximum_suppression():
    rng = np.random.default_rng(652)
    centres = _boxes(rng, 4)
    boxes = np.repeat(centres, 5, axis=0) + rng.normal(scale=3, size=(20, 4)).round(1)
    check(nms, boxes, rng.permutation(20) / 20 + 0.01)


def test_anchor_grid_meshgrid():
    check(anchors)


def test_roc_curve_auc_with_ties():
    rng = np.random.default_rng(654)
    y = rng.integers(0, 2, 60)
    check(roc_auc, y, np.round(y * 0.6 + rng.random(60), 1))


def test_precision_recall_average_precision():
    rng = np.random.default_rng(655)
    y = rng.integers(0, 2, 50)
    check(precision_recall, y, y * 0.5 + rng.random(50))


def test_confusion_matrix_add_at_kappa():
    rng = np.random.default_rng(656)
    y = rng.integers(0, 4, 80)
    p = np.where(rng.random(80) < 0.7, y, rng.integers(0, 4, 80))
    check(confusion_metrics, y, p)


def test_box_encode_decode_deltas():
    rng = np.random.default_rng(657)
    check(box_coding, _boxes(rng, 12), _boxes(rng, 12))


def test_topk_accuracy_argpartition():
    rng = np.random.default_rng(658)
    check(topk_accuracy, rng.normal(size=(16, 10)), rng.integers(0, 10, 16))
