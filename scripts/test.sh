#!/usr/bin/env bash
# README command 2: installs dependencies, builds everything and runs the
# whole lit test suite. Ends with a line "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
build=${BUILD_DIR:-build}
ninja -C "$build" exogpu-test-depends
status=0
/usr/lib/llvm-22/bin/lit -v "$build/test" \
  --xunit-xml-output "$build/test-results.xml" || status=$?
python3 utils/summarize-lit.py "$build/test-results.xml"
exit $status
