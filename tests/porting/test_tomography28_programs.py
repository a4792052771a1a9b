"""Tomographic reconstruction in plain NumPy: the Shepp-Logan phantom from ellipse masks (`np.mgrid` with a
complex step), a Radon transform by bilinear sampling along rotated rays (`np.floor`, `np.clip`, fancy
gathers), ramp, Shepp-Logan and Hann filters in the frequency domain (`fftfreq`, `fftshift`/`ifftshift`,
`fft(..., n=, axis=)`), filtered back-projection with `np.interp` per angle, SART with row and column sums
guarded by `np.divide(..., where=)`, the Fourier-slice theorem checked by `np.fft.fft2` along a central line,
fan-beam to parallel rebinning by `np.searchsorted`, and sinogram statistics (centre of mass, consistency,
`np.histogram` of the error) on `uint16` detector counts by Beer-Lambert (tests/porting)."""

import numpy as np
from harness import check


def shepp_logan(np, n):
    y, x = np.mgrid[1:-1:n * 1j, -1:1:n * 1j]
    ellipses = np.array([[1.0, 0.69, 0.92, 0.0, 0.0, 0], [-0.8, 0.6624, 0.874, 0.0, -0.0184, 0],
                         [-0.2, 0.11, 0.31, 0.22, 0.0, -18], [-0.2, 0.16, 0.41, -0.22, 0.0, 18],
                         [0.1, 0.21, 0.25, 0.0, 0.35, 0], [0.1, 0.046, 0.046, 0.0, 0.1, 0]])
    img = np.zeros((n, n))
    for A, a, b, x0, y0, phi in ellipses:
        t = np.radians(phi)
        c, s = np.cos(t), np.sin(t)
        xr = (x - x0) * c + (y - y0) * s
        yr = -(x - x0) * s + (y - y0) * c
        img[(xr / a) ** 2 + (yr / b) ** 2 <= 1] += A
    levels, counts = np.unique(np.round(img, 3), return_counts=True)
    return {"img": img, "levels": levels, "counts": counts, "support": np.count_nonzero(img),
            "sym": np.allclose(img, img[:, ::-1])}


def radon_bilinear(np, img, angles):
    img = np.asarray(img, dtype=np.float64)
    n = img.shape[0]
    c = (n - 1) / 2
    s = np.arange(n) - c  # detector positions
    t = np.arange(n) - c  # samples along each ray
    sino = np.empty((len(angles), n))
    for k, th in enumerate(np.deg2rad(angles)):
        xs = c + s[:, None] * np.cos(th) - t[None, :] * np.sin(th)
        ys = c - (s[:, None] * np.sin(th) + t[None, :] * np.cos(th))
        x0 = np.floor(xs).astype(int)
        y0 = np.floor(ys).astype(int)
        fx, fy = xs - x0, ys - y0
        inside = (x0 >= 0) & (y0 >= 0) & (x0 < n - 1) & (y0 < n - 1)
        x0c, y0c = np.clip(x0, 0, n - 2), np.clip(y0, 0, n - 2)
        v = (img[y0c, x0c] * (1 - fx) * (1 - fy) + img[y0c, x0c + 1] * fx * (1 - fy)
             + img[y0c + 1, x0c] * (1 - fx) * fy + img[y0c + 1, x0c + 1] * fx * fy)
        sino[k] = np.sum(np.where(inside, v, 0.0), axis=1)
    return sino


def sinogram(np, img, angles):
    sino = radon_bilinear(np, img, angles)
    mass = sino.sum(axis=1)
    com = sino @ np.arange(sino.shape[1]) / mass
    return {"sino": sino, "mass": mass, "com": com, "spread": np.ptp(mass) / mass.mean(),
            "peak": np.argmax(sino, axis=1)}


def filters(np, n):
    size = max(64, 2 ** int(np.ceil(np.log2(2 * n))))
    f = np.fft.fftfreq(size)
    ramp = 2 * np.abs(f)
    omega = np.pi * f
    with np.errstate(invalid="ignore", divide="ignore"):
        shepp = ramp * np.where(f == 0, 1.0, np.sin(omega) / omega)
    hann = ramp * (1 + np.cos(2 * omega)) / 2
    centred = np.fft.fftshift(ramp)
    return {"size": size, "ramp": ramp, "shepp": shepp, "hann": hann, "centred": centred,
            "back": np.fft.ifftshift(centred), "dc": np.flatnonzero(centred == 0)}


def fbp(np, sino, angles, kind):
    sino = np.asarray(sino)
    n_ang, n = sino.shape
    size = max(64, 2 ** int(np.ceil(np.log2(2 * n))))
    f = np.fft.fftfreq(size)
    H = 2 * np.abs(f)
    if kind == "hann":
        H = H * (1 + np.cos(2 * np.pi * f)) / 2
    proj = np.fft.fft(sino, n=size, axis=1) * H
    filtered = np.real(np.fft.ifft(proj, axis=1))[:, :n]
    c = (n - 1) / 2
    y, x = np.mgrid[0:n, 0:n]
    x, y = x - c, c - y
    rec = np.zeros((n, n))
    det = np.arange(n) - c
    for row, th in zip(filtered, np.deg2rad(angles), strict=True):
        s = x * np.cos(th) + y * np.sin(th)
        rec += np.interp(s.ravel(), det, row, left=0.0, right=0.0).reshape(n, n)
    rec *= np.pi / (2 * n_ang)
    disk = x**2 + y**2 <= c**2
    return {"rec": rec, "disk_mean": rec[disk].mean(), "outside": np.abs(rec[~disk]).max(),
            "argmax": np.unravel_index(rec.argmax(), rec.shape)}


def sart(np, img, angles, iters, relax):
    img = np.asarray(img)
    n = img.shape[0]
    # the system matrix by projecting each unit image (small problems only)
    basis = np.eye(n * n).reshape(n * n, n, n)
    A = np.stack([radon_bilinear(np, b, angles).ravel() for b in basis], axis=1)
    b = A @ img.ravel()
    row_sums = A.sum(axis=1)
    col_sums = A.sum(axis=0)
    x = np.zeros(n * n)
    errs = []
    for _ in range(iters):
        r = np.divide(b - A @ x, row_sums, out=np.zeros_like(b), where=row_sums > 1e-9)
        x += relax * np.divide(A.T @ r, col_sums, out=np.zeros_like(x), where=col_sums > 1e-9)
        np.maximum(x, 0, out=x)
        errs.append(np.linalg.norm(x - img.ravel()) / np.linalg.norm(img))
    return {"x": x.reshape(n, n), "errs": np.array(errs), "empty_rows": int(np.sum(row_sums <= 1e-9)),
            "shape": A.shape}


def fourier_slice(np, img):
    img = np.asarray(img)
    n = img.shape[0]
    proj = img.sum(axis=0)  # projection at angle 0: along the rows
    slice_1d = np.fft.fftshift(np.fft.fft(np.fft.ifftshift(proj)))
    F2 = np.fft.fftshift(np.fft.fft2(np.fft.ifftshift(img)))
    central = F2[n // 2]
    return {"proj": proj, "slice": slice_1d, "central": central,
            "same": np.allclose(slice_1d, central), "energy": np.sum(np.abs(F2) ** 2) / n**2}


def fan_to_parallel(np, fan, betas, gammas, D, thetas, ss):
    fan = np.asarray(fan)
    betas, gammas = np.asarray(betas), np.asarray(gammas)
    out = np.zeros((len(thetas), len(ss)))
    for i, th in enumerate(thetas):
        g = np.arcsin(np.clip(ss / D, -1, 1))
        b = np.mod(th - g, 2 * np.pi)
        bi = np.clip(np.searchsorted(betas, b) - 1, 0, len(betas) - 2)
        gi = np.clip(np.searchsorted(gammas, g) - 1, 0, len(gammas) - 2)
        wb = (b - betas[bi]) / (betas[bi + 1] - betas[bi])
        wg = (g - gammas[gi]) / (gammas[gi + 1] - gammas[gi])
        out[i] = ((1 - wb) * (1 - wg) * fan[bi, gi] + wb * (1 - wg) * fan[bi + 1, gi]
                  + (1 - wb) * wg * fan[bi, gi + 1] + wb * wg * fan[bi + 1, gi + 1])
    return out


def photon_counts(np, sino, I0, counts):
    sino = np.asarray(sino)
    counts = np.asarray(counts, dtype=np.uint16)
    expected = (I0 * np.exp(-sino / sino.max() * 3)).astype(np.uint16)
    safe = np.maximum(counts, 1)
    line_int = np.log(np.float64(I0) / safe)
    err = line_int - sino / sino.max() * 3
    hist, edges = np.histogram(err, bins=5)
    saturated = counts == np.iinfo(np.uint16).max
    diff = counts.astype(np.int32) - expected
    return {"expected": expected, "line_int": line_int, "hist": hist, "edges": edges,
            "saturated": int(saturated.sum()), "wrapped": (counts - expected)[:2], "diff": diff,
            "zero": np.flatnonzero(counts == 0)}


def test_shepp_logan():
    check(shepp_logan, 24, rtol=1e-4, atol=1e-5)


def test_sinogram():
    img = shepp_logan(np, 16)["img"]
    check(sinogram, img, np.arange(0, 180, 20.0), rtol=1e-3, atol=1e-4)


def test_filters():
    check(filters, 20)
    check(filters, 40)


def test_fbp():
    img = shepp_logan(np, 16)["img"]
    angles = np.arange(0, 180, 10.0)
    sino = radon_bilinear(np, img, angles)
    for kind in ("ramp", "hann"):
        check(fbp, sino, angles, kind, rtol=1e-3, atol=1e-3)


def test_sart():
    img = np.zeros((6, 6))
    img[1:4, 2:5] = 1.0
    img[4, 1] = 0.5
    check(sart, img, np.arange(0, 180, 30.0), 5, 0.9, rtol=1e-3, atol=1e-4)


def test_fourier_slice():
    check(fourier_slice, shepp_logan(np, 16)["img"], rtol=1e-3, atol=1e-3)


def test_fan_to_parallel():
    betas = np.linspace(0, 2 * np.pi, 37)
    gammas = np.linspace(-0.5, 0.5, 21)
    B, G = np.meshgrid(betas, gammas, indexing="ij")
    fan = np.cos(B) * 3 + G**2 * 10
    check(fan_to_parallel, fan, betas, gammas, 10.0, np.linspace(0, np.pi, 9), np.linspace(-4, 4, 11),
          rtol=1e-3, atol=1e-4)


def test_photon_counts():
    rng = np.random.default_rng(2887)
    sino = radon_bilinear(np, shepp_logan(np, 12)["img"], np.arange(0, 180, 30.0))
    expected = (60000 * np.exp(-sino / sino.max() * 3)).astype(np.uint16)
    counts = rng.poisson(expected).clip(0, 65535).astype(np.uint16)
    counts[0, :2] = [0, 65535]
    check(photon_counts, sino, 60000, counts, rtol=1e-4, atol=1e-4)
