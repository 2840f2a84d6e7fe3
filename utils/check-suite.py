#!/usr/bin/env python3
"""Suite-wide checks of every MLIR input under test/ and examples/.

1. Round trip: every input meant to be accepted prints, re-parses and
   re-prints to the same text, in the custom form and through the generic
   form (`--mlir-print-op-generic`). Each input (or split) is read from
   stdin with `-I` its folder, so that the tools resolve its
   `exogpu.import`s as they do for the file.
2. Robustness: every input (or split) meant to be rejected makes the tool exit
   with status 1 and an error diagnostic, never a signal.
3. With --translate TRANSLATE: exogpu-translate --to-cuda,
   --to-cuda-header and --to-signature-json on every input (or split) either
   succeed or exit with status 1 and an error diagnostic, never a signal or
   a hang.

Usage: check-suite.py TOOL ROOT [--translate TRANSLATE]
"""

import pathlib
import re
import subprocess
import sys

SPLIT = re.compile(r"^// -----\s*$", re.M)
# Pass flags of RUN lines: a rejected input may be rejected by a pass
# (--exogpu-*, --exoam-*, --convert-exogpu-to-exoam) or by a scheduling
# script (--transform-interpreter).
PASS_FLAG = re.compile(r"(?<!\S)(--?(?:convert-)?exo(?:gpu|am)-[\w-]+(?:=\S+)?|"
                       r"--transform-interpreter|"
                       r"--mlir-very-unsafe-disable-verifier-on-parsing)")


def run(tool, args, text, folder):
    """Runs `tool` on `text` as if it were a file in `folder`."""
    return subprocess.run([tool, f"-I{folder}", *args, "-"], input=text,
                          capture_output=True, text=True, timeout=120)


def run_lines(text):
    return [m.group(1) for m in re.finditer(r"^//\s*RUN:(.*)$", text, re.M)]


def chunks_of(text, runs):
    if any("-split-input-file" in r for r in runs):
        return SPLIT.split(text)
    return [text]


def check_rejected(tool, path, chunk, failures, flags):
    result = run(tool, flags, chunk, path.parent)
    if result.returncode != 1 or "error" not in result.stderr:
        failures.append(f"{path}: expected a diagnostic and exit status 1, "
                        f"got {result.returncode}:\n{result.stderr[-2000:]}")


def check_round_trip(tool, path, chunk, failures):
    first = run(tool, [], chunk, path.parent)
    if first.returncode != 0:
        failures.append(f"{path}: does not parse:\n{first.stderr[-2000:]}")
        return
    second = run(tool, [], first.stdout, path.parent)
    if second.returncode != 0 or second.stdout != first.stdout:
        failures.append(f"{path}: printed form does not re-parse to the same "
                        f"text:\n{second.stderr[-2000:]}")
        return
    generic = run(tool, ["--mlir-print-op-generic"], chunk, path.parent)
    via_generic = run(tool, [], generic.stdout, path.parent)
    if via_generic.returncode != 0 or via_generic.stdout != first.stdout:
        failures.append(f"{path}: generic form does not re-parse to the same "
                        f"text:\n{via_generic.stderr[-2000:]}")


def check_translation(translate, path, chunk, failures):
    """Returns whether every translation of `chunk` succeeded."""
    translated = True
    for flag in ("--to-cuda", "--to-cuda-header", "--to-signature-json"):
        try:
            result = run(translate, [flag, "-o", "/dev/null"], chunk,
                         path.parent)
        except subprocess.TimeoutExpired:
            failures.append(f"{path}: exogpu-translate {flag} hangs")
            return False
        ok = result.returncode == 0 or (result.returncode == 1 and
                                        "error" in result.stderr)
        if not ok:
            failures.append(f"{path}: exogpu-translate {flag} exits with "
                            f"{result.returncode} (a crash?):\n"
                            f"{result.stderr[-2000:]}")
        translated &= result.returncode == 0
    return translated


def main():
    tool, root = sys.argv[1], pathlib.Path(sys.argv[2])
    translate = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--translate" else None
    files = sorted([*root.glob("test/**/*.mlir"),
                    *root.glob("examples/**/*.mlir"),
                    *root.glob("stdlib/*.mlir")])
    failures = []
    accepted = rejected = translated = 0
    for path in files:
        text = path.read_text()
        runs = run_lines(text)
        for chunk in chunks_of(text, runs):
            if translate:
                translated += check_translation(translate, path, chunk,
                                                failures)
                continue
            if "expected-error" in chunk:
                # Inputs that only exogpu-translate rejects (no exogpu-opt
                # RUN line verifies diagnostics or expects a failure) are
                # checked by the --translate mode.
                if not any("exogpu-opt" in r and
                           ("verify-diagnostics" in r or
                            r.strip().startswith("not "))
                           for r in runs):
                    continue
                rejected += 1
                flags = [f.replace('"', "").replace("'", "")
                         for r in runs for f in PASS_FLAG.findall(r)]
                check_rejected(tool, path, chunk, failures, flags)
            elif not any(r.strip().startswith("not ") for r in runs):
                accepted += 1
                check_round_trip(tool, path, chunk, failures)
    for failure in failures:
        print("FAIL:", failure)
    if translate:
        print(f"translated {translated} inputs, {len(failures)} failure(s)")
        return 1 if failures or translated == 0 else 0
    print(f"round-tripped {accepted} inputs, checked {rejected} rejected "
          f"inputs, {len(failures)} failure(s)")
    return 1 if failures or accepted == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
