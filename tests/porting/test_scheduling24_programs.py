"""Project and machine scheduling in plain NumPy: a critical path by forward and backward passes over a topological
order found with `argwhere` on an adjacency matrix, float slack by `isclose`, a PERT estimate with `sqrt` of summed
variances, list scheduling on identical machines with `argmin` per job, shortest-processing-time and earliest-due-date
rules by `argsort`/`lexsort` with tardiness from `maximum`, a flow shop's makespan by `maximum.accumulate` recursions,
resource profiles by `np.add.at` on time slots, and shift rosters by boolean coverage matrices and `einsum`
(tests/porting)."""

import numpy as np
from harness import check


def critical_path(np, durations, edges):
    d = np.asarray(durations, dtype=float)
    E = np.asarray(edges)
    n = len(d)
    A = np.zeros((n, n), dtype=bool)
    A[E[:, 0], E[:, 1]] = True
    indeg = A.sum(axis=0)
    order = []
    ready = list(np.flatnonzero(indeg == 0))
    indeg = indeg.copy()
    while ready:
        v = int(ready.pop(0))
        order.append(v)
        for w in np.argwhere(A[v]).ravel():
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(int(w))
    es = np.zeros(n)
    for v in order:
        preds = np.flatnonzero(A[:, v])
        es[v] = np.max(es[preds] + d[preds], initial=0.0)
    ef = es + d
    T = ef.max()
    lf = np.full(n, T)
    for v in order[::-1]:
        succ = np.flatnonzero(A[v])
        lf[v] = np.min(lf[succ] - d[succ], initial=T)
    slack = lf - ef
    return {"order": np.array(order), "es": es, "lf": lf, "T": T, "critical": np.flatnonzero(np.isclose(slack, 0))}


def pert(np, optimistic, likely, pessimistic, path):
    a, m, b = np.asarray(optimistic), np.asarray(likely), np.asarray(pessimistic)
    te = (a + 4 * m + b) / 6
    var = ((b - a) / 6) ** 2
    p = np.asarray(path)
    mean = te[p].sum()
    sd = np.sqrt(var[p].sum())
    z = (np.array([mean - sd, mean, mean + 2 * sd]) - mean) / sd
    return {"te": te, "var": var, "mean": mean, "sd": sd, "z": z, "risky": np.argsort(-var[p], kind="stable")[:2]}


def list_schedule(np, times, machines):
    t = np.asarray(times)
    load = np.zeros(machines)
    assign = np.empty(len(t), dtype=int)
    start = np.empty(len(t))
    for j in np.argsort(-t, kind="stable"):  # longest processing time first
        k = np.argmin(load)
        assign[j] = k
        start[j] = load[k]
        load[k] += t[j]
    lower = max(t.sum() / machines, t.max())
    return {"assign": assign, "start": start, "load": load, "makespan": load.max(), "ratio": load.max() / lower,
            "per_machine": np.bincount(assign, minlength=machines)}


def dispatch_rules(np, p, due, weight):
    p, due, w = np.asarray(p), np.asarray(due), np.asarray(weight)
    rules = {"spt": np.argsort(p, kind="stable"), "edd": np.lexsort((p, due)),
             "wspt": np.argsort(-w / p, kind="stable")}
    out = {}
    for name, seq in rules.items():
        C = np.cumsum(p[seq])
        T = np.maximum(C - due[seq], 0)
        out[name] = np.array([C.mean(), T.max(), (w[seq] * T).sum(), np.count_nonzero(T)])
    return out


def flow_shop(np, P, seq):
    P = np.asarray(P)[np.asarray(seq)]  # (jobs in order, machines)
    n, m = P.shape
    C = np.zeros((n, m))
    C[:, 0] = np.cumsum(P[:, 0])
    for k in range(1, m):
        C[0, k] = C[0, k - 1] + P[0, k]
        for j in range(1, n):
            C[j, k] = max(C[j - 1, k], C[j, k - 1]) + P[j, k]
    idle = C[-1] - P.sum(axis=0) - np.concatenate([[0], C[0, :-1]])
    return {"C": C, "makespan": C[-1, -1], "idle": idle, "flow": C[:, -1].mean()}


def resource_profile(np, start, dur, demand, horizon, capacity):
    s, d, r = np.asarray(start), np.asarray(dur), np.asarray(demand)
    profile = np.zeros(horizon)
    for j in range(len(s)):
        np.add.at(profile, np.arange(s[j], s[j] + d[j]), r[j])
    diff = np.zeros(horizon + 1)
    np.add.at(diff, s, r)
    np.subtract.at(diff, s + d, r)
    via_cumsum = np.cumsum(diff)[:horizon]
    over = profile > capacity
    runs = np.diff(np.concatenate([[0], over.astype(np.int8), [0]]))
    return {"profile": profile, "same": bool(np.array_equal(profile, via_cumsum)), "over": np.flatnonzero(over),
            "starts": np.flatnonzero(runs == 1), "ends": np.flatnonzero(runs == -1), "peak": profile.max()}


def roster(np, shifts, need, staff_shifts):
    S = np.asarray(shifts).astype(bool)  # (shift types, hours)
    need = np.asarray(need)
    X = np.asarray(staff_shifts)  # (staff, shift types) 0/1
    cover = np.einsum("ps,sh->h", X, S.astype(int))
    short = np.maximum(need - cover, 0)
    hours = X @ S.sum(axis=1)
    overtime = np.clip(hours - 8, 0, None)
    return {"cover": cover, "short": short, "gap_hours": np.flatnonzero(short), "hours": hours, "overtime": overtime,
            "fair": hours.std(), "busiest": np.argmax(cover)}


def test_critical_path():
    edges = np.array([[0, 1], [0, 2], [1, 3], [2, 3], [3, 4], [2, 5], [5, 4], [1, 6], [6, 4]])
    check(critical_path, np.array([3, 2, 4, 5, 1, 2, 6]), edges)


def test_pert():
    check(pert, np.array([2.0, 3, 1, 4, 2]), np.array([3.0, 5, 2, 6, 3]), np.array([6.0, 9, 4, 10, 8]),
          np.array([0, 1, 3, 4]))


def test_list_schedule():
    rng = np.random.default_rng(2471)
    check(list_schedule, rng.integers(1, 20, 17).astype(float), 4)


def test_dispatch_rules():
    rng = np.random.default_rng(2472)
    check(dispatch_rules, rng.integers(1, 10, 12), rng.integers(5, 60, 12), rng.integers(1, 5, 12))


def test_flow_shop():
    rng = np.random.default_rng(2473)
    P = rng.integers(1, 10, (6, 4))
    check(flow_shop, P, np.array([3, 0, 5, 1, 4, 2]))


def test_resource_profile():
    rng = np.random.default_rng(2474)
    s = rng.integers(0, 20, 10)
    check(resource_profile, s, rng.integers(1, 6, 10), rng.integers(1, 4, 10), 26, 5)


def test_roster():
    hours = np.arange(24)
    shifts = np.stack([(hours >= 6) & (hours < 14), (hours >= 14) & (hours < 22), (hours >= 22) | (hours < 6),
                       (hours >= 10) & (hours < 18)])
    need = np.where((hours >= 8) & (hours < 20), 3, 1)
    rng = np.random.default_rng(2475)
    check(roster, shifts, need, (rng.random((7, 4)) < 0.35).astype(int))
