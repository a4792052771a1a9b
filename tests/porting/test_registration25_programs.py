"""Image registration in plain NumPy: integer shifts by phase correlation (`fft2`, the normalised cross-power
spectrum, `unravel_index` of the peak, wrap-around by `where`), sub-pixel refinement by a parabola through the
peak's neighbours, cross-correlation by `rfft2`/`irfft2(s=)` with zero padding, a Hann window from `outer` of
`hanning`, template matching by normalised cross-correlation over `sliding_window_view`, rigid alignment of point
sets by the Kabsch algorithm (`svd`, a reflection fix by `det`), and a translation found by `lstsq` on image
gradients (tests/porting)."""

import numpy as np
from harness import check


def scene(seed, shape):
    rng = np.random.default_rng(seed)
    img = rng.standard_normal(shape)
    k = np.outer(np.hanning(7), np.hanning(7))
    pad = np.zeros(shape)
    pad[:7, :7] = k / k.sum()
    return np.real(np.fft.ifft2(np.fft.fft2(img) * np.fft.fft2(pad)))  # a smooth periodic texture


def phase_correlation(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    Fa, Fb = np.fft.fft2(a), np.fft.fft2(b)
    R = Fa * np.conj(Fb)
    R /= np.maximum(np.abs(R), 1e-12)
    r = np.fft.ifft2(R).real
    peak = np.unravel_index(np.argmax(r), r.shape)
    shift = np.array(peak)
    shift = np.where(shift > np.array(r.shape) // 2, shift - np.array(r.shape), shift)
    return {"shift": shift, "peak": r.max(), "sharp": r.max() / np.sort(r.ravel())[-2]}


def subpixel(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    R = np.fft.fft2(a) * np.fft.fft2(b).conj()
    r = np.fft.fftshift(np.fft.ifft2(R / (np.abs(R) + 1e-12)).real)
    i, j = np.unravel_index(r.argmax(), r.shape)
    c, l, rr = r[i, j], r[i, j - 1], r[i, (j + 1) % r.shape[1]]
    u, d = r[i - 1, j], r[(i + 1) % r.shape[0], j]
    dx = 0.5 * (l - rr) / (l - 2 * c + rr)
    dy = 0.5 * (u - d) / (u - 2 * c + d)
    centre = np.array(r.shape) // 2
    return {"ij": np.array([i, j]) - centre, "refined": np.array([i + dy, j + dx]) - centre}


def xcorr_rfft(np, a, t):
    a, t = np.asarray(a), np.asarray(t)
    s = (a.shape[0] + t.shape[0] - 1, a.shape[1] + t.shape[1] - 1)
    c = np.fft.irfft2(np.fft.rfft2(a, s=s) * np.conj(np.fft.rfft2(t, s=s)), s=s)
    best = np.unravel_index(np.argmax(c[: a.shape[0] - t.shape[0] + 1, : a.shape[1] - t.shape[1] + 1]), a.shape)
    return {"c": c[:6, :6], "best": np.array(best), "energy": np.sum(c**2)}


def windowed(np, a):
    a = np.asarray(a)
    w = np.outer(np.hanning(a.shape[0]), np.hanning(a.shape[1]))
    spec = np.abs(np.fft.fftshift(np.fft.fft2((a - a.mean()) * w)))
    ky = np.fft.fftshift(np.fft.fftfreq(a.shape[0]))
    kx = np.fft.fftshift(np.fft.fftfreq(a.shape[1]))
    K = np.hypot(ky[:, None], kx[None, :])
    # edges off the grid's exact radii (0.1, 0.2...: in float32, kdsl's default for fftfreq and linspace, a
    # radius on an edge may round to either side)
    bins = np.digitize(K, np.linspace(0, 0.71, 6))
    radial = np.bincount(bins.ravel(), weights=spec.ravel())[1:] / np.bincount(bins.ravel())[1:]
    return {"w_sum": w.sum(), "radial": radial, "dc": spec[a.shape[0] // 2, a.shape[1] // 2]}


def template_ncc(np, img, tpl):
    img, tpl = np.asarray(img), np.asarray(tpl)
    win = np.lib.stride_tricks.sliding_window_view(img, tpl.shape)
    wc = win - win.mean(axis=(-2, -1), keepdims=True)
    tc = tpl - tpl.mean()
    num = np.einsum("ijkl,kl->ij", wc, tc)
    den = np.sqrt(np.sum(wc**2, axis=(-2, -1)) * np.sum(tc**2))
    ncc = num / den
    best = np.unravel_index(np.argmax(ncc), ncc.shape)
    return {"ncc": ncc, "best": np.array(best), "score": ncc.max(), "above": np.count_nonzero(ncc > 0.5)}


def kabsch(np, P, Q):
    P, Q = np.asarray(P), np.asarray(Q)
    pc, qc = P.mean(axis=0), Q.mean(axis=0)
    H = (P - pc).T @ (Q - qc)
    U, S, Vt = np.linalg.svd(H)
    d = np.sign(np.linalg.det(Vt.T @ U.T))
    D = np.diag([1.0] * (P.shape[1] - 1) + [d])
    R = Vt.T @ D @ U.T
    t = qc - R @ pc
    rmsd = np.sqrt(np.mean(np.sum((P @ R.T + t - Q) ** 2, axis=1)))
    return {"R": R, "t": t, "rmsd": rmsd, "det": np.linalg.det(R), "S": S}


def gradient_shift(np, a, b):
    a, b = np.asarray(a), np.asarray(b)
    gy, gx = np.gradient(a)
    A = np.column_stack([gx[2:-2, 2:-2].ravel(), gy[2:-2, 2:-2].ravel()])
    rhs = (a - b)[2:-2, 2:-2].ravel()
    sol, res, rank, sv = np.linalg.lstsq(A, rhs, rcond=None)
    return {"shift": sol, "rank": rank, "sv": sv}


def test_phase_correlation():
    a = scene(2591, (32, 40))
    check(phase_correlation, a, np.roll(a, (5, -7), axis=(0, 1)), rtol=1e-3, atol=1e-4)


def test_subpixel():
    a = scene(2592, (32, 32))
    check(subpixel, a, np.roll(a, (-3, 4), axis=(0, 1)), rtol=1e-3, atol=1e-3)


def test_xcorr_rfft():
    a = scene(2593, (20, 24))
    check(xcorr_rfft, a, a[6:11, 9:15].copy(), rtol=1e-3, atol=1e-3)


def test_windowed():
    check(windowed, scene(2594, (24, 30)), rtol=1e-3, atol=1e-4)


def test_template_ncc():
    img = scene(2595, (18, 20))
    check(template_ncc, img, img[7:12, 3:9].copy(), rtol=1e-3, atol=1e-4)


def test_kabsch():
    rng = np.random.default_rng(2596)
    P = rng.standard_normal((10, 3))
    th = 0.7
    R = np.array([[np.cos(th), -np.sin(th), 0], [np.sin(th), np.cos(th), 0], [0, 0, 1]])
    check(kabsch, P, P @ R.T + np.array([1.0, -2.0, 0.5]) + rng.normal(0, 0.01, P.shape), rtol=1e-3, atol=1e-4)


def test_gradient_shift():
    x = np.linspace(0, 4 * np.pi, 40)
    a = np.sin(x)[:, None] * np.cos(0.7 * x)[None, :]
    b = np.sin(x - 0.05)[:, None] * np.cos(0.7 * (x + 0.03))[None, :]
    check(gradient_shift, a, b, rtol=1e-3, atol=1e-4)
