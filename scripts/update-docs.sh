#!/usr/bin/env bash
# Regenerates the op, attribute and type reference in docs/reference from the
# TableGen files (test/docs-up-to-date.test fails when it is stale).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
ninja -C "$build" mlir-doc
cp "$build"/docs/ExoGPU/*.md docs/reference/
