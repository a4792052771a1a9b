"""Board-game engines with bit tricks, as hobby chess and Connect-Four engines write them in NumPy: uint64
bitboards with file masks and shifts for knight and king attacks, set squares by `np.unravel_index` of a bit scan,
popcounts by `np.bitwise_count` and by unpacked bytes, Zobrist hashing with `np.bitwise_xor.reduce` over passed-in
uint64 keys, a Connect-Four win test on an int8 board by `sliding_window_view` sums along four directions, material
and piece-square evaluation by fancy indexing with a flipped table, and move ordering by a stable `argsort`
(tests/porting)."""

import numpy as np
from harness import check


def _files(np):
    a = np.uint64(0x0101010101010101)
    return {k: a << np.uint64(k) for k in range(8)}


def knight_king_attacks(np, squares):
    sq = np.asarray(squares, dtype=np.uint64)
    bb = np.uint64(1) << sq
    f = _files(np)
    not_a, not_h = ~f[0], ~f[7]
    not_ab, not_gh = ~(f[0] | f[1]), ~(f[6] | f[7])
    u = np.uint64
    knight = (((bb << u(17)) & not_a) | ((bb << u(15)) & not_h) | ((bb << u(10)) & not_ab)
              | ((bb << u(6)) & not_gh) | ((bb >> u(17)) & not_h) | ((bb >> u(15)) & not_a)
              | ((bb >> u(10)) & not_gh) | ((bb >> u(6)) & not_ab))
    east, west = (bb << u(1)) & not_a, (bb >> u(1)) & not_h
    row = bb | east | west
    king = (row | (row << u(8)) | (row >> u(8))) & ~bb
    return {"knight": knight, "king": king, "n_knight": np.bitwise_count(knight),
            "n_king": np.bitwise_count(king), "hex": [hex(int(v)) for v in knight[:3]]}


def bit_scan(np, board):
    board = np.uint64(board)
    shifts = np.arange(64, dtype=np.uint64)
    bits = ((board >> shifts) & np.uint64(1)).astype(bool)
    squares = np.flatnonzero(bits)
    rank, file = np.unravel_index(squares, (8, 8))
    names = ["abcdefgh"[f] + str(r + 1) for r, f in zip(rank.tolist(), file.tolist(), strict=True)]
    lsb = int(squares[0]) if squares.size else -1
    as_bytes = np.array([board], dtype=np.uint64).view(np.uint8)
    pop = np.unpackbits(as_bytes).sum()
    grid = bits.reshape(8, 8)[::-1]
    return {"squares": squares, "rank": rank, "file": file, "names": names, "lsb": lsb, "pop": pop,
            "grid": grid.astype(np.int8), "flip": np.flipud(grid).ravel().nonzero()[0]}


def zobrist(np, keys, side_key, positions):
    keys = np.asarray(keys, dtype=np.uint64)  # (12 pieces, 64 squares)
    hashes = []
    for pieces, squares, white in positions:
        h = np.bitwise_xor.reduce(keys[np.asarray(pieces), np.asarray(squares)])
        if not white:
            h ^= np.uint64(side_key)
        hashes.append(h)
    hashes = np.array(hashes, dtype=np.uint64)
    index = (hashes & np.uint64(0xFFFF)).astype(np.int64)
    buckets = np.bincount(index % 8, minlength=8)
    return {"hashes": hashes, "index": index, "buckets": buckets, "unique": len(np.unique(hashes)),
            "low_bits": np.bitwise_count(hashes ^ hashes[0])}


def connect_four(np, moves):
    board = np.zeros((6, 7), dtype=np.int8)
    heights = np.zeros(7, dtype=np.int64)
    winner, win_move = 0, -1
    for t, col in enumerate(moves):
        player = 1 if t % 2 == 0 else -1
        board[5 - heights[col], col] = player
        heights[col] += 1
        lines = [np.lib.stride_tricks.sliding_window_view(board, 4, axis=1).sum(axis=-1),
                 np.lib.stride_tricks.sliding_window_view(board, 4, axis=0).sum(axis=-1)]
        win = np.lib.stride_tricks.sliding_window_view(board, (4, 4))
        diag = np.trace(win, axis1=-2, axis2=-1)
        anti = np.trace(win[..., ::-1, :], axis1=-2, axis2=-1)
        sums = np.concatenate([lines[0].ravel(), lines[1].ravel(), diag.ravel(), anti.ravel()])
        if np.any(np.abs(sums) == 4):
            winner, win_move = player, t
            break
    return {"board": board, "winner": winner, "move": win_move, "heights": heights,
            "legal": np.flatnonzero(heights < 6), "filled": int(np.count_nonzero(board))}


def evaluate(np, board, values, pst):
    board = np.asarray(board, dtype=np.int8)  # +k white piece k, -k black piece k, 0 empty
    values = np.asarray(values)
    pst = np.asarray(pst, dtype=np.float64)
    kind = np.abs(board)
    white, black = board > 0, board < 0
    material = values[kind[white]].sum() - values[kind[black]].sum()
    r, c = np.nonzero(white)
    rb, cb = np.nonzero(black)
    positional = pst[kind[r, c], r, c].sum() - pst[kind[rb, cb], 7 - rb, cb].sum()
    counts = np.bincount(kind[white], minlength=7)[1:] - np.bincount(kind[black], minlength=7)[1:]
    return {"material": int(material), "positional": positional, "counts": counts,
            "score": material + 0.1 * positional, "mobility_proxy": int(white.sum() - black.sum())}


def move_ordering(np, captures, victims, attackers, history):
    victims, attackers = np.asarray(victims), np.asarray(attackers)
    mvv_lva = np.where(np.asarray(captures), victims * 10 - attackers, -1000 + np.asarray(history))
    order = np.argsort(-mvv_lva, kind="stable")
    top = np.argpartition(-mvv_lva, 3)[:3]
    killer = np.flatnonzero(mvv_lva == mvv_lva.max())
    return {"order": order, "score": mvv_lva[order], "top": np.sort(top), "killer": killer}


def test_knight_king_attacks():
    check(knight_king_attacks, [0, 7, 27, 36, 56, 63, 9, 54])


def test_bit_scan():
    check(bit_scan, 0x8100_0000_0010_0081)


def test_bit_scan_empty():
    check(bit_scan, 0)


def test_zobrist():
    rng = np.random.default_rng(3211)
    keys = rng.integers(0, 2**63, (12, 64), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    positions = [([0, 6, 11], [12, 52, 60], True), ([0, 6, 11], [12, 52, 60], False),
                 ([0, 6, 11, 3], [28, 52, 60, 5], True), ([1, 7], [1, 62], True)]
    check(zobrist, keys, int(rng.integers(0, 2**63)), positions)


def test_connect_four():
    check(connect_four, [3, 3, 4, 4, 5, 2, 6])


def test_connect_four_diagonal():
    check(connect_four, [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3])


def test_evaluate():
    rng = np.random.default_rng(3212)
    board = np.zeros((8, 8), dtype=np.int8)
    board[1] = 1
    board[6] = -1
    board[0, [1, 6]] = 2
    board[7, [1, 6]] = -2
    board[0, 4], board[7, 4] = 6, -6
    board[3, 3] = 5
    check(evaluate, board, [0, 100, 320, 330, 500, 900, 0], rng.integers(-20, 20, (7, 8, 8)))


def test_move_ordering():
    rng = np.random.default_rng(3213)
    n = 12
    check(move_ordering, rng.uniform(size=n) < 0.4, rng.integers(1, 6, n), rng.integers(1, 6, n),
          rng.integers(0, 50, n))
