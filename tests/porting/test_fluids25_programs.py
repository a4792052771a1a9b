"""Shallow-water and lattice-Boltzmann fluids in plain NumPy: a D2Q9 BGK lattice with streaming by `np.roll` over
tuple shifts, equilibria by `einsum`, bounce-back walls by fancy-index swaps, Poiseuille flow checked against the
parabola, a 1-D shallow-water dam break with Lax-Friedrichs and Rusanov fluxes (`maximum` of wave speeds, `diff`),
a 2-D linear shallow-water basin with a staggered grid, mass and energy bookkeeping, the upwind advection of a
tracer with `where` on velocity signs, and vorticity/stream function by a spectral Poisson solve with
`fft2`/`fftfreq` (tests/porting)."""

import numpy as np
from harness import check

C = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
OPP = np.array([0, 3, 4, 1, 2, 7, 8, 5, 6])


def equilibrium(np, rho, u, c, w):
    cu = np.einsum("qd,xyd->xyq", c, u)
    usq = np.sum(u**2, axis=-1, keepdims=True)
    return w * rho[..., None] * (1 + 3 * cu + 4.5 * cu**2 - 1.5 * usq)


def lbm_channel(np, nx, ny, tau, force, steps, c, w, opp):
    c, w, opp = np.asarray(c), np.asarray(w), np.asarray(opp)
    wall = np.zeros((nx, ny), dtype=bool)
    wall[:, [0, -1]] = True
    rho = np.ones((nx, ny))
    u = np.zeros((nx, ny, 2))
    f = equilibrium(np, rho, u, c, w)
    for _ in range(steps):
        rho = f.sum(axis=-1)
        u = np.einsum("xyq,qd->xyd", f, c) / rho[..., None]
        u[..., 0] += tau * force / rho
        u[wall] = 0
        feq = equilibrium(np, rho, u, c, w)
        f = f - (f - feq) / tau
        f = np.stack([np.roll(f[..., q], tuple(c[q]), axis=(0, 1)) for q in range(9)], axis=-1)
        f[wall] = f[wall][:, opp]
    rho = f.sum(axis=-1)
    u = np.einsum("xyq,qd->xyd", f, c) / rho[..., None]
    profile = u[nx // 2, 1:-1, 0]
    y = np.arange(1, ny - 1) - (ny - 1) / 2
    fit = np.polyfit(y, profile, 2)
    return {"mass": rho[~wall].sum(), "profile": profile, "curv": fit[0], "sym": np.abs(profile - profile[::-1]).max(),
            "uy": np.abs(u[..., 1]).max() < 1e-6}


def dam_break(np, n, steps, cfl, scheme):
    g = 9.81
    x = (np.arange(n) + 0.5) / n
    h = np.where(x < 0.5, 2.0, 1.0)
    hu = np.zeros(n)
    dx = 1.0 / n
    mass0 = h.sum() * dx
    t = 0.0
    for _ in range(steps):
        u = hu / h
        speed = np.abs(u) + np.sqrt(g * h)
        dt = cfl * dx / speed.max()
        U = np.stack([h, hu])
        F = np.stack([hu, hu * u + 0.5 * g * h**2])
        Ue = np.pad(U, ((0, 0), (1, 1)), mode="edge")
        Fe = np.pad(F, ((0, 0), (1, 1)), mode="edge")
        se = np.pad(speed, 1, mode="edge")
        if scheme == "lf":
            flux = 0.5 * (Fe[:, :-1] + Fe[:, 1:]) - 0.5 * dx / dt * (Ue[:, 1:] - Ue[:, :-1])
        else:
            a = np.maximum(se[:-1], se[1:])
            flux = 0.5 * (Fe[:, :-1] + Fe[:, 1:]) - 0.5 * a * (Ue[:, 1:] - Ue[:, :-1])
        U = U - dt / dx * np.diff(flux, axis=1)
        h, hu = U
        t += dt
    return {"h": h, "hu": hu, "t": t, "mass": h.sum() * dx - mass0, "front": x[np.flatnonzero(h > 1.01).max()]}


def basin_2d(np, n, steps, dt):
    g, H, dx = 9.81, 10.0, 1000.0
    x = np.arange(n) - n / 2
    X, Y = np.meshgrid(x, x, indexing="ij")
    eta = np.exp(-(X**2 + Y**2) / 8.0)
    u = np.zeros((n + 1, n))
    v = np.zeros((n, n + 1))
    energy = []
    for _ in range(steps):
        u[1:-1, :] -= g * dt / dx * np.diff(eta, axis=0)
        v[:, 1:-1] -= g * dt / dx * np.diff(eta, axis=1)
        eta = eta - H * dt / dx * (np.diff(u, axis=0) + np.diff(v, axis=1))
        ke = 0.5 * H * (np.sum(u**2) + np.sum(v**2))
        pe = 0.5 * g * np.sum(eta**2)
        energy.append(ke + pe)
    energy = np.asarray(energy)
    return {"eta": eta, "vol": eta.sum(), "E": energy / energy[0], "sym": np.abs(eta - eta.T).max(),
            "umax": np.abs(u).max()}


def upwind_tracer(np, q0, vel, dx, dt, steps):
    q = np.asarray(q0, dtype=float)
    v = np.asarray(vel)
    vp, vm = np.maximum(v, 0), np.minimum(v, 0)
    total0 = q.sum()
    for _ in range(steps):
        back = q - np.roll(q, 1)
        fwd = np.roll(q, -1) - q
        q = q - dt / dx * np.where(v > 0, vp * back, vm * fwd)
    com = np.sum(np.arange(q.size) * q) / q.sum()
    return {"q": q, "total": q.sum() - total0, "min": q.min(), "com": com, "peak": np.argmax(q)}


def vorticity_poisson(np, n):
    L = 2 * np.pi
    x = np.arange(n) * L / n
    X, Y = np.meshgrid(x, x, indexing="ij")
    psi_true = np.sin(X) * np.cos(2 * Y) + 0.5 * np.cos(3 * X)
    omega = 5 * np.sin(X) * np.cos(2 * Y) + 4.5 * np.cos(3 * X)
    k = np.fft.fftfreq(n, d=L / n) * 2 * np.pi
    KX, KY = np.meshgrid(k, k, indexing="ij")
    k2 = KX**2 + KY**2
    k2[0, 0] = 1.0
    psi_hat = np.fft.fft2(omega) / k2
    psi_hat[0, 0] = 0.0
    psi = np.real(np.fft.ifft2(psi_hat))
    u = np.real(np.fft.ifft2(1j * KY * psi_hat))
    v = -np.real(np.fft.ifft2(1j * KX * psi_hat))
    div = np.real(np.fft.ifft2(1j * KX * np.fft.fft2(u) + 1j * KY * np.fft.fft2(v)))
    return {"err": np.abs(psi - psi_true).max() < 1e-4, "u": u, "v": v, "div": np.abs(div).max() < 1e-4,
            "spec": np.round(np.abs(np.fft.fftshift(psi_hat))[n // 2 - 3:n // 2 + 4, n // 2 - 3:n // 2 + 4], 3)}


def test_lbm_channel():
    check(lbm_channel, 8, 11, 0.8, 1e-5, 200, C, W, OPP, rtol=5e-3, atol=1e-5)


def test_dam_break_lax_friedrichs():
    check(dam_break, 60, 40, 0.45, "lf", rtol=2e-3, atol=1e-4)


def test_dam_break_rusanov():
    check(dam_break, 60, 40, 0.45, "rusanov", rtol=2e-3, atol=1e-4)


def test_basin_2d():
    check(basin_2d, 16, 30, 20.0, rtol=2e-3, atol=1e-4)


def test_upwind_tracer():
    q0 = np.exp(-0.5 * ((np.arange(40) - 10) / 3.0) ** 2)
    vel = np.where(np.arange(40) < 25, 1.0, -0.5)
    check(upwind_tracer, q0, vel, 1.0, 0.5, 30, rtol=1e-3, atol=1e-5)


def test_vorticity_poisson():
    check(vorticity_poisson, 16, rtol=1e-3, atol=1e-4)
