#!/usr/bin/env bash
# Runs the GPU validation bundle that utils/gpu-bundle.py built
# (docs/gpu-validation.md): on a machine with a CUDA GPU, nvcc and Python
# with numpy (PyTorch used when present); MLIR is not needed.
#
#   bash run.sh [validate] [sanitize] [bugs] [--budget SECONDS] [--dry-run]
#               [--rebuild]
#
# Drivers that did not travel prebuilt, or do not start here, are compiled
# first (all of them with --rebuild) by this machine's nvcc, with the static
# CUDA runtime. Results go to $OUT (the device tool's folder; default:
# results/ beside this script): results.md, results.json, sanitizer.txt,
# log.txt. Without a CUDA device it prints what it would run and exits 0.
set -uo pipefail
# device.py's --budget counts from here, the driver builds included.
export GPUVAL_START=${GPUVAL_START:-$(date +%s)}
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/results}
mkdir -p "$out"
rebuild=0
args=()
for arg in "$@"; do
  case $arg in
    --rebuild) rebuild=1 ;;
    *) args+=("$arg") ;;
  esac
done
# The prebuilt drivers link the shared CUDA runtime: the one beside nvcc.
if command -v nvcc >/dev/null 2>&1; then
  cuda_root=$(dirname "$(dirname "$(command -v nvcc)")")
  export LD_LIBRARY_PATH="$cuda_root/lib64:$cuda_root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if nvidia-smi -L >/dev/null 2>&1; then
  targets=()
  for src in "$here"/src/*/; do
    name=$(basename "$src")
    # A prebuilt driver that does not start here (it answers a bad option
    # with its usage before touching CUDA; one that finds no shared CUDA
    # runtime does not) is rebuilt too, with the static runtime.
    answer=$("$here/bin/$name" --usage 2>&1)
    if [ "$rebuild" = 1 ] || [[ $answer != *usage:* ]]; then
      targets+=("$name")
    fi
  done
  if ((${#targets[@]})); then
    echo "gpu-validation: building ${#targets[@]} driver(s) with nvcc"
    CUDART=static bash "$here/build.sh" "${targets[@]}" >"$out/build.log" 2>&1 ||
      { tail -50 "$out/build.log"; exit 1; }
  fi
fi
PYTHONUNBUFFERED=1 python3 "$here/device.py" --bundle "$here" --out "$out" \
  "${args[@]}" 2>&1 | tee "$out/log.txt"
exit "${PIPESTATUS[0]}"
