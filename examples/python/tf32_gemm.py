#!/usr/bin/env python3
"""The tf32 GEMM of examples/gemm_tf32_sm90a.mlir called from PyTorch, next
to torch.matmul (docs/python.md).

    python3 examples/python/tf32_gemm.py [--sizes M,N,K] [--runs 20]

C = A @ B.T with A: M x K, B: N x K (row major, cuBLAS's "TN" layout). The
kernel is checked (collective analysis, distributed memory deduction,
synchronization check at the run's sizes), translated, built with nvcc for
the GPU present and cached; then both GEMMs run on the same tensors, their
results are compared in float64 and their times printed. Needs an H100 /
H200 (sm_90a) and PyTorch; the ExoGPU tools and nvcc only for the first
build (a filled cache serves without them: EXOGPU_CACHE_DIR).
"""

import argparse
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))  # without pip install -e python/
import exogpu  # noqa: E402


def time_ms(function, runs, torch):
    """The median time of `function` in milliseconds (CUDA events)."""
    function()  # warm up
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        function()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4096,4096,4096",
                        help="M,N,K (M a multiple of 1024, N of 256, K of 32)")
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    M, N, K = (int(s) for s in options.sizes.split(","))
    try:
        import torch
    except ImportError:
        sys.exit("this example needs PyTorch")
    if not torch.cuda.is_available():
        sys.exit("this example needs a CUDA GPU")

    gemm = exogpu.compile(ROOT / "examples" / "gemm_tf32_sm90a.mlir",
                          "gemm_tf32_sm90a",
                          check={"M": M, "N": N, "K": K})
    print(f"{gemm.signature.declaration}\n  "
          f"{'from the cache' if gemm.cached else 'built'}: "
          f"{gemm.library_path}")

    A = torch.randn(M, K, device="cuda")
    B = torch.randn(N, K, device="cuda")
    C = gemm(A, B)  # sizes from the shapes; C allocated with torch
    torch.backends.cuda.matmul.allow_tf32 = True
    C_torch = torch.matmul(A, B.T)
    want = A.double() @ B.double().T
    for name, got in (("exogpu", C), ("torch.matmul", C_torch)):
        error = ((got.double() - want).norm() / want.norm()).item()
        print(f"{name:>13}: relative Frobenius error {error:.2e} "
              "(against float64)")
    tolerance = 3e-3 * math.sqrt(max(1, K / 256))
    if ((C.double() - want).norm() / want.norm()).item() > tolerance:
        sys.exit(f"the exogpu GEMM is off by more than {tolerance:.1e}")

    flops = 2 * M * N * K
    ours = time_ms(lambda: gemm(A, B, out=C), options.runs, torch)
    theirs = time_ms(lambda: torch.matmul(A, B.T, out=C_torch), options.runs,
                     torch)
    print(f"{'exogpu':>13}: {ours:.3f} ms, {flops / ours / 1e9:.1f} TFLOP/s")
    print(f"{'torch.matmul':>13}: {theirs:.3f} ms, "
          f"{flops / theirs / 1e9:.1f} TFLOP/s")

    # As a PyTorch operator, under torch.compile.
    op = exogpu.torch_op(gemm)
    scaled = torch.compile(lambda a, b: op(a, b) * 0.5, fullgraph=True)
    torch.testing.assert_close(scaled(A, B), C * 0.5)
    print("torch.ops.exogpu.gemm_tf32_sm90a under torch.compile: ok")


if __name__ == "__main__":
    main()
