"""Exercises of the Scientific Python Lectures (scipy-lectures), NumPy chapters, on host data as in the course:
the hare/lynx/carrot populations table, crude integral approximations, framing a face with ogrid masks, Route 66
distances by broadcasting, diffusion of random walkers (mean squared distance against sqrt(t)), wind-speed
return levels by np.interp of cumulative probabilities, polynomial fits with np.polyfit/np.polyval and the
Polynomial class, and the advanced chapter's stride and dtype tricks (tests/porting)."""

import numpy as np
from harness import check


def populations(np, table_host):
    data = np.asarray(table_host)
    year, hares, lynxes, carrots = data.T
    populations = data[:, 1:]
    mean, std = populations.mean(axis=0), populations.std(axis=0)
    largest = np.argmax(populations, axis=1)
    species = ["H", "L", "C"]
    which = [species[i] for i in largest]
    above = np.any(populations > 50000, axis=1)
    years_above = year[above]
    lowest2 = year[np.argsort(populations, axis=0)[:2]]
    hare_grad = np.gradient(hares, 1.0)
    corr = np.corrcoef(hare_grad, lynxes)
    return {"mean": mean, "std": std, "which": which, "years_above": years_above, "lowest2": lowest2,
            "corr": corr, "peak_years": year[np.argmax(populations, axis=0)]}


def crude_integrals(np):
    a, b, c = np.ogrid[0:1:20j, 0:1:20j, 0:1:20j]
    samples = (a**b - c)
    approx = samples.mean()
    exact = np.log(2.0) - 0.5
    x = np.linspace(0, 1, 201)
    y = np.exp(-(x**2))
    dx = x[1] - x[0]
    left = np.sum(y[:-1]) * dx
    trap = np.trapezoid(y, x)
    simpson = dx / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
    cum = np.concatenate([[0.0], np.cumsum((y[1:] + y[:-1]) / 2 * np.diff(x))])
    return {"approx": float(approx), "err": float(abs(approx - exact)), "left": float(left), "trap": float(trap),
            "simpson": float(simpson), "cum": cum[::50]}


def framing_a_face(np, face_host):
    face = np.asarray(face_host).copy()
    lx, ly = face.shape
    X, Y = np.ogrid[0:lx, 0:ly]
    mask = (X - lx / 2) ** 2 + (Y - ly / 2) ** 2 > lx * ly / 4
    face[mask] = 0
    face[range(10), range(10)] = 255
    crop = face[lx // 4 : -lx // 4, ly // 4 : -ly // 4]
    sub = face[::2, ::2]
    hist = np.bincount(face.ravel() // 32, minlength=8)
    return {"face": face, "crop_mean": float(crop.mean()), "sub": sub, "hist": hist, "masked": int(mask.sum())}


def route66(np):
    mileposts = np.array([0, 198, 303, 736, 871, 1175, 1475, 1544, 1913, 2448])
    distance_array = np.abs(mileposts - mileposts[:, np.newaxis])
    x, y = np.arange(5), np.arange(5)[:, np.newaxis]
    distance = np.sqrt(x**2 + y**2)
    mx, my = np.ogrid[0:5, 0:5]
    ogrid_dist = np.sqrt(mx**2 + my**2)
    nearest = np.argsort(distance_array, axis=1)[:, 1]
    return {"distance_array": distance_array, "distance": distance, "same": bool(np.allclose(distance, ogrid_dist)),
            "nearest": nearest, "farthest": distance_array.max(axis=1)}


def diffusion(np, steps_host):
    steps = np.asarray(steps_host)
    positions = np.cumsum(steps, axis=1)
    sq_distance = positions**2
    mean_sq_distance = np.mean(sq_distance, axis=0)
    t = np.arange(1, steps.shape[1] + 1)
    ratio = np.sqrt(mean_sq_distance) / np.sqrt(t)
    slope, intercept = np.polyfit(np.log(t[5:]), np.log(np.sqrt(mean_sq_distance[5:])), 1)
    final_hist = np.histogram(positions[:, -1], bins=np.arange(-20.5, 21, 4))[0]
    return {"msd": mean_sq_distance, "ratio": ratio, "slope": float(slope), "hist": final_hist}


def wind_return_levels(np, max_speeds_host):
    max_speeds = np.asarray(max_speeds_host)
    years_nb = max_speeds.shape[0]
    cprob = (np.arange(years_nb, dtype=np.float32) + 1) / (years_nb + 1)
    sorted_max_speeds = np.sort(max_speeds)
    fifty_prob = 1.0 - 0.02
    fifty_wind = np.interp(fifty_prob, cprob, sorted_max_speeds)
    levels = np.interp([0.5, 0.9, 0.95], cprob, sorted_max_speeds)
    gumbel = -np.log(-np.log(cprob))
    a, b = np.polyfit(gumbel, sorted_max_speeds, 1)
    fifty_gumbel = np.polyval([a, b], -np.log(-np.log(fifty_prob)))
    return {"fifty": float(fifty_wind), "levels": levels, "fit": np.array([a, b]), "gumbel": float(fifty_gumbel)}


def polynomial_fitting(np, x_host, y_host):
    x, y = np.asarray(x_host), np.asarray(y_host)
    fits = {}
    for deg in (1, 2, 3):
        coeffs = np.polyfit(x, y, deg)
        resid = y - np.polyval(coeffs, x)
        fits[deg] = (coeffs, float(np.sqrt(np.mean(resid**2))))
    p = np.poly1d(fits[3][0])
    dp = p.deriv()
    crit = np.sort(dp.roots.real)
    P = np.polynomial.Polynomial.fit(x, y, 3)
    conv = P.convert().coef
    grid = np.linspace(x.min(), x.max(), 7)
    return {"c1": fits[1][0], "rms": [fits[d][1] for d in (1, 2, 3)], "crit": crit, "conv": conv,
            "same": bool(np.allclose(conv[::-1], fits[3][0], rtol=1e-3, atol=1e-3)), "grid": P(grid),
            "integral": float(p.integ()(x.max()) - p.integ()(x.min()))}


def advanced_strides(np):
    x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=np.int8)
    strides = x.strides
    y = x[::2, :]
    z = x.T
    t = np.lib.stride_tricks.as_strided(x, shape=(3,), strides=(x.strides[0] + x.strides[1],))
    w = np.lib.stride_tricks.as_strided(np.arange(4, dtype=np.int8), shape=(4, 4), strides=(0, 1))
    r = x.view(np.uint8)
    u = np.arange(8, dtype=np.uint8).view(np.int16) if np.little_endian else None
    b = np.array([1, 0, 1], dtype=bool).view(np.uint8)
    return {"strides": strides, "y": y.strides, "z": z.strides, "diag": t, "w": w, "r": r, "u": u, "b": b,
            "byteswap": np.array([1, 256], dtype=np.int16).byteswap()}


def test_populations_table():
    rng = np.random.default_rng(541)
    years = np.arange(1900, 1921)
    hares = np.abs(30000 + 25000 * np.sin(years / 2.0) + rng.normal(0, 2000, 21)).round()
    lynx = np.abs(25000 + 20000 * np.sin(years / 2.0 - 1) + rng.normal(0, 2000, 21)).round()
    carrots = (40000 + rng.normal(0, 3000, 21)).round()
    check(populations, np.c_[years, hares, lynx, carrots], rtol=1e-3, atol=1e-2)


def test_crude_integral_approximations():
    check(crude_integrals, rtol=1e-3, atol=1e-5)


def test_framing_a_face_ogrid_mask():
    check(framing_a_face, np.random.default_rng(542).integers(0, 256, (40, 48)))


def test_route66_broadcast_distances():
    check(route66)


def test_random_walk_diffusion_msd():
    steps = 2 * np.random.default_rng(543).integers(0, 2, (300, 40)) - 1
    check(diffusion, steps, rtol=1e-3, atol=1e-4)


def test_wind_speed_return_levels_interp():
    check(wind_return_levels, np.random.default_rng(544).gumbel(25, 5, 21).round(2), rtol=1e-3, atol=1e-3)


def test_polyfit_polyval_poly1d_polynomial_class():
    rng = np.random.default_rng(545)
    x = np.linspace(-2, 3, 25)
    check(polynomial_fitting, x, 0.5 * x**3 - x**2 - 2 * x + 1 + rng.normal(0, 0.3, 25), rtol=2e-3, atol=2e-3)


def test_advanced_strides_views_byteswap():
    check(advanced_strides)
