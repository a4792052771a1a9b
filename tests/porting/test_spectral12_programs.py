"""Spectral methods as Trefethen's "Spectral Methods in MATLAB" ports and course notebooks write them in NumPy:
Fourier differentiation by `np.fft.rfft` with `rfftfreq` wavenumbers (and the Nyquist mode zeroed), Chebyshev
points and the differentiation matrix `cheb(N)` built by `np.outer` and `np.diag`, a Chebyshev collocation
boundary-value solve by `np.linalg.solve` on the interior block, a 2-D periodic Poisson solve with `fft2` and
`np.meshgrid` wavenumbers, Clenshaw-Curtis weights, a pseudo-spectral viscous Burgers step with 2/3 dealiasing,
and Fourier partial sums showing the Gibbs overshoot (tests/porting)."""

from harness import check


def fourier_derivative(np, n):
    L = 2 * np.pi
    x = np.arange(n) * L / n
    u = np.exp(np.sin(x))
    k = 2 * np.pi * np.fft.rfftfreq(n, d=L / n)
    uh = np.fft.rfft(u)
    du_hat = 1j * k * uh
    du_hat[-1] = 0 if n % 2 == 0 else du_hat[-1]
    du = np.fft.irfft(du_hat, n)
    d2u = np.fft.irfft(-(k ** 2) * uh, n)
    exact = np.cos(x) * u
    kf = np.fft.fftfreq(n, 1 / n)
    du_full = np.real(np.fft.ifft(1j * kf * np.fft.fft(u)))
    return {"du": du, "err": np.abs(du - exact).max() < 1e-4, "d2u": d2u, "du_full": du_full,
            "energy": np.abs(uh[:6])}


def cheb(np, N):
    x = np.cos(np.pi * np.arange(N + 1) / N)
    c = np.hstack([2, np.ones(N - 1), 2]) * (-1) ** np.arange(N + 1)
    X = np.tile(x, (N + 1, 1)).T
    dX = X - X.T
    D = np.outer(c, 1 / c) / (dX + np.eye(N + 1))
    D = D - np.diag(D.sum(axis=1))
    return D, x


def cheb_matrix(np, N):
    D, x = cheb(np, N)
    f = np.exp(x) * np.sin(5 * x)
    df = D @ f
    exact = np.exp(x) * (np.sin(5 * x) + 5 * np.cos(5 * x))
    D2 = D @ D
    return {"x": x, "D_corner": D[:3, :3], "err": np.abs(df - exact).max() < 1e-3, "df": df,
            "row_sums": np.abs(D.sum(axis=1)).max() < 1e-8, "D2_diag": np.diag(D2)[:4]}


def cheb_bvp(np, N):
    D, x = cheb(np, N)
    D2 = (D @ D)[1:N, 1:N]
    f = np.exp(4 * x[1:N])
    u = np.linalg.solve(D2, f)
    u = np.concatenate([[0.0], u, [0.0]])
    exact = (np.exp(4 * x) - np.sinh(4) * x - np.cosh(4)) / 16
    xx = np.linspace(-1, 1, 9)
    coeffs = np.polyfit(x, u, N)
    interp = np.polyval(coeffs, xx)
    return {"u": u, "err": np.abs(u - exact).max(), "interp": interp, "cond_ok": bool(np.linalg.cond(D2) < 1e6)}


def poisson_fft2(np, n):
    L = 2 * np.pi
    x = np.arange(n) * L / n
    X, Y = np.meshgrid(x, x, indexing="ij")
    u_exact = np.sin(2 * X) * np.cos(3 * Y)
    f = -13 * u_exact
    k = np.fft.fftfreq(n, d=L / (2 * np.pi * n))
    KX, KY = np.meshgrid(k, k, indexing="ij")
    k2 = KX ** 2 + KY ** 2
    k2[0, 0] = 1.0
    u_hat = -np.fft.fft2(f) / k2
    u_hat[0, 0] = 0.0
    u = np.real(np.fft.ifft2(u_hat))
    spectrum = np.abs(np.fft.fftshift(np.fft.fft2(u_exact))) / n ** 2
    peaks = np.argwhere(spectrum > 0.1)
    return {"u": u[::4, ::4], "err": np.abs(u - u_exact).max(), "peaks": peaks, "mean": u.mean()}


def clenshaw_curtis(np, N):
    theta = np.pi * np.arange(N + 1) / N
    x = np.cos(theta)
    w = np.zeros(N + 1)
    ii = np.arange(1, N)
    v = np.ones(N - 1)
    if N % 2 == 0:
        w[0] = w[N] = 1 / (N ** 2 - 1)
        for k in range(1, N // 2):
            v -= 2 * np.cos(2 * k * theta[ii]) / (4 * k ** 2 - 1)
        v -= np.cos(N * theta[ii]) / (N ** 2 - 1)
    else:
        w[0] = w[N] = 1 / N ** 2
        for k in range(1, (N - 1) // 2 + 1):
            v -= 2 * np.cos(2 * k * theta[ii]) / (4 * k ** 2 - 1)
    w[ii] = 2 * v / N
    tests = {"exp": w @ np.exp(x), "runge": w @ (1 / (1 + 16 * x ** 2)), "abs3": w @ np.abs(x) ** 3}
    gx, gw = np.polynomial.legendre.leggauss(N)
    return {"w": w, "sum": w.sum(), "tests": [tests["exp"], tests["runge"], tests["abs3"]],
            "gauss_exp": gw @ np.exp(gx), "sym": bool(np.allclose(w, w[::-1]))}


def burgers_dealiased(np, n, nu, dt, steps):
    x = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.sin(x) + 0.5 * np.sin(2 * x)
    k = np.fft.rfftfreq(n, 1.0 / n)
    keep = k < (2.0 / 3.0) * (n // 2)
    uh = np.fft.rfft(u)
    energy = []
    for _ in range(steps):
        u = np.fft.irfft(uh, n)
        ux = np.fft.irfft(1j * k * uh, n)
        nl = np.fft.rfft(u * ux) * keep
        uh = (uh - dt * nl) / (1 + nu * dt * k ** 2)
        energy.append(0.5 * np.mean(u ** 2))
    u = np.fft.irfft(uh, n)
    return {"u": u[::4], "energy": np.array(energy)[::5], "decays": bool(np.all(np.diff(energy) <= 1e-12)),
            "high_modes": np.abs(uh[~keep]).max()}


def gibbs(np, terms):
    x = np.linspace(-np.pi, np.pi, 801)
    sq = np.sign(np.sin(x))
    ks = np.arange(1, 2 * terms, 2)
    partial = (4 / np.pi) * (np.sin(np.outer(x, ks)) / ks).sum(axis=1)
    overshoot = partial.max() - 1
    sigma = np.sinc(ks / (2 * terms))
    smoothed = (4 / np.pi) * (np.sin(np.outer(x, ks)) * sigma / ks).sum(axis=1)
    where_max = x[np.argmax(partial)]
    l2 = np.sqrt(np.trapezoid((partial - sq) ** 2, x))
    return {"overshoot": overshoot, "smoothed_over": smoothed.max() - 1, "where": where_max, "l2": l2,
            "partial": partial[::50]}


def test_fourier_derivative_rfft():
    check(fourier_derivative, 32, rtol=1e-3, atol=1e-4)


def test_chebyshev_differentiation_matrix():
    check(cheb_matrix, 16, rtol=1e-3, atol=1e-3)


def test_chebyshev_collocation_bvp():
    check(cheb_bvp, 12, rtol=2e-3, atol=1e-4)


def test_poisson_fft2_meshgrid():
    check(poisson_fft2, 16, rtol=1e-3, atol=1e-5)


def test_clenshaw_curtis_weights():
    check(clenshaw_curtis, 10, rtol=1e-4, atol=1e-6)


def test_burgers_dealiased_pseudospectral():
    check(burgers_dealiased, 32, 0.05, 0.01, 40, rtol=2e-3, atol=1e-4)


def test_gibbs_overshoot_sigma_factors():
    check(gibbs, 15, rtol=1e-3, atol=1e-4)
