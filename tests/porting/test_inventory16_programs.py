"""Inventory and supply-chain simulations as operations-management course notebooks write them: an (s, S)
policy simulated day by day with orders in a pipeline array and lead times by `np.roll`, checked against a
`cumsum` of net demand; a base-stock policy vectorised over scenarios (rows of host-drawn demand) with fill
rates and stock-out days by masks; the beer-game bullwhip effect along a four-echelon chain with order-up-to
forecasts by exponential smoothing and the variance ratios by `np.var`; the newsvendor quantity from an
empirical critical fractile (`np.quantile`, `argmax` of expected profit over a grid by broadcasting); EOQ and
quantity discounts with `np.where`/`np.argmin`; an ABC/XYZ classification by `cumsum` of sorted value and
coefficients of variation with `np.digitize`; and a multi-warehouse transshipment by `np.add.at` on a flow list
with lateness by `np.maximum` (tests/porting)."""

import numpy as np
from harness import check


def s_S_policy(np, demand, s, S, lead, start, h, p, K):
    demand = np.asarray(demand)
    n = len(demand)
    pipeline = np.zeros(lead + 1, dtype=np.int64)
    on_hand = start
    level = np.empty(n, dtype=np.int64)
    lost = np.zeros(n, dtype=np.int64)
    ordered = np.zeros(n, dtype=np.int64)
    for t in range(n):
        on_hand += pipeline[0]
        pipeline = np.roll(pipeline, -1)
        pipeline[-1] = 0
        sold = min(on_hand, demand[t])
        lost[t] = demand[t] - sold
        on_hand -= sold
        position = on_hand + pipeline.sum()
        if position <= s:
            q = S - position
            pipeline[lead - 1] += q
            ordered[t] = q
        level[t] = on_hand
    arrivals = np.roll(ordered, lead)
    arrivals[:lead] = 0
    check_level = start + np.cumsum(arrivals) - np.cumsum(demand - lost)
    n_orders = np.count_nonzero(ordered)
    cost = h * level.sum() + p * lost.sum() + K * n_orders
    return {"level": level, "lost": lost, "ordered": ordered, "consistent": np.array_equal(level, check_level),
            "fill_rate": 1 - lost.sum() / demand.sum(), "orders": n_orders, "cost": cost,
            "cycle": np.diff(np.flatnonzero(ordered))}


def base_stock_scenarios(np, demand, base, lead):
    demand = np.asarray(demand, dtype=float)
    n_sc, n = demand.shape
    inv = np.full(n_sc, float(base))
    backlog = np.zeros(n_sc)
    pipe = np.zeros((n_sc, lead))
    inv_hist = np.zeros((n_sc, n))
    for t in range(n):
        inv += pipe[:, 0]
        pipe[:, :-1] = pipe[:, 1:]
        pipe[:, -1] = demand[:, t]  # order what was demanded: base stock
        need = demand[:, t] + backlog
        shipped = np.minimum(inv, need)
        inv -= shipped
        backlog = need - shipped
        inv_hist[:, t] = inv - backlog
    stockout = inv_hist < 0
    fill = 1 - np.maximum(-inv_hist, 0).sum(axis=1) / demand.sum(axis=1)
    first_out = np.where(stockout.any(axis=1), stockout.argmax(axis=1), -1)
    return {"net": inv_hist[:, ::7], "out_days": stockout.sum(axis=1), "fill": fill, "first_out": first_out,
            "mean_inv": np.mean(np.clip(inv_hist, 0, None), axis=1), "worst": int(np.argmin(inv_hist.min(axis=1)))}


def bullwhip(np, customer, alpha, lead, stages):
    n = len(customer)
    orders = np.zeros((stages + 1, n))
    orders[0] = customer
    for k in range(1, stages + 1):
        d = orders[k - 1]
        forecast = np.empty(n)
        forecast[0] = d[0]
        for t in range(1, n):
            forecast[t] = alpha * d[t - 1] + (1 - alpha) * forecast[t - 1]
        target = forecast * (lead + 1)
        o = d + np.diff(target, prepend=target[0])
        orders[k] = np.maximum(o, 0)
    var = orders[:, 20:].var(axis=1)
    ratio = var[1:] / var[:-1]
    total = var / var[0]
    amplified = np.all(ratio > 1)
    corr = np.corrcoef(orders[:, 20:])[0]
    return {"var": var, "ratio": ratio, "total": total, "amplified": amplified, "corr": corr,
            "peak_stage": np.argmax(orders[:, 20:], axis=1)}


def newsvendor(np, demand_samples, price, cost, salvage):
    cu = price - cost
    co = cost - salvage
    fractile = cu / (cu + co)
    q_star = np.quantile(demand_samples, fractile, method="inverted_cdf")
    grid = np.arange(demand_samples.min(), demand_samples.max() + 1)
    sold = np.minimum(grid[:, None], demand_samples[None, :])
    leftover = grid[:, None] - sold
    profit = (price * sold - cost * grid[:, None] + salvage * leftover).mean(axis=1)
    best = grid[np.argmax(profit)]
    below = (demand_samples <= best).mean()
    return {"fractile": fractile, "q_star": q_star, "best": best, "profit": profit.max(), "below": below,
            "curve": profit[::10]}


def eoq_discounts(np, D, K, h_rate, breaks, prices):
    eoq = np.sqrt(2 * D * K / (h_rate * prices))
    lo = breaks
    hi = np.r_[breaks[1:] - 1, np.inf]
    feasible_q = np.clip(eoq, lo, hi)
    total = D * prices + D / feasible_q * K + h_rate * prices * feasible_q / 2
    best = int(np.argmin(total))
    in_range = (eoq >= lo) & (eoq <= hi)
    cycle_days = 365 * feasible_q / D
    return {"eoq": eoq, "q": feasible_q, "total": total, "best": best, "in_range": in_range,
            "cycle": np.round(cycle_days, 1), "saving": total.max() - total.min()}


def abc_xyz(np, monthly_units, unit_cost):
    value = monthly_units.sum(axis=1) * unit_cost
    order = np.argsort(value)[::-1]
    share = np.cumsum(value[order]) / value.sum()
    abc_sorted = np.where(share <= 0.8, 0, np.where(share <= 0.95, 1, 2))
    abc = np.empty_like(abc_sorted)
    abc[order] = abc_sorted
    with np.errstate(divide="ignore", invalid="ignore"):
        cv = monthly_units.std(axis=1) / monthly_units.mean(axis=1)
    xyz = np.digitize(cv, [0.5, 1.0])
    matrix = np.zeros((3, 3), dtype=int)
    np.add.at(matrix, (abc, xyz), 1)
    seasonal = np.argmax(monthly_units, axis=1)
    return {"abc": abc, "xyz": xyz, "matrix": matrix, "cv": cv, "share": share[:10], "seasonal": seasonal,
            "A_value": value[abc == 0].sum() / value.sum()}


def transshipment(np, flows, n_sites, stock, due, transit):
    src, dst, qty = flows[:, 0], flows[:, 1], flows[:, 2]
    net = np.zeros(n_sites, dtype=np.int64)
    np.add.at(net, dst, qty)
    np.subtract.at(net, src, qty)
    final = stock + net
    short = np.flatnonzero(final < 0)
    arrive = transit[src, dst]
    late = np.maximum(arrive - due, 0)
    lane = src * n_sites + dst
    lanes, inv = np.unique(lane, return_inverse=True)
    lane_qty = np.bincount(inv, weights=qty)
    busiest = np.divmod(lanes[np.argmax(lane_qty)], n_sites)
    tonne_days = (qty * arrive).sum()
    return {"net": net, "final": final, "short": short, "late": late, "late_qty": qty[late > 0].sum(),
            "lanes": lanes, "lane_qty": lane_qty, "busiest": [int(b) for b in busiest], "tonne_days": tonne_days}


def test_s_S_policy_with_lead_time():
    rng = np.random.default_rng(1601)
    check(s_S_policy, rng.poisson(12, 120), 40, 110, 3, 80, 0.5, 4.0, 60.0, rtol=1e-5, atol=1e-5)


def test_base_stock_scenarios():
    rng = np.random.default_rng(1602)
    check(base_stock_scenarios, rng.poisson(20, (6, 60)), 70, 3, rtol=1e-5, atol=1e-5)


def test_bullwhip_beer_game():
    rng = np.random.default_rng(1603)
    customer = 100 + 10 * rng.standard_normal(150)
    customer[60:] += 20
    check(bullwhip, customer, 0.3, 2, 4, rtol=1e-3, atol=1e-3)


def test_newsvendor_critical_fractile():
    rng = np.random.default_rng(1604)
    check(newsvendor, rng.poisson(100, 400), 12.0, 7.0, 2.0, rtol=1e-4, atol=1e-4)


def test_eoq_quantity_discounts():
    check(eoq_discounts, 12_000.0, 150.0, 0.2, np.array([1.0, 500.0, 1000.0, 2500.0]),
          np.array([10.0, 9.6, 9.3, 9.1]), rtol=1e-4, atol=1e-3)


def test_abc_xyz_classification():
    rng = np.random.default_rng(1606)
    units = rng.negative_binomial(2, rng.uniform(0.02, 0.5, (40, 1)), (40, 12))
    units[3] = 0
    check(abc_xyz, units, np.round(rng.lognormal(2, 1, 40), 2), rtol=1e-4, atol=1e-5)


def test_transshipment_flows():
    rng = np.random.default_rng(1607)
    n = 6
    flows = np.column_stack([rng.integers(0, n, 50), rng.integers(0, n, 50), rng.integers(1, 40, 50)])
    flows = flows[flows[:, 0] != flows[:, 1]]
    transit = rng.integers(1, 6, (n, n))
    check(transshipment, flows, n, rng.integers(50, 150, n), rng.integers(2, 5, len(flows)), transit)
