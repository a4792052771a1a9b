"""The complex Schur form ``A = Z T Z^H`` of general square matrices on the GPU, the engine of ``eig`` and
``eigvals`` for non-symmetric input, and the eigenvectors of the triangular ``T``.

Three kernels, one workgroup per matrix (eigenvectors: one invocation per eigenvector), always in complex
arithmetic (a real matrix is computed as complex64/complex128, so complex eigenvalues come out directly):

1. ``hessenberg``: Householder reduction to upper Hessenberg form, ``H = Q^H A Q``, with Hermitian
   reflectors ``I - beta u u^H`` (unitary and their own inverse); columns in chunks of dispatches within the
   loop budget.
2. ``schur_qr``: single-shift complex QR iterations on the Hessenberg matrix (LAPACK's ``zlahqr`` scheme):
   the active block ``[lo, hi]`` ends where a subdiagonal entry is negligible
   (``|h[l, l-1]| <= eps (|h[l-1, l-1]| + |h[l, l]|)``, in LAPACK's ``|re| + |im|`` measure), the Wilkinson
   shift (the trailing 2x2 block's eigenvalue nearer its last diagonal entry; an exceptional shift every 10
   iterations without deflation), and an implicit step chasing the bulge by Givens rotations that are applied
   to whole rows and columns (so ``T`` is the full Schur form) and to ``Z``. Each matrix's progress (its
   bottom index and iteration count) lives in a small state buffer, so the host launches bounded chunks of
   steps until every matrix is triangular, one read back of a flag per launch; more than :data:`MAX_ITS`
   iterations on one eigenvalue is a failure (``LinAlgError``, as LAPACK's ``info > 0``).
3. ``trevc``: the eigenvectors of ``T`` by back substitution (``x_k = 1``, then
   ``x_i = -(sum_j t_ij x_j) / (t_ii - t_kk)``, a divisor under ``eps max(|t_kk|, max|T|)`` replaced by that
   floor as ``ztrevc`` does, the column rescaled whenever an entry exceeds 1 so nothing overflows), rows in bands
   of dispatches; ``eig`` multiplies them by ``Z``.

Example:
    >>> import kdsl as kd, numpy as np
    >>> t, z, ok = schur(kd.asarray(np.array([[[0.0, -1.0], [1.0, 0.0]]], np.complex128)), True)
    >>> sorted(np.round(np.diagonal(t.numpy()[0]), 12).tolist(), key=lambda c: c.imag)
    [-1j, 1j]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg.common import LinAlgError, identity_batch

MAX_ITS = 60  # QR iterations allowed per eigenvalue (LAPACK's zlahqr allows 30 per row of the matrix in all)

_SYNC = "#define SYNC memoryBarrierBuffer(); memoryBarrierShared(); barrier()\n"

_HESSENBERG = _SYNC + """
layout(set = 0, binding = 0) coherent buffer H_ { T h[]; };
layout(set = 0, binding = 1) coherent buffer Z_ { T z[]; };
layout(set = 0, binding = 2) coherent buffer U_ { T u[]; };
layout(push_constant) uniform Push { uint n; uint j0; uint j1; uint batch; uint wantz; };
shared REAL s_beta;
shared uint s_skip;

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * n * n, ub = b * n;
    for (uint j = j0; j < j1; ++j) {
        if (t == 0u) {  // the reflector taking column j's rows j+1.. to a multiple of e1
            s_skip = 1u;
            REAL scale = REAL(0);
            for (uint i = j + 1u; i < n; ++i) scale = max(scale, ABSMAX(h[base + i * n + j]));
            if (scale > REAL(0)) {
                REAL ss = REAL(0);
                for (uint i = j + 2u; i < n; ++i) ss += NORM2(h[base + i * n + j] / scale);
                if (ss > REAL(0)) {  // else the column is already Hessenberg
                    // u = (x + alpha phase(x0) e1) / scale, beta = 2 / |u|^2: scaled, so alpha^2 cannot
                    // overflow or underflow (beta u u^H is the same for any scale of u)
                    T x0 = h[base + (j + 1u) * n + j] / scale;
                    REAL ax = ABS(x0);
                    REAL alpha = sqrt(ss + NORM2(x0));
                    T ph = ax == REAL(0) ? FROM_REAL(REAL(1)) : x0 / ax;
                    u[ub + j + 1u] = x0 + alpha * ph;
                    for (uint i = j + 2u; i < n; ++i) u[ub + i] = h[base + i * n + j] / scale;
                    s_beta = REAL(1) / (alpha * (alpha + ax));
                    s_skip = 0u;
                }
            }
        }
        SYNC;
        if (s_skip != 0u) continue;
        REAL beta = s_beta;
        for (uint c = j + t; c < n; c += WG) {  // H <- P H, column by column
            T s = T(0);
            for (uint i = j + 1u; i < n; ++i) s += MUL(CONJ(u[ub + i]), h[base + i * n + c]);
            s *= beta;
            for (uint i = j + 1u; i < n; ++i) h[base + i * n + c] -= MUL(u[ub + i], s);
        }
        SYNC;
        for (uint r = t; r < n; r += WG) {  // H <- H P, Z <- Z P, row by row
            T s = T(0);
            for (uint i = j + 1u; i < n; ++i) s += MUL(h[base + r * n + i], u[ub + i]);
            s *= beta;
            for (uint i = j + 1u; i < n; ++i) h[base + r * n + i] -= MUL(s, CONJ(u[ub + i]));
            if (wantz != 0u) {
                s = T(0);
                for (uint i = j + 1u; i < n; ++i) s += MUL(z[base + r * n + i], u[ub + i]);
                s *= beta;
                for (uint i = j + 1u; i < n; ++i) z[base + r * n + i] -= MUL(s, CONJ(u[ub + i]));
            }
        }
        SYNC;
        for (uint i = j + 2u + t; i < n; i += WG) h[base + i * n + j] = T(0);  // zero by construction
        SYNC;
    }
}
"""

_SCHUR_QR = _SYNC + """
layout(set = 0, binding = 0) coherent buffer H_ { T h[]; };
layout(set = 0, binding = 1) coherent buffer Z_ { T z[]; };
layout(set = 0, binding = 2) coherent buffer S_ { uint state[]; };
layout(push_constant) uniform Push { uint n; uint batch; uint steps; uint wantz; uint maxits; float eps; };
shared uint s_lo, s_hi, s_its, s_go, s_fail;
shared T s_mu, s_s;
shared REAL s_c;

#define H(i, j) h[base + (i) * n + (j)]

// |z| without overflow or underflow of the squares
REAL safe_abs(T z) {
    REAL m = max(abs(z.x), abs(z.y));
    return m == REAL(0) ? REAL(0) : m * length(z / m);
}

T c_sqrt(T a) {
    REAL r = safe_abs(a);
    if (r == REAL(0)) return T(0);
    REAL re = sqrt((r + abs(a.x)) * REAL(0.5));
    if (a.x >= REAL(0)) return T(re, a.y / (REAL(2) * re));
    return T(abs(a.y) / (REAL(2) * re), a.y < REAL(0) ? -re : re);
}

// the trailing 2x2 block's eigenvalue nearer its last diagonal entry (Wilkinson's shift), computed on the
// block scaled to magnitude 1 so that its squares neither overflow nor underflow
T wilkinson(uint base, uint hi) {
    T a = H(hi - 1u, hi - 1u), b = H(hi - 1u, hi), c = H(hi, hi - 1u), d = H(hi, hi);
    REAL sc = max(max(ABSMAX(a), ABSMAX(b)), max(ABSMAX(c), ABSMAX(d)));
    if (sc == REAL(0)) return d;
    a /= sc; b /= sc; c /= sc; d /= sc;
    T bc = MUL(b, c);
    T p = (a - d) * REAL(0.5);
    T disc = c_sqrt(MUL(p, p) + bc);
    if (dot(p, disc) < REAL(0)) disc = -disc;
    T den = p + disc;
    return sc * (IS_ZERO(den) ? d : d - DIV(bc, den));
}

// c (real) and s with [[c, s], [-conj(s), c]] [x; y] = [r; 0]
void givens(T x, T y, out REAL c, out T s) {
    REAL ax = safe_abs(x), ay = safe_abs(y);
    if (ay == REAL(0)) { c = REAL(1); s = T(0); return; }
    if (ax == REAL(0)) { c = REAL(0); s = CONJ(y) / ay; return; }
    REAL m = max(ax, ay);
    REAL rho = m * sqrt((ax / m) * (ax / m) + (ay / m) * (ay / m));
    c = ax / rho;
    s = MUL(x / ax, CONJ(y)) / rho;
}

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * n * n;
    if (t == 0u) { s_hi = state[4u * b]; s_its = state[4u * b + 1u]; s_fail = state[4u * b + 2u]; }
    SYNC;
    for (uint step = 0u; step < steps; ++step) {
        if (t == 0u) {
            s_go = 0u;
            while (s_hi > 0u) {  // deflate every negligible subdiagonal entry at the bottom
                uint l = s_hi;
                for (; l > 0u; --l) {
                    REAL tst = ABS1(H(l - 1u, l - 1u)) + ABS1(H(l, l));
                    if (ABS1(H(l, l - 1u)) <= REAL(eps) * tst) { H(l, l - 1u) = T(0); break; }
                }
                if (l == s_hi) { s_hi -= 1u; s_its = 0u; continue; }
                if (s_its >= maxits) { s_fail = 1u; s_hi = 0u; break; }
                s_lo = l;
                s_go = 1u;
                uint hi = s_hi;
                if (s_its > 0u && s_its % 10u == 0u) {  // exceptional shift: out of a cycle
                    REAL e = ABS1(H(hi, hi - 1u));
                    s_mu = H(hi, hi) + FROM_REAL(REAL(0.75) * e);
                } else {
                    s_mu = wilkinson(base, hi);
                }
                s_its += 1u;
                break;
            }
        }
        SYNC;
        if (s_go == 0u) break;
        uint lo = s_lo, hi = s_hi;
        for (uint k = lo; k < hi; ++k) {  // chase the bulge down the active block
            if (t == 0u) {
                T x = k == lo ? H(lo, lo) - s_mu : H(k, k - 1u);
                T y = k == lo ? H(lo + 1u, lo) : H(k + 1u, k - 1u);
                REAL c;
                T s;
                givens(x, y, c, s);
                s_c = c;
                s_s = s;
            }
            SYNC;
            REAL c = s_c;
            T s = s_s;
            uint first = k == lo ? lo : k - 1u;
            for (uint col = first + t; col < n; col += WG) {  // rows k, k+1 <- G rows
                T x = H(k, col), y = H(k + 1u, col);
                H(k, col) = c * x + MUL(s, y);
                H(k + 1u, col) = c * y - MUL(CONJ(s), x);
            }
            SYNC;
            uint last = min(k + 2u, hi);
            for (uint row = t; row <= last; row += WG) {  // columns k, k+1 <- columns G^H
                T x = H(row, k), y = H(row, k + 1u);
                H(row, k) = c * x + MUL(CONJ(s), y);
                H(row, k + 1u) = c * y - MUL(s, x);
            }
            if (wantz != 0u) {
                for (uint row = t; row < n; row += WG) {
                    T x = z[base + row * n + k], y = z[base + row * n + k + 1u];
                    z[base + row * n + k] = c * x + MUL(CONJ(s), y);
                    z[base + row * n + k + 1u] = c * y - MUL(s, x);
                }
            }
            if (t == 0u && k > lo) H(k + 1u, k - 1u) = T(0);  // the chased bulge is zero by construction
            SYNC;
        }
    }
    if (t == 0u) { state[4u * b] = s_hi; state[4u * b + 1u] = s_its; state[4u * b + 2u] = s_fail; }
}
"""

_TREVC = """
layout(set = 0, binding = 0) readonly buffer T_ { T tm[]; };
layout(set = 0, binding = 1) buffer X_ { T x[]; };
layout(set = 0, binding = 2) readonly buffer N_ { REAL tnorm[]; };
layout(push_constant) uniform Push { uint n; uint count; uint top; uint bottom; float eps; };

void main() {
    uint g = batch_index() * WG + gl_LocalInvocationID.x;
    if (g >= count) return;
    uint b = g / n, k = g % n, base = b * n * n;
    T tkk = tm[base + k * n + k];
    // a divisor below rounding level of T is replaced by it: a repeated eigenvalue's vector comes out (nearly)
    // parallel to an earlier one, as LAPACK's, instead of dividing by zero
    REAL smin = max(REAL(eps) * max(ABS1(tkk), tnorm[b]), SAFE_LOW);
    for (uint i = min(top, k); i > bottom; --i) {  // row i - 1, from the bottom of the band up
        uint r = i - 1u;
        T s = T(0);
        for (uint j = r + 1u; j <= k; ++j) s += MUL(tm[base + r * n + j], x[base + j * n + k]);
        T d = tm[base + r * n + r] - tkk;
        if (ABS1(d) < smin) d = FROM_REAL(smin);
        T xr = -DIV(s, d);
        REAL big = ABS1(xr);
        if (big > REAL(1)) {  // keep the column's entries <= 1: its sums cannot overflow (|x_r| <= n / eps)
            for (uint j = r + 1u; j <= k; ++j) x[base + j * n + k] /= big;
            xr /= big;
        }
        x[base + r * n + k] = xr;
    }
}
"""


def _wg(n: int) -> int:
    return min(K.workgroup_size(n), 256)


def _hessenberg(h: kd.Array, z: kd.Array, want_vectors: bool) -> None:
    batch, n, _ = h.shape
    wg = _wg(n)
    kern = K.compiled("hessenberg", _HESSENBERG, h.dtype.name, wg)
    u = kd.zeros((batch, n), dtype=h.dtype)
    per = K.cdiv(n, wg) * 6 * n + 4 * n + 8
    K.run_steps(kern, (h, z, u), lambda j0, j1: (n, j0, j1, batch, int(want_vectors)), [per] * max(n - 2, 0),
                batch)


def _qr_iterations(h: kd.Array, z: kd.Array, want_vectors: bool) -> bool:
    """QR steps until every matrix is triangular; False if one used up its iterations."""
    batch, n, _ = h.shape
    wg = _wg(n)
    kern = K.compiled("schur_qr", _SCHUR_QR, h.dtype.name, wg)
    state = kd.asarray(kd.broadcast_to(kd.asarray([n - 1, 0, 0, 0], dtype=kd.uint32), (batch, 4)), copy=True)
    per_step = 2 * n + (n - 1) * (3 * K.cdiv(n, wg) + 6)
    steps = max(1, K.loop_budget() // per_step)
    eps = float(kd.finfo(h.dtype).eps)
    for _ in range(K.cdiv((MAX_ITS + 1) * n, steps) + 1):
        kern(h, z, state, n, batch, steps, int(want_vectors), MAX_ITS, eps, groups=K.groups(batch))
        if not bool(kd.any(state[:, 0] != 0)):
            break
    return not bool(kd.any(state[:, 2] != 0))


def schur(a: kd.Array, want_vectors: bool) -> tuple[kd.Array, kd.Array, bool]:
    """The complex Schur form of the fresh complex ``(batch, n, n)`` stack ``a`` (overwritten): ``(t, z,
    converged)`` with ``a = z t z^H``, ``t`` upper triangular (its diagonal the eigenvalues), ``z`` unitary
    (identity when not ``want_vectors``)."""
    batch, n, _ = a.shape
    z = identity_batch(batch, n, a.dtype)
    if batch == 0 or n <= 1:
        return a, z, True
    _hessenberg(a, z, want_vectors)
    return a, z, _qr_iterations(a, z, want_vectors)


def triangular_eigenvectors(t: kd.Array) -> kd.Array:
    """The eigenvectors (columns, unnormalised, the k-th with 1 at row k and zeros below) of each upper
    triangular matrix of the ``(batch, n, n)`` stack ``t``."""
    batch, n, _ = t.shape
    x = identity_batch(batch, n, t.dtype)
    if batch == 0 or n <= 1:
        return x
    wg = 64
    kern = K.compiled("trevc", _TREVC, t.dtype.name, wg)
    band = max(1, K.loop_budget() // (2 * n + 2))
    eps = float(kd.finfo(t.dtype).eps)
    count = batch * n
    size = kd.max(kd.abs(t), axis=(-2, -1))  # |T|'s scale, the divisors' floor
    for top in range(n, 0, -band):  # the rows' values depend on the rows below: bands from the bottom up
        kern(t, x, size, n, count, top, max(top - band, 0), eps, groups=K.groups(K.cdiv(count, wg)))
    return x


def check(converged: bool) -> None:
    if not converged:
        raise LinAlgError("Eigenvalues did not converge")


__all__ = ["MAX_ITS", "check", "schur", "triangular_eigenvectors"]
