"""Board games with bitboards as chess-programming and puzzle notebooks write them in NumPy: uint64 boards built
by `np.left_shift` of square indices and `np.bitwise_or.reduce`, popcount by the SWAR bit trick (masks
0x5555..., multiply by 0x0101... with uint64 wrap-around), knight and king move generation by shifts with file
masks, tic-tac-toe wins checked against the 8 line masks (`&`, `==`, broadcasting), connect-four wins by
shift-and (`b & (b >> d)`) on the 7x7 column layout, Othello flips by direction loops, and board <-> bits
conversion with `np.unpackbits`/`np.packbits` and `view` (tests/porting)."""

import numpy as np
from harness import check


def popcount64(np, x):
    x = x.astype(np.uint64)
    m1, m2, m4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
    h01 = np.uint64(0x0101010101010101)
    x = x - ((x >> np.uint64(1)) & m1)
    x = (x & m2) + ((x >> np.uint64(2)) & m2)
    x = (x + (x >> np.uint64(4))) & m4
    return (x * h01) >> np.uint64(56)


def board_bits(np, squares_list):
    boards = []
    for squares in squares_list:
        bits = np.left_shift(np.uint64(1), squares.astype(np.uint64))
        boards.append(np.bitwise_or.reduce(bits))
    boards = np.array(boards, dtype=np.uint64)
    counts = popcount64(np, boards)
    by_bitcount = np.bitwise_count(boards)
    lsb = boards & (~boards + np.uint64(1))  # isolate the lowest set bit
    lsb_index = np.log2(lsb.astype(np.float64)).astype(np.int64)
    cleared = boards & (boards - np.uint64(1))
    return {"boards": boards, "counts": counts, "bitcount": by_bitcount, "lsb": lsb, "lsb_index": lsb_index,
            "cleared": cleared, "hex": [hex(int(b)) for b in boards]}


def knight_moves(np):
    sq = np.arange(64, dtype=np.uint64)
    b = np.left_shift(np.uint64(1), sq)
    not_a = np.uint64(0xFEFEFEFEFEFEFEFE)
    not_ab = np.uint64(0xFCFCFCFCFCFCFCFC)
    not_h = np.uint64(0x7F7F7F7F7F7F7F7F)
    not_gh = np.uint64(0x3F3F3F3F3F3F3F3F)
    s = lambda k: np.uint64(k)  # noqa: E731
    attacks = (((b << s(17)) & not_a) | ((b << s(15)) & not_h) | ((b << s(10)) & not_ab)
               | ((b << s(6)) & not_gh) | ((b >> s(17)) & not_h) | ((b >> s(15)) & not_a)
               | ((b >> s(10)) & not_gh) | ((b >> s(6)) & not_ab))
    king = (b << s(8)) | (b >> s(8)) | ((b << s(1)) & not_a) | ((b >> s(1)) & not_h)
    king |= ((b << s(9)) & not_a) | ((b << s(7)) & not_h) | ((b >> s(7)) & not_a) | ((b >> s(9)) & not_h)
    n = popcount64(np, attacks).astype(np.int64)
    bits = ((attacks[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    return {"attacks": attacks, "counts": n.reshape(8, 8), "king": popcount64(np, king).reshape(8, 8),
            "from_d4": np.flatnonzero(bits[27]), "total": int(n.sum())}


def tictactoe(np, boards):
    # boards: (n, 9) with 0 empty, 1 X, 2 O
    lines = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])
    weights = np.left_shift(1, np.arange(9))
    masks = np.bitwise_or.reduce(np.left_shift(1, lines), axis=1)
    x_bits = ((boards == 1) * weights).sum(axis=1)
    o_bits = ((boards == 2) * weights).sum(axis=1)
    x_win = ((x_bits[:, None] & masks) == masks).any(axis=1)
    o_win = ((o_bits[:, None] & masks) == masks).any(axis=1)
    by_lines = boards[:, lines]  # (n, 8, 3)
    x_win2 = (by_lines == 1).all(axis=2).any(axis=1)
    full = (boards != 0).all(axis=1)
    status = np.select([x_win, o_win, full], [1, 2, 3], default=0)
    empty = np.bitwise_count(~(x_bits | o_bits) & 0x1FF)
    return {"x_bits": x_bits, "masks": masks, "x_win": x_win, "same": bool(np.array_equal(x_win, x_win2)),
            "status": status, "empty": empty, "hist": np.bincount(status, minlength=4)}


def connect_four(np, moves):
    # columns of height 7 (6 rows + a sentinel), bit = col * 7 + row
    height = np.arange(7) * 7
    boards = np.zeros(2, dtype=np.uint64)
    winner, at = -1, -1
    for i, col in enumerate(moves):
        player = i % 2
        boards[player] |= np.uint64(1) << np.uint64(height[col])
        height[col] += 1
        b = boards[player]
        for d in (1, 7, 6, 8):
            dd = np.uint64(d)
            m = b & (b >> dd)
            if m & (m >> np.uint64(2 * d)):
                winner, at = player, i
                break
        if winner >= 0:
            break
    grid = ((boards[:, None] >> np.arange(49, dtype=np.uint64)) & np.uint64(1)).reshape(2, 7, 7)
    return {"boards": boards, "winner": winner, "at": at, "heights": height - np.arange(7) * 7,
            "grid": grid[:, :, :6].transpose(0, 2, 1)[:, ::-1]}


def othello_flips(np, board, player, row, col):
    b = board.copy()
    dirs = np.array([[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]])
    flipped = []
    for dr, dc in dirs:
        r, c, run = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and b[r, c] == -player:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and b[r, c] == player:
            flipped.extend(run)
    if flipped:
        rr, cc = np.array(flipped).T
        b[rr, cc] = player
        b[row, col] = player
    score = np.array([(b == 1).sum(), (b == -1).sum()])
    return {"board": b, "n_flipped": len(flipped), "score": score}


def pack_board(np, cells):
    packed = np.packbits(cells.astype(np.uint8), axis=1)  # (n, 8) bytes per 64 cells
    as_u64 = packed.view(np.uint8).reshape(-1, 8)
    value = np.zeros(len(cells), dtype=np.uint64)
    for k in range(8):
        value = (value << np.uint64(8)) | as_u64[:, k].astype(np.uint64)
    back = np.unpackbits(packed, axis=1)
    mirrored = np.unpackbits(packed[:, ::-1], axis=1, bitorder="little")
    return {"packed": packed, "value": value, "roundtrip": bool(np.array_equal(back, cells)),
            "mirror": mirrored, "pop": popcount64(np, value)}


def test_board_bits_popcount():
    rng = np.random.default_rng(1431)
    squares = [rng.choice(64, k, replace=False) for k in (1, 5, 17, 40, 64)]
    check(board_bits, squares)


def test_knight_and_king_moves():
    check(knight_moves)


def test_tictactoe_wins():
    rng = np.random.default_rng(1433)
    check(tictactoe, rng.integers(0, 3, (60, 9)))


def test_connect_four_shift_and():
    check(connect_four, [3, 3, 4, 4, 5, 2, 2, 5, 1, 6, 0, 0])
    check(connect_four, [0, 1, 0, 1, 0, 1, 0])


def test_othello_flips():
    board = np.zeros((8, 8), dtype=np.int8)
    board[3, 3] = board[4, 4] = 1
    board[3, 4] = board[4, 3] = -1
    board[2, 4] = -1
    check(othello_flips, board, 1, 2, 5)
    check(othello_flips, board, 1, 4, 2)


def test_pack_board_uint64():
    rng = np.random.default_rng(1436)
    check(pack_board, rng.random((6, 64)) < 0.3)
