"""Programs of the Python Data Science Handbook, chapter 2 (Introduction to NumPy; J. VanderPlas): creation,
indexing and slicing, views and copies, reshaping, joining and splitting, ufuncs and their methods, aggregates,
broadcasting, masks and boolean logic, fancy indexing, binning by hand, sorting and k nearest neighbours
(tests/porting). The book's code with ``np`` renamed ``xp``; its random draws come from NumPy on the host."""

import numpy as np
from harness import check


def creation(xp):
    out = {}
    out["ints"] = xp.array([1, 4, 2, 5, 3])
    out["upcast"] = xp.array([3.14, 4, 2, 3])
    out["f32"] = xp.array([1, 2, 3, 4], dtype=xp.float32)
    out["nested"] = xp.array([range(i, i + 3) for i in [2, 4, 6]])
    out["zeros"] = xp.zeros(10, dtype=int)
    out["ones"] = xp.ones((3, 5), dtype=float)
    out["full"] = xp.full((3, 5), 3.14)
    out["arange"] = xp.arange(0, 20, 2)
    out["linspace"] = xp.linspace(0, 1, 5)
    out["eye"] = xp.eye(3)
    out["empty_shape"] = xp.empty(3).shape
    return out


def array_attributes_and_indexing(xp, x1_host, x2_host, x3_host):
    x1, x2, x3 = xp.array(x1_host), xp.array(x2_host), xp.array(x3_host)
    out = {"ndim": x3.ndim, "shape": x3.shape, "size": x3.size}
    out["items"] = [x1[0], x1[4], x1[-1], x1[-2], x2[0, 0], x2[2, 0], x2[2, -1]]
    x2[0, 0] = 12
    out["x2"] = x2.copy()
    x1[0] = 3.14159  # this will be truncated!
    out["x1"] = x1.copy()
    out["slices"] = [x1[:3], x1[3:], x1[1:4], x1[::2], x1[1::2], x1[::-1], x1[4::-2]]
    out["slices2"] = [x2[:2, :3], x2[:3, ::2], x2[::-1, ::-1], x2[:, 0], x2[0, :], x2[0]]
    x2_sub = x2[:2, :2]
    x2_sub[0, 0] = 99
    out["view_writes_through"] = x2.copy()
    x2_sub_copy = x2[:2, :2].copy()
    x2_sub_copy[0, 0] = 42
    out["copy"] = x2_sub_copy
    out["after_copy"] = x2
    return out


def reshaping_joining_splitting(xp):
    out = {}
    grid = xp.arange(1, 10).reshape(3, 3)
    out["grid"] = grid
    x = xp.array([1, 2, 3])
    out["reshapes"] = [x.reshape((1, 3)), x.reshape((3, 1)), x[xp.newaxis, :], x[:, xp.newaxis]]
    x = xp.array([1, 2, 3])
    y = xp.array([3, 2, 1])
    out["cat"] = xp.concatenate([x, y])
    z = xp.array([99, 99, 99])
    out["cat3"] = xp.concatenate([x, y, z])
    grid = xp.array([[1, 2, 3],
                     [4, 5, 6]])
    out["cat_rows"] = xp.concatenate([grid, grid])
    out["cat_cols"] = xp.concatenate([grid, grid], axis=1)
    out["vstack"] = xp.vstack([x, grid])
    y = xp.array([[99],
                  [99]])
    out["hstack"] = xp.hstack([grid, y])
    x = [1, 2, 3, 99, 99, 3, 2, 1]
    x1, x2, x3 = xp.split(x, [3, 5])
    out["split"] = [x1, x2, x3]
    grid = xp.arange(16).reshape((4, 4))
    upper, lower = xp.vsplit(grid, [2])
    left, right = xp.hsplit(grid, [2])
    out["vsplit"] = [upper, lower]
    out["hsplit"] = [left, right]
    return out


def ufunc_arithmetic(xp, values_host):
    def compute_reciprocals(values):
        output = xp.empty(len(values))
        for i in range(len(values)):
            output[i] = 1.0 / values[i]
        return output

    values = xp.asarray(values_host)
    out = {"loop": compute_reciprocals(values), "vectorized": 1.0 / values}
    out["ratio"] = xp.arange(5) / xp.arange(1, 6)
    x = xp.arange(9).reshape((3, 3))
    out["pow"] = 2 ** x
    x = xp.arange(4)
    out["ops"] = [x + 5, x - 5, x * 2, x / 2, x // 2, -x, x ** 2, x % 2]
    out["expr"] = -(0.5 * x + 1) ** 2
    out["add"] = xp.add(x, 2)
    x = xp.array([-2, -1, 0, 1, 2])
    out["abs"] = [abs(x), xp.absolute(x), xp.abs(x)]
    x = xp.array([3 - 4j, 4 - 3j, 2 + 0j, 0 + 1j])
    out["cabs"] = xp.abs(x)
    return out


def ufunc_math(xp):
    out = {}
    theta = xp.linspace(0, xp.pi, 3)
    out["trig"] = [theta, xp.sin(theta), xp.cos(theta)]
    # tan(pi/2) is 1.6e16 in float64 and -2.3e7 in float32 (float32(pi/2) is past the pole): the others compared
    out["tan"] = xp.tan(theta)[::2]
    x = [-1, 0, 1]
    out["inverse"] = [xp.arcsin(x), xp.arccos(x), xp.arctan(x)]
    x = [1, 2, 3]
    out["exps"] = [xp.exp(x), xp.exp2(x), xp.power(3., x)]
    x = [1, 2, 4, 10]
    out["logs"] = [xp.log(x), xp.log2(x), xp.log10(x)]
    x = [0, 0.001, 0.01, 0.1]
    out["small"] = [xp.expm1(x), xp.log1p(x)]
    return out


def ufunc_out_and_methods(xp):
    out = {}
    x = xp.arange(5)
    y = xp.empty(5)
    xp.multiply(x, 10, out=y)
    out["multiply_out"] = y
    y = xp.zeros(10)
    xp.power(2, x, out=y[::2])
    out["power_out_strided"] = y
    x = xp.arange(1, 6)
    out["reduce"] = [xp.add.reduce(x), xp.multiply.reduce(x)]
    out["accumulate"] = [xp.add.accumulate(x), xp.multiply.accumulate(x)]
    out["outer"] = xp.multiply.outer(x, x)
    return out


def aggregates(xp, L_host, M_host, heights_host):
    L = xp.asarray(L_host)
    out = {"builtin_sum": sum(L), "sum": xp.sum(L)}
    out["builtin_minmax"] = (min(L), max(L))
    out["minmax"] = (xp.min(L), xp.max(L))
    out["methods"] = (L.min(), L.max(), L.sum())
    M = xp.asarray(M_host)
    out["M"] = [M.sum(), M.min(axis=0), M.max(axis=1)]
    heights = xp.array(heights_host)
    out["heights"] = [heights.mean(), heights.std(), heights.min(), heights.max(),
                      xp.percentile(heights, 25), xp.median(heights), xp.percentile(heights, 75)]
    return out


def broadcasting(xp, X_host):
    out = {}
    a = xp.array([0, 1, 2])
    b = xp.array([5, 5, 5])
    out["basic"] = [a + b, a + 5]
    M = xp.ones((3, 3))
    out["M_plus_a"] = M + a
    a = xp.arange(3)
    b = xp.arange(3)[:, xp.newaxis]
    out["outer_sum"] = a + b
    M = xp.ones((2, 3))
    a = xp.arange(3)
    out["rule1"] = M + a
    a = xp.arange(3).reshape((3, 1))
    b = xp.arange(3)
    out["rule2"] = a + b
    M = xp.ones((3, 2))
    a = xp.arange(3)
    try:
        M + a
        out["rule3_error"] = "none"
    except ValueError:
        out["rule3_error"] = "ValueError"
    out["newaxis_shape"] = a[:, xp.newaxis].shape
    out["rule3_fixed"] = M + a[:, xp.newaxis]
    out["logaddexp"] = xp.logaddexp(M, a[:, xp.newaxis])
    X = xp.asarray(X_host)
    Xmean = X.mean(0)
    X_centered = X - Xmean
    out["centered_mean"] = X_centered.mean(0)
    out["Xmean"] = Xmean
    # x and y have 50 steps from 0 to 5
    x = xp.linspace(0, 5, 50)
    y = xp.linspace(0, 5, 50)[:, xp.newaxis]
    z = xp.sin(x) ** 10 + xp.cos(10 + y * x) * xp.cos(x)
    out["z"] = z
    return out


def comparisons_and_counting(xp, x_host):
    out = {}
    x = xp.array([1, 2, 3, 4, 5])
    out["cmp"] = [x < 3, x > 3, x <= 3, x >= 3, x != 3, x == 3, (2 * x) == (x ** 2)]
    x = xp.asarray(x_host)
    out["lt6"] = x < 6
    out["count"] = [xp.count_nonzero(x < 6), xp.sum(x < 6), xp.sum(x < 6, axis=1)]
    out["any_all"] = [xp.any(x > 8), xp.any(x < 0), xp.all(x < 10), xp.all(x == 6), xp.all(x < 8, axis=1)]
    out["masked"] = x[x < 5]
    A = xp.array([1, 0, 1, 0, 1, 0], dtype=bool)
    B = xp.array([1, 1, 1, 0, 1, 1], dtype=bool)
    out["or"] = A | B
    try:
        A or B  # noqa: B018 (raises: the book shows it)
        out["or_error"] = "none"
    except ValueError:
        out["or_error"] = "ValueError"
    x = xp.arange(10)
    out["and"] = (x > 4) & (x < 8)
    try:
        (x > 4) and (x < 8)  # noqa: B018 (raises: the book shows it)
        out["and_error"] = "none"
    except ValueError:
        out["and_error"] = "ValueError"
    return out


def rainfall_masks(xp, rain_host):
    rainfall_mm = xp.array(rain_host)
    out = {}
    out["between"] = xp.sum((rainfall_mm > 10) & (rainfall_mm < 20))
    out["de_morgan"] = xp.sum(~((rainfall_mm <= 10) | (rainfall_mm >= 20)))
    out["counts"] = [xp.sum(rainfall_mm == 0), xp.sum(rainfall_mm != 0), xp.sum(rainfall_mm > 10),
                     xp.sum((rainfall_mm > 0) & (rainfall_mm < 5))]
    # construct a mask of all rainy days
    rainy = (rainfall_mm > 0)
    # construct a mask of all summer days (June 21st is the 172nd day)
    days = xp.arange(365)
    summer = (days > 172) & (days < 262)
    out["medians"] = [xp.median(rainfall_mm[rainy]), xp.median(rainfall_mm[summer]),
                      xp.max(rainfall_mm[summer]), xp.median(rainfall_mm[rainy & ~summer])]
    return out


def fancy_indexing(xp, x_host, X2_host, choice_host):
    x = xp.asarray(x_host)
    out = {"list": [x[3], x[7], x[2]]}
    ind = [3, 7, 4]
    out["ind"] = x[ind]
    ind = xp.array([[3, 7],
                    [4, 5]])
    out["ind2d"] = x[ind]
    X = xp.arange(12).reshape((3, 4))
    row = xp.array([0, 1, 2])
    col = xp.array([2, 1, 3])
    out["pairs"] = X[row, col]
    out["outer"] = X[row[:, xp.newaxis], col]
    out["outer_product"] = row[:, xp.newaxis] * col
    out["combined"] = [X[2, [2, 0, 1]], X[1:, [2, 0, 1]]]
    mask = xp.array([True, False, True, False])
    out["with_mask"] = X[row[:, xp.newaxis], mask]
    X = xp.asarray(X2_host)
    indices = xp.asarray(choice_host)
    selection = X[indices]  # fancy indexing here
    out["selection"] = selection
    out["selection_shape"] = selection.shape
    return out


def fancy_assignment(xp):
    out = {}
    x = xp.arange(10)
    i = xp.array([2, 1, 8, 4])
    x[i] = 99
    out["set"] = x.copy()
    x[i] -= 10
    out["isub"] = x.copy()
    x = xp.zeros(10)
    x[[0, 0]] = [4, 6]
    out["repeated_set"] = x.copy()
    i = [2, 3, 3, 4, 4, 4]
    x[i] += 1
    out["repeated_iadd"] = x
    x = xp.zeros(10)
    xp.add.at(x, i, 1)
    out["add_at"] = x
    return out


def histogram_by_hand(xp, x_host):
    x = xp.asarray(x_host)
    # compute a histogram by hand
    bins = xp.linspace(-5, 5, 20)
    counts = xp.zeros_like(bins)
    # find the appropriate bin for each x
    i = xp.searchsorted(bins, x)
    # add 1 to each of these bins
    xp.add.at(counts, i, 1)
    hist, edges = xp.histogram(x, bins)
    return {"i": i, "counts": counts, "hist": hist, "edges": edges}


def sorting(xp, X_host):
    out = {}
    x = xp.array([2, 1, 4, 3, 5])
    out["sort"] = xp.sort(x)
    x.sort()
    out["inplace"] = x
    x = xp.array([2, 1, 4, 3, 5])
    i = xp.argsort(x)
    out["argsort"] = [i, x[i]]
    X = xp.asarray(X_host)
    out["by_col"] = xp.sort(X, axis=0)
    out["by_row"] = xp.sort(X, axis=1)
    x = xp.array([7, 2, 3, 1, 6, 5, 4])
    p = xp.partition(x, 3)
    # partition's order within each side is unspecified: compare the pivot and the sorted sides
    out["partition"] = [xp.sort(p[:3]), p[3], xp.sort(p[4:])]
    P = xp.partition(X, 2, axis=1)
    out["partition2d"] = [xp.sort(P[:, :2], axis=1), P[:, 2], xp.sort(P[:, 3:], axis=1)]
    return out


def k_nearest_neighbors(xp, X_host):
    X = xp.asarray(X_host)
    dist_sq = xp.sum((X[:, xp.newaxis] - X[xp.newaxis, :]) ** 2, axis=-1)
    # for each pair of points, compute differences in their coordinates
    differences = X[:, xp.newaxis] - X[xp.newaxis, :]
    # square the coordinate differences
    sq_differences = differences ** 2
    # sum the coordinate differences to get the squared distance
    dist_sq2 = sq_differences.sum(-1)
    nearest = xp.argsort(dist_sq, axis=1)
    K = 2
    nearest_partition = xp.argpartition(dist_sq, K + 1, axis=1)
    neighbours = [sorted(int(j) for j in nearest_partition[i, :K + 1]) for i in range(X.shape[0])]
    return {"shapes": [differences.shape, sq_differences.shape, dist_sq.shape], "dist_sq": dist_sq,
            "same": bool(xp.allclose(dist_sq, dist_sq2)), "diagonal": dist_sq.diagonal(), "nearest": nearest,
            "neighbours": neighbours}


def test_creation_routines():
    check(creation)


def test_attributes_indexing_slicing_views():
    rng = np.random.default_rng(seed=1701)
    x1 = rng.integers(10, size=6)
    x2 = rng.integers(10, size=(3, 4))
    x3 = rng.integers(10, size=(3, 4, 5))
    check(array_attributes_and_indexing, x1, x2, x3)


def test_reshape_concatenate_stack_split():
    check(reshaping_joining_splitting)


def test_ufunc_arithmetic_and_loop():
    rng = np.random.default_rng(seed=1701)
    check(ufunc_arithmetic, rng.integers(1, 10, size=5))


def test_ufunc_trig_exp_log():
    check(ufunc_math)


def test_ufunc_out_reduce_accumulate_outer():
    check(ufunc_out_and_methods)


def test_aggregates_and_president_heights():
    rng = np.random.default_rng(1702)
    heights = rng.integers(163, 194, size=42)
    check(aggregates, rng.random(100), rng.integers(0, 10, (3, 4)), heights)


def test_broadcasting_rules_centering_and_2d_function():
    check(broadcasting, np.random.default_rng(seed=1701).random((10, 3)), rtol=1e-3, atol=1e-4)


def test_comparisons_counting_boolean_operators():
    check(comparisons_and_counting, np.random.default_rng(seed=1701).integers(10, size=(3, 4)))


def test_rainfall_masks():
    rng = np.random.default_rng(1703)
    rain = np.where(rng.random(365) < 0.55, 0.0, rng.gamma(0.8, 8.0, 365)).round(1)
    check(rainfall_masks, rain)


def test_fancy_indexing_and_random_selection():
    rng = np.random.default_rng(seed=1701)
    X = rng.multivariate_normal([0, 0], [[1, 2], [2, 5]], 100)
    check(fancy_indexing, rng.integers(100, size=10), X, rng.choice(X.shape[0], 20, replace=False))


def test_fancy_assignment_and_add_at():
    check(fancy_assignment)


def test_histogram_by_searchsorted_and_add_at():
    check(histogram_by_hand, np.random.default_rng(seed=1701).normal(size=100))


def test_sort_argsort_partition():
    check(sorting, np.random.default_rng(seed=42).integers(0, 10, (4, 6)))


def test_k_nearest_neighbours_broadcasting():
    check(k_nearest_neighbors, np.random.default_rng(seed=42).random((10, 2)), rtol=1e-3, atol=1e-5)
