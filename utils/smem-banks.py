#!/usr/bin/env python3
"""Counts the shared-memory wavefronts of an instruction that stores a
register tile into shared memory, from its CUDA template in an instruction
library: the template runs on the host (g++) once per thread of a
warpgroup, with the destination in a recording buffer and every register it
reads tagged with the order of the read, so each 4-byte word the thread
writes says which of its store instructions wrote it.

Per store instruction of a warp, the hardware serves the lanes in phases of
128 bytes (the whole warp for 4-byte accesses, half-warps for 8-byte ones,
quarter-warps for 16-byte ones); a phase takes as many wavefronts as the
most distinct words any of the 32 banks (4 bytes wide) receives. The ideal
is one wavefront per 128 bytes stored. Prints, per instruction,

    NAME: 8 stores of 8 bytes per thread, 64 wavefronts per warpgroup (ideal 64)

and, for the store instructions of a warp that take more than the ideal,
how many take how many wavefronts.

Usage: utils/smem-banks.py LIBRARY.mlir INSTR [--arg NAME=VALUE ...]
           [--dst PARAM] [--regs PARAM] [--elem float] [--reads 2]
           [--threads 128] [--cxx g++]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

SHIMS = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
struct Dim3 { unsigned x = 0, y = 0, z = 0; };
static Dim3 threadIdx;
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
static float2 make_float2(float x, float y) { return {x, y}; }
static float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}
// A bf16 pair keeps the tag of its first element.
struct __nv_bfloat16 { uint16_t bits; };
struct __nv_bfloat162 { uint32_t bits; };
static uint32_t exo_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}
static __nv_bfloat162 __floats2bfloat162_rn(float a, float) {
  return {exo_bits(a)};
}
// Registers: read number n of register i returns the tag n * 256 + i,
// exact in a float.
struct ExoRegisters {
  unsigned reads = 0;
  float operator[](int i) { return float(++reads * 256 + unsigned(i)); }
};
alignas(1024) static unsigned char exo_arena[1 << 16];
"""

MAIN = r"""
int main() {
  for (unsigned t = 0; t < THREADS; ++t) {
    threadIdx.x = t;
    std::memset(exo_arena, 0, sizeof exo_arena);
    ExoRegisters REGS;
    { BODY }
    for (unsigned offset = 0; offset < sizeof exo_arena; offset += 4) {
      uint32_t word;
      std::memcpy(&word, exo_arena + offset, 4);
      float tag;
      std::memcpy(&tag, &word, 4);
      if (word)
        std::printf("%u %u %u\n", t, offset, unsigned(tag));
    }
  }
}
"""


def find_template(library, name):
    """The unescaped `cuda = "..."` template of instruction `name`."""
    text = open(library).read()
    start = text.find(f"exogpu.instr @{name}(")
    if start < 0:
        sys.exit(f"smem-banks.py: no instruction @{name} in {library}")
    match = re.compile(r'cuda = "((?:[^"\\]|\\.)*)"').search(text, start)
    if not match:
        sys.exit(f"smem-banks.py: @{name} has no CUDA template")
    template = match.group(1)
    template = re.sub(r"\\([0-9A-Fa-f]{2})",
                      lambda m: chr(int(m.group(1), 16)), template)
    return template.replace('\\"', '"').replace("\\\\", "\\")


def element_size(elem):
    return 2 if "16" in elem else 4


def check_accumulator(written, args):
    """Checks that the tile holds the wgmma accumulator's columns
    first..first+cols-1 (PTX ISA "Register Fragments and Shared Memory
    Matrix Layouts", wgmma D: thread 32 w + 4 g + c holds, in register
    4 i + 2 h + b, row 16 w + 8 h + g and column 8 i + 2 c + b), 128-byte
    swizzled, each element once."""
    cols, first = map(int, args.accumulator.split(","))
    size = element_size(args.elem)
    seen = {}
    for t, offset, register in written:
        # Undo the 128-byte swizzle: the 16-byte chunk index is XORed with
        # the 128-byte row index modulo 8.
        chunk = ((offset >> 4) & 7) ^ ((offset >> 7) & 7)
        plain = (offset & ~0x70) | (chunk << 4)
        for k in range(4 // size):  # a bf16 word holds two elements
            element = plain // size + k
            row, col = divmod(element, cols)
            col += first
            expect_t = 32 * (row // 16) + 4 * (row % 8) + (col % 8) // 2
            expect_r = 4 * (col // 8) + 2 * ((row % 16) // 8) + col % 2
            got_r = register + k
            if (t, got_r) != (expect_t, expect_r):
                sys.exit(f"smem-banks.py: tile element ({row}, {col - first}) "
                         f"holds register {got_r} of thread {t}, expected "
                         f"register {expect_r} of thread {expect_t}")
            if element in seen:
                sys.exit(f"smem-banks.py: tile element ({row}, {col - first}) "
                         "is written twice")
            seen[element] = True
    if len(seen) != 64 * cols:
        sys.exit(f"smem-banks.py: {64 * cols - len(seen)} tile elements "
                 "are never written")
    print(f"{args.instr}: the tile holds accumulator columns {first}.."
          f"{first + cols - 1}, each element once")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("instr")
    parser.add_argument("--arg", action="append", default=[],
                        help="NAME=VALUE for a control parameter")
    parser.add_argument("--dst", default="dst",
                        help="the shared-memory parameter")
    parser.add_argument("--regs", default="d", help="the register parameter")
    parser.add_argument("--elem", default="float",
                        help="the C++ element type of the destination")
    parser.add_argument("--reads", type=int, default=2,
                        help="registers each store instruction reads")
    parser.add_argument("--threads", type=int, default=128)
    parser.add_argument("--accumulator", metavar="COLS,FIRST",
                        help="check that the 64 x COLS tile holds the wgmma "
                             "accumulator's columns FIRST.. (128-byte "
                             "swizzled)")
    parser.add_argument("--cxx", default="g++")
    args = parser.parse_args()

    body = find_template(args.library, args.instr)
    values = dict(a.split("=", 1) for a in args.arg)
    values[args.dst] = f"reinterpret_cast<{args.elem} *>(exo_arena)"
    values[args.regs] = "exo_registers"

    def substitute(match):
        name = match.group(1)
        if name not in values:
            sys.exit(f"smem-banks.py: no value for {{{name}}} (--arg)")
        return values[name]

    body = re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", substitute, body)
    source = (SHIMS + MAIN.replace("THREADS", str(args.threads))
              .replace("REGS", "exo_registers").replace("BODY", body))
    with tempfile.TemporaryDirectory() as work:
        cpp = os.path.join(work, "banks.cpp")
        exe = os.path.join(work, "banks")
        open(cpp, "w").write(source)
        built = subprocess.run([args.cxx, "-std=c++17", "-O1", "-w", cpp,
                                "-o", exe], capture_output=True, text=True)
        if built.returncode:
            sys.exit("smem-banks.py: the template does not compile on the "
                     "host:\n" + built.stderr)
        run = subprocess.run([exe], capture_output=True, text=True,
                             check=True)

    # Thread -> store instruction -> the words it wrote: a store reads
    # `--reads` registers, so register read n belongs to store (n - 1) //
    # reads (a bf16 pair keeps its first element's tag).
    stores = defaultdict(lambda: defaultdict(list))
    written = []  # (thread, byte offset, register)
    numbers = list(map(int, run.stdout.split()))
    for t, offset, tag in zip(numbers[0::3], numbers[1::3], numbers[2::3]):
        stores[t][(tag // 256 - 1) // args.reads].append(offset)
        written.append((t, offset, tag % 256))
    if args.accumulator:
        check_accumulator(written, args)
    stores = {t: [sorted(words[k]) for k in sorted(words)]
              for t, words in stores.items()}
    counts = {len(s) for s in stores.values()}
    widths = {len(g) * 4 for s in stores.values() for g in s}
    if len(counts) != 1 or len(widths) != 1:
        sys.exit("smem-banks.py: the threads do not store alike "
                 f"(stores per thread {sorted(counts)}, widths {sorted(widths)})")
    count, width = counts.pop(), widths.pop()
    lanes_per_phase = 128 // width
    total = ideal = 0
    excess = defaultdict(int)  # (wavefronts, ideal) -> warp stores
    for warp in range(args.threads // 32):
        for k in range(count):
            phases = 0
            for first in range(0, 32, lanes_per_phase):
                banks = defaultdict(set)
                for lane in range(first, first + lanes_per_phase):
                    for offset in stores[warp * 32 + lane][k]:
                        banks[(offset // 4) % 32].add(offset)
                phases += max(len(v) for v in banks.values())
            best = 32 * width // 128
            total += phases
            ideal += best
            if phases > best:
                excess[(phases, best)] += 1
    print(f"{args.instr}: {count} stores of {width} bytes per thread, "
          f"{total} wavefronts per {args.threads} threads (ideal {ideal})")
    warp_stores = count * (args.threads // 32)
    for (phases, best), n in sorted(excess.items()):
        print(f"  {n} of {warp_stores} warp stores take {phases} wavefronts "
              f"(ideal {best})")


if __name__ == "__main__":
    main()
