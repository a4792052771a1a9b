"""Digital communications as telecom course notebooks write them in NumPy: Gray-coded 16-QAM mapping from
`unpackbits` bit groups and decisions by `argmin` of complex distances, bit error counts through `packbits`, an OFDM
link with `np.fft.ifft(norm="ortho")`, a cyclic prefix, a multipath channel by `np.convolve` and one-tap
equalisation, root-raised-cosine pulse shaping with `np.sinc`, upsampling by strided assignment and matched
filtering, frequency-offset estimation by the phase of a lagged autocorrelation with `np.angle`, Hamming-distance
Viterbi decoding of a rate-1/2 convolutional code, and EVM in dB (tests/porting)."""

import numpy as np
from harness import check


def _qam16(np):
    return np.array([-3.0, -1.0, 3.0, 1.0])  # by 2-bit index, Gray order: 00 01 11 10 -> -3 -1 +1 +3


def qam16_link(np, payload, noise):
    bits = np.unpackbits(np.frombuffer(payload, dtype=np.uint8))
    groups = bits.reshape(-1, 4)
    i_idx = groups[:, 0] * 2 + groups[:, 1]
    q_idx = groups[:, 2] * 2 + groups[:, 3]
    levels = _qam16(np)
    sym = (levels[i_idx] + 1j * levels[q_idx]) / np.sqrt(10)
    rx = sym + np.asarray(noise)
    const = (levels[:, None] + 1j * levels[None, :]).ravel() / np.sqrt(10)
    dec = np.argmin(np.abs(rx[:, None] - const[None, :]), axis=1)
    di, dq = np.divmod(dec, 4)
    rx_bits = np.stack([di // 2, di % 2, dq // 2, dq % 2], axis=1).astype(np.uint8).ravel()
    errors = int(np.count_nonzero(rx_bits != bits))
    data = np.packbits(rx_bits).tobytes()
    evm = np.sqrt(np.mean(np.abs(rx - const[dec]) ** 2) / np.mean(np.abs(const) ** 2))
    return {"sym": sym[:8], "dec": dec, "errors": errors, "ber": errors / bits.size, "ok": data == payload,
            "evm_db": 20 * np.log10(evm), "power": np.mean(np.abs(sym) ** 2)}


def ofdm(np, qpsk_bits, h, n_fft, cp, noise):
    b = np.asarray(qpsk_bits).reshape(-1, 2)
    X = ((1 - 2 * b[:, 0]) + 1j * (1 - 2 * b[:, 1])) / np.sqrt(2)
    X = X.reshape(-1, n_fft)
    x = np.fft.ifft(X, axis=1, norm="ortho")
    tx = np.concatenate([x[:, -cp:], x], axis=1).ravel()
    rx = np.convolve(tx, np.asarray(h))[: tx.size] + np.asarray(noise)
    rx = rx.reshape(-1, n_fft + cp)[:, cp:]
    Y = np.fft.fft(rx, axis=1, norm="ortho")
    H = np.fft.fft(np.asarray(h), n_fft)
    Xhat = Y / H
    bits_hat = np.stack([Xhat.real < 0, Xhat.imag < 0], axis=-1).reshape(-1).astype(np.int64)
    papr = np.max(np.abs(x) ** 2, axis=1) / np.mean(np.abs(x) ** 2, axis=1)
    return {"ber": np.mean(bits_hat != np.asarray(qpsk_bits)), "papr_db": 10 * np.log10(papr), "H_mag": np.abs(H),
            "evm": np.sqrt(np.mean(np.abs(Xhat - X) ** 2)), "freqs": np.fft.fftshift(np.fft.fftfreq(n_fft))}


def rrc_matched(np, symbols, sps, span, beta):
    t = np.arange(-span * sps, span * sps + 1) / sps
    with np.errstate(divide="ignore", invalid="ignore"):
        h = (np.sin(np.pi * t * (1 - beta)) + 4 * beta * t * np.cos(np.pi * t * (1 + beta))) / (
            np.pi * t * (1 - (4 * beta * t) ** 2))
    h[t == 0] = 1 - beta + 4 * beta / np.pi
    edge = np.isclose(np.abs(t), 1 / (4 * beta))
    h[edge] = beta / np.sqrt(2) * ((1 + 2 / np.pi) * np.sin(np.pi / (4 * beta))
                                   + (1 - 2 / np.pi) * np.cos(np.pi / (4 * beta)))
    h /= np.sqrt(np.sum(h**2))
    up = np.zeros(len(symbols) * sps)
    up[::sps] = symbols
    tx = np.convolve(up, h)
    rx = np.convolve(tx, h)
    delay = 2 * span * sps
    samples = rx[delay: delay + len(symbols) * sps: sps]
    rc = np.sinc(t) * np.cos(np.pi * beta * t) / (1 - (2 * beta * t) ** 2 + 1e-12)
    return {"h": h, "samples": samples, "isi": np.max(np.abs(samples - symbols)), "energy": np.sum(h**2),
            "rc0": rc[t == 0], "n_edge": int(edge.sum())}


def cfo_estimate(np, preamble_reps, period, cfo, noise):
    pre = np.tile(np.asarray(preamble_reps), 4)
    n = np.arange(pre.size)
    rx = pre * np.exp(2j * np.pi * cfo * n) + np.asarray(noise)
    corr = np.sum(rx[period:] * np.conj(rx[:-period]))
    est = np.angle(corr) / (2 * np.pi * period)
    fixed = rx * np.exp(-2j * np.pi * est * n)
    return {"est": est, "err": abs(est - cfo), "resid_phase": np.angle(np.vdot(pre, fixed)),
            "corr_mag": np.abs(corr)}


def viterbi_half_rate(np, msg_bits, flip_at):
    g = np.array([[1, 1, 1], [1, 0, 1]])  # generators 7, 5 (octal)
    u = np.concatenate([np.asarray(msg_bits), [0, 0]])
    padded = np.concatenate([[0, 0], u])
    windows = np.lib.stride_tricks.sliding_window_view(padded, 3)[:, ::-1]
    coded = (windows @ g.T) % 2
    rx = coded.copy()
    rx.reshape(-1)[np.asarray(flip_at)] ^= 1
    n_states = 4
    states = np.arange(n_states)
    metric = np.full(n_states, np.inf)
    metric[0] = 0
    back = np.zeros((len(u), n_states), dtype=np.int64)
    for t in range(len(u)):
        new = np.full(n_states, np.inf)
        for s in range(n_states):
            for bit in (0, 1):
                reg = np.array([bit, s >> 1 & 1, s & 1])
                out = (g @ reg) % 2
                ns = (bit << 1) | (s >> 1)
                m = metric[s] + np.sum(out != rx[t])
                if m < new[ns]:
                    new[ns] = m
                    back[t, ns] = s
        metric = new
    s = 0
    decoded = np.zeros(len(u), dtype=np.int64)
    for t in range(len(u) - 1, -1, -1):
        decoded[t] = s >> 1
        s = back[t, s]
    return {"coded": coded.ravel(), "decoded": decoded[:-2], "ok": bool(np.array_equal(decoded[:-2], msg_bits)),
            "metric": metric[0], "states": states}


def test_qam16_link():
    rng = np.random.default_rng(3231)
    payload = bytes(rng.integers(0, 256, 24, dtype=np.uint8))
    n = 24 * 2
    check(qam16_link, payload, 0.08 * (rng.normal(size=n) + 1j * rng.normal(size=n)))


def test_qam16_link_noisy():
    rng = np.random.default_rng(3232)
    payload = b"NumPy to kdsl, sixteen-QAM!"
    n = len(payload) * 2
    check(qam16_link, payload, 0.25 * (rng.normal(size=n) + 1j * rng.normal(size=n)))


def test_ofdm():
    rng = np.random.default_rng(3233)
    n_fft, cp, n_sym = 16, 4, 6
    bits = rng.integers(0, 2, 2 * n_fft * n_sym)
    n = (n_fft + cp) * n_sym
    noise = 0.05 * (rng.normal(size=n) + 1j * rng.normal(size=n))
    check(ofdm, bits, np.array([1.0, 0.4 - 0.2j, 0.1j]), n_fft, cp, noise, rtol=1e-4, atol=1e-5)


def test_rrc_matched():
    rng = np.random.default_rng(3234)
    check(rrc_matched, rng.choice(np.array([-1.0, 1.0]), 20), 4, 6, 0.25, rtol=1e-4, atol=1e-5)


def test_cfo_estimate():
    rng = np.random.default_rng(3235)
    rep = np.exp(2j * np.pi * rng.random(16))
    check(cfo_estimate, rep, 16, 0.0071, 0.05 * (rng.normal(size=64) + 1j * rng.normal(size=64)), rtol=1e-4,
          atol=1e-6)


def test_viterbi_half_rate():
    rng = np.random.default_rng(3236)
    check(viterbi_half_rate, rng.integers(0, 2, 14), [3, 17])
