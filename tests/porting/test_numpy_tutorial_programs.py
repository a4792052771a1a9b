"""Programs of the official NumPy tutorials (github.com/numpy/numpy-tutorials): Moore's law (a log-linear
``Polynomial.fit``), SVD image compression, deep learning on MNIST from scratch, X-ray image processing, the
lockdown's air quality (moving means, a t statistic), masked COVID-19 counts (without ``np.ma``), fractals on the
complex plane and static equilibrium (tests/porting). The tutorials' code with ``np`` renamed ``xp``, on small
synthetic data made on the host (their files, images and random draws are not used); SciPy's filters are written
out in NumPy."""

import os

import numpy as np
from harness import check


def moores_law(xp, data_host):
    # float64 asked for: kdsl's Python scalars make float32 (docs/numpy-api.md, "Deliberate differences"), where
    # exp(B_M) = exp(-675) underflows to 0 and exp(A_M * 1971) overflows
    A_M = xp.log(xp.array(2, dtype=xp.float64)) / 2
    B_M = xp.log(xp.array(2250, dtype=xp.float64)) - A_M * 1971
    Moores_law = lambda year: xp.exp(B_M) * xp.exp(A_M * year)  # noqa: E731 (the tutorial's)
    ML_1971 = Moores_law(1971)
    ML_1973 = Moores_law(1973)
    data = xp.asarray(data_host)
    year = data[:, 1]  # grab the second column and assign
    transistor_count = data[:, 0]  # grab the first column and assign
    yi = xp.log(transistor_count)
    model = xp.polynomial.Polynomial.fit(year, yi, deg=1)
    model = model.convert()
    B, A = model
    rate = f"{xp.exp(2 * A):.2f}"
    transistor_count_predicted = xp.exp(B) * xp.exp(A * year)
    transistor_Moores_law = Moores_law(year)
    transistor_count2017 = transistor_count[year == 2017]
    y = xp.linspace(2016.5, 2017.5)
    your_model2017 = xp.exp(B) * xp.exp(A * y)
    Moore_Model2017 = Moores_law(y)
    n2017 = 2017 * xp.ones(xp.sum(year == 2017))
    output = xp.block(
        [
            year[:, xp.newaxis],
            transistor_count[:, xp.newaxis],
            transistor_count_predicted[:, xp.newaxis],
            transistor_Moores_law[:, xp.newaxis],
        ]
    )
    return {"ML_1973": ML_1973, "ratio": f"{ML_1973 / ML_1971:.2f}", "A": A, "B": B, "rate": rate,
            "c2017": [transistor_count2017.max(), transistor_count2017.min(), transistor_count2017.mean()],
            "your_model2017": your_model2017, "Moore_Model2017": Moore_Model2017, "n2017": n2017,
            "output": output}


def svd_image_compression(xp, img_host, k=4):
    img = xp.asarray(img_host)
    out = {"shape": img.shape, "ndim": img.ndim, "red": img[:, :, 0]}
    img_array = img / 255
    out["range"] = (img_array.min(), img_array.max())
    img_gray = img_array @ [0.2126, 0.7152, 0.0722]
    U, s, Vt = xp.linalg.svd(img_gray)
    out["svd_shapes"] = (U.shape, s.shape, Vt.shape)
    try:
        s @ Vt
        out["s_at_Vt"] = "none"
    except ValueError:
        out["s_at_Vt"] = "ValueError"
    Sigma = xp.zeros((U.shape[1], Vt.shape[0]))
    xp.fill_diagonal(Sigma, s)
    out["s"] = s
    out["residual_small"] = bool(xp.linalg.norm(img_gray - U @ Sigma @ Vt) < 1e-3)
    out["allclose"] = bool(xp.allclose(img_gray, U @ Sigma @ Vt, atol=1e-5))
    approx = U @ Sigma[:, :k] @ Vt[:k, :]
    out["approx"] = approx
    # The values in the tuple indicate the original dim, and the order the new axis
    # so axis 2 -> 0, 0 -> 1, and 1 -> 2
    img_array_transposed = xp.transpose(img_array, (2, 0, 1))
    U, s, Vt = xp.linalg.svd(img_array_transposed)
    out["svd3_shapes"] = (U.shape, s.shape, Vt.shape)
    Sigma = xp.zeros((3, img.shape[0], img.shape[1]))
    for j in range(3):
        xp.fill_diagonal(Sigma[j, :, :], s[j, :])
    reconstructed = U @ Sigma @ Vt
    out["reconstructed"] = reconstructed
    reconstructed = xp.clip(reconstructed, 0, 1)
    approx_img = U @ Sigma[..., :k] @ Vt[..., :k, :]
    out["approx_img"] = approx_img
    out["Sigma3"] = Sigma
    return out


def mnist_from_scratch(xp, x_host, y_host, w1_host, w2_host, dropout_host, epochs=2, training_sample=12):
    x_train, y_train = xp.asarray(x_host[:training_sample]), xp.asarray(y_host[:training_sample])
    x_test, y_test = xp.asarray(x_host[training_sample:]), xp.asarray(y_host[training_sample:])
    training_images = x_train / 255
    test_images = x_test / 255

    def one_hot_encoding(labels, dimension=10):
        one_hot_labels = labels[..., None] == xp.arange(dimension)[None]
        return one_hot_labels.astype(xp.float64)

    training_labels = one_hot_encoding(y_train)
    test_labels = one_hot_encoding(y_test)

    def relu(x):
        return (x >= 0) * x

    def relu2deriv(output):
        return output >= 0

    learning_rate = 0.005
    weights_1 = xp.asarray(w1_host)
    weights_2 = xp.asarray(w2_host)
    store_training_loss = []
    store_training_accurate_pred = []
    store_test_loss = []
    store_test_accurate_pred = []
    for j in range(epochs):
        training_loss = 0.0
        training_accurate_predictions = 0
        for i in range(len(training_images)):
            layer_0 = training_images[i]
            layer_1 = xp.dot(layer_0, weights_1)
            layer_1 = relu(layer_1)
            dropout_mask = xp.asarray(dropout_host[j, i])  # rng.integers(low=0, high=2, size=layer_1.shape)
            layer_1 *= dropout_mask * 2
            layer_2 = xp.dot(layer_1, weights_2)
            training_loss += xp.sum((training_labels[i] - layer_2) ** 2)
            training_accurate_predictions += int(
                xp.argmax(layer_2) == xp.argmax(training_labels[i])
            )
            layer_2_delta = training_labels[i] - layer_2
            layer_1_delta = xp.dot(weights_2, layer_2_delta) * relu2deriv(layer_1)
            layer_1_delta *= dropout_mask
            weights_1 += learning_rate * xp.outer(layer_0, layer_1_delta)
            weights_2 += learning_rate * xp.outer(layer_1, layer_2_delta)
        store_training_loss.append(training_loss)
        store_training_accurate_pred.append(training_accurate_predictions)
        results = relu(test_images @ weights_1) @ weights_2
        test_loss = xp.sum((test_labels - results) ** 2)
        test_accurate_predictions = xp.sum(
            xp.argmax(results, axis=1) == xp.argmax(test_labels, axis=1)
        )
        store_test_loss.append(test_loss)
        store_test_accurate_pred.append(test_accurate_predictions)
    training_metrics = {
        "accuracy": xp.asarray(store_training_accurate_pred) / len(training_images),
        "error": xp.asarray(store_training_loss) / len(training_images),
    }
    test_metrics = {
        "accuracy": xp.asarray(store_test_accurate_pred) / len(test_images),
        "error": xp.asarray(store_test_loss) / len(test_images),
    }
    return {"training": training_metrics, "test": test_metrics, "w1": weights_1, "w2": weights_2,
            "epoch_range": xp.arange(epochs) + 1}


def xray_edges(xp, images_host):
    combined_xray_images_1 = xp.array([im for im in images_host])
    xray_image = combined_xray_images_1[1]
    out = {"shapes": (combined_xray_images_1.shape, xray_image.shape), "dtype": str(xray_image.dtype)}

    def correlate3(image, kernel):  # SciPy's ndimage.correlate with mode='reflect' (NumPy's 'symmetric')
        padded = xp.pad(image.astype(xp.float64), 1, mode="symmetric")
        h, w = image.shape
        return sum(kernel[i][j] * padded[i:i + h, j:j + w] for i in range(3) for j in range(3))

    def sobel(image, axis):
        k = xp.outer([-1, 0, 1], [1, 2, 1])  # the derivative along ``axis``, smoothed across it
        return correlate3(image, k if axis == 0 else k.T)

    def prewitt(image, axis):
        k = xp.outer([-1, 0, 1], [1, 1, 1])
        return correlate3(image, k if axis == 0 else k.T)

    x_sobel = sobel(xray_image, axis=0)
    y_sobel = sobel(xray_image, axis=1)
    xray_image_sobel = xp.hypot(x_sobel, y_sobel)
    xray_image_sobel *= 255.0 / xp.max(xray_image_sobel)
    xray_image_sobel = xray_image_sobel.astype("float32")
    out["sobel"] = xray_image_sobel
    x_prewitt = prewitt(xray_image, axis=0)
    y_prewitt = prewitt(xray_image, axis=1)
    xray_image_canny = xp.hypot(x_prewitt, y_prewitt)
    xray_image_canny *= 255.0 / xp.max(xray_image_canny)
    out["prewitt"] = xray_image_canny
    out["stats"] = [xp.min(xray_image), xp.max(xray_image), xp.mean(xray_image), xp.median(xray_image)]
    # ndimage.histogram(x, min, max, bins) is NumPy's histogram over [min, max]
    pixel_intensity_distribution, _ = xp.histogram(
        xray_image, bins=256, range=(xp.min(xray_image), xp.max(xray_image))
    )
    out["histogram"] = pixel_intensity_distribution
    out["mask_noisy"] = xp.where(xray_image > 150, xray_image, 0)
    out["mask_less_noisy"] = xp.where(xray_image > 150, 1, 0)
    out["per_image_mean"] = combined_xray_images_1.mean(axis=(1, 2))
    return out


AQI_BREAKPOINTS = {
    'PM2.5': [0, 31, 61, 91, 121, 251],
    'PM10': [0, 51, 101, 251, 351, 431],
    'NO2': [0, 41, 81, 181, 281, 401],
    'NH3': [0, 201, 401, 801, 1201, 1801],
    'SO2': [0, 41, 81, 381, 801, 1601],
    'CO': [0, 1.1, 2.1, 10.1, 17.1, 35],
    'O3': [0, 51, 101, 169, 209, 749],
}


def air_quality(xp, pollutant_host, lockdown_hour, before_idx, after_idx):
    pollutant_data = xp.asarray(pollutant_host)
    pollutants_A = pollutant_data[:, 0:5]
    pollutants_B = pollutant_data[:, 5:]
    finite = xp.all(xp.isfinite(pollutant_data))
    AQI = xp.array([0, 51, 101, 201, 301, 401, 501])
    breakpoints = {k: xp.array(v) for k, v in AQI_BREAKPOINTS.items()}

    def moving_mean(a, n):
        ret = xp.cumsum(a, dtype=float, axis=0)
        ret[n:] = ret[n:] - ret[:-n]
        return ret[n - 1:] / n

    pollutants_A_24hr_avg = moving_mean(pollutants_A, 24)
    pollutants_B_8hr_avg = moving_mean(pollutants_B, 8)[-(pollutants_A_24hr_avg.shape[0]):]
    pollutants = xp.concatenate((pollutants_A_24hr_avg, pollutants_B_8hr_avg), axis=1)

    # compute_indices of the tutorial, element-wise: its if/elif chain over the breakpoints (np.vectorize of
    # Python control flow) is the bracket searchsorted finds; kdsl would run the branches on the host
    def compute_indices(pol, con):
        bp = breakpoints[pol]
        inc = 0.1 if pol == 'CO' else 1
        k = xp.clip(xp.searchsorted(bp, con, side='right') - 1, 0, 5)
        Bl = bp[k]
        Bh = xp.where(k < 5, bp[xp.minimum(k + 1, 5)] - inc, bp[5] + bp[4] - (2 * inc))
        Ih = xp.where(k < 5, AQI[k + 1] - inc, AQI[6])
        Il = AQI[k]
        return ((Ih - Il) / (Bh - Bl)) * (con - Bl) + Il

    sub_indices = xp.stack([compute_indices(pol, pollutants[..., i]) for i, pol in enumerate(breakpoints)], axis=1)
    aqi_array = xp.max(sub_indices, axis=1)
    hours = xp.arange(pollutant_data.shape[0])[-(pollutants_A_24hr_avg.shape[0]):]
    after_lock = aqi_array[xp.where(hours >= lockdown_hour)]
    before_lock = aqi_array[xp.where(hours <= lockdown_hour - 72)][-(after_lock.shape[0]):]
    before_sample = before_lock[before_idx]
    after_sample = after_lock[after_idx]

    def t_test(x, y):
        diff = y - x
        var = xp.var(diff, ddof=1)
        num = xp.mean(diff)
        denom = xp.sqrt(var / len(x))
        return xp.divide(num, denom)

    t_value = t_test(before_sample, after_sample)
    return {"finite": bool(finite), "A24": pollutants_A_24hr_avg, "B8": pollutants_B_8hr_avg,
            "sub_indices": sub_indices, "aqi": aqi_array, "shapes": (after_lock.shape, before_lock.shape),
            "t": t_value}


def covid_counts_without_ma(xp, nbcases_host, province_host, country_host, china=3, excluded=(7, 8, 9, 10)):
    nbcases, province, country = xp.asarray(nbcases_host), xp.asarray(province_host), xp.asarray(country_host)
    totals_row = 35
    province = xp.delete(province, (totals_row), axis=0)
    country = xp.delete(country, (totals_row), axis=0)
    nbcases = xp.delete(nbcases, (totals_row), axis=0)
    china_total = nbcases[country == china].sum(axis=0)  # -1 (not reported) counted in: the tutorial's point
    china_mask = (
        (country == china)
        & (province != excluded[0])
        & (province != excluded[1])
        & (province != excluded[2])
        & (province != excluded[3])
    )
    rows = china_mask.nonzero()
    # ma.masked_values(nbcases, -1)[china_mask].sum(axis=0): the reported values summed, a day masked when
    # no province reported it
    china_cases = nbcases[china_mask]
    reported = china_cases != -1
    china_masked = xp.where(reported, china_cases, 0).sum(axis=0)
    mask = ~reported.any(axis=0)
    invalid = china_masked[mask]
    valid = china_masked[~mask]
    t = xp.arange(len(china_masked))
    model = xp.polynomial.Polynomial.fit(t[~mask], valid, deg=3)
    return {"china_total": china_total, "rows": rows, "china_masked": china_masked, "mask": mask,
            "invalid": invalid, "valid": valid, "coef": model.convert().coef, "estimate": model(t + 7),
            "shape": nbcases.shape}


def fractals(xp, n=24):
    def f(z):
        return xp.square(z) - 1

    out = {"f0": f(0), "f_list": f([4, 1 - 0.2j, 1.6])}
    x, y = xp.meshgrid(xp.linspace(-10, 10, 20), xp.linspace(-10, 10, 20))
    mesh = x + (1j * y)  # Make mesh of complex plane
    out["abs_f"] = xp.abs(f(mesh))
    out["abs_ff"] = xp.abs(f(f(mesh)))
    selected_values = xp.array([0.4 + 0.4j, 0.41 + 0.4j, 0.4 + 0.41j])
    num_iter = 9
    outputs = xp.zeros((num_iter + 1, selected_values.shape[0]), dtype=complex)
    outputs[0] = selected_values
    for i in range(num_iter):
        outputs[i + 1] = f(outputs[i])  # Apply 10 iterations, save each output
    out["orbits"] = [(data.real, data.imag) for data in outputs.T]

    def julia(mesh, c=-1, num_iter=10, radius=2):
        z = mesh.copy()
        diverge_len = xp.zeros(z.shape)
        for i in range(num_iter):  # noqa: B007 (the tutorial's)
            conv_mask = xp.abs(z) < radius
            z[conv_mask] = xp.square(z[conv_mask]) + c
            diverge_len[conv_mask] += 1
        return diverge_len

    def mandelbrot(mesh, num_iter=10, radius=2):
        c = mesh.copy()
        z = xp.zeros(mesh.shape, dtype=xp.complex128)
        diverge_len = xp.zeros(z.shape)
        for i in range(num_iter):  # noqa: B007 (the tutorial's)
            conv_mask = xp.abs(z) < radius
            z[conv_mask] = xp.square(z[conv_mask]) + c[conv_mask]
            diverge_len[conv_mask] += 1
        return diverge_len

    def newton_fractal(mesh, f, df, num_iter=10, r=2):
        z = mesh.copy()
        diverge_len = xp.zeros(z.shape)
        for i in range(num_iter):  # noqa: B007 (the tutorial's)
            conv_mask = xp.abs(z) < r
            pz = f(z[conv_mask])
            dp = df(z[conv_mask])
            z[conv_mask] = z[conv_mask] - pz / dp
            diverge_len[conv_mask] += 1
        return diverge_len

    # a mesh between grid points of the tutorial's, so no point sits on a divergence boundary in float32
    x, y = xp.meshgrid(xp.linspace(-2, 2, n) + 0.0123, xp.linspace(-2, 2, n) + 0.0371)
    mesh = x + (1j * y)
    out["julia"] = julia(mesh, num_iter=6)
    out["julia_c"] = julia(mesh, c=-0.75 + 0.4j, num_iter=6)
    out["mandelbrot"] = mandelbrot(mesh, num_iter=6)
    p = xp.polynomial.Polynomial([-16, 0, 0, 0, 15, 0, 0, 0, 1])
    out["deriv"] = p.deriv().coef
    out["newton"] = newton_fractal(mesh, p, p.deriv(), num_iter=4, r=2)
    return out


def static_equilibrium(xp):
    forceA = xp.array([1, 0, 0])
    forceB = xp.array([0, 1, 0])
    forceC = forceA + forceB
    R = xp.array([-1, -1, 0])
    out = {"forceC": forceC, "sum": forceA + forceB + R}
    x, y, z = xp.array([0, 0, 0])
    u, v, w = forceA
    out["unpacked"] = [x, y, z, u, v, w]
    poleBase = xp.array([0, 0, 0])
    cordBase = xp.array([3, 0, 0])
    cordConnection = xp.array([0, 0, 2])
    poleDirection = cordConnection - poleBase
    cordDirection = cordBase - cordConnection
    cordUnit = cordDirection / xp.linalg.norm(cordDirection)
    cordTension = 5
    forceCord = cordUnit * cordTension
    momentCord = xp.cross(forceCord, poleDirection)
    equilibrium = xp.array([0, 0, 0])
    out["R"] = equilibrium - forceCord
    out["M"] = equilibrium - momentCord
    A = xp.array([0, 0, 0])
    B = xp.array([0, 3, 0])
    C = xp.array([0, 6, 0])
    D = xp.array([1.5, 0, -3])
    E = xp.array([1.5, 0, 3])
    F = xp.array([-3, 0, 2])
    AB = B - C
    AC = C - A
    BD = D - B
    BE = E - B
    CF = F - C
    UnitBD = BD / xp.linalg.norm(BD)
    UnitBE = BE / xp.linalg.norm(BE)
    UnitCF = CF / xp.linalg.norm(CF)
    RadBD = xp.cross(AB, UnitBD)
    RadBE = xp.cross(AB, UnitBE)
    RadCF = xp.cross(AC, UnitCF)
    out["rad"] = [RadBD, RadBE, RadCF]
    # the tutorial's next step in words: the moments of the three cords and the 195 N load balance
    moments = xp.column_stack([RadBD, RadBE, RadCF])
    load = xp.cross(AC, xp.array([0, 0, -195]))
    out["tensions"] = xp.linalg.lstsq(moments, -load, rcond=None)[0]
    return out


def save_and_load(xp, folder):
    x = xp.arange(10)
    y = x ** 2
    xp.savez(os.path.join(folder, "x_y-squared.npz"), x_axis=x, y_axis=y)
    del x, y
    load_xy = xp.load(os.path.join(folder, "x_y-squared.npz"))
    files = sorted(load_xy.files)
    x = load_xy["x_axis"]
    y = load_xy["y_axis"]
    array_out = xp.block([x[:, xp.newaxis], y[:, xp.newaxis]])
    xp.savetxt(os.path.join(folder, "x_y-squared.csv"), X=array_out, header="x, y", delimiter=",")
    with open(os.path.join(folder, "x_y-squared.csv")) as fh:
        header = fh.readline()
    del x, y
    load_xy = xp.loadtxt(os.path.join(folder, "x_y-squared.csv"), delimiter=",")
    x = load_xy[:, 0]
    y = load_xy[:, 1]
    # Moore's law tutorial: a tuple of 0-d results saved with the arrays (its notes string left out: kdsl arrays
    # hold numbers only)
    A, B = xp.polynomial.Polynomial.fit(x, xp.log1p(y), deg=1).convert()
    xp.savez(os.path.join(folder, "regression.npz"), year=x, regression_csts=(A, B))
    results = xp.load(os.path.join(folder, "regression.npz"))
    return {"files": files, "array_out": array_out, "header": header, "x": x, "y": y,
            "csts": results["regression_csts"], "B": results["regression_csts"][1]}


def test_moores_law_log_linear_fit():
    rng = np.random.default_rng(7)
    year = np.sort(rng.integers(1971, 2020, size=60)).astype(float)
    year[-5:] = 2017
    count = np.exp(np.log(2250) + 0.34 * (year - 1971) + rng.normal(0, 0.6, size=60)).round()
    check(moores_law, np.column_stack([count, year]), rtol=1e-3, atol=1e-6)


def test_svd_image_compression():
    rng = np.random.default_rng(8)
    r, c = np.mgrid[0:12, 0:16]
    img = np.stack([120 + 80 * np.sin(r / 3 + ch) * np.cos(c / 4) for ch in range(3)], axis=-1)
    img = (img + rng.integers(0, 20, img.shape)).clip(0, 255).astype(np.uint8)
    check(svd_image_compression, img, rtol=1e-3, atol=1e-4)


def test_deep_learning_on_mnist_from_scratch():
    rng = np.random.default_rng(884736743)
    labels = rng.integers(0, 10, size=20)
    protos = rng.integers(0, 256, size=(10, 16))
    images = np.clip(protos[labels] + rng.integers(-30, 30, size=(20, 16)), 0, 255).astype(np.uint8)
    w1 = 0.2 * rng.random((16, 8)) - 0.1
    w2 = 0.2 * rng.random((8, 10)) - 0.1
    dropout = rng.integers(low=0, high=2, size=(2, 12, 8))
    check(mnist_from_scratch, images, labels.astype(np.uint8), w1, w2, dropout, rtol=1e-3, atol=1e-4)


def test_xray_edges_sobel_prewitt_masks():
    rng = np.random.default_rng(9)
    r, c = np.mgrid[0:20, 0:24]
    body = 200 * np.exp(-(((r - 10) / 7) ** 2 + ((c - 12) / 8) ** 2))
    images = np.clip(body[None] + rng.integers(0, 40, size=(3, 20, 24)), 0, 255).astype(np.uint8)
    check(xray_edges, images, rtol=1e-3, atol=1e-3)


def test_air_quality_moving_means_aqi_t_test():
    rng = np.random.default_rng(10)
    hours = 24 * 12
    scale = np.array([60, 90, 40, 30, 20, 1.2, 60])
    level = np.where(np.arange(hours) >= 24 * 8, 0.5, 1.0)[:, None]
    data = np.abs(scale * level * (1 + 0.4 * rng.standard_normal((hours, 7)))).round(2)
    data[5, 0] = 300.0  # one hour over the top breakpoint
    before_idx = rng.choice(50, size=20, replace=False)
    after_idx = rng.choice(50, size=20, replace=False)
    check(air_quality, data, 24 * 8, before_idx, after_idx, rtol=1e-3, atol=1e-4)


def test_covid_counts_without_masked_arrays():
    rng = np.random.default_rng(11)
    rows = 40
    country = np.where(np.arange(rows) < 30, 3, rng.integers(4, 9, size=rows))
    province = np.arange(rows)
    base = rng.integers(1, 50, size=(rows, 1)) * np.arange(1, 15) ** 1.5
    nbcases = base.astype(int)
    nbcases[rng.random((rows, 14)) < 0.15] = -1
    nbcases[:, 4] = -1  # a day nobody reported
    check(covid_counts_without_ma, nbcases, province, country, rtol=2e-3, atol=1e-2)


def test_fractals_julia_mandelbrot_newton():
    check(fractals, rtol=1e-3, atol=1e-3)


def test_static_equilibrium_cross_norm():
    check(static_equilibrium, rtol=1e-3, atol=1e-4)


def test_save_and_load_arrays(tmp_path):
    check(save_and_load, str(tmp_path), rtol=1e-4, atol=1e-5)
