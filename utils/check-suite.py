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

The inputs of one folder are checked together, as one split input file
(`--split-input-file`), so that a few processes check hundreds of inputs
(a process takes about 12 ms to start, most of the time these checks
took): a folder whose inputs all pass passes; in one where some fail,
each file, then each input of a failing file, is checked alone, so that
every failure is reported for its input. An input with a line `// -----`
of its own (a file not split by its RUN lines) is always checked alone.

Usage: check-suite.py TOOL ROOT [--translate TRANSLATE]
"""

import pathlib
import re
import subprocess
import sys

SPLIT = re.compile(r"^// -----\s*$", re.M)
MARKER = "// -----"
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


def run_split(tool, args, chunks, folder):
    """Runs `tool` once on `chunks` as one split input file in `folder`;
    None when it fails, crashes or hangs."""
    try:
        result = run(tool, ["--split-input-file", *args],
                     f"\n{MARKER}\n".join(chunks), folder)
    except subprocess.TimeoutExpired:
        return None
    return result if result.returncode == 0 else None


def round_trips_together(tool, chunks, folder):
    """Whether every chunk round-trips (check_round_trip), checked in one
    split input per step."""
    split = [f"--output-split-marker={MARKER}"]
    first = run_split(tool, split, chunks, folder)
    if first is None or first.stdout.count(f"\n{MARKER}\n") != len(chunks) - 1:
        return False
    second = run_split(tool, split, [first.stdout], folder)
    generic = run_split(tool, split + ["--mlir-print-op-generic"], chunks,
                        folder)
    if second is None or generic is None:
        return False
    via_generic = run_split(tool, split, [generic.stdout], folder)
    return (second.stdout == first.stdout and via_generic is not None and
            via_generic.stdout == first.stdout)


def translate_together(translate, chunks, folder):
    """Whether every chunk translates with each flag (check_translation),
    checked in one split input per flag."""
    return all(run_split(translate, [flag, "-o", "/dev/null"], chunks, folder)
               is not None
               for flag in ("--to-cuda", "--to-cuda-header",
                            "--to-signature-json"))


def check_in_groups(items, together, alone):
    """Checks `items` ((path, chunk) pairs) folder by folder with
    `together(chunks, folder)`, then file by file where a folder fails,
    then with `alone(path, chunk)` where a file fails; a chunk with a
    marker line of its own is checked alone."""
    by_folder = {}
    for path, chunk in items:
        if SPLIT.search(chunk):
            alone(path, chunk)
        else:
            by_folder.setdefault(path.parent, []).append((path, chunk))
    for folder, entries in by_folder.items():
        if together([chunk for _, chunk in entries], folder):
            continue
        by_file = {}
        for path, chunk in entries:
            by_file.setdefault(path, []).append(chunk)
        for path, chunks in by_file.items():
            if len(by_file) == 1 or not together(chunks, folder):
                for chunk in chunks:
                    alone(path, chunk)


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
    rejected = 0
    to_translate, to_round_trip = [], []
    for path in files:
        text = path.read_text()
        runs = run_lines(text)
        for chunk in chunks_of(text, runs):
            if translate:
                to_translate.append((path, chunk))
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
                to_round_trip.append((path, chunk))
    translated = 0

    def translate_alone(path, chunk):
        nonlocal translated
        translated += check_translation(translate, path, chunk, failures)

    def translate_group(chunks, folder):
        nonlocal translated
        if not translate_together(translate, chunks, folder):
            return False
        translated += len(chunks)
        return True

    if translate:
        check_in_groups(to_translate, translate_group, translate_alone)
    check_in_groups(to_round_trip,
                    lambda chunks, folder: round_trips_together(tool, chunks,
                                                                folder),
                    lambda path, chunk: check_round_trip(tool, path, chunk,
                                                         failures))
    accepted = len(to_round_trip)
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
