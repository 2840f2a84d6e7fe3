# -*- Python -*-
# lit configuration of the ExoGPU test suite.

import os
import shutil

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
config.substitutions.append(("%python", shutil.which("python3") or "python3"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not` at the start of a RUN line is found on PATH, not substituted.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.exogpu_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["exogpu-opt"], tool_dirs)

# nvcc compiles what exogpu-translate emits; a GPU runs it.
if shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")
if shutil.which("nvidia-smi") and os.system("nvidia-smi -L >/dev/null 2>&1") == 0:
    config.available_features.add("cuda-gpu")
