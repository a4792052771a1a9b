"""Robotics, kinematics and control: rotation matrices about x/y/z composed and checked orthonormal, Euler angles
back from a matrix with arctan2, quaternion products and rotation of points (Hamilton convention), a planar 3-link arm's
forward kinematics with a Jacobian and damped least-squares IK steps, homogeneous 4x4 transforms (Denavit-Hartenberg
chain), differential-drive odometry, a constant-velocity Kalman filter (np.linalg.inv, `.item()`), a discrete LQR gain
by iterating the Riccati equation, and a particle filter's systematic resampling by np.searchsorted (tests/porting)."""

import numpy as np
from harness import check


def rotation_matrices(np, angles):
    def rot_x(t):
        c, s = np.cos(t), np.sin(t)
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])

    def rot_y(t):
        c, s = np.cos(t), np.sin(t)
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])

    def rot_z(t):
        c, s = np.cos(t), np.sin(t)
        return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])

    out = []
    for roll, pitch, yaw in angles:
        R = rot_z(yaw) @ rot_y(pitch) @ rot_x(roll)
        out.append(R)
    Rs = np.stack(out)
    orth = np.allclose(Rs @ np.transpose(Rs, (0, 2, 1)), np.eye(3), atol=1e-6)
    dets = np.linalg.det(Rs)
    # Euler angles back (ZYX)
    yaw = np.arctan2(Rs[:, 1, 0], Rs[:, 0, 0])
    pitch = -np.arcsin(np.clip(Rs[:, 2, 0], -1.0, 1.0))
    roll = np.arctan2(Rs[:, 2, 1], Rs[:, 2, 2])
    back = np.column_stack([roll, pitch, yaw])
    trace_angle = np.degrees(np.arccos((np.trace(Rs, axis1=1, axis2=2) - 1) / 2))
    return {"R": Rs, "orth": bool(orth), "det": dets, "back": back, "angle": trace_angle,
            "R0": np.round(Rs[0], 3).tolist()}


def quaternions(np, q1, q2, pts):
    def qmul(a, b):
        w1, x1, y1, z1 = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
        w2, x2, y2, z2 = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
        return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                         w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                         w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                         w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=-1)

    q1 = q1 / np.linalg.norm(q1, axis=-1, keepdims=True)
    q2 = q2 / np.linalg.norm(q2, axis=-1, keepdims=True)
    conj = q1 * np.array([1, -1, -1, -1])
    prod = qmul(q1, q2)
    p = np.concatenate([np.zeros((len(pts), 1)), pts], axis=1)
    rotated = qmul(qmul(q1[0], p), conj[0])[:, 1:]
    # the same rotation as a matrix
    w, x, y, z = q1[0]
    R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    by_matrix = pts @ R.T
    angle = 2 * np.arccos(np.clip(np.abs(q1[:, 0]), 0, 1))
    return {"prod": prod, "rotated": rotated, "matrix": by_matrix, "angle": angle,
            "unit": np.linalg.norm(prod, axis=1)}


def planar_arm_ik(np, lengths, target, q0, iters):
    L = np.asarray(lengths, dtype=float)

    def fk(q):
        cum = np.cumsum(q)
        xs = np.concatenate([[0.0], np.cumsum(L * np.cos(cum))])
        ys = np.concatenate([[0.0], np.cumsum(L * np.sin(cum))])
        return np.stack([xs, ys], axis=1)

    def jacobian(q):
        cum = np.cumsum(q)
        J = np.zeros((2, len(q)))
        for i in range(len(q)):
            J[0, i] = -np.sum(L[i:] * np.sin(cum[i:]))
            J[1, i] = np.sum(L[i:] * np.cos(cum[i:]))
        return J

    J0 = jacobian(np.zeros(len(L)))  # a stretched-out arm: the Jacobian loses rank
    try:
        np.linalg.inv(J0 @ J0.T)
        singular = False
    except np.linalg.LinAlgError:
        singular = True
    q = np.array(q0, dtype=float)
    errs = []
    lam = 0.1
    for _ in range(iters):
        e = target - fk(q)[-1]
        errs.append(float(np.linalg.norm(e)))
        J = jacobian(q)
        dq = J.T @ np.linalg.solve(J @ J.T + lam ** 2 * np.eye(2), e)
        q += dq
    q_wrapped = (q + np.pi) % (2 * np.pi) - np.pi
    return {"q": q_wrapped, "joints": fk(q), "errs": np.array(errs), "reach": float(L.sum()),
            "singular": singular}


def dh_chain(np, dh):
    def dh_matrix(theta, d, a, alpha):
        ct, st = np.cos(theta), np.sin(theta)
        ca, sa = np.cos(alpha), np.sin(alpha)
        return np.array([[ct, -st * ca, st * sa, a * ct],
                         [st, ct * ca, -ct * sa, a * st],
                         [0.0, sa, ca, d],
                         [0.0, 0.0, 0.0, 1.0]])

    T = np.eye(4)
    frames = []
    for row in dh:
        T = T @ dh_matrix(*row)
        frames.append(T[:3, 3].copy())
    origins = np.array(frames)
    T_inv = np.linalg.inv(T)
    R, p = T[:3, :3], T[:3, 3]
    manual_inv = np.block([[R.T, (-R.T @ p)[:, None]], [np.zeros((1, 3)), np.ones((1, 1))]])
    point = np.array([0.1, 0.2, 0.3, 1.0])
    return {"T": T, "origins": origins, "inv_ok": bool(np.allclose(T_inv, manual_inv, atol=1e-5)),
            "p_world": T @ point, "dist": np.linalg.norm(np.diff(origins, axis=0), axis=1)}


def diff_drive_odometry(np, wheel_l, wheel_r, base, dt, plan):
    x = y = th = 0.0
    poses = [(x, y, th)]
    for vl, vr in zip(wheel_l, wheel_r, strict=False):
        v = (vr + vl) / 2
        w = (vr - vl) / base
        x += v * np.cos(th) * dt
        y += v * np.sin(th) * dt
        th += w * dt
        poses.append((float(x), float(y), float(th)))
    P = np.array(poses)
    heading = np.unwrap(P[:, 2])
    dist = np.sum(np.hypot(np.diff(P[:, 0]), np.diff(P[:, 1])))
    # consecutive waypoints of the plan on one line: the determinant of [[x, y, 1], ...] is zero
    W = np.column_stack([np.asarray(plan, dtype=float), np.ones(len(plan))])
    # (rounded first: a float32 LU of collinear points can leave a -1e-7 residue, on GPUs that fuse
    # multiply-adds, which '+.2f' would print as -0.00)
    turns = [f"{round(float(np.linalg.det(W[i:i + 3])), 6) + 0.0:+.2f}" for i in range(len(W) - 2)]
    return {"P": P, "heading_deg": np.rad2deg(heading[-1]), "dist": dist, "turns": turns,
            "bbox": [P[:, 0].min(), P[:, 0].max(), P[:, 1].min(), P[:, 1].max()]}


def kalman_cv(np, zs, dt, q, r):
    F = np.array([[1, dt], [0, 1]])
    H = np.array([[1.0, 0.0]])
    Q = q * np.array([[dt ** 4 / 4, dt ** 3 / 2], [dt ** 3 / 2, dt ** 2]])
    R = np.array([[r]])
    x = np.zeros((2, 1))
    P = np.eye(2) * 500.0
    xs, gains, nis = [], [], []
    for z in zs:
        x = F @ x
        P = F @ P @ F.T + Q
        y = z - H @ x
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ y
        P = (np.eye(2) - K @ H) @ P
        xs.append(x.ravel())
        gains.append(K[0, 0])
        nis.append((y.T @ np.linalg.inv(S) @ y).item())
    X = np.array(xs)
    return {"X": X, "K": np.array(gains), "P": P, "nis": np.mean(nis), "sym": bool(np.allclose(P, P.T)),
            "vel": round(float(X[-1, 1]), 2)}


def lqr_riccati(np, A, B, Qc, Rc, iters):
    P = Qc.copy()
    changes = []
    for _ in range(iters):
        BtP = B.T @ P
        K = np.linalg.solve(Rc + BtP @ B, BtP @ A)
        P_new = Qc + A.T @ P @ (A - B @ K)
        changes.append(np.max(np.abs(P_new - P)))
        P = P_new
    eig = np.linalg.eigvals(A - B @ K)
    return {"K": K, "P": P, "rho": np.max(np.abs(eig)), "stable": bool(np.all(np.abs(eig) < 1)),
            "last": float(changes[-1]) < 1e-3}


def particle_resample(np, particles, weights, u0):
    w = weights / weights.sum()
    n = len(w)
    positions = (u0 + np.arange(n)) / n
    cdf = np.cumsum(w)
    cdf[-1] = 1.0
    idx = np.searchsorted(cdf, positions)
    new = particles[idx]
    ess = 1.0 / np.sum(w ** 2)
    counts = np.bincount(idx, minlength=n)
    return {"idx": idx, "new": new, "ess": ess, "counts": counts, "mean": np.average(particles, weights=w),
            "kept": int(np.count_nonzero(counts))}


def test_rotation_matrices_euler_roundtrip():
    rng = np.random.default_rng(1001)
    angles = rng.uniform(-1.2, 1.2, (6, 3))
    check(rotation_matrices, angles, rtol=1e-4, atol=1e-5)


def test_quaternion_product_and_rotation():
    rng = np.random.default_rng(1002)
    check(quaternions, rng.normal(size=(4, 4)), rng.normal(size=(4, 4)), rng.normal(size=(5, 3)), rtol=1e-4,
          atol=1e-5)


def test_planar_arm_damped_least_squares_ik():
    check(planar_arm_ik, [1.0, 0.8, 0.5], np.array([1.2, 0.9]), [0.3, 0.3, 0.3], 12, rtol=1e-3, atol=1e-4)


def test_denavit_hartenberg_chain():
    dh = [(0.3, 0.4, 0.0, np.pi / 2), (-0.5, 0.0, 0.6, 0.0), (0.8, 0.0, 0.5, 0.0), (0.2, 0.1, 0.0, -np.pi / 2)]
    check(dh_chain, dh, rtol=1e-4, atol=1e-5)


def test_differential_drive_odometry():
    rng = np.random.default_rng(1003)
    check(diff_drive_odometry, rng.uniform(0.5, 1.0, 30), rng.uniform(0.4, 1.1, 30), 0.3, 0.1,
          [(0, 0), (1, 2), (2, 4), (4, 4), (5, 3), (6, 2)], rtol=1e-3, atol=1e-4)


def test_kalman_constant_velocity():
    rng = np.random.default_rng(1301)
    truth = 2.0 + 0.7 * np.arange(30) * 0.5
    check(kalman_cv, truth + rng.normal(0, 1.0, 30), 0.5, 0.05, 1.0, rtol=2e-3, atol=1e-3)


def test_lqr_by_riccati_iteration():
    A = np.array([[1.0, 0.1], [0.0, 1.0]])
    B = np.array([[0.005], [0.1]])
    check(lqr_riccati, A, B, np.diag([10.0, 1.0]), np.array([[0.5]]), 150, rtol=2e-3, atol=1e-3)


def test_particle_filter_systematic_resampling():
    rng = np.random.default_rng(1303)
    check(particle_resample, rng.normal(size=50), rng.random(50) ** 3, 0.37, rtol=1e-4, atol=1e-5)
