"""Games and puzzles as hobby notebooks write them: a sudoku checker by rows, columns and boxes (the
`reshape(3, 3, 3, 3).transpose` trick, `np.sort` against `np.arange`), 2048 moves by `np.rot90` and a row
compressor, tic-tac-toe and connect-four win checks (`np.trace`, `np.fliplr`, `sliding_window_view`), minesweeper
neighbour counts by `np.pad` and shifted sums, a Game of Life variant on a torus with `np.roll` (HighLife), Lights
Out solved over GF(2) by elimination with `^=`, N-queens conflict checks with `np.unique(return_counts=True)`,
and a knight's-move reachability flood with `np.argwhere` (tests/porting)."""

import numpy as np
from harness import check


def sudoku_check(np, board):
    b = np.asarray(board)
    digits = np.arange(1, 10)
    rows_ok = np.all(np.sort(b, axis=1) == digits, axis=1)
    cols_ok = np.all(np.sort(b.T, axis=1) == digits, axis=1)
    boxes = b.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)
    boxes_ok = np.array([len(np.unique(box)) == 9 for box in boxes])
    bad_rows = np.flatnonzero(~rows_ok)
    counts = np.apply_along_axis(np.bincount, 1, b, minlength=10)[:, 1:]
    dupes = np.argwhere(counts > 1)
    return {"rows": rows_ok, "cols": cols_ok, "boxes": boxes_ok, "valid": bool(rows_ok.all() and cols_ok.all()
            and boxes_ok.all()), "bad_rows": bad_rows, "dupes": dupes, "box0": boxes[0]}


def move_2048(np, board, direction):
    b = np.asarray(board)

    def left(row):
        tiles = row[row != 0]
        out, score, i = [], 0, 0
        while i < len(tiles):
            if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
                out.append(tiles[i] * 2)
                score += int(tiles[i] * 2)
                i += 2
            else:
                out.append(tiles[i])
                i += 1
        merged = np.zeros_like(row)
        merged[:len(out)] = out
        return merged, score

    k = {"left": 0, "up": 1, "right": 2, "down": 3}[direction]
    r = np.rot90(b, k)
    rows, total = [], 0
    for row in r:
        m, s = left(row)
        rows.append(m)
        total += s
    new = np.rot90(np.array(rows), -k)
    empty = np.argwhere(new == 0)
    return {"board": new, "score": total, "moved": bool(not np.array_equal(new, b)), "empty": len(empty),
            "best": int(new.max()), "log2": np.log2(np.where(new > 0, new, 1)).astype(int)}


def tictactoe(np, boards):
    B = np.asarray(boards)
    wins = []
    for b in B:
        lines = np.concatenate([b, b.T, [np.diag(b)], [np.diag(np.fliplr(b))]])
        sums = lines.sum(axis=1)
        winner = 1 if (sums == 3).any() else (-1 if (sums == -3).any() else 0)
        wins.append(winner)
    traces = np.trace(B, axis1=1, axis2=2)
    anti = np.trace(B[:, :, ::-1], axis1=1, axis2=2)
    full = np.count_nonzero(B, axis=(1, 2)) == 9
    return {"wins": np.array(wins), "traces": traces, "anti": anti, "full": full,
            "draws": np.flatnonzero(full & (np.array(wins) == 0))}


def connect_four(np, board):
    b = np.asarray(board)
    from numpy.lib.stride_tricks import sliding_window_view as _np_swv  # noqa: F401 (the import NumPy users write)
    swv = np.lib.stride_tricks.sliding_window_view
    horiz = swv(b, (1, 4)).reshape(b.shape[0], -1, 4)
    vert = swv(b, (4, 1)).reshape(-1, b.shape[1], 4)
    blocks = swv(b, (4, 4))
    diag = np.diagonal(blocks, axis1=2, axis2=3)
    anti = np.diagonal(blocks[..., ::-1], axis1=2, axis2=3)
    result = {}
    for p in (1, 2):
        hit = [(horiz == p).all(-1).sum(), (vert == p).all(-1).sum(), (diag == p).all(-1).sum(),
               (anti == p).all(-1).sum()]
        result[p] = [int(h) for h in hit]
    heights = (b != 0).sum(axis=0)
    playable = np.flatnonzero(heights < b.shape[0])
    return {"counts": result, "heights": heights, "playable": playable}


def minesweeper(np, mines):
    m = np.asarray(mines).astype(np.int8)
    p = np.pad(m, 1)
    h, w = m.shape
    counts = sum(p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                 if dy or dx)
    shown = np.where(m == 1, -1, counts)
    rows = ["".join(".12345678*"[v] for v in r) for r in np.where(shown < 0, 9, shown).tolist()]
    zeros = np.argwhere(shown == 0)
    return {"counts": counts, "shown": shown, "rows": rows, "n_zero": len(zeros), "dtype": counts.dtype.kind}


def highlife(np, grid, steps):
    g = np.asarray(grid).astype(bool)
    pops = []
    for _ in range(steps):
        n = sum(np.roll(np.roll(g, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        g = (g & ((n == 2) | (n == 3))) | (~g & np.isin(n, [3, 6]))
        pops.append(int(g.sum()))
    ys, xs = np.nonzero(g)
    return {"grid": g, "pops": pops, "bbox": (ys.min(), ys.max(), xs.min(), xs.max()) if len(ys) else None}


def lights_out(np, n, pressed):
    N = n * n
    A = np.zeros((N, N), dtype=np.uint8)
    for i in range(n):
        for j in range(n):
            k = i * n + j
            for di, dj in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= i + di < n and 0 <= j + dj < n:
                    A[k, (i + di) * n + j + dj] = 1
    state = (A @ np.asarray(pressed, dtype=np.uint8)) % 2
    M = np.concatenate([A, state[:, None]], axis=1).astype(np.uint8)
    row = 0
    pivots = []
    for col in range(N):
        hits = np.flatnonzero(M[row:, col]) + row
        if len(hits) == 0:
            continue
        p = hits[0]
        M[[row, p]] = M[[p, row]]
        others = np.flatnonzero(M[:, col])
        others = others[others != row]
        M[others] ^= M[row]
        pivots.append(col)
        row += 1
        if row == N:
            break
    x = np.zeros(N, dtype=np.uint8)
    x[pivots] = M[:len(pivots), -1]
    return {"state": state.reshape(n, n), "rank": len(pivots), "solves": bool(np.array_equal((A @ x) % 2, state)),
            "presses": int(x.sum())}


def nqueens(np, perms):
    P = np.asarray(perms)
    n = P.shape[1]
    cols = np.arange(n)
    ok = []
    for p in P:
        _, c1 = np.unique(p + cols, return_counts=True)
        _, c2 = np.unique(p - cols, return_counts=True)
        ok.append(c1.max() == 1 and c2.max() == 1)
    ok = np.array(ok)
    conflicts = np.abs(P[:, :, None] - P[:, None, :]) == np.abs(cols[:, None] - cols[None, :])
    n_conf = (np.triu(conflicts.sum(axis=0) > 0, 1)).sum()
    return {"ok": ok, "solutions": P[ok], "per_board": np.triu(conflicts, 1).sum(axis=(1, 2)), "n_conf": int(n_conf)}


def knight_flood(np, n, start):
    moves = np.array([(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)])
    dist = np.full((n, n), -1)
    dist[start] = 0
    frontier = np.array([start])
    d = 0
    while len(frontier):
        d += 1
        cand = (frontier[:, None, :] + moves[None, :, :]).reshape(-1, 2)
        inside = np.all((cand >= 0) & (cand < n), axis=1)
        cand = np.unique(cand[inside], axis=0)
        new = cand[dist[cand[:, 0], cand[:, 1]] == -1]
        dist[new[:, 0], new[:, 1]] = d
        frontier = new
    return {"dist": dist, "max": int(dist.max()), "far": np.argwhere(dist == dist.max()),
            "hist": np.bincount(dist.ravel())}


SOLVED = np.array([[5, 3, 4, 6, 7, 8, 9, 1, 2], [6, 7, 2, 1, 9, 5, 3, 4, 8], [1, 9, 8, 3, 4, 2, 5, 6, 7],
                   [8, 5, 9, 7, 6, 1, 4, 2, 3], [4, 2, 6, 8, 5, 3, 7, 9, 1], [7, 1, 3, 9, 2, 4, 8, 5, 6],
                   [9, 6, 1, 5, 3, 7, 2, 8, 4], [2, 8, 7, 4, 1, 9, 6, 3, 5], [3, 4, 5, 2, 8, 6, 1, 7, 9]])


def test_sudoku_valid_and_broken():
    check(sudoku_check, SOLVED)
    broken = SOLVED.copy()
    broken[4, 4], broken[4, 5] = broken[4, 5], 9
    check(sudoku_check, broken)


def test_2048_moves():
    board = np.array([[2, 2, 4, 0], [0, 4, 4, 4], [8, 0, 8, 16], [2, 2, 2, 2]])
    for direction in ("left", "up", "right", "down"):
        check(move_2048, board, direction)


def test_tictactoe_wins():
    rng = np.random.default_rng(1343)
    boards = rng.choice([-1, 0, 1], size=(12, 3, 3))
    boards[0] = [[1, 1, 1], [0, -1, -1], [0, 0, 0]]
    boards[1] = [[1, -1, 1], [1, -1, -1], [-1, 1, 1]]
    check(tictactoe, boards)


def test_connect_four_windows():
    rng = np.random.default_rng(1344)
    board = rng.choice([0, 1, 2], size=(6, 7), p=[0.3, 0.35, 0.35])
    board[5, :4] = 1
    board[:4, 6] = 2
    check(connect_four, board)


def test_minesweeper_counts():
    rng = np.random.default_rng(1345)
    check(minesweeper, rng.random((7, 9)) < 0.2)


def test_highlife_torus():
    rng = np.random.default_rng(1346)
    check(highlife, rng.random((16, 16)) < 0.35, 12)


def test_lights_out_gf2():
    rng = np.random.default_rng(1347)
    check(lights_out, 4, rng.integers(0, 2, 16))


def test_nqueens_conflicts():
    rng = np.random.default_rng(1348)
    perms = np.array([rng.permutation(6) for _ in range(30)] + [[1, 3, 5, 0, 2, 4], [2, 5, 1, 4, 0, 3]])
    check(nqueens, perms)


def test_knight_flood():
    check(knight_flood, 6, (0, 0))
