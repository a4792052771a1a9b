"""The GLSL of the Householder QR kernels (:mod:`kdsl.linalg.qr` compiles and dispatches them): ``GEQRF``
factors one panel (a workgroup per matrix: each step's reflector, then its application to the columns on its
right), ``ORGQR`` applies the reflectors to the identity in reverse order (LAPACK's ``orgqr``), ``EYE`` writes
that identity. ``T``, ``WG``, ``MUL``, ``CONJ`` and the other macros come from :mod:`kdsl.linalg.kernels`.

Example:
    >>> "void main()" in GEQRF and "qm[" in ORGQR
    True
"""

from kdsl.linalg import kernels as K

GEQRF = """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer T_ { T tau[]; };
layout(push_constant) uniform Push { uint m; uint n; uint k0; uint k1; uint cend; uint batch; };
shared REAL red[WG];
shared T redt[WG];

#ifdef SUBGROUP
""" + K.SUBGROUP_REDUCTIONS + """#else
REAL reduce_max(REAL v) {
    uint t = gl_LocalInvocationID.x;
    red[t] = v; barrier();
    for (uint s = WG / 2u; s > 0u; s >>= 1) { if (t < s) red[t] = max(red[t], red[t + s]); barrier(); }
    REAL r = red[0]; barrier();
    return r;
}

REAL reduce_sum(REAL v) {
    uint t = gl_LocalInvocationID.x;
    red[t] = v; barrier();
    for (uint s = WG / 2u; s > 0u; s >>= 1) { if (t < s) red[t] += red[t + s]; barrier(); }
    REAL r = red[0]; barrier();
    return r;
}
#endif


void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * m * n, kk = min(m, n);
    for (uint k = k0; k < k1; ++k) {
        // the norm below the diagonal: the plain sum of squares, unless it overflowed or may have lost digits
        // to underflow; then (a uniform branch) the sum of squares scaled by the largest magnitude, as dnrm2
        REAL ssq = REAL(0);
        for (uint i = k + 1u + t; i < m; i += WG) ssq += NORM2(a[base + i * n + k]);
        ssq = reduce_sum(ssq);
        REAL xnorm = sqrt(ssq);
        if (!(ssq >= SAFE_LOW && ssq <= SAFE_HIGH)) {
            REAL amax = REAL(0);
            for (uint i = k + 1u + t; i < m; i += WG) amax = max(amax, ABSMAX(a[base + i * n + k]));
            amax = reduce_max(amax);
            ssq = REAL(0);
            if (amax > REAL(0)) {
                for (uint i = k + 1u + t; i < m; i += WG) ssq += NORM2(a[base + i * n + k] / amax);
            }
            ssq = reduce_sum(ssq);
            xnorm = amax * sqrt(ssq);
        }
        T alpha = a[base + k * n + k];
        REAL ar = RE(alpha), ai = IM(alpha);
        REAL beta = ar;
        T tk = T(0), scale = FROM_REAL(REAL(1));
        if (xnorm != REAL(0) || ai != REAL(0)) {  // else H = I (tau 0), as dlarfg/zlarfg
            REAL big = max(max(abs(ar), abs(ai)), xnorm);
            REAL rr = ar / big, ri = ai / big, rx = xnorm / big;
            REAL nrm = big * sqrt(rr * rr + ri * ri + rx * rx);
            beta = ar >= REAL(0) ? -nrm : nrm;
            tk = CPLX((beta - ar) / beta, -ai / beta);
            scale = DIV(FROM_REAL(REAL(1)), alpha - FROM_REAL(beta));
        }
        barrier();
        for (uint i = k + 1u + t; i < m; i += WG) a[base + i * n + k] = MUL(a[base + i * n + k], scale);
        if (t == 0u) { a[base + k * n + k] = FROM_REAL(beta); tau[b * kk + k] = tk; }
        memoryBarrierBuffer(); barrier();
        // H^H = I - conj(tau) v v^H applied to the columns right of k in this panel (all of them when unblocked):
        // a thread per column when there are more columns than threads, else the columns side by side (rounded
        // up to a power of two, cp) and WG / cp threads down the rows of each, whose partial sums a tree in
        // shared memory adds (the choice is uniform, so the barriers of the second way are safe)
        uint c = cend - k - 1u;
        if (!IS_ZERO(tk) && c > WG) {
            for (uint j = k + 1u + t; j < cend; j += WG) {
                T w = a[base + k * n + j];
                for (uint i = k + 1u; i < m; ++i) w += MUL(CONJ(a[base + i * n + k]), a[base + i * n + j]);
                w = MUL(CONJ(tk), w);
                a[base + k * n + j] -= w;
                for (uint i = k + 1u; i < m; ++i) a[base + i * n + j] -= MUL(w, a[base + i * n + k]);
            }
        } else if (!IS_ZERO(tk) && c > 0u) {
            uint cp = 1u;
            while (cp < c) cp <<= 1;
            uint lanes = WG / cp, lane = t / cp, j = k + 1u + t % cp;
            T part = T(0);
            if (j < cend) {
                // four rows a turn into four sums: a lane walks up to m / lanes rows (64 for a 4096-row panel of
                // 16 columns), and one row a turn would wait for each load in turn
                T p1 = T(0), p2 = T(0), p3 = T(0);
                if (lane == 0u) part = a[base + k * n + j];
                uint i = k + 1u + lane;
                for (; i + 3u * lanes < m; i += 4u * lanes) {
                    part += MUL(CONJ(a[base + i * n + k]), a[base + i * n + j]);
                    p1 += MUL(CONJ(a[base + (i + lanes) * n + k]), a[base + (i + lanes) * n + j]);
                    p2 += MUL(CONJ(a[base + (i + 2u * lanes) * n + k]), a[base + (i + 2u * lanes) * n + j]);
                    p3 += MUL(CONJ(a[base + (i + 3u * lanes) * n + k]), a[base + (i + 3u * lanes) * n + j]);
                }
                for (; i < m; i += lanes) part += MUL(CONJ(a[base + i * n + k]), a[base + i * n + j]);
                part += (p1 + p2) + p3;
            }
#ifdef SUBGROUP
            // the lanes of a subgroup that share a column add up by shuffles; then every thread adds the
            // subgroups' (for cp >= the subgroup size: the lanes') partial sums of its column
            uint sg = min(gl_SubgroupSize, WG);
            for (uint off = cp; off < sg; off <<= 1) part += subgroupShuffleXor(part, off);
            bool many = cp < sg;
            if (!many || gl_SubgroupInvocationID < cp) redt[(many ? gl_SubgroupID : lane) * cp + t % cp] = part;
            barrier();
            T sum = T(0);
            for (uint g = 0u; g < (many ? gl_NumSubgroups : lanes); ++g) sum += redt[g * cp + t % cp];
            T w = MUL(CONJ(tk), sum);
#else
            redt[t] = part;
            barrier();
            for (uint s = lanes / 2u; s > 0u; s >>= 1) {
                if (lane < s) redt[t] += redt[t + s * cp];
                barrier();
            }
            T w = MUL(CONJ(tk), redt[t % cp]);
#endif
            if (j < cend) {
                if (lane == 0u) a[base + k * n + j] -= w;
                uint i = k + 1u + lane;
                for (; i + 3u * lanes < m; i += 4u * lanes) {  // four rows a turn: their loads in flight together
                    uint r0 = base + i * n, r1 = r0 + lanes * n, r2 = r1 + lanes * n, r3 = r2 + lanes * n;
                    T v0 = a[r0 + k], v1 = a[r1 + k], v2 = a[r2 + k], v3 = a[r3 + k];
                    T c0 = a[r0 + j], c1 = a[r1 + j], c2 = a[r2 + j], c3 = a[r3 + j];
                    a[r0 + j] = c0 - MUL(w, v0); a[r1 + j] = c1 - MUL(w, v1);
                    a[r2 + j] = c2 - MUL(w, v2); a[r3 + j] = c3 - MUL(w, v3);
                }
                for (; i < m; i += lanes) a[base + i * n + j] -= MUL(w, a[base + i * n + k]);
            }
            barrier();  // redt is reused by the next column
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""

# Q (batch, m, q) starts as the identity; steps apply H_k for k = kk-1 down to 0 (step s is k = kk-1-s).
ORGQR = """
layout(set = 0, binding = 0) readonly buffer A_ { T a[]; };
layout(set = 0, binding = 1) readonly buffer T_ { T tau[]; };
layout(set = 0, binding = 2) coherent buffer Q_ { T qm[]; };
layout(push_constant) uniform Push { uint m; uint n; uint q; uint s0; uint s1; uint batch; };

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint kk = min(m, n), abase = b * m * n, qbase = b * m * q;
    for (uint s = s0; s < s1; ++s) {
        uint k = kk - 1u - s;
        T tk = tau[b * kk + k];
        if (!IS_ZERO(tk)) {  // H = I - tau v v^H
            for (uint j = k + t; j < q; j += WG) {
                T w = qm[qbase + k * q + j];
                for (uint i = k + 1u; i < m; ++i) w += MUL(CONJ(a[abase + i * n + k]), qm[qbase + i * q + j]);
                w = MUL(tk, w);
                qm[qbase + k * q + j] -= w;
                for (uint i = k + 1u; i < m; ++i) qm[qbase + i * q + j] -= MUL(w, a[abase + i * n + k]);
            }
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""

EYE = """
layout(set = 0, binding = 0) buffer Q_ { T q[]; };
layout(push_constant) uniform Push { uint rows; uint cols; uint total; };

void main() {
    uint e = batch_index() * WG + gl_LocalInvocationID.x;
    if (e >= total) return;
    uint j = e % cols, i = (e / cols) % rows;
    q[e] = i == j ? FROM_REAL(REAL(1)) : T(0);
}
"""
