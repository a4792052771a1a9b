"""Board-game and puzzle programs as NumPy users write them: Sudoku validation by reshaping into boxes,
tic-tac-toe winners from rows, columns, traces and fliplr, Connect Four wins by 2-D sliding windows,
the 2048 move (squeeze non-zeros, merge pairs) with rot90, Minesweeper counts from a padded board, N-queens
checks with np.unique of diagonals, magic squares by the Siamese index rule, and Langton's ant on a bool grid
(tests/porting)."""

import numpy as np
from harness import check


def sudoku_check(np, grid_host):
    g = np.asarray(grid_host)
    rows_ok = np.all(np.sort(g, axis=1) == np.arange(1, 10), axis=1)
    cols_ok = np.all(np.sort(g, axis=0) == np.arange(1, 10)[:, None], axis=0)
    boxes = g.reshape(3, 3, 3, 3).transpose(0, 2, 1, 3).reshape(9, 9)
    boxes_ok = np.array([len(np.unique(b)) == 9 for b in boxes])
    bad = g.copy()
    bad[0, 0], bad[0, 1] = bad[0, 1], bad[0, 0]
    bad_cols = np.flatnonzero(np.apply_along_axis(lambda c: np.unique(c).size, 0, bad) < 9)
    counts = np.array([np.bincount(r, minlength=10)[1:] for r in g])
    return {"rows": rows_ok, "cols": cols_ok, "boxes": boxes_ok, "valid": bool(rows_ok.all() & cols_ok.all()),
            "bad_cols": bad_cols, "counts": counts, "box4": boxes[4]}


def sudoku_solution():
    base = np.arange(9)
    pattern = (3 * (base[:, None] % 3) + base[:, None] // 3 + base[None, :]) % 9
    return pattern + 1


def tic_tac_toe(np, boards_host):
    results = []
    for b in np.asarray(boards_host):
        lines = np.concatenate([b.sum(axis=1), b.sum(axis=0), [np.trace(b), np.trace(np.fliplr(b))]])
        if np.any(lines == 3):
            results.append(1)
        elif np.any(lines == -3):
            results.append(-1)
        elif np.count_nonzero(b) == 9:
            results.append(0)
        else:
            results.append(2)
    boards = np.asarray(boards_host)
    row_wins = np.abs(boards.sum(axis=2)).max(axis=1) == 3
    free = np.argwhere(boards[0] == 0)
    return {"results": results, "row_wins": row_wins, "free": free}


def connect_four(np, board_host):
    board = np.asarray(board_host)
    win = []
    for player in (1, 2):
        p = (board == player).astype(int)
        horiz = np.lib.stride_tricks.sliding_window_view(p, (1, 4)).sum(axis=(-1, -2)) == 4
        vert = np.lib.stride_tricks.sliding_window_view(p, (4, 1)).sum(axis=(-1, -2)) == 4
        w = np.lib.stride_tricks.sliding_window_view(p, (4, 4))
        diag = np.trace(w, axis1=-2, axis2=-1) == 4
        anti = np.trace(w[..., ::-1], axis1=-2, axis2=-1) == 4
        win.append([int(horiz.sum()), int(vert.sum()), int(diag.sum()), int(anti.sum())])
    heights = (board != 0).sum(axis=0)
    next_row = board.shape[0] - 1 - heights
    return {"win": win, "heights": heights, "next_row": next_row, "playable": np.flatnonzero(heights < 6)}


def game_2048(np, board_host):
    def move_left(board):
        out = np.zeros_like(board)
        score = 0
        for i, row in enumerate(board):
            tiles = row[row != 0]
            merged = []
            j = 0
            while j < len(tiles):
                if j + 1 < len(tiles) and tiles[j] == tiles[j + 1]:
                    merged.append(2 * tiles[j])
                    score += int(2 * tiles[j])
                    j += 2
                else:
                    merged.append(tiles[j])
                    j += 1
            out[i, : len(merged)] = merged
        return out, score

    board = np.asarray(board_host)
    results = {}
    for name, k in (("left", 0), ("up", 1), ("right", 2), ("down", 3)):
        moved, score = move_left(np.rot90(board, k))
        results[name] = np.rot90(moved, -k)
        results[name + "_score"] = score
    results["changed"] = [not np.array_equal(results[n], board) for n in ("left", "up", "right", "down")]
    return results


def minesweeper(np, mines_host):
    mines = np.asarray(mines_host).astype(int)
    p = np.pad(mines, 1)
    counts = sum(p[1 + dy : p.shape[0] - 1 + dy, 1 + dx : p.shape[1] - 1 + dx]
                 for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    board = np.where(mines == 1, -1, counts)
    zeros = (board == 0)
    text = "\n".join("".join("*" if v < 0 else (str(v) if v else ".") for v in row) for row in board)
    return {"board": board, "zeros": int(zeros.sum()), "max": int(counts.max()), "text": text}


def n_queens(np, cols_host):
    results = []
    for cols in cols_host:
        c = np.asarray(cols)
        r = np.arange(len(c))
        ok = (np.unique(c).size == len(c)) and (np.unique(r - c).size == len(c)) and (np.unique(r + c).size == len(c))
        results.append(bool(ok))
    c = np.asarray(cols_host[0])
    board = np.zeros((len(c), len(c)), dtype=int)
    board[np.arange(len(c)), c] = 1
    attacks = np.abs(np.subtract.outer(np.arange(len(c)), np.arange(len(c)))) == np.abs(np.subtract.outer(c, c))
    np.fill_diagonal(attacks, False)
    return {"ok": results, "board": board, "attacks": int(attacks.sum())}


def magic_square(np, n=5):
    i, j = np.indices((n, n))
    M = n * ((i + j - 1 + n // 2) % n) + ((i + 2 * j - 2) % n) + 1
    target = n * (n * n + 1) // 2
    sums = np.concatenate([M.sum(axis=0), M.sum(axis=1), [np.trace(M), np.trace(M[:, ::-1])]])
    siamese = np.zeros((n, n), dtype=int)
    r, c = 0, n // 2
    for k in range(1, n * n + 1):
        siamese[r, c] = k
        nr, nc = (r - 1) % n, (c + 1) % n
        if siamese[nr, nc]:
            nr, nc = (r + 1) % n, c
        r, c = nr, nc
    s2 = np.r_[siamese.sum(0), siamese.sum(1), np.diag(siamese).sum(), np.diag(np.flipud(siamese)).sum()]
    return {"M": M, "magic": bool((sums == target).all()), "siamese": siamese, "s2": s2,
            "perm": bool(np.array_equal(np.sort(siamese, axis=None), np.arange(1, n * n + 1)))}


def langtons_ant(np, steps=300, n=21):
    grid = np.zeros((n, n), dtype=bool)
    y, x = n // 2, n // 2
    dirs = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
    d = 0
    for _ in range(steps):
        d = (d + (1 if not grid[y, x] else -1)) % 4
        grid[y, x] = ~grid[y, x]
        y, x = (np.array([y, x]) + dirs[d]) % n
    return {"grid": grid, "black": int(grid.sum()), "pos": [int(y), int(x)], "rows": grid.sum(axis=1)}


def test_sudoku_rows_cols_boxes():
    check(sudoku_check, sudoku_solution())


def test_tic_tac_toe_traces_fliplr():
    boards = np.array([[[1, 1, 1], [0, -1, 0], [-1, 0, -1]],
                       [[-1, 1, 0], [1, -1, 0], [0, 1, -1]],
                       [[1, -1, 1], [1, -1, -1], [-1, 1, 1]],
                       [[0, 0, 0], [0, 1, 0], [0, 0, -1]]])
    check(tic_tac_toe, boards)


def test_connect_four_sliding_windows():
    rng = np.random.default_rng(551)
    board = rng.integers(0, 3, (6, 7))
    board[:, 3] = 1
    board[5 - np.arange(4), np.arange(4)] = 2
    check(connect_four, board)


def test_2048_moves_with_rot90():
    check(game_2048, np.array([[2, 2, 0, 4], [0, 4, 4, 4], [2, 0, 2, 0], [8, 8, 8, 8]]))


def test_minesweeper_counts_from_pad():
    check(minesweeper, np.random.default_rng(552).random((7, 9)) < 0.2)


def test_n_queens_unique_diagonals():
    check(n_queens, [[1, 3, 0, 2], [0, 4, 7, 5, 2, 6, 1, 3], [0, 1, 2, 3], [2, 0, 3, 1]])


def test_magic_square_indices_and_siamese():
    check(magic_square)


def test_langtons_ant_bool_grid():
    check(langtons_ant, steps=200)
