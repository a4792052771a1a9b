"""The Mandelbrot set, computed by a 2-D @kd.kernel and written to mandelbrot.png (zlib + struct, no imaging
library).  Run: python examples/kernels/mandelbrot.py [out.png]"""

import struct
import sys
import zlib

import numpy as np

import kdsl as kd


@kd.kernel
def mandelbrot(image: kd.u8[:, :], x0: kd.f32, y0: kd.f32, step: kd.f32, max_iter: kd.i32):
    row, col = kd.global_id(0), kd.global_id(1)
    cr, ci = x0 + col * step, y0 + row * step
    zr, zi = 0.0, 0.0
    n = 0
    while n < max_iter and zr * zr + zi * zi < 4.0:  # max_iter stays far below lavapipe's 65 535 loop cap
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        n += 1
    image[row, col] = 255 - n * 255 // max_iter


def write_png(path: str, gray: np.ndarray) -> None:
    """An 8-bit grayscale PNG: signature, IHDR, one zlib IDAT (filter byte 0 per row), IEND."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    height, width = gray.shape
    raw = b"".join(b"\0" + gray[r].tobytes() for r in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main(path: str = "mandelbrot.png") -> np.ndarray:
    height, width = 240, 360
    image = np.zeros((height, width), np.uint8)
    mandelbrot[(height, width)](image, -2.5, -1.2, 3.5 / width, 100)
    write_png(path, image)
    print(f"wrote {path} ({width}x{height}); {int((image == 0).sum())} pixels in the set")
    return image


if __name__ == "__main__":
    main(*sys.argv[1:2])
