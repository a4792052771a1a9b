"""Quantum state-vector simulation as NumPy scripts write it: gates built by np.kron chains, a Bell state and its
measurement probabilities, a single-qubit gate applied by reshaping the state into a tensor and np.tensordot /
np.moveaxis, the quantum Fourier transform against np.fft, Grover's search with an oracle sign flip, density
matrices with partial trace by einsum and purity, expectation values of Pauli strings, and sampling shot counts
from host draws with np.searchsorted and np.bincount (tests/porting)."""

import numpy as np
from harness import check

I2 = [[1, 0], [0, 1]]
X = [[0, 1], [1, 0]]
Z = [[1, 0], [0, -1]]
Y = [[0, -1j], [1j, 0]]


def bell_state_kron(np):
    H = np.array([[1, 1], [1, -1]]) / np.sqrt(2)
    I = np.eye(2)
    CNOT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], dtype=complex)
    psi = np.zeros(4, dtype=complex)
    psi[0] = 1
    psi = CNOT @ np.kron(H, I) @ psi
    probs = np.abs(psi) ** 2
    labels = [format(i, "02b") for i in range(4)]
    report = {lab: round(float(p), 4) for lab, p in zip(labels, probs, strict=True)}
    rho = np.outer(psi, psi.conj())
    return {"psi": psi, "probs": probs, "report": report, "hermitian": bool(np.allclose(rho, rho.conj().T)),
            "trace": complex(np.trace(rho))}


def apply_gate_tensor(np, state_host, n=4):
    state = np.asarray(state_host).astype(complex)
    state /= np.linalg.norm(state)

    def apply(psi, gate, q):
        psi = psi.reshape([2] * n)
        psi = np.tensordot(gate, psi, axes=([1], [q]))
        psi = np.moveaxis(psi, 0, q)
        return psi.reshape(-1)

    H = np.array([[1, 1], [1, -1]], dtype=complex) / np.sqrt(2)
    S = np.array([[1, 0], [0, 1j]])
    out = apply(apply(apply(state, H, 0), S, 2), H, 3)
    # the same by full Kronecker products
    ops = [H, np.eye(2), S, H]
    full = ops[0]
    for op in ops[1:]:
        full = np.kron(full, op)
    return {"out": out, "same": bool(np.allclose(full @ state, out, atol=1e-5)), "norm": float(np.linalg.norm(out))}


def qft_vs_fft(np, state_host):
    psi = np.asarray(state_host)
    N = len(psi)
    j, k = np.meshgrid(np.arange(N), np.arange(N), indexing="ij")
    F = np.exp(2j * np.pi * j * k / N) / np.sqrt(N)
    out = F @ psi
    ref = np.fft.ifft(psi) * np.sqrt(N)
    unitary = np.allclose(F.conj().T @ F, np.eye(N), atol=1e-5)
    return {"out": out, "ref": ref, "unitary": bool(unitary), "phase": np.angle(out[:4])}


def grover(np, n=4, marked=11):
    N = 2**n
    psi = np.full(N, 1 / np.sqrt(N))
    oracle = np.ones(N)
    oracle[marked] = -1
    iters = int(np.floor(np.pi / 4 * np.sqrt(N)))
    history = []
    for _ in range(iters):
        psi = oracle * psi
        psi = 2 * psi.mean() - psi
        history.append(float(psi[marked] ** 2))
    probs = psi**2
    return {"iters": iters, "history": history, "top": int(np.argmax(probs)), "p": float(probs.max()),
            "rest": float(np.delete(probs, marked).sum())}


def partial_trace_purity(np, a_host, b_host):
    a = np.asarray(a_host) / np.linalg.norm(a_host)
    b = np.asarray(b_host) / np.linalg.norm(b_host)
    bell = np.array([1, 0, 0, 1]) / np.sqrt(2)
    out = {}
    for name, psi in (("product", np.kron(a, b)), ("bell", bell.astype(complex))):
        rho = np.outer(psi, np.conj(psi)).reshape(2, 2, 2, 2)
        rho_A = np.einsum("ijkj->ik", rho)
        rho_B = np.trace(rho, axis1=0, axis2=2)
        evals = np.linalg.eigvalsh(rho_A)
        evals = evals[evals > 1e-9]
        out[name] = {"rho_A": rho_A, "purity": float(np.real(np.trace(rho_A @ rho_A))),
                     "entropy": float(-(evals * np.log2(evals)).sum()), "trB": complex(np.trace(rho_B))}
    return out


def pauli_expectations(np, state_host):
    psi = np.asarray(state_host)
    psi = psi / np.sqrt(np.vdot(psi, psi).real)
    P = {"I": np.array(I2, dtype=complex), "X": np.array(X, dtype=complex), "Y": np.array(Y),
         "Z": np.array(Z, dtype=complex)}
    res = {}
    for word in ("ZZ", "XX", "XY", "YZ", "ZI"):
        op = np.kron(P[word[0]], P[word[1]])
        res[word] = round(float(np.real(psi.conj() @ op @ psi)), 5)
    H = 0.5 * np.kron(P["Z"], P["Z"]) + 0.3 * np.kron(P["X"], P["I"]) + 0.2 * np.kron(P["I"], P["Z"])
    w, v = np.linalg.eigh(H)
    res["ground"] = float(w[0])
    res["ground_overlap"] = float(np.abs(np.vdot(v[:, 0], psi)) ** 2)
    return res


def sample_shots(np, amps_host, u_host):
    psi = np.asarray(amps_host)
    p = np.abs(psi) ** 2
    p /= p.sum()
    cdf = np.cumsum(p)
    outcomes = np.searchsorted(cdf, u_host * cdf[-1], side="right")
    outcomes = np.minimum(outcomes, len(p) - 1)
    counts = np.bincount(outcomes, minlength=len(p))
    bits = (outcomes[:, None] >> np.arange(2, -1, -1)) & 1
    return {"counts": counts, "freq_err": float(np.abs(counts / len(u_host) - p).max()),
            "bit_means": bits.mean(axis=0), "parity": int(np.bitwise_xor.reduce(bits, axis=1).sum())}


def rotation_gates_bloch(np, thetas_host):
    th = np.asarray(thetas_host)
    c, s = np.cos(th / 2), np.sin(th / 2)
    RY = np.zeros((len(th), 2, 2))
    RY[:, 0, 0], RY[:, 0, 1], RY[:, 1, 0], RY[:, 1, 1] = c, -s, s, c
    psi0 = np.array([1.0, 0.0])
    psi = RY @ psi0
    bloch_z = psi[:, 0] ** 2 - psi[:, 1] ** 2
    bloch_x = 2 * psi[:, 0] * psi[:, 1]
    composed = np.linalg.multi_dot([RY[0], RY[1], RY[2]])
    return {"psi": psi, "z": bloch_z, "x": bloch_x, "composed": composed,
            "det": np.linalg.det(RY)}


def permute_qubits(np, state_host, perm_host):
    n = len(perm_host)
    psi = np.asarray(state_host).reshape([2] * n)
    perm = np.asarray(perm_host)
    moved = psi.transpose(perm)  # qubit k of the result is qubit perm[k] of psi
    back = moved.transpose(np.argsort(perm))
    probs = np.abs(moved) ** 2
    marginals = np.array([probs.sum(axis=tuple(j for j in range(n) if j != k)) for k in range(n)])
    shape = np.full(2, 2 ** (n // 2))
    schmidt = np.linalg.svd(moved.reshape(shape), compute_uv=False)
    return {"moved": moved.reshape(-1), "roundtrip": bool(np.allclose(back, psi)), "marginals": marginals,
            "schmidt": schmidt, "entangled": int(np.sum(schmidt > 1e-6))}


def ising_time_evolution(np, n=3, J=1.0, h=0.7, times=(0.0, 0.5, 1.0, 2.0)):
    X = np.array([[0, 1], [1, 0]], dtype=complex)
    Z = np.array([[1, 0], [0, -1]], dtype=complex)

    def site(op, k):
        mats = [np.eye(2, dtype=complex)] * n
        mats[k] = op
        out = mats[0]
        for m in mats[1:]:
            out = np.kron(out, m)
        return out

    H = sum(-J * site(Z, k) @ site(Z, k + 1) for k in range(n - 1)) + sum(-h * site(X, k) for k in range(n))
    w, V = np.linalg.eigh(H)
    psi0 = np.zeros(2**n, dtype=complex)
    psi0[0] = 1
    mz = []
    for t in times:
        U = V @ np.diag(np.exp(-1j * w * t)) @ V.conj().T
        psi = U @ psi0
        mz.append(float(np.real(np.vdot(psi, site(Z, 0) @ psi))))
    return {"energies": w, "gap": float(w[1] - w[0]), "mz": mz, "hermitian": bool(np.allclose(H, H.conj().T))}


def test_bell_state_kron_probabilities():
    check(bell_state_kron)


def test_gate_on_qubit_tensordot_moveaxis():
    rng = np.random.default_rng(0)
    check(apply_gate_tensor, rng.normal(size=16) + 1j * rng.normal(size=16), rtol=1e-3, atol=1e-5)


def test_qft_matrix_against_ifft():
    rng = np.random.default_rng(1)
    psi = rng.normal(size=8) + 1j * rng.normal(size=8)
    check(qft_vs_fft, psi / np.linalg.norm(psi), rtol=1e-3, atol=1e-5)


def test_grover_search_amplitudes():
    check(grover, rtol=1e-4, atol=1e-5)


def test_partial_trace_purity_entropy():
    rng = np.random.default_rng(2)
    check(partial_trace_purity, rng.normal(size=2) + 1j * rng.normal(size=2), rng.normal(size=2) + 0j,
          rtol=1e-3, atol=1e-4)


def test_pauli_string_expectations():
    rng = np.random.default_rng(3)
    check(pauli_expectations, rng.normal(size=4) + 1j * rng.normal(size=4), rtol=1e-3, atol=1e-4)


def test_sample_measurement_shots_bincount():
    rng = np.random.default_rng(4)
    check(sample_shots, rng.normal(size=8) + 1j * rng.normal(size=8), rng.random(500), rtol=1e-3, atol=1e-4)


def test_permute_qubits_transpose_by_array():
    rng = np.random.default_rng(5)
    psi = rng.normal(size=16) + 1j * rng.normal(size=16)
    check(permute_qubits, psi / np.linalg.norm(psi), np.array([2, 0, 3, 1]), rtol=1e-3, atol=1e-5)


def test_ising_chain_time_evolution_eigh():
    check(ising_time_evolution, rtol=1e-3, atol=1e-4)


def test_batched_rotation_gates_bloch():
    check(rotation_gates_bloch, np.array([0.3, 1.2, 2.5, np.pi]), rtol=1e-4, atol=1e-5)
