"""Prints the elements of .npy files as hexadecimal bit patterns, one line
per file: NAME: 0x3f80 0x3f82 ... (little-endian elements of 2, 4 or 8
bytes; the header is NumPy's format 1.0). No NumPy needed."""

import ast
import struct
import sys

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    (header_length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + header_length].decode("latin1"))
    size = int(header["descr"][2:])
    body = data[10 + header_length:]
    words = [int.from_bytes(body[i:i + size], "little")
             for i in range(0, len(body), size)]
    name = path.rsplit("/", 1)[-1].removesuffix(".npy")
    print(name + ": " + " ".join("0x%0*x" % (2 * size, w) for w in words))
