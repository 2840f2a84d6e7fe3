"""Every example called from PyTorch on a GPU, against torch references at
sizes no other test uses (REQUIRES: cuda-gpu; skipped without a GPU or
PyTorch).

On a GPU machine without MLIR, fill the cache where the tools are and carry
it over (docs/python.md "On a GPU machine without the tools"):

    python3 test/Python/test_gpu.py --fill-cache DIR [--arch sm_90a]
    EXOGPU_CACHE_DIR=DIR python3 -m pytest test/Python/test_gpu.py
"""

import argparse
import math
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] /
                       "python"))
import exogpu  # noqa: E402

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def chunk_sums(gmem):
    return gmem.view(-1, 128).sum(1, keepdim=True).expand(-1, 128) \
        .reshape(-1)


def splitk_reference(A, B, C):
    M, S, KC = A.shape
    return C.double() + A.double().reshape(M, S * KC) @ \
        B.double().reshape(B.shape[0], S * KC).T


# (file, proc, the sync check's sizes, the run's sizes, the arithmetic,
# the sum length, the reference on float64 copies).
CASES = [
    ("vector_add.mlir", "vector_add", {"N": 512}, {"N": 128 * 37}, "f32",
     1, lambda X, Y: X + Y),
    ("cta_reduction.mlir", "cta_sum_fence", {"N": 512}, {"N": 128 * 23},
     "f32", 128, lambda gmem: chunk_sums(gmem)),
    ("cta_reduction.mlir", "cta_sum_mbarrier", {"N": 512}, {"N": 128 * 23},
     "f32", 128, lambda gmem: chunk_sums(gmem)),
    ("gemv.mlir", "gemv", {"M": 256, "N": 64}, {"M": 384, "N": 77}, "f32",
     77, lambda A, x: A @ x),
    ("gemv_shuffle.mlir", "gemv_shuffle", {"M": 256, "N": 64},
     {"M": 132, "N": 96}, "f32", 96, lambda A, x: A @ x),
    ("gemv_fast.mlir", "gemv_fast", {"M": 32, "N": 512},
     {"M": 48, "N": 768}, "f32", 768, lambda A, x: A @ x),
    ("sm80_gemm.mlir", "gemm_sm80", {"M": 256, "N": 128, "K": 64},
     {"M": 384, "N": 256, "K": 48}, "tf32", 48, lambda A, B: A @ B),
    ("sm90a_gemm.mlir", "gemm_sm90a", {"M": 256, "N": 256, "K": 64},
     {"M": 768, "N": 512, "K": 96}, "tf32", 96, lambda A, B: A @ B.T),
    ("gemm_tf32_sm90a.mlir", "gemm_tf32_sm90a",
     {"M": 1024, "N": 256, "K": 32}, {"M": 2048, "N": 768, "K": 96}, "tf32",
     96, lambda A, B: A @ B.T),
    ("gemm_bf16_sm90a.mlir", "gemm_bf16_sm90a",
     {"M": 1024, "N": 256, "K": 64}, {"M": 1024, "N": 768, "K": 192},
     "bf16", 192, lambda A, B: A @ B.T),
    ("gemm_splitk_sm90a.mlir", "gemm_splitk_sm90a",
     {"M": 256, "N": 256, "S": 2, "KC": 32},
     {"M": 512, "N": 256, "S": 3, "KC": 96}, "f32", 288, splitk_reference),
]
# The tolerance of docs/running.md: base * sqrt(max(1, L / 256)).
BASE_TOLERANCE = {"f32": 1e-5, "tf32": 3e-3, "bf16": 1e-2}


def compile_case(case, arch=None, cache_dir=None):
    path, proc, check, run = case[:4]
    return exogpu.compile(EXAMPLES / path, proc, check=[check, run],
                          arch=arch, cache_dir=cache_dir)


def make_inputs(kernel, sizes, torch):
    signature = kernel.signature
    generator = torch.Generator(device="cuda").manual_seed(1)
    inputs = {}
    for p in signature.data_params:
        if not p.is_input:
            continue
        shape = signature.extents(p, sizes)
        dtype = getattr(torch, exogpu.signature.DTYPES[p.dtype][0])
        inputs[p.name] = (torch.rand(shape, generator=generator,
                                     device="cuda") * 2 - 1).to(dtype)
    return inputs


def assert_close(got, want, precision, length):
    tolerance = BASE_TOLERANCE[precision] * math.sqrt(max(1, length / 256))
    got, want = got.double(), want.double()
    error = ((got - want).norm() / want.norm()).item()
    assert not got.isnan().any()
    assert error <= tolerance, f"Frobenius error {error} > {tolerance}"


@pytest.mark.cuda_gpu
@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_example_against_torch(case):
    import torch
    kernel = compile_case(case)
    run, precision, length, reference = case[3:]
    inputs = make_inputs(kernel, run, torch)
    outputs = kernel(**inputs)
    torch.cuda.synchronize()
    want = reference(*[t.double() for t in inputs.values()])
    assert_close(outputs, want, precision, length)


@pytest.mark.cuda_gpu
def test_tf32_gemm_on_a_side_stream_and_as_an_operator():
    import torch
    kernel = compile_case(CASES[8])  # checked at M=2048, N=768, K=96
    A = torch.randn(2048, 96, device="cuda")
    B = torch.randn(768, 96, device="cuda")
    C = torch.full((2048, 768), float("nan"), device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        assert kernel(A, B, out=C) is C  # on PyTorch's current stream
    stream.synchronize()
    assert_close(C, A.double() @ B.double().T, "tf32", 96)
    op = exogpu.torch_op(kernel)
    compiled = torch.compile(lambda a, b: op(a, b) * 2, fullgraph=True)
    assert_close(compiled(A, B), 2 * A.double() @ B.double().T, "tf32", 96)
    with pytest.raises(ValueError, match="precondition does not hold"):
        kernel(A[:1000], B)


def fill_cache(cache_dir, arch):
    """Builds every case into `cache_dir` for `arch`."""
    for case in CASES:
        kernel = compile_case(case, arch=arch, cache_dir=cache_dir)
        print(f"{case[1]}: {kernel.library_path}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fill-cache", required=True, type=pathlib.Path)
    parser.add_argument("--arch", default="sm_90a")
    options = parser.parse_args()
    fill_cache(options.fill_cache, options.arch)
