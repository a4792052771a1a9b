"""Finite-volume schemes as CFD notebooks write them in NumPy: linear advection by upwind, Lax-Wendroff and MUSCL
with minmod/van Leer/superbee limiters on periodic grids (`np.roll`, `np.where`, `np.sign`, `np.minimum`), total
variation and mass bookkeeping, inviscid Burgers with a Godunov flux, a 2-D donor-cell step with `np.roll` over
axis tuples, a conservative diffusion step with face coefficients from `np.diff(append=)`, an implicit step
by `np.linalg.solve` on a periodic matrix from `np.roll(np.eye(n))`, and a spectral derivative by `rfft`/`irfft`
with `rfftfreq` (tests/porting)."""

import numpy as np
from harness import check


def _limiter(np, r, kind):
    if kind == "minmod":
        return np.maximum(0, np.minimum(1, r))
    if kind == "vanleer":
        return (r + np.abs(r)) / (1 + np.abs(r))
    return np.maximum.reduce([np.zeros_like(r), np.minimum(2 * r, 1), np.minimum(r, 2)])  # superbee


def muscl(np, u0, c, steps, kind):
    u = np.array(u0, dtype=np.float64)
    mass0 = u.sum()
    tv = []
    for _ in range(steps):
        du_minus = u - np.roll(u, 1)
        du_plus = np.roll(u, -1) - u
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(du_plus != 0, du_minus / du_plus, 0.0)
        phi = _limiter(np, r, kind)
        flux = c * (u + 0.5 * (1 - c) * phi * du_plus)
        u = u - (flux - np.roll(flux, 1))
        tv.append(np.abs(np.diff(u, append=u[:1])).sum())
    return {"u": u, "mass_err": abs(u.sum() - mass0), "tv": np.array(tv), "max": u.max(), "min": u.min(),
            "tvd": bool(np.all(np.diff(tv) <= 1e-12))}


def upwind_vs_laxwendroff(np, u0, c, steps):
    up = np.array(u0, dtype=np.float32)
    lw = up.copy()
    for _ in range(steps):
        up -= c * (up - np.roll(up, 1))
        lw = lw - 0.5 * c * (np.roll(lw, -1) - np.roll(lw, 1)) + 0.5 * c**2 * (
            np.roll(lw, -1) - 2 * lw + np.roll(lw, 1))
    exact = np.roll(np.asarray(u0, dtype=np.float32), int(round(c * steps)))
    return {"up": up, "lw": lw, "err_up": np.abs(up - exact).max(), "err_lw": np.abs(lw - exact).max(),
            "overshoot": lw.max() - 1, "dtype": up.dtype.name}


def burgers_godunov(np, u0, dx, cfl, t_end):
    u = np.array(u0, dtype=float)
    t, steps = 0.0, 0
    while t < t_end:
        dt = min(cfl * dx / np.max(np.abs(u)), t_end - t)
        ul, ur = u, np.roll(u, -1)
        fl, fr = 0.5 * ul**2, 0.5 * ur**2
        shock = ul > ur
        s = 0.5 * (ul + ur)
        f_shock = np.where(s > 0, fl, fr)
        f_rare = np.where(ul > 0, fl, np.where(ur < 0, fr, 0.0))
        F = np.where(shock, f_shock, f_rare)
        u = u - dt / dx * (F - np.roll(F, 1))
        t += dt
        steps += 1
    return {"u": u, "steps": steps, "t": t, "mass": u.sum() * dx, "shock_at": int(np.argmin(np.diff(u)))}


def donor_cell_2d(np, q0, u, v, steps):
    q = np.array(q0, dtype=float)
    total0 = q.sum()
    for _ in range(steps):
        fx = np.where(u > 0, u * q, u * np.roll(q, -1, axis=1))
        fy = np.where(v > 0, v * q, v * np.roll(q, -1, axis=0))
        q = q - (fx - np.roll(fx, 1, axis=1)) - (fy - np.roll(fy, 1, axis=0))
    com = np.array([np.sum(np.indices(q.shape)[i] * q) / q.sum() for i in range(2)])
    return {"q": q, "total_err": abs(q.sum() - total0), "peak": np.unravel_index(np.argmax(q), q.shape),
            "com": com, "neg": bool((q < -1e-12).any()), "shifted": np.roll(q, (1, 1), axis=(0, 1))[0, :3]}


def conservative_diffusion(np, u0, kappa, dx, dt, steps):
    u = np.array(u0, dtype=float)
    k = np.asarray(kappa, dtype=float)
    k_face = 2 * k[:-1] * k[1:] / (k[:-1] + k[1:])  # harmonic mean at interior faces
    for _ in range(steps):
        flux = -k_face * np.diff(u) / dx
        flux = np.concatenate(([0.0], flux, [0.0]))  # insulated ends
        u = u - dt / dx * np.diff(flux)
    grad = np.gradient(u, dx)
    return {"u": u, "mass": u.sum() * dx, "grad": grad, "stable": bool(dt * k.max() / dx**2 <= 0.5)}


def implicit_periodic(np, u0, nu, steps):
    n = len(u0)
    I = np.eye(n)
    L = np.roll(I, 1, axis=1) - 2 * I + np.roll(I, -1, axis=1)
    A = I - nu * L
    u = np.asarray(u0, dtype=float)
    Ainv = np.linalg.inv(A)
    v = u.copy()
    for _ in range(steps):
        u = np.linalg.solve(A, u)
        v = Ainv @ v
    eig = np.linalg.eigvalsh(A)
    return {"u": u, "same": bool(np.allclose(u, v)), "mass": u.sum(), "eig_min": eig.min(),
            "sym": bool(np.allclose(A, A.T)), "circulant": bool(np.allclose(np.roll(A[0], 1), A[1]))}


def spectral_derivative(np, n, L):
    x = np.linspace(0, L, n, endpoint=False)
    f = np.exp(np.sin(2 * np.pi * x / L))
    k = 2 * np.pi * np.fft.rfftfreq(n, d=L / n)
    F = np.fft.rfft(f)
    df = np.fft.irfft(1j * k * F, n=n)
    d2f = np.fft.irfft(-(k**2) * F, n=n)
    exact = (2 * np.pi / L) * np.cos(2 * np.pi * x / L) * f
    fd = (np.roll(f, -1) - np.roll(f, 1)) / (2 * L / n)
    energy = np.sum(np.abs(F) ** 2)
    return {"df": df, "err": np.abs(df - exact).max(), "fd_err": np.abs(fd - exact).max(), "d2f_mean": d2f.mean(),
            "parseval": energy, "F_abs": np.abs(F[:6])}


def _square_wave(n):
    x = np.arange(n)
    return ((x > n // 5) & (x < 2 * n // 5)).astype(float) + 0.5 * np.exp(-(((x - 0.7 * n) / (0.05 * n)) ** 2))


def test_muscl_minmod():
    check(muscl, _square_wave(50), 0.4, 30, "minmod")


def test_muscl_vanleer():
    check(muscl, _square_wave(50), 0.5, 25, "vanleer")


def test_muscl_superbee():
    check(muscl, _square_wave(40), 0.3, 20, "superbee")


def test_upwind_vs_laxwendroff():
    check(upwind_vs_laxwendroff, _square_wave(40), 0.5, 16, rtol=1e-4, atol=1e-5)


def test_burgers_godunov():
    x = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    check(burgers_godunov, 0.5 + np.sin(x), x[1] - x[0], 0.8, 1.2, rtol=1e-6, atol=1e-8)


def test_donor_cell_2d():
    yy, xx = np.mgrid[0:16, 0:16]
    q0 = np.exp(-((xx - 5) ** 2 + (yy - 6) ** 2) / 6.0)
    check(donor_cell_2d, q0, 0.3, 0.2, 12)


def test_conservative_diffusion():
    x = np.linspace(0, 1, 30)
    kappa = np.where(x < 0.5, 1.0, 0.1)
    check(conservative_diffusion, np.exp(-((x - 0.3) / 0.1) ** 2), kappa, x[1] - x[0], 0.0002, 60)


def test_implicit_periodic():
    check(implicit_periodic, _square_wave(24), 0.8, 5)


def test_spectral_derivative():
    check(spectral_derivative, 32, 2.0, rtol=2e-4, atol=5e-5)  # float32 grid (kdsl's linspace)
