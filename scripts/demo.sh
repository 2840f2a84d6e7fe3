#!/usr/bin/env bash
# README command 1: installs dependencies, builds everything and runs the main
# demo: the GEMV kernel of examples/gemv.mlir is parsed, verified and printed;
# the Hopper GEMM of examples/sm90a_gemm.mlir passes the collective analysis,
# the distributed memory deduction and the synchronization check, and the
# same kernel without its wgmma.fence is rejected with the hazard it has.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build=${BUILD_DIR:-build}
opt="$build/bin/exogpu-opt"
echo "== exogpu-opt examples/gemv.mlir (parse, verify every static rule, print)"
"$opt" examples/gemv.mlir
gemm=$(cat stdlib/sm90a.mlir examples/sm90a_gemm.mlir)
echo "== Hopper GEMM (examples/sm90a_gemm.mlir): analyses and sync check at M=N=K=4096"
echo "$gemm" | "$opt" --exogpu-collective-analysis --exogpu-distributed-memory \
  --exogpu-sync-check="M=4096,N=4096,K=4096" -o /dev/null
echo "passed"
echo "== the same kernel without its wgmma.fence (expected to be rejected)"
if echo "$gemm" | grep -v 'exogpu.fence(wgmma_fence_1, wgmma_fence_2)' |
    "$opt" --exogpu-sync-check="M=256,N=256,K=64" -o /dev/null; then
  echo "error: the check accepted a kernel without its wgmma.fence" >&2
  exit 1
fi
