"""Chess, go and tic-tac-toe boards in plain NumPy: rook, bishop and queen attack masks by `np.tril`/`np.triu`,
`np.diag_indices` and `np.fill_diagonal`, the eight symmetries of a board by `np.rot90`/`np.flip` with a canonical
form by `tobytes`, knight moves by shifted slices, N-queens checks by `np.unique` of diagonals, go liberties by
`np.roll` with padded borders and flood fill, line wins by `np.lib.stride_tricks.sliding_window_view`, a bitboard
in uint64 with shifts and `bitwise_count`, piece-square tables by `np.ix_` and `np.flipud`, and board printing
by `np.array2string` (tests/porting)."""

import numpy as np
from harness import check


def rook_bishop(np, r, c):
    board = np.zeros((8, 8), dtype=int)
    rook = board.copy()
    rook[r, :] = 1
    rook[:, c] = 1
    rook[r, c] = 0
    ii, jj = np.indices((8, 8))
    bishop = ((ii - jj == r - c) | (ii + jj == r + c)).astype(int)
    bishop[r, c] = 0
    queen = rook | bishop
    diag = np.zeros((8, 8), dtype=bool)
    diag[np.diag_indices(8)] = True
    return {"rook": rook.sum(), "bishop": bishop.sum(), "queen": queen, "main": bool((bishop & diag).any()),
            "below": np.tril(queen, -1).sum(), "above": np.triu(queen, 1).sum()}


def symmetries(np, board):
    b = np.asarray(board)
    forms = []
    for k in range(4):
        r = np.rot90(b, k)
        forms += [r, np.fliplr(r)]
    keys = [f.tobytes() for f in forms]
    canon = forms[keys.index(min(keys))]
    return {"forms": np.stack(forms), "canon": canon, "distinct": len(set(keys)),
            "flip_both": np.flip(b), "flip0": np.flip(b, axis=0), "rot_neg": np.rot90(b, -1, axes=(0, 1))}


def knight_moves(np, occupied):
    occ = np.asarray(occupied, dtype=bool)
    attacks = np.zeros((8, 8), dtype=np.int8)
    for dr, dc in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]:
        src = occ[max(0, -dr):8 - max(0, dr), max(0, -dc):8 - max(0, dc)]
        attacks[max(0, dr):8 - max(0, -dr), max(0, dc):8 - max(0, -dc)] += src
    most = np.unravel_index(attacks.argmax(), (8, 8))
    return {"attacks": attacks, "squares": np.count_nonzero(attacks), "most": most}


def n_queens(np, cols):
    c = np.asarray(cols)
    r = np.arange(len(c))
    ok = len(np.unique(c)) == len(c) and len(np.unique(r - c)) == len(c) and len(np.unique(r + c)) == len(c)
    board = np.zeros((len(c), len(c)), dtype=int)
    board[r, c] = 1
    anti = np.fliplr(board)
    diag_sums = [np.trace(board, k) for k in range(-len(c) + 1, len(c))]
    anti_sums = [np.trace(anti, k) for k in range(-len(c) + 1, len(c))]
    return {"ok": bool(ok), "max_diag": max(diag_sums), "max_anti": max(anti_sums), "board": board}


def go_liberties(np, stones):
    s = np.asarray(stones)  # 0 empty, 1 black, 2 white
    empty = np.pad(s == 0, 1, constant_values=False)
    libs = np.zeros(s.shape, dtype=int)
    for axis, shift in [(0, 1), (0, -1), (1, 1), (1, -1)]:
        libs += np.roll(empty, shift, axis=axis)[1:-1, 1:-1]
    libs = np.where(s > 0, libs, 0)
    return {"libs": libs, "atari": np.argwhere((s > 0) & (libs == 1)), "black": np.sum(libs[s == 1])}


def go_group(np, stones, r, c):
    s = np.asarray(stones)
    colour = s[r, c]
    group = np.zeros(s.shape, dtype=bool)
    group[r, c] = True
    while True:
        p = np.pad(group, 1)
        grown = (p[:-2, 1:-1] | p[2:, 1:-1] | p[1:-1, :-2] | p[1:-1, 2:] | group) & (s == colour)
        if np.array_equal(grown, group):
            break
        group = grown
    p = np.pad(group, 1)
    near = (p[:-2, 1:-1] | p[2:, 1:-1] | p[1:-1, :-2] | p[1:-1, 2:]) & ~group
    return {"group": group, "size": int(group.sum()), "liberties": int(np.sum(near & (s == 0)))}


def line_wins(np, board, k):
    b = np.asarray(board)
    win = {}
    for player in (1, 2):
        m = (b == player).astype(int)
        rows = np.lib.stride_tricks.sliding_window_view(m, k, axis=1).sum(-1)
        cols = np.lib.stride_tricks.sliding_window_view(m, k, axis=0).sum(-1)
        d = [np.diagonal(m, o) for o in range(-(len(b) - k), len(b) - k + 1)]
        a = [np.diagonal(np.fliplr(m), o) for o in range(-(len(b) - k), len(b) - k + 1)]
        diag = max(np.convolve(x, np.ones(k, dtype=int), "valid").max() for x in d + a)
        win[player] = bool(rows.max() == k or cols.max() == k or diag == k)
    return {"x": win[1], "o": win[2], "full": bool(np.all(b > 0))}


def bitboard(np, squares):
    bb = np.bitwise_or.reduce(np.uint64(1) << np.asarray(squares, dtype=np.uint64))
    north = bb << np.uint64(8)
    not_a = np.uint64(0xFEFEFEFEFEFEFEFE)
    east = (bb << np.uint64(1)) & not_a
    bits = (bb >> np.arange(64, dtype=np.uint64)) & np.uint64(1)
    return {"bb": bb, "north": north, "east": east, "count": np.bitwise_count(bb),
            "squares": np.flatnonzero(bits), "board": bits.reshape(8, 8)[::-1]}


def piece_square(np, table, pieces_r, pieces_c):
    t = np.asarray(table)
    white = t[pieces_r, pieces_c].sum()
    black_table = np.flipud(t)
    sub = t[np.ix_([0, 7], [0, 3, 7])]
    centre = t[np.ix_(np.arange(2, 6), np.arange(2, 6))]
    return {"white": white, "black": black_table[pieces_r, pieces_c].sum(), "sub": sub,
            "centre": centre.mean(), "mirror_ok": bool(np.array_equal(np.flipud(black_table), t))}


def show_board(np, board):
    b = np.asarray(board)
    text = np.array2string(b, separator=" ", formatter={"int": lambda v: ".XO"[v]})
    flat = np.array2string(b.ravel(), max_line_width=20)
    return {"text": text, "flat": flat, "repr_ok": "array" in repr(b)}


def fill_diagonals(np, n):
    m = np.zeros((n, n), dtype=int)
    np.fill_diagonal(m, 5)
    tall = np.zeros((n + 3, n), dtype=int)
    np.fill_diagonal(tall, 1, wrap=True)
    off = np.zeros((n, n), dtype=int)
    rows, cols = np.diag_indices(n)
    off[rows[:-1], cols[1:]] = -1
    tri = np.tril(np.ones((n, n), dtype=int)) - np.triu(np.ones((n, n), dtype=int), 2)
    return {"m": m, "tall": tall, "off": off, "tri": tri, "tril_k": np.tril(m + 1, 1), "triu_neg": np.triu(m + 1, -1)}


def test_rook_bishop():
    check(rook_bishop, 2, 5)


def test_symmetries():
    check(symmetries, np.array([[1, 0, 2], [0, 1, 0], [2, 2, 0]]))


def test_knight_moves():
    occ = np.zeros((8, 8), dtype=bool)
    occ[[0, 0, 3, 7], [1, 6, 4, 7]] = True
    check(knight_moves, occ)


def test_n_queens():
    check(n_queens, np.array([1, 3, 5, 7, 2, 0, 6, 4]))
    check(n_queens, np.array([0, 2, 4, 1, 3, 5]))


def test_go_liberties():
    rng = np.random.default_rng(2231)
    check(go_liberties, rng.integers(0, 3, (7, 7)))


def test_go_group():
    s = np.zeros((6, 6), dtype=int)
    s[1, 1:4] = 1
    s[2, 3] = 1
    s[3, 3:5] = 1
    s[2, 2] = 2
    check(go_group, s, 1, 2)


def test_line_wins():
    check(line_wins, np.array([[1, 2, 1, 0], [2, 1, 2, 0], [0, 2, 1, 2], [1, 0, 0, 1]]), 3)


def test_bitboard():
    check(bitboard, np.array([0, 7, 8, 27, 36, 56, 63]))


def test_piece_square():
    rng = np.random.default_rng(2232)
    check(piece_square, rng.integers(-20, 30, (8, 8)), np.array([1, 1, 0, 3]), np.array([0, 4, 6, 3]))


def test_show_board():
    check(show_board, np.array([[1, 0, 2], [0, 1, 0], [2, 2, 1]]))


def test_fill_diagonals():
    check(fill_diagonals, 4)
