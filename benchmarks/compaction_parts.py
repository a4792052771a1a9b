"""The parts of a boolean compaction ``x[mask]`` timed one at a time, each a synchronised call (medians):
the tile counts with the count read back (:func:`kdsl.frontend.array.masks.count_tiles`), the whole
compaction, a sum of the mask's flags (the same bytes as the counts, through the reduction kernel) and a copy.

Run: python benchmarks/compaction_parts.py [--log2n 28] [--repeat 10]
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import median_ms

import kdsl as kd
from kdsl.frontend.array import masks


def main(log2n: int, repeat: int) -> None:
    n = 1 << log2n
    host = np.random.default_rng(2).random(n, dtype=np.float32)
    x, mask = kd.asarray(host), kd.asarray(host < 0.5)
    kd.realize(x, mask)
    np.testing.assert_array_equal(x[mask].numpy(), host[host < 0.5])
    flags = mask.astype(kd.int32)
    cases = {"count_tiles (one read-back)": lambda: masks.count_tiles(mask),
             "x[mask]": lambda: kd.realize(x[mask]),
             "flags.sum() (reduction)": lambda: kd.realize(flags.sum()),
             "mask.sum() read back": lambda: int(mask.sum()),
             "x + 0 (copy)": lambda: kd.realize(x + 0)}
    for name, fn in cases.items():
        fn()
        print(f"{name:32s} {median_ms(fn, repeat):8.3f} ms", flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--log2n", type=int, default=28)
    p.add_argument("--repeat", type=int, default=10)
    a = p.parse_args()
    main(a.log2n, a.repeat)
