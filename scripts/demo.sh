#!/usr/bin/env bash
# README command 1: installs dependencies, builds everything and runs the main
# demo: the GEMV kernel of examples/gemv.mlir is parsed, verified and printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build=${BUILD_DIR:-build}
echo "== exogpu-opt examples/gemv.mlir (parse, verify every static rule, print)"
"$build/bin/exogpu-opt" examples/gemv.mlir
