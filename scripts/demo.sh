#!/usr/bin/env bash
# README command 1: installs dependencies, builds everything and runs the main
# demo: the GEMV kernel written in Python (examples/gemv.py) is checked and
# printed in the exogpu dialect; the Hopper GEMM of examples/sm90a_gemm.mlir
# passes the collective analysis, the distributed memory deduction and the
# synchronization check, the same kernel without its wgmma.fence is rejected
# with the hazard it has, the checked kernel is translated to CUDA C++ and
# compiled with nvcc for sm_90a, and its sequential meaning equals a naive
# triple loop (exogpu-run); its Python twin (examples/sm90a_gemm.py) passes
# the same check and, without its fence, is rejected at the Python line of
# the wgmma.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build=${BUILD_DIR:-build}
opt="$build/bin/exogpu-opt"
exogpu_py() { PYTHONPATH=python EXOGPU_BUILD_DIR="$build" python3 -m exogpu "$@"; }
echo "== examples/gemv.py (the GEMV in Python): checked at M=16384, N=4096, printed as exogpu"
exogpu_py check examples/gemv.py gemv --sizes M=16384,N=4096
exogpu_py mlir examples/gemv.py gemv | "$opt"
echo "== Hopper GEMM (examples/sm90a_gemm.mlir): analyses and sync check at M=N=K=4096"
"$opt" --exogpu-collective-analysis --exogpu-distributed-memory \
  --exogpu-sync-check="M=4096,N=4096,K=4096" examples/sm90a_gemm.mlir -o /dev/null
echo "passed"
echo "== the same kernel without its wgmma.fence (expected to be rejected)"
if grep -v 'exogpu.fence(wgmma_fence_1, wgmma_fence_2)' examples/sm90a_gemm.mlir |
    "$opt" --exogpu-sync-check="M=256,N=256,K=64" -o /dev/null; then
  echo "error: the check accepted a kernel without its wgmma.fence" >&2
  exit 1
fi
echo "== its Python twin (examples/sm90a_gemm.py): the same check at M=N=K=4096"
exogpu_py check examples/sm90a_gemm.py gemm_sm90a --sizes M=4096,N=4096,K=4096
echo "passed"
echo "== the Python twin without its Fence(wgmma_fence_1, wgmma_fence_2) (expected to be rejected at its line)"
grep -v 'Fence(wgmma_fence_1, wgmma_fence_2)' examples/sm90a_gemm.py \
  > "$build/gemm_sm90a_without_fence.py"
if exogpu_py check "$build/gemm_sm90a_without_fence.py" gemm_sm90a \
    --sizes M=256,N=256,K=64 2> "$build/gemm_sm90a_without_fence.txt"; then
  echo "error: the check accepted a Python kernel without its wgmma.fence" >&2
  exit 1
fi
head -3 "$build/gemm_sm90a_without_fence.txt"
echo "== Hopper GEMM translated to CUDA (build/demo/gemm_sm90a.cu, .h)"
translate="$build/bin/exogpu-translate"
mkdir -p "$build/demo"
"$translate" --to-cuda examples/sm90a_gemm.mlir -o "$build/demo/gemm_sm90a.cu"
"$translate" --to-cuda-header examples/sm90a_gemm.mlir \
  -o "$build/demo/gemm_sm90a.h"
grep -n "cudaError_t gemm_sm90a" "$build/demo/gemm_sm90a.h"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
  echo "== nvcc -gencode arch=compute_90a,code=sm_90a (ptxas: registers, spills)"
  "$nvcc" -std=c++17 -O3 -Iruntime/include \
    -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    -c "$build/demo/gemm_sm90a.cu" -o "$build/demo/gemm_sm90a.o" 2>&1 |
    grep -E "registers|spill"
  echo "compiled: $build/demo/gemm_sm90a.o"
else
  echo "nvcc not found: skipped compiling $build/demo/gemm_sm90a.cu"
fi
echo "== the Hopper GEMM's sequential meaning equals a naive triple loop at M=N=K=1024 (exogpu-run)"
"$build/bin/exogpu-run" examples/sm90a_gemm.mlir examples/reference/gemm.mlir \
  --proc=gemm_sm90a --compare=gemm_abt_ref --sizes=M=1024,N=1024,K=1024 --time
