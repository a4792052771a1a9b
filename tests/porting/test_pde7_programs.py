"""Numerical PDEs as NumPy scripts write them: the explicit 1-D and 2-D heat equation on slices with Dirichlet
and periodic (np.roll) boundaries, Poisson by Jacobi with a convergence loop and by red-black Gauss-Seidel on
strided slices, first-order upwind and Lax-Wendroff advection, the 2-D wave equation with a np.where source
mask, Burgers' equation with np.maximum/np.minimum fluxes, and Crank-Nicolson with a tridiagonal matrix built
by np.diag (tests/porting)."""

import numpy as np
from harness import check


def heat_1d_explicit(np, n=51, steps=200, alpha=0.01):
    x = np.linspace(0, 1, n)
    dx = x[1] - x[0]
    dt = 0.4 * dx**2 / alpha
    u = np.sin(np.pi * x) + 0.5 * np.sin(3 * np.pi * x)
    snaps = []
    for k in range(steps):
        u[1:-1] += alpha * dt / dx**2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        if k % 50 == 0:
            snaps.append(u.copy())
    t = steps * dt
    exact = (np.exp(-alpha * np.pi**2 * t) * np.sin(np.pi * x)
             + 0.5 * np.exp(-9 * alpha * np.pi**2 * t) * np.sin(3 * np.pi * x))
    return {"u": u, "snaps": np.array(snaps), "err": float(np.max(np.abs(u - exact)))}


def heat_2d_periodic_roll(np, T0_host, steps=40, r=0.2):
    T = np.asarray(T0_host).copy()
    total0 = T.sum()
    for _ in range(steps):
        lap = np.roll(T, 1, 0) + np.roll(T, -1, 0) + np.roll(T, 1, 1) + np.roll(T, -1, 1) - 4 * T
        T += r * lap
    return {"T": T, "conserved": float(abs(T.sum() - total0)), "max": float(T.max()),
            "argmax": np.unravel_index(np.argmax(T), T.shape)}


def poisson_jacobi(np, n=24, tol=1e-4, max_iter=2000):
    h = 1.0 / (n + 1)
    f = np.zeros((n + 2, n + 2))
    f[n // 3 : 2 * n // 3, n // 3 : 2 * n // 3] = 1.0
    u = np.zeros_like(f)
    it = 0
    while it < max_iter:
        u_new = u.copy()
        u_new[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] + h * h * f[1:-1, 1:-1])
        diff = np.linalg.norm(u_new - u, ord=np.inf)
        u = u_new
        it += 1
        if diff < tol * h * h:
            break
    res = f[1:-1, 1:-1] + (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]) / h**2
    return {"u": u[::4, ::4], "iters_ok": it < max_iter, "res": float(np.abs(res).max()),
            "centre": float(u[n // 2 + 1, n // 2 + 1])}


def poisson_red_black(np, n=16, sweeps=150, omega=1.5):
    h = 1.0 / (n + 1)
    xs = np.linspace(0, 1, n + 2)
    X, Y = np.meshgrid(xs, xs, indexing="ij")
    f = -2 * np.pi**2 * np.sin(np.pi * X) * np.sin(np.pi * Y)
    u = np.zeros((n + 2, n + 2))
    for _ in range(sweeps):
        for start in (1, 2):  # red points then black points, row by row parity
            for i0 in (1, 2):
                j0 = start if i0 == 1 else 3 - start
                nb = (u[i0 - 1 : -2 : 2, j0:-1:2] + u[i0 + 1 :: 2, j0:-1:2]
                      + u[i0:-1:2, j0 - 1 : -2 : 2] + u[i0:-1:2, j0 + 1 :: 2])
                gs = 0.25 * (nb - h * h * f[i0:-1:2, j0:-1:2])
                u[i0:-1:2, j0:-1:2] += omega * (gs - u[i0:-1:2, j0:-1:2])
    exact = np.sin(np.pi * X) * np.sin(np.pi * Y)
    return {"u": u[::3, ::3], "err": float(np.abs(u - exact).max())}


def upwind_and_lax_wendroff(np, n=100, c=1.0, cfl=0.8, steps=60):
    x = np.arange(n) / n
    dx = 1.0 / n
    dt = cfl * dx / c
    u0 = np.where((x > 0.1) & (x < 0.3), 1.0, 0.0)
    up = u0.copy()
    lw = u0.copy()
    for _ in range(steps):
        up = up - cfl * (up - np.roll(up, 1))
        right, left = np.roll(lw, -1), np.roll(lw, 1)
        lw = lw - 0.5 * cfl * (right - left) + 0.5 * cfl**2 * (right - 2 * lw + left)
    shift = int(round(c * steps * dt / dx))
    exact = np.roll(u0, shift)
    return {"upwind": up[::5], "lw": lw[::5], "mass": [float(up.sum()), float(lw.sum())],
            "l1": [float(np.abs(up - exact).sum() * dx), float(np.abs(lw - exact).sum() * dx)],
            "overshoot": float(lw.max() - 1), "tv": float(np.abs(np.diff(up)).sum())}


def wave_2d_source(np, n=40, steps=50, c=1.0):
    dx = 1.0 / n
    dt = 0.5 * dx / c
    k = (c * dt / dx) ** 2
    y, x = np.mgrid[0:n, 0:n] * dx
    src = np.hypot(x - 0.5, y - 0.5) < 0.08
    u = np.where(src, 1.0, 0.0)
    u_prev = u.copy()
    energy = []
    for _ in range(steps):
        u_next = np.zeros_like(u)
        u_next[1:-1, 1:-1] = (2 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1]
                              + k * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]))
        u_prev, u = u, u_next
        energy.append(float((u**2).sum()))
    ring = np.hypot(x - 0.5, y - 0.5)[np.abs(u) == np.abs(u).max()]
    return {"u": u[::5, ::5], "energy": energy[::10], "ring_radius": float(ring.mean())}


def burgers_godunov(np, n=80, steps=80, cfl=0.4):
    x = np.linspace(0, 2, n, endpoint=False)
    dx = x[1] - x[0]
    u = 1.0 + 0.5 * np.sin(np.pi * x)
    for _ in range(steps):
        dt = cfl * dx / np.abs(u).max()
        ul, ur = u, np.roll(u, -1)
        fl, fr = 0.5 * ul**2, 0.5 * ur**2
        # Godunov flux of the convex flux u^2/2
        flux = np.where(ul <= ur, np.minimum(fl, fr), np.maximum(fl, fr))
        flux = np.where((ul < 0) & (ur > 0), 0.0, flux)
        u = u - dt / dx * (flux - np.roll(flux, 1))
    shock = int(np.argmin(np.diff(u)))
    return {"u": u[::4], "shock_at": float(x[shock]), "mean": float(u.mean()), "min": float(u.min())}


def crank_nicolson(np, n=30, steps=25, alpha=1.0):
    dx = 1.0 / (n + 1)
    dt = 0.01
    r = alpha * dt / (2 * dx**2)
    main, off = np.full(n, 1 + 2 * r), np.full(n - 1, -r)
    A = np.diag(main) + np.diag(off, 1) + np.diag(off, -1)
    B = np.diag(np.full(n, 1 - 2 * r)) + np.diag(-off, 1) + np.diag(-off, -1)
    x = np.linspace(dx, 1 - dx, n)
    u = np.sin(np.pi * x)
    for _ in range(steps):
        u = np.linalg.solve(A, B @ u)
    exact = np.exp(-np.pi**2 * alpha * dt * steps) * np.sin(np.pi * x)
    return {"u": u, "err": float(np.abs(u - exact).max()), "diag_ok": bool(np.allclose(np.diag(A, 1), -r))}


def spectral_heat_2d(np, u0_host, t=0.01, nu=1.0):
    u0 = np.asarray(u0_host)
    n, m = u0.shape
    kx = 2 * np.pi * np.fft.fftfreq(n, d=1.0 / n)
    ky = 2 * np.pi * np.fft.rfftfreq(m, d=1.0 / m)
    KX, KY = np.meshgrid(kx, ky, indexing="ij")
    decay = np.exp(-nu * (KX**2 + KY**2) * t)
    u = np.fft.irfft2(np.fft.rfft2(u0) * decay, s=u0.shape)
    spectrum = np.abs(np.fft.fftshift(np.fft.fft2(u)))
    return {"u": u, "mean_kept": float(abs(u.mean() - u0.mean())), "max": float(u.max()),
            "dc": float(spectrum[n // 2, m // 2]),
            "smoother": bool(np.abs(np.diff(u, axis=0)).max() < np.abs(np.diff(u0, axis=0)).max())}


def test_heat_1d_explicit_inplace_slices():
    check(heat_1d_explicit, rtol=1e-3, atol=1e-4)


def test_heat_2d_periodic_roll():
    check(heat_2d_periodic_roll, np.random.default_rng(0).random((16, 20)), rtol=1e-3, atol=1e-4)


def test_poisson_jacobi_convergence_loop():
    check(poisson_jacobi, n=12, tol=1e-3, rtol=2e-2, atol=1e-4)


def test_poisson_red_black_sor_strided_slices():
    check(poisson_red_black, rtol=1e-3, atol=1e-4)


def test_advection_upwind_lax_wendroff():
    check(upwind_and_lax_wendroff, rtol=1e-3, atol=1e-4)


def test_wave_2d_mgrid_source_mask():
    check(wave_2d_source, rtol=1e-3, atol=1e-4)


def test_burgers_godunov_flux():
    check(burgers_godunov, rtol=1e-3, atol=1e-4)


def test_spectral_heat_2d_rfft2():
    check(spectral_heat_2d, np.random.default_rng(3).random((16, 12)), rtol=1e-3, atol=1e-4)


def test_crank_nicolson_diag_tridiagonal():
    check(crank_nicolson, rtol=1e-3, atol=1e-4)
