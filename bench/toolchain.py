"""What the benchmark scripts share (bench/kernels.py, bench/attention.py):
their messages, finding a tool, translating examples, and the stamp that
tells a build is up to date."""

import hashlib
import os
import shutil
import subprocess
import sys


class Script:
    """Messages of one benchmark script, prefixed with its name."""

    def __init__(self, name):
        self.name = name

    def log(self, message):
        print(f"{self.name}: {message}", flush=True)

    def fail(self, message):
        print(f"{self.name}: error: {message}", file=sys.stderr, flush=True)
        sys.exit(1)

    def find_tool(self, explicit, name, fallbacks):
        """The tool given on the command line (an error if it is not
        there), else `name` on PATH or the first of `fallbacks` that exists,
        else None."""
        if explicit:
            path = shutil.which(explicit) or explicit
            if not os.path.exists(path):
                self.fail(f"{name} not found at {explicit}")
            return path
        for candidate in [shutil.which(name), *fallbacks]:
            if candidate and os.path.exists(candidate):
                return candidate
        return None

    def translate(self, translator, examples, src):
        """The CUDA and header of each of `examples` (.mlir paths) into
        `src` as NAME.cu and NAME.h (an error with the translator's
        diagnostics if one fails)."""
        src.mkdir(parents=True, exist_ok=True)
        for example in examples:
            for flag, suffix in (("--to-cuda", ".cu"),
                                 ("--to-cuda-header", ".h")):
                result = subprocess.run(
                    [translator, flag, str(example), "-o",
                     str(src / (example.stem + suffix))],
                    capture_output=True, text=True)
                if result.returncode != 0:
                    self.fail(f"exogpu-translate {flag} {example.name}:\n"
                              f"{result.stderr}")

    def stamp(self, nvcc, flags, inputs, missing_hint):
        """A hash of what a build reads: the compiler's version, its flags
        and the `inputs` (an error naming `missing_hint` if one is
        missing)."""
        digest = hashlib.sha256()
        version = subprocess.run([nvcc, "--version"], capture_output=True,
                                 text=True).stdout
        digest.update(version.encode())
        digest.update(" ".join(flags).encode())
        for path in inputs:
            if not path.exists():
                self.fail(f"{path} is missing: {missing_hint}")
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
        return digest.hexdigest()

    def up_to_date(self, target, stamp_file, stamp):
        """Whether `target` was built from what `stamp` hashes (it says so
        if it was)."""
        if target.exists() and stamp_file.exists() and \
                stamp_file.read_text() == stamp:
            self.log(f"{target} is up to date")
            return True
        return False
