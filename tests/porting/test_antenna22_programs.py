"""Antenna arrays and cellular networks in plain NumPy: steering vectors by `np.exp(1j * ...)`, array factors and
beam patterns in decibels with `np.angle`/`np.unwrap`, a delay-and-sum beamformer, direction finding from phase
differences, path loss over a `meshgrid(indexing="ij")` coverage map with the best server by `argmax`, SINR in
linear and dB units, a hexagonal cell layout by `np.mgrid`, handover with hysteresis by `np.maximum.accumulate`,
OFDM symbols by `np.fft` with a cyclic prefix, QPSK constellations by complex rounding, and channel estimates by
`np.linalg.lstsq` and `np.vdot` (tests/porting)."""

import numpy as np
from harness import check


def steering(np, n, spacing, angles_deg):
    k = np.arange(n)
    theta = np.deg2rad(np.asarray(angles_deg))
    a = np.exp(1j * 2 * np.pi * spacing * np.outer(np.sin(theta), k))  # (angles, elements)
    return {"re": a.real, "im": a.imag, "phase": np.angle(a[:, 1]), "unwrapped": np.unwrap(np.angle(a), axis=1),
            "norm": np.linalg.norm(a, axis=1)}


def array_factor(np, n, spacing, steer_deg):
    theta = np.linspace(-np.pi / 2, np.pi / 2, 61)
    k = np.arange(n)[:, None]
    w = np.exp(-1j * 2 * np.pi * spacing * k * np.sin(np.deg2rad(steer_deg))) / n
    af = np.abs(np.sum(w * np.exp(1j * 2 * np.pi * spacing * k * np.sin(theta)), axis=0))
    db = 20 * np.log10(np.maximum(af, 1e-6))
    main = np.argmax(af)
    peaks = np.flatnonzero((af[1:-1] > af[:-2]) & (af[1:-1] > af[2:])) + 1
    return {"db": db, "main_deg": np.rad2deg(theta[main]), "peaks": peaks,
            "sidelobe": np.sort(db[peaks])[-2] if peaks.size > 1 else 0.0}


def delay_and_sum(np, signals, delays):
    s = np.asarray(signals)  # (elements, samples)
    n = s.shape[1]
    spec = np.fft.rfft(s, axis=1)
    f = np.fft.rfftfreq(n)
    aligned = np.fft.irfft(spec * np.exp(2j * np.pi * f * np.asarray(delays)[:, None]), n=n, axis=1)
    beam = aligned.mean(axis=0)
    return {"aligned": aligned, "beam": beam, "gain": np.var(beam) / np.var(s[0])}


def direction_finding(np, phases, spacing):
    dphi = np.angle(np.exp(1j * np.diff(np.asarray(phases), axis=1)))  # wrap each difference into (-pi, pi]
    sin_theta = np.clip(dphi.mean(axis=1) / (2 * np.pi * spacing), -1, 1)
    return {"dphi": dphi, "theta": np.degrees(np.arcsin(sin_theta)), "ambiguous": np.abs(sin_theta) == 1}


def coverage(np, sites, power_dbm, size):
    gx, gy = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    sx, sy = np.asarray(sites, dtype=float).T
    d = np.hypot(gx[..., None] - sx, gy[..., None] - sy)
    loss = 32.4 + 20 * np.log10(np.maximum(d, 0.5) * 0.1) + 20 * np.log10(1800)
    rx = np.asarray(power_dbm) - loss  # (x, y, site)
    best = np.argmax(rx, axis=-1)
    served = np.take_along_axis(rx, best[..., None], axis=-1)[..., 0]
    return {"best": best, "served": served, "cells": np.bincount(best.ravel(), minlength=len(sites)),
            "worst": np.unravel_index(np.argmin(served), served.shape)}


def sinr(np, rx_dbm, noise_dbm):
    mw = 10 ** (np.asarray(rx_dbm) / 10)  # (users, cells)
    serving = mw.max(axis=1)
    interference = mw.sum(axis=1) - serving
    s = serving / (interference + 10 ** (noise_dbm / 10))
    db = 10 * np.log10(s)
    rate = np.log2(1 + s)
    return {"db": db, "rate": rate, "outage": np.flatnonzero(db < 0), "cqi": np.digitize(db, [-5, 0, 5, 10, 15])}


def hex_cells(np, rings):
    q, r = np.mgrid[-rings:rings + 1, -rings:rings + 1]
    keep = np.abs(q + r) <= rings
    q, r = q[keep], r[keep]
    x = np.sqrt(3) * (q + r / 2)
    y = 1.5 * r
    d = np.hypot(x[:, None] - x, y[:, None] - y)
    np.fill_diagonal(d, np.inf)
    return {"q": q, "r": r, "x": x, "y": y, "n": len(q), "nearest": np.min(d, axis=1),
            "neighbours": np.sum(np.isclose(d, np.sqrt(3)), axis=1)}


def handover(np, rsrp, hysteresis):
    rsrp = np.asarray(rsrp)  # (time, cells)
    serving = np.empty(len(rsrp), dtype=int)
    cell = int(np.argmax(rsrp[0]))
    for t, row in enumerate(rsrp):
        best = int(np.argmax(row))
        if row[best] > row[cell] + hysteresis:
            cell = best
        serving[t] = cell
    switches = np.flatnonzero(np.diff(serving)) + 1
    return {"serving": serving, "switches": switches, "best_so_far": np.maximum.accumulate(rsrp, axis=0)[-1]}


def ofdm(np, bits, n_sub, cp):
    b = np.asarray(bits).reshape(-1, 2)
    sym = ((1 - 2 * b[:, 0]) + 1j * (1 - 2 * b[:, 1])) / np.sqrt(2)  # QPSK
    grid = sym.reshape(-1, n_sub)
    time = np.fft.ifft(grid, axis=1)
    tx = np.concatenate([time[:, -cp:], time], axis=1)
    rx = np.fft.fft(tx[:, cp:], axis=1)
    back = np.stack([rx.real < 0, rx.imag < 0], axis=-1).reshape(-1).astype(int)
    papr = np.max(np.abs(time) ** 2, axis=1) / np.mean(np.abs(time) ** 2, axis=1)
    return {"tx_re": tx.real, "tx_im": tx.imag, "ok": bool(np.array_equal(back, bits)), "papr_db": 10 * np.log10(papr)}


def qpsk_demod(np, re, im):
    z = np.asarray(re) + 1j * np.asarray(im)
    ideal = (np.sign(z.real) + 1j * np.sign(z.imag)) / np.sqrt(2)
    evm = np.sqrt(np.mean(np.abs(z - ideal) ** 2))
    quadrant = (np.round(np.angle(z) / (np.pi / 2) - 0.5).astype(int)) % 4
    return {"ideal_re": ideal.real, "ideal_im": ideal.imag, "evm": evm, "quadrant": quadrant,
            "conj_ok": bool(np.allclose(np.conj(z) * z, np.abs(z) ** 2))}


def channel_estimate(np, pilots_re, pilots_im, h_re, h_im, noise):
    x = np.asarray(pilots_re) + 1j * np.asarray(pilots_im)
    h = np.asarray(h_re) + 1j * np.asarray(h_im)
    X = np.column_stack([x, np.roll(x, 1)])  # a two-tap channel
    y = X @ h + np.asarray(noise)
    est, res, rank, sv = np.linalg.lstsq(X, y, rcond=None)
    mf = np.vdot(x, y) / np.vdot(x, x)  # a one-tap matched filter
    return {"est": np.abs(est), "phase": np.angle(est), "rank": rank, "mf": abs(mf), "sv": sv}


def test_steering():
    check(steering, 6, 0.5, [-60.0, -10.0, 0.0, 30.0, 90.0], atol=2e-5)


def test_array_factor():
    check(array_factor, 8, 0.5, 20.0, rtol=1e-3, atol=1e-3)


def test_delay_and_sum():
    rng = np.random.default_rng(2211)
    base = np.sin(np.arange(32) / 2.0)
    sig = np.stack([np.roll(base, k) for k in range(4)]) + 0.1 * rng.standard_normal((4, 32))
    check(delay_and_sum, sig, np.arange(4.0), atol=1e-4)


def test_direction_finding():
    rng = np.random.default_rng(2212)
    true = np.deg2rad(np.array([-40.0, 0.0, 25.0, 90.0]))
    phases = np.pi * np.sin(true)[:, None] * np.arange(5) + 0.01 * rng.standard_normal((4, 5))
    check(direction_finding, np.angle(np.exp(1j * phases)), 0.5, rtol=1e-3, atol=1e-3)


def test_coverage():
    check(coverage, [[2, 3], [12, 5], [7, 13]], np.array([43.0, 40.0, 46.0]), 16, atol=1e-3)


def test_sinr():
    rng = np.random.default_rng(2213)
    check(sinr, rng.uniform(-110, -60, (12, 3)), -100.0, atol=1e-3)


def test_hex_cells():
    check(hex_cells, 2)


def test_handover():
    rng = np.random.default_rng(2214)
    walk = np.cumsum(rng.normal(0, 2, (30, 3)), axis=0) + np.array([-80.0, -85.0, -90.0])
    check(handover, walk, 3.0)


def test_ofdm():
    rng = np.random.default_rng(2215)
    check(ofdm, rng.integers(0, 2, 64), 8, 2, atol=1e-5)


def test_qpsk_demod():
    rng = np.random.default_rng(2216)
    pts = rng.choice([-1, 1], (2, 20)) / np.sqrt(2) + 0.1 * rng.standard_normal((2, 20))
    check(qpsk_demod, pts[0], pts[1])


def test_channel_estimate():
    rng = np.random.default_rng(2217)
    p = rng.choice([-1.0, 1.0], (2, 16))
    check(channel_estimate, p[0], p[1], np.array([0.9, 0.3]), np.array([0.1, -0.2]), 0.01 * rng.standard_normal(16),
          rtol=1e-3, atol=1e-4)
