"""Electrical power systems as power-engineering course notebooks write them: a bus admittance matrix built with
`np.add.at` on complex arrays (against a loop over branches), a Newton-Raphson load flow with the complex
`dS/dV` Jacobian blocks and a `while` loop on the mismatch, per-unit conversions with base changes and
`np.round`, a DC power flow with PTDF by `np.linalg.inv` and overloads by `np.where`, an economic dispatch by
lambda bisection with `np.clip` limits and a merit order by `argsort`/`cumsum`/`searchsorted`, fault analysis by
`Zbus = inv(Ybus)` with symmetrical components from the `a = exp(2j*pi/3)` operator, load duration curves of
hourly load reshaped per day, and a Gauss-Seidel load flow updating `V[i]` in place with a printed report
(f-strings of complex elements, `np.printoptions`, `array2string`) (tests/porting)."""

import numpy as np
from harness import check

# from, to, r, x, b (total line charging), per unit on 100 MVA
LINES_5BUS = np.array([[0, 1, 0.02, 0.06, 0.06], [0, 2, 0.08, 0.24, 0.05], [1, 2, 0.06, 0.18, 0.04],
                       [1, 3, 0.06, 0.18, 0.04], [1, 4, 0.04, 0.12, 0.03], [2, 3, 0.01, 0.03, 0.02],
                       [3, 4, 0.08, 0.24, 0.05]])


def build_ybus(np, lines, n, shunt):
    f = lines[:, 0].astype(int)
    t = lines[:, 1].astype(int)
    y = 1 / (lines[:, 2] + 1j * lines[:, 3])
    bc = 1j * lines[:, 4] / 2
    Y = np.zeros((n, n), dtype=complex)
    np.add.at(Y, (f, f), y + bc)
    np.add.at(Y, (t, t), y + bc)
    np.add.at(Y, (f, t), -y)
    np.add.at(Y, (t, f), -y)
    Y[np.diag_indices(n)] += 1j * shunt
    Yloop = np.zeros((n, n), dtype=complex)
    for k in range(len(lines)):
        i, j = f[k], t[k]
        Yloop[i, i] += y[k] + bc[k]
        Yloop[j, j] += y[k] + bc[k]
        Yloop[i, j] -= y[k]
        Yloop[j, i] -= y[k]
    Yloop += np.diag(1j * shunt)
    Cf = np.zeros((len(lines), n))
    Cf[np.arange(len(lines)), f] = 1
    Ct = np.zeros((len(lines), n))
    Ct[np.arange(len(lines)), t] = 1
    A = Cf - Ct
    Yseries = A.T @ np.diag(y) @ A
    return {"Y": Y, "same": np.allclose(Y, Yloop), "G": Y.real, "B": Y.imag, "sym": np.allclose(Y, Y.T),
            "series_ok": np.allclose(Yseries, Y - np.diag(Y.sum(axis=1))), "row_sums": Y.sum(axis=1),
            "nnz": np.count_nonzero(np.abs(Y) > 1e-12)}


def newton_raphson(np, Y, P, Q, V0, pv, pq, tol, max_iter):
    V = V0.astype(complex)
    Vm, Va = np.abs(V), np.angle(V)
    pvpq = np.r_[pv, pq]
    history = []
    it = 0
    while True:
        V = Vm * np.exp(1j * Va)
        S = V * np.conj(Y @ V)
        mis = np.r_[S.real[pvpq] - P[pvpq], S.imag[pq] - Q[pq]]
        norm = np.max(np.abs(mis))
        history.append(norm)
        if norm < tol or it >= max_iter:
            break
        Ibus = Y @ V
        Vn = V / np.abs(V)
        dS_dVm = np.diag(V) @ np.conj(Y @ np.diag(Vn)) + np.conj(np.diag(Ibus)) @ np.diag(Vn)
        dS_dVa = 1j * np.diag(V) @ np.conj(np.diag(Ibus) - Y @ np.diag(V))
        J = np.block([[dS_dVa[np.ix_(pvpq, pvpq)].real, dS_dVm[np.ix_(pvpq, pq)].real],
                      [dS_dVa[np.ix_(pq, pvpq)].imag, dS_dVm[np.ix_(pq, pq)].imag]])
        dx = np.linalg.solve(J, -mis)
        Va[pvpq] += dx[: len(pvpq)]
        Vm[pq] += dx[len(pvpq):]
        it += 1
    S = V * np.conj(Y @ V)
    return {"Vm": Vm, "Va_deg": np.degrees(Va), "iters": it, "converged": history[-1] < tol,
            "slack_P": S[0].real, "losses": S.real.sum(), "Q_pv": S.imag[pv], "decreasing": len(history) > 2}


def per_unit(np, gens, lines_ohm, kv_base, mva_base):
    # generator and transformer reactances on their own ratings, moved to the system base
    x_old, kv_old, mva_old = gens[:, 0], gens[:, 1], gens[:, 2]
    x_new = x_old * (kv_old / kv_base) ** 2 * (mva_base / mva_old)
    z_base = kv_base ** 2 / mva_base
    z_pu = (lines_ohm[:, 0] + 1j * lines_ohm[:, 1]) / z_base
    i_base = mva_base * 1e3 / (np.sqrt(3) * kv_base)
    y_pu = 1 / z_pu
    charging = lines_ohm[:, 2] * 1e-6 * z_base
    table = np.column_stack([np.round(z_pu.real, 4), np.round(z_pu.imag, 4), np.round(charging, 5)])
    x_over_r = np.divide(z_pu.imag, z_pu.real, out=np.full(len(z_pu), np.inf), where=z_pu.real != 0)
    return {"x_new": np.round(x_new, 4), "z_base": z_base, "table": table, "i_base": i_base,
            "y_mag": np.abs(y_pu), "y_ang": np.angle(y_pu, deg=True), "x_over_r": x_over_r,
            "ampacity_pu": lines_ohm[:, 3] / i_base}


def dc_power_flow(np, lines, n, injections, limits):
    f = lines[:, 0].astype(int)
    t = lines[:, 1].astype(int)
    b = 1 / lines[:, 3]
    A = np.zeros((len(lines), n))
    A[np.arange(len(lines)), f] = 1
    A[np.arange(len(lines)), t] = -1
    B = A.T @ (b[:, None] * A)
    Bred = B[1:, 1:]
    theta = np.zeros(n)
    theta[1:] = np.linalg.solve(Bred, injections[1:])
    flows = b * (A @ theta)
    X = np.zeros((n, n))
    X[1:, 1:] = np.linalg.inv(Bred)
    ptdf = (b[:, None] * A) @ X
    loading = np.abs(flows) / limits
    over = np.where(loading > 1.0)[0]
    worst = int(np.argmax(loading))
    balance = np.isclose(injections.sum(), 0.0, atol=1e-9)
    return {"theta": theta, "flows": flows, "ptdf": ptdf, "loading": loading, "over": over, "worst": worst,
            "balance": balance, "slack_in": -injections[1:].sum()}


def economic_dispatch(np, a, b, c, pmin, pmax, demand):
    lo, hi = b.min(), (b + 2 * c * pmax).max()
    for _ in range(60):
        lam = (lo + hi) / 2
        p = np.clip((lam - b) / (2 * c), pmin, pmax)
        if p.sum() > demand:
            hi = lam
        else:
            lo = lam
    cost = a + b * p + c * p ** 2
    at_limit = (np.isclose(p, pmin) | np.isclose(p, pmax))
    marginal = b + 2 * c * pmax
    order = np.argsort(b + c * pmax, kind="stable")
    cum_cap = np.cumsum(pmax[order])
    marginal_unit = order[np.searchsorted(cum_cap, demand)]
    merit = np.zeros_like(pmax)
    need = demand
    for k in order:
        merit[k] = min(pmax[k], need)
        need -= merit[k]
    return {"lambda": lam, "p": p, "cost": cost.sum(), "at_limit": at_limit, "marginal": marginal,
            "order": order, "marginal_unit": int(marginal_unit), "merit": merit,
            "merit_cost": (b * merit + c * merit ** 2).sum()}


def fault_analysis(np, Y, V_pre, zf, Iabc):
    Z = np.linalg.inv(Y)
    Zkk = np.diag(Z)
    If = V_pre / (Zkk + zf)
    k = int(np.argmax(np.abs(If)))
    V_post = V_pre - Z[:, k] * If[k]
    a = np.exp(2j * np.pi / 3)
    A = np.array([[1, 1, 1], [1, a ** 2, a], [1, a, a ** 2]])
    I012 = np.linalg.solve(A, Iabc)
    back = A @ I012
    unbalance = np.abs(I012[2]) / np.abs(I012[1])
    return {"If_mag": np.abs(If), "If_ang": np.angle(If, deg=True), "worst_bus": k, "V_post": np.abs(V_post),
            "I012": np.abs(I012), "roundtrip": np.allclose(back, Iabc, atol=1e-4), "unbalance": unbalance,
            "a3": np.round(a ** 3, 6)}


def load_duration(np, hourly, capacities):
    days = hourly.reshape(-1, 24)
    peak_hour = days.argmax(axis=1)
    daily_peak = days.max(axis=1)
    ldc = np.sort(hourly)[::-1]
    hours_above = np.searchsorted(-ldc, -np.array([0.9, 0.7, 0.5]) * ldc[0])
    load_factor = hourly.mean() / hourly.max()
    cap = np.cumsum(capacities)
    units_on = np.searchsorted(cap, hourly) + 1
    energy = np.bincount(np.minimum(units_on, len(capacities)) - 1, weights=hourly, minlength=len(capacities))
    hours_of_peak = np.bincount(peak_hour, minlength=24)
    ramp = np.diff(hourly)
    return {"peak_hour": peak_hour, "daily_peak": daily_peak, "ldc": ldc[::24], "hours_above": hours_above,
            "lf": load_factor, "units_on": np.bincount(units_on), "energy": energy, "peak_hours": hours_of_peak,
            "max_ramp": ramp.max(), "min_ramp": ramp.min(), "shortfall": int((hourly > cap[-1]).sum())}


def gauss_seidel_report(np, Y, S_spec, V0, tol):
    V = V0.astype(complex)
    n = len(V)
    it = 0
    while it < 200:
        it += 1
        V_old = V.copy()
        for i in range(1, n):
            sigma = Y[i] @ V - Y[i, i] * V[i]
            V[i] = (np.conj(S_spec[i] / V[i]) - sigma) / Y[i, i]
        if np.max(np.abs(V - V_old)) < tol:
            break
    S = V * np.conj(Y @ V)
    lines = [f"bus {i}: |V| = {abs(V[i]):.4f} pu, angle = {np.degrees(np.angle(V[i])):7.3f} deg"
             for i in range(n)]
    with np.printoptions(precision=3, suppress=True):
        table = str(np.round(S, 3))
    text = np.array2string(np.abs(V), precision=4, separator=", ")
    return {"V": V, "iters": it, "S_slack": S[0], "lines": "\n".join(lines), "table": table, "text": text,
            "losses": np.round(S.sum().real, 5)}


def _ybus(lines, n):
    y = 1 / (lines[:, 2] + 1j * lines[:, 3])
    Y = np.zeros((n, n), complex)
    for (f, t, _, _, b), yk in zip(lines, y, strict=True):
        f, t = int(f), int(t)
        Y[f, f] += yk + 0.5j * b
        Y[t, t] += yk + 0.5j * b
        Y[f, t] -= yk
        Y[t, f] -= yk
    return Y


def test_ybus_by_add_at():
    check(build_ybus, LINES_5BUS, 5, np.array([0.0, 0.0, 0.05, 0.0, 0.02]), rtol=1e-4, atol=1e-4)


def test_newton_raphson_load_flow():
    P = np.array([0.0, 0.20, -0.45, -0.40, -0.60])
    Q = np.array([0.0, 0.0, -0.15, -0.05, -0.10])
    V0 = np.array([1.06, 1.0, 1.0, 1.0, 1.0])
    check(newton_raphson, _ybus(LINES_5BUS, 5), P, Q, V0, np.array([1]), np.array([2, 3, 4]), 1e-5, 10,
          rtol=1e-3, atol=1e-3)


def test_per_unit_conversions():
    gens = np.array([[0.2, 13.8, 50.0], [0.15, 13.2, 100.0], [0.1, 138.0, 250.0]])
    lines = np.array([[5.3, 42.0, 290.0, 600.0], [0.0, 30.0, 200.0, 400.0], [12.1, 60.5, 410.0, 800.0]])
    check(per_unit, gens, lines, 138.0, 100.0, rtol=1e-4, atol=1e-5)


def test_dc_power_flow_ptdf():
    inj = np.array([0.0, 0.4, -0.45, -0.4, -0.6])
    inj[0] = -inj[1:].sum()
    check(dc_power_flow, LINES_5BUS, 5, inj, np.array([0.8, 0.5, 0.3, 0.3, 0.5, 0.3, 0.2]), rtol=1e-3,
          atol=1e-4)


def test_economic_dispatch_lambda_iteration():
    a = np.array([500.0, 400.0, 200.0, 300.0])
    b = np.array([5.3, 5.5, 5.8, 6.1])
    c = np.array([0.004, 0.006, 0.009, 0.005])
    check(economic_dispatch, a, b, c, np.array([200.0, 150.0, 100.0, 50.0]),
          np.array([450.0, 350.0, 225.0, 200.0]), 975.0, rtol=1e-3, atol=1e-2)


def test_fault_analysis_symmetrical_components():
    Y = _ybus(LINES_5BUS, 5) + np.diag([-10j, -8j, 0, 0, 0])
    Iabc = np.array([1.0 + 0.2j, -0.6 - 0.9j, -0.5 + 0.8j])
    check(fault_analysis, Y, np.ones(5, complex), 0.01j, Iabc, rtol=1e-3, atol=1e-4)


def test_load_duration_curve():
    rng = np.random.default_rng(1607)
    h = np.arange(24 * 60)
    load = 600 + 250 * np.sin(2 * np.pi * (h % 24 - 8) / 24) + 80 * np.sin(2 * np.pi * h / (24 * 7)) \
        + rng.normal(0, 30, h.size)
    check(load_duration, np.round(load, 1), np.array([300.0, 200.0, 200.0, 150.0, 100.0]), rtol=1e-4, atol=1e-3)


def test_gauss_seidel_load_flow_report():
    S = np.array([0.0, -0.5 - 0.2j, -0.4 - 0.15j, 0.3 + 0.0j, -0.6 - 0.25j])
    check(gauss_seidel_report, _ybus(LINES_5BUS, 5), S, np.array([1.05, 1, 1, 1, 1]), 1e-6, rtol=1e-3, atol=1e-4)
