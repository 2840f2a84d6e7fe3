#!/usr/bin/env bash
# Regenerates the op, attribute, type and pass reference in docs/reference
# from the TableGen files of both dialects (test/docs-up-to-date.test fails
# when it is stale).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
ninja -C "$build" mlir-doc
mkdir -p docs/reference/ExoGPU docs/reference/ExoAM
cp "$build"/docs/ExoGPU/*.md docs/reference/ExoGPU/
cp "$build"/docs/ExoAM/*.md docs/reference/ExoAM/
