"""Robot kinematics in plain NumPy: planar and Denavit-Hartenberg forward kinematics by stacked 4x4 transforms and
`np.matmul` chains, a geometric Jacobian by `np.cross` of joint axes, damped least-squares inverse kinematics with
`linalg.solve`, Rodrigues rotations and their logarithm by `arccos`/`clip`, unit quaternions multiplied by `einsum`
and interpolated by slerp with `where` for the near-parallel case, quintic trajectories from a Vandermonde `solve`,
reachability maps on a `meshgrid`, and a differential-drive odometry integrated with `cumsum` (tests/porting)."""

import numpy as np
from harness import check


def planar_fk(np, lengths, q):
    L, q = np.asarray(lengths), np.asarray(q)  # q: (poses, joints)
    cum = np.cumsum(q, axis=1)
    x = np.cumsum(L * np.cos(cum), axis=1)
    y = np.cumsum(L * np.sin(cum), axis=1)
    tip = np.stack([x[:, -1], y[:, -1]], axis=-1)
    reach = np.hypot(tip[:, 0], tip[:, 1])
    elbow_up = np.sin(q[:, 1]) > 0
    return {"x": x, "y": y, "tip": tip, "reach": reach, "elbow_up": elbow_up, "heading": np.mod(cum[:, -1], 2 * np.pi)}


def dh_chain(np, dh, q):
    dh, q = np.asarray(dh), np.asarray(q)  # dh rows: a, alpha, d, theta offset
    a, alpha, d, off = dh.T
    th = q + off
    ct, st, ca, sa = np.cos(th), np.sin(th), np.cos(alpha), np.sin(alpha)
    n = len(a)
    T = np.zeros((n, 4, 4))
    T[:, 0] = np.stack([ct, -st * ca, st * sa, a * ct], axis=1)
    T[:, 1] = np.stack([st, ct * ca, -ct * sa, a * st], axis=1)
    T[:, 2, 1:] = np.stack([sa, ca, d], axis=1)
    T[:, 3, 3] = 1.0
    frames = [np.eye(4)]
    for i in range(n):
        frames.append(frames[-1] @ T[i])
    F = np.array(frames)
    R = F[-1, :3, :3]
    return {"F": F, "tip": F[-1, :3, 3], "orth": np.abs(R.T @ R - np.eye(3)).max() < 1e-5, "det": np.linalg.det(R)}


def jacobian_ik(np, lengths, q0, target, lam, iters):
    L = np.asarray(lengths)
    q = np.asarray(q0, dtype=float).copy()
    errs = []
    for _ in range(iters):
        cum = np.cumsum(q)
        joints = np.concatenate([[[0.0, 0.0]], np.cumsum(np.stack([L * np.cos(cum), L * np.sin(cum)], 1), axis=0)])
        tip = joints[-1]
        r = np.column_stack([tip - joints[:-1], np.zeros(len(L))])
        z = np.array([0.0, 0.0, 1.0])
        J = np.cross(z, r)[:, :2].T  # (2, joints)
        e = np.asarray(target) - tip
        errs.append(np.linalg.norm(e))
        dq = J.T @ np.linalg.solve(J @ J.T + lam ** 2 * np.eye(2), e)
        q += dq
    return {"q": np.mod(q + np.pi, 2 * np.pi) - np.pi, "err": np.array(errs), "converged": errs[-1] < 1e-4}


def rodrigues(np, axes, angles):
    k = np.asarray(axes, dtype=float)
    k = k / np.linalg.norm(k, axis=1, keepdims=True)
    th = np.asarray(angles)
    K = np.zeros((len(k), 3, 3))
    K[:, 0, 1], K[:, 0, 2], K[:, 1, 2] = -k[:, 2], k[:, 1], -k[:, 0]
    K = K - np.transpose(K, (0, 2, 1))
    R = np.eye(3) + np.sin(th)[:, None, None] * K + (1 - np.cos(th))[:, None, None] * (K @ K)
    tr = np.trace(R, axis1=1, axis2=2)
    back = np.arccos(np.clip((tr - 1) / 2, -1.0, 1.0))
    v = np.array([1.0, 2.0, 3.0])
    rotated = np.einsum("nij,j->ni", R, v)
    return {"R": R, "back": back, "norms": np.linalg.norm(rotated, axis=1), "det": np.linalg.det(R),
            "composed": np.linalg.multi_dot([R[0], R[1], R[2]])}


def quaternions(np, q1, q2, ts):
    q1, q2 = np.asarray(q1), np.asarray(q2)
    q1 = q1 / np.linalg.norm(q1, axis=-1, keepdims=True)
    q2 = q2 / np.linalg.norm(q2, axis=-1, keepdims=True)
    w1, v1 = q1[:, 0], q1[:, 1:]
    w2, v2 = q2[:, 0], q2[:, 1:]
    prod = np.concatenate([(w1 * w2 - np.einsum("ni,ni->n", v1, v2))[:, None],
                           w1[:, None] * v2 + w2[:, None] * v1 + np.cross(v1, v2)], axis=1)
    dot = np.sum(q1 * q2, axis=1)
    q2s = np.where(dot[:, None] < 0, -q2, q2)
    dot = np.abs(dot)
    t = np.asarray(ts)[:, None, None]
    omega = np.arccos(np.clip(dot, -1, 1))[None, :, None]
    so = np.sin(omega)
    near = so < 1e-6
    a = np.where(near, 1 - t, np.sin((1 - t) * omega) / np.where(near, 1, so))
    b = np.where(near, t, np.sin(t * omega) / np.where(near, 1, so))
    slerp = a * q1[None] + b * q2s[None]
    return {"prod": prod, "unit": np.linalg.norm(prod, axis=1), "slerp": slerp,
            "slerp_norm": np.linalg.norm(slerp, axis=-1)}


def quintic(np, q0, q1, T, n):
    M = np.array([[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 2, 0, 0, 0],
                  [1, T, T ** 2, T ** 3, T ** 4, T ** 5], [0, 1, 2 * T, 3 * T ** 2, 4 * T ** 3, 5 * T ** 4],
                  [0, 0, 2, 6 * T, 12 * T ** 2, 20 * T ** 3]], dtype=float)
    b = np.zeros((6, len(q0)))
    b[0], b[3] = q0, q1
    C = np.linalg.solve(M, b)  # (6, joints)
    t = np.linspace(0, T, n)
    V = np.vander(t, 6, increasing=True)
    pos = V @ C
    vel = np.polynomial.polynomial.polyval(t, np.polynomial.polynomial.polyder(C, axis=0))
    peak = np.argmax(np.abs(vel), axis=1)
    return {"C": C, "pos": pos, "vel": vel.T, "peak_vel": np.abs(vel).max(axis=1), "t_peak": t[peak]}


def reachability(np, l1, l2, n):
    xs = np.linspace(-1.1 * (l1 + l2), 1.1 * (l1 + l2), n)
    X, Y = np.meshgrid(xs, xs)
    r2 = X ** 2 + Y ** 2
    c2 = (r2 - l1 ** 2 - l2 ** 2) / (2 * l1 * l2)
    reachable = np.abs(c2) <= 1
    q2 = np.full(X.shape, np.nan)
    q2[reachable] = np.arccos(c2[reachable])
    q1 = np.arctan2(Y, X) - np.arctan2(l2 * np.sin(q2), l1 + l2 * np.cos(q2))
    cell = (xs[1] - xs[0]) ** 2
    return {"reachable": reachable, "area": reachable.sum() * cell, "q1": np.nan_to_num(q1, nan=-9.0),
            "rows": np.flatnonzero(reachable.any(axis=1)), "q2max": np.nanmax(q2)}


def odometry(np, v_left, v_right, width, dt):
    vl, vr = np.asarray(v_left), np.asarray(v_right)
    v = (vl + vr) / 2
    w = (vr - vl) / width
    theta = np.concatenate([[0.0], np.cumsum(w * dt)])
    mid = (theta[:-1] + theta[1:]) / 2
    x = np.concatenate([[0.0], np.cumsum(v * np.cos(mid) * dt)])
    y = np.concatenate([[0.0], np.cumsum(v * np.sin(mid) * dt)])
    dist = np.sum(np.hypot(np.diff(x), np.diff(y)))
    turning = np.flatnonzero(np.abs(w) > 0.5)
    return {"x": x, "y": y, "theta": theta, "dist": dist, "turning": turning,
            "bbox": np.array([x.min(), x.max(), y.min(), y.max()])}


def test_planar_fk():
    rng = np.random.default_rng(2441)
    check(planar_fk, np.array([1.0, 0.8, 0.5]), rng.uniform(-np.pi, np.pi, (10, 3)), atol=1e-5)


def test_dh_chain():
    dh = np.array([[0.0, np.pi / 2, 0.33, 0.0], [0.26, 0.0, 0.0, np.pi / 2], [0.02, np.pi / 2, 0.0, 0.0],
                   [0.0, -np.pi / 2, 0.29, 0.0], [0.0, np.pi / 2, 0.0, 0.0], [0.0, 0.0, 0.07, 0.0]])
    check(dh_chain, dh, np.array([0.1, -0.4, 0.7, 1.2, -0.3, 0.5]), atol=1e-5)


def test_jacobian_ik():
    check(jacobian_ik, np.array([1.0, 0.8, 0.5]), np.array([0.3, 0.4, 0.2]), np.array([1.2, 0.9]), 0.05, 40,
          rtol=1e-3, atol=1e-3)


def test_rodrigues():
    rng = np.random.default_rng(2442)
    check(rodrigues, rng.standard_normal((5, 3)), np.array([0.0, 0.5, np.pi / 2, 2.0, np.pi]), atol=2e-5)


def test_quaternions():
    rng = np.random.default_rng(2443)
    q1 = rng.standard_normal((4, 4))
    q2 = rng.standard_normal((4, 4))
    q2[3] = q1[3]  # the near-parallel branch
    check(quaternions, q1, q2, np.linspace(0, 1, 5), atol=1e-4)


def test_quintic():
    check(quintic, np.array([0.0, 1.0, -0.5]), np.array([1.5, -1.0, 0.5]), 2.0, 21, atol=1e-4)


def test_reachability():
    check(reachability, 1.0, 0.65, 25, atol=1e-4)


def test_odometry():
    t = np.arange(40)
    check(odometry, 1.0 + 0.2 * np.sin(t / 5), 1.0 + 0.2 * np.cos(t / 7), 0.5, 0.1, atol=1e-5)
