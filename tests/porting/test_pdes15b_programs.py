"""Numerical PDEs beyond heat as CFD-course notebooks write them: linear advection by first-order upwinding with
`np.roll` against Lax-Wendroff, inviscid Burgers by a conservative upwind flux and viscous Burgers by FTCS, Poisson
by Jacobi on interior slices with a residual stopping loop, red-black SOR with checkerboard masks from
`np.indices`, the 1-D wave equation by leapfrog, and a 2-D advection-diffusion step with `np.gradient`
(tests/porting)."""

from harness import check


def advection_upwind(np, n, c, cfl, steps):
    x = np.linspace(0, 1, n, endpoint=False)
    u0 = np.exp(-200 * (x - 0.3) ** 2)
    u = u0.copy()
    w = u0.copy()
    for _ in range(steps):
        u = u - cfl * (u - np.roll(u, 1))
        w = w - 0.5 * cfl * (np.roll(w, -1) - np.roll(w, 1)) + 0.5 * cfl ** 2 * (np.roll(w, -1) - 2 * w + np.roll(w, 1))
    exact = np.roll(u0, int(round(steps * cfl)))
    return {"upwind": u, "lw": w, "mass": np.array([u.sum(), w.sum()]) / u0.sum(),
            "err": np.array([np.abs(u - exact).max(), np.abs(w - exact).max()]), "peak": int(np.argmax(u))}


def burgers(np, n, nu, dt, steps):
    x = np.linspace(0, 2 * np.pi, n, endpoint=False)
    dx = x[1] - x[0]
    u = 1.0 + 0.5 * np.sin(x)
    v = u.copy()
    for _ in range(steps):
        f = 0.5 * u ** 2
        u = u - dt / dx * (f - np.roll(f, 1))
        vn = v.copy()
        lap = vn[2:] - 2 * vn[1:-1] + vn[:-2]
        v[1:-1] = vn[1:-1] - vn[1:-1] * dt / dx * (vn[1:-1] - vn[:-2]) + nu * dt / dx ** 2 * lap
        v[0] = vn[0] - vn[0] * dt / dx * (vn[0] - vn[-2]) + nu * dt / dx ** 2 * (vn[1] - 2 * vn[0] + vn[-2])
        v[-1] = v[0]
    grad = np.diff(u) / dx
    return {"inviscid": u, "viscous": v, "steepest": grad.min(), "where": int(np.argmin(grad)), "mean": u.mean()}


def poisson_jacobi(np, n, tol, max_iter):
    h = 1.0 / (n - 1)
    x, y = np.meshgrid(np.linspace(0, 1, n), np.linspace(0, 1, n), indexing="ij")
    f = -2 * np.pi ** 2 * np.sin(np.pi * x) * np.sin(np.pi * y)
    u = np.zeros((n, n))
    it = 0
    res = 1.0
    while res > tol and it < max_iter:
        un = u.copy()
        u[1:-1, 1:-1] = 0.25 * (un[2:, 1:-1] + un[:-2, 1:-1] + un[1:-1, 2:] + un[1:-1, :-2] - h * h * f[1:-1, 1:-1])
        res = np.abs(u - un).max()
        it += 1
    exact = np.sin(np.pi * x) * np.sin(np.pi * y)
    return {"u": u, "iters": float(it), "err": np.abs(u - exact).max() < 0.01}


def poisson_red_black(np, n, omega, sweeps):
    h = 1.0 / (n - 1)
    i, j = np.indices((n, n))
    interior = (i > 0) & (i < n - 1) & (j > 0) & (j < n - 1)
    red = interior & ((i + j) % 2 == 0)
    black = interior & ((i + j) % 2 == 1)
    f = np.ones((n, n))
    u = np.zeros((n, n))
    hist = []
    for _ in range(sweeps):
        for m in (red, black):
            nb = np.zeros_like(u)
            nb[1:-1, 1:-1] = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
            gs = 0.25 * (nb + h * h * f)
            u[m] = (1 - omega) * u[m] + omega * gs[m]
        r = np.zeros_like(u)
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4 * u[1:-1, 1:-1]
        r[1:-1, 1:-1] = f[1:-1, 1:-1] + lap / h ** 2
        hist.append(np.linalg.norm(r))
    return {"u": u, "center": u[n // 2, n // 2], "res": np.array(hist), "red": int(red.sum())}


def wave_leapfrog(np, n, c, steps):
    x = np.linspace(0, 1, n)
    dx = x[1] - x[0]
    dt = 0.9 * dx / c
    r2 = (c * dt / dx) ** 2
    prev = np.sin(np.pi * x)
    cur = prev.copy()
    cur[1:-1] = prev[1:-1] + 0.5 * r2 * (prev[2:] - 2 * prev[1:-1] + prev[:-2])
    energy = []
    for _ in range(steps):
        nxt = np.zeros_like(cur)
        nxt[1:-1] = 2 * cur[1:-1] - prev[1:-1] + r2 * (cur[2:] - 2 * cur[1:-1] + cur[:-2])
        prev, cur = cur, nxt
        energy.append(np.sum(((cur - prev) / dt) ** 2) + c ** 2 * np.sum((np.diff(cur) / dx) ** 2))
    return {"u": cur, "energy": np.array(energy), "t": steps * dt}


def advection_diffusion_2d(np, n, vel, kappa, dt, steps):
    y, x = np.mgrid[0:n, 0:n] / (n - 1.0)
    c = np.exp(-((x - 0.3) ** 2 + (y - 0.5) ** 2) / 0.01)
    dx = 1.0 / (n - 1)
    for _ in range(steps):
        gy, gx = np.gradient(c, dx)
        lap = (np.roll(c, 1, 0) + np.roll(c, -1, 0) + np.roll(c, 1, 1) + np.roll(c, -1, 1) - 4 * c) / dx ** 2
        c = c + dt * (-vel[0] * gx - vel[1] * gy + kappa * lap)
        np.clip(c, 0, None, out=c)
    com = np.array([(c * x).sum(), (c * y).sum()]) / c.sum()
    return {"c": c, "com": com, "max": c.max(), "argmax": np.unravel_index(np.argmax(c), c.shape)}


def test_advection_upwind_roll():
    check(advection_upwind, 100, 1.0, 0.5, 80, rtol=1e-3, atol=1e-5)


def test_burgers_inviscid_and_viscous():
    check(burgers, 64, 0.05, 0.01, 120, rtol=1e-3, atol=1e-4)


def test_poisson_jacobi_while():
    check(poisson_jacobi, 17, 1e-5, 2000, rtol=5e-3, atol=1e-4)


def test_poisson_red_black_sor():
    check(poisson_red_black, 17, 1.6, 40, rtol=5e-3, atol=1e-4)


def test_wave_leapfrog_energy():
    check(wave_leapfrog, 41, 1.0, 60, rtol=1e-3, atol=1e-4)


def test_advection_diffusion_gradient():
    check(advection_diffusion_2d, 24, (0.5, 0.2), 0.002, 0.005, 40, rtol=2e-3, atol=1e-4)
