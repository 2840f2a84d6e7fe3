# -*- Python -*-
# lit configuration of the ExoGPU test suite.

import os
import platform
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "ExoGPU"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.exogpu_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%exogpu_src_root", config.exogpu_src_root))
config.substitutions.append(("%exogpu_obj_root", config.exogpu_obj_root))
# The GPU bundle that several tests prepare is built once per tools and
# sources (utils/gpu-bundle.py --cache).
config.substitutions.append(
    ("%gpu_bundle_cache",
     os.path.join(config.exogpu_obj_root, "test", "gpu-bundle-cache")))
config.substitutions.append(("%python", shutil.which("python3") or "python3"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not` at the start of a RUN line is found on PATH, not substituted.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.exogpu_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["exogpu-lsp-server", "exogpu-opt", "exogpu-run", "exogpu-translate"],
    tool_dirs)

# nvcc compiles what exogpu-translate emits (ptxas checks the inline PTX); a
# GPU runs it. %nvcc compiles with the runtime header on the include path.
nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
if os.path.exists(nvcc):
    config.available_features.add("nvcc")
    config.nvcc = nvcc
    runtime = os.path.join(config.exogpu_src_root, "runtime", "include")
    # Host code is not contracted either (docs/cuda-translation.md
    # "Arithmetic"; kernels round products with __fmul_rn themselves).
    config.substitutions.append(
        ("%nvcc", nvcc + " -std=c++17 -Xcompiler -ffp-contract=off -I" +
         runtime))
    config.substitutions.append(("%sm90a", "-gencode arch=compute_90a,code=sm_90a"))
# cuobjdump shows the SASS (from the CUDA toolkit, or PyPI's
# nvidia-cuda-cuobjdump, which scripts/install-deps.sh installs).
cuobjdump = shutil.which("cuobjdump")
python = shutil.which("python3")
if not cuobjdump and python:
    found = subprocess.run(
        [python, "-c", "import nvidia.cu13; print(list(nvidia.cu13.__path__)[0])"],
        capture_output=True, text=True)
    candidate = os.path.join(found.stdout.strip(), "bin", "cuobjdump")
    if found.returncode == 0 and os.path.exists(candidate):
        cuobjdump = candidate
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))
    llvm_config.with_environment("PATH", os.path.dirname(cuobjdump), append_path=True)
# numpy runs the GPU validation bundle's comparator (utils/gpuval/compare.py).
if python and subprocess.run([python, "-c", "import numpy"],
                             capture_output=True).returncode == 0:
    config.available_features.add("numpy")
# The pinned CUTLASS headers (bench/kernels.py's second anchor), for a
# suite asked to build a CUTLASS kernel (EXOGPU_TEST_CUTLASS=1, or lit
# --param cutlass=1): nvcc takes minutes of the 2-core machine on CUTLASS's
# templates, and bench/device-all.sh --prepare builds all eight CUTLASS
# kernels before every device run anyway (docs/testing.md).
want_cutlass = (lit_config.params.get("cutlass", "0") != "0" or
                os.environ.get("EXOGPU_TEST_CUTLASS", "0") != "0")
if want_cutlass and python and subprocess.run(
        [python, "-c", "import importlib.metadata as m, sys; "
         "sys.exit(m.version('nvidia-cutlass') != '4.2.0.0')"],
        capture_output=True).returncode == 0:
    config.available_features.add("cutlass")
# utils/check-runtime-deps.py asks dpkg which package owns each library.
if shutil.which("dpkg") and shutil.which("apt-cache") and shutil.which("ldd"):
    config.available_features.add("dpkg")
# exogpu-run --jit-cpu=x86-64 compiles for the baseline of x86-64 hosts.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64-host")
if shutil.which("nvidia-smi") and os.system("nvidia-smi -L >/dev/null 2>&1") == 0:
    config.available_features.add("cuda-gpu")
