#!/usr/bin/env python3
"""Checks a .npy file against the runner's documented input fill.

Usage: check_fill.py FILE.npy PRECISION PARAM SEED

Element i of data parameter number PARAM (its position in the proc's
signature) is pcg3d(i, PARAM, SEED).x; floats are 2 * (x >> 8) * 2^-24 - 1
rounded to the precision, i8/ui8 take x >> 24, ui16 x >> 16, i32 x
(docs/running.md). An independent implementation, so that a GPU driver can
reproduce the fill from the documentation alone.
"""

import ast
import struct
import sys

M = 0xFFFFFFFF


def pcg3d(x, y, z):
    x = (x * 1664525 + 1013904223) & M
    y = (y * 1664525 + 1013904223) & M
    z = (z * 1664525 + 1013904223) & M
    x = (x + y * z) & M
    y = (y + z * x) & M
    z = (z + x * y) & M
    x ^= x >> 16
    y ^= y >> 16
    z ^= z >> 16
    x = (x + y * z) & M
    y = (y + z * x) & M
    z = (z + x * y) & M
    return x


def bf16_bits(value):
    """Round-to-nearest-even of an f32 value to bf16, as bits."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def expected(precision, x):
    value = 2.0 * (x >> 8) * 2.0 ** -24 - 1.0
    return {
        "f32": lambda: struct.pack("<f", value),
        "f64": lambda: struct.pack("<d", value),
        "f16": lambda: struct.pack("<e", value),
        "bf16": lambda: struct.pack("<H", bf16_bits(value)),
        "i8": lambda: struct.pack("<B", x >> 24),
        "ui8": lambda: struct.pack("<B", x >> 24),
        "ui16": lambda: struct.pack("<H", x >> 16),
        "i32": lambda: struct.pack("<I", x),
    }[precision]()


def main():
    path, precision, param, seed = sys.argv[1:]
    data = open(path, "rb").read()
    header_length = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + header_length].decode())
    body = data[10 + header_length:]
    count = 1
    for extent in header["shape"]:
        count *= extent
    size = len(body) // count
    for i in range(count):
        want = expected(precision, pcg3d(i, int(param), int(seed)))
        got = body[i * size:(i + 1) * size]
        if got != want:
            sys.exit(f"{path}: element {i} is {got.hex()}, the fill gives "
                     f"{want.hex()}")
    print(f"{path}: {count} elements ({header['descr']}) match the fill")


if __name__ == "__main__":
    main()
