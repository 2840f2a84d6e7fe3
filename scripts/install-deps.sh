#!/usr/bin/env bash
# Installs what ExoGPU needs from Debian: MLIR/LLVM 22, lit/FileCheck, Ninja;
# numpy, pytest and wheel from PyPI.
# The CUDA toolkit (nvcc) is used when present and is not installed here;
# cuobjdump comes from PyPI when the toolkit lacks it.
set -euo pipefail
packages=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools ninja-build
          cmake g++ python3)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "${missing[@]}"
fi
# numpy: the comparator of the GPU validation bundle (utils/gpuval), whose
# tests hold it against exogpu-run's comparison.
if ! python3 -c "import numpy" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check numpy==2.4.6 ||
    echo "warning: numpy unavailable; its tests will be skipped" >&2
fi
# pytest runs the Python package's tests (test/Python); wheel lets them
# install the package (pip install -e python/) without fetching setuptools.
# PyTorch is never installed here: its wheel is gigabytes.
for requirement in pytest==9.0.3 wheel==0.45.1; do
  module=${requirement%%==*}
  if ! python3 -c "import $module" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check "$requirement" ||
      echo "warning: $module unavailable; the Python tests will be skipped" >&2
  fi
done
# The CUTLASS headers of the GEMM benchmark's second anchor (bench/kernels.py,
# bench/cutlass): pinned; headers and Python only, its dependencies unused.
if ! python3 -c "import importlib.metadata as m, sys; sys.exit(m.version('nvidia-cutlass') != '4.2.0.0')" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check --no-deps \
    nvidia-cutlass==4.2.0.0 ||
    echo "warning: nvidia-cutlass unavailable; the CUTLASS anchor will not be built" >&2
fi
# cuobjdump (SASS inspection in the tests) is not in the Debian packages of
# the CUDA toolkit here; PyPI has it.
if ! command -v cuobjdump >/dev/null &&
    ! python3 -c "import nvidia.cu13" 2>/dev/null; then
  python3 -m pip install --quiet --disable-pip-version-check \
    nvidia-cuda-cuobjdump==13.2.51 nvidia-cuda-nvdisasm==13.2.51 ||
    echo "warning: cuobjdump unavailable; SASS checks will be skipped" >&2
fi
