#!/usr/bin/env python3
"""Runs the GPU validation bundle on the GPU machine (docs/gpu-validation.md).

Parts (all by default):
  validate  every example at every size of cases.json, a fresh seed per run:
            outputs against the sequential meaning computed where the bundle
            was built (and the device's input fill against the runner's), or
            against an independent float64 reference computed here;
  sanitize  compute-sanitizer memcheck, racecheck, synccheck and initcheck on
            each example at a small size;
  bugs      each seeded synchronization bug, and the correct kernel it
            breaks, run many times on fresh inputs: wrong results, hangs
            (killed by the driver's watchdog, `timeout -s KILL` behind it) or
            silently right.
Writes results.md, results.json and sanitizer.txt to --out and ends with
`gpu-validation: N passed, N failed`. Without a CUDA device (or with
--dry-run) it prints what it would run and exits 0.
"""

import argparse
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

PARTS = ("validate", "sanitize", "bugs")
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
# Seconds a kernel may run before the driver reports a hang.
KERNEL_TIMEOUT_S = 10
SANITIZER_TIMEOUT_S = 240
# Runs of one driver process in the bug study.
BATCH = 10
# A bug that hangs this often is recorded as a hang and not run further.
MAX_HANGS = 3


def log(message):
    print(message, flush=True)


def size_string(sizes):
    return ",".join(f"{k}={v}" for k, v in sizes.items())


def has_gpu():
    return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode \
        == 0 if shutil.which("nvidia-smi") else False


def device_description():
    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                          "--format=csv,noheader"], capture_output=True,
                         text=True)
    nvcc = subprocess.run(["nvcc", "--version"], capture_output=True,
                          text=True) if shutil.which("nvcc") else None
    release = re.search(r"release [\d.]+", nvcc.stdout) if nvcc else None
    return (f"{smi.stdout.strip() or 'unknown GPU'}; nvcc "
            f"{release.group(0) if release else 'not found'}")


class Bundle:
    def __init__(self, root, out, deadline, dry):
        self.root = root
        self.out = out
        self.deadline = deadline
        self.dry = dry
        self.manifest = json.loads((root / "cases.json").read_text())
        self.programs = self.manifest["programs"]
        base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="gpuval.", dir=base))
        self.sanitizer_log = []

    def expected_files(self):
        """The sequential meaning's output files the manifest names."""
        for entry in self.manifest["validate"]:
            outputs = self.programs[entry["program"]]["outputs"]
            for path in entry.get("expected", {}).values():
                for output in outputs:
                    yield self.root / path / f"{output['name']}.npy"

    def missing_expected(self):
        return [str(p.relative_to(self.root)) for p in self.expected_files()
                if not p.is_file()]

    def count_expected(self):
        return sum(1 for _ in self.expected_files())

    def left(self):
        return self.deadline - time.monotonic()

    def run_driver(self, program, sizes, seeds, work, write_inputs=True,
                   timeout_s=KERNEL_TIMEOUT_S, wrapper=()):
        """Runs `program` for the consecutive `seeds`: (the seeds that ran,
        the status of the first that did not: hang, cuda-error, error, or
        None, and the driver's messages)."""
        binary = self.root / self.programs[program]["binary"]
        args = [str(binary), "--sizes", size_string(sizes),
                "--seed", str(seeds[0]), "--runs", str(len(seeds)),
                "--outputs", f"{work}/out/{{seed}}",
                "--timeout-ms", str(timeout_s * 1000)]
        if write_inputs:
            args += ["--write-inputs", f"{work}/in/{{seed}}"]
        args = ["timeout", "-s", "KILL",
                str(timeout_s * len(seeds) + 60)] + list(wrapper) + args
        if self.dry:
            log("  would run: " + " ".join(args))
            return [], None, ""
        result = subprocess.run(args, capture_output=True, text=True)
        ran = [int(m.group(1)) for m in
               re.finditer(r"run \d+ \(seed (\d+)\) ran", result.stdout)]
        code = result.returncode
        status = None
        if len(ran) < len(seeds) or code:
            status = {124: "hang", 137: "hang", -9: "hang", 2: "cuda-error",
                      77: "no-device"}.get(code, f"exit {code}")
        return ran, status, (result.stdout + result.stderr).strip()

    # --- comparisons -----------------------------------------------------
    def compare_run(self, entry, work, seed, check):
        """Compares one run's outputs: a dict per output."""
        import compare
        import numpy as np
        info = self.programs[entry["program"]]
        tol = compare.tolerance(entry["math"], entry["sum_length"])
        precisions = {p["name"]: p["precision"] for p in info["params"]}
        results = {}
        expected = None
        if check == "device":
            inputs = {p.stem: compare.as_float64(compare.load(p),
                                                 precisions[p.stem])
                      for p in sorted((work / "in" / str(seed)).glob("*.npy"))}
            expected = compare.reference(entry["reference"], inputs)
        for output in info["outputs"]:
            name, precision = output["name"], output["precision"]
            got_raw = compare.load(work / "out" / str(seed) / f"{name}.npy")
            got = compare.as_float64(got_raw, precision)
            if check == "meaning":
                want = compare.as_float64(compare.load(
                    self.root / entry["expected"][str(seed)] / f"{name}.npy"),
                    precision)
            else:
                want = np.asarray(expected[name], dtype=np.float64).reshape(
                    got.shape)
            c = compare.Comparison(got, want, tol)
            results[name] = {
                "frobenius": c.frobenius_error,
                "max_element": c.max_element_error,
                "tolerance": c.tolerance,
                "element_tolerance": c.element_tolerance,
                "nan": c.nan_count,
                "unwritten": compare.unwritten(got_raw, precision),
                "passed": c.passed,
                "line": compare.describe(name, c, got, want, "GPU",
                                         "meaning" if check == "meaning"
                                         else "reference")}
        if check == "meaning":
            # The device's fill equals the runner's, bit for bit.
            for name, digest in entry["input_hashes"][str(seed)].items():
                path = work / "in" / str(seed) / f"{name}.npy"
                same = hashlib.sha256(path.read_bytes()).hexdigest() == digest
                results.setdefault("_fill", {})[name] = same
        return results

    # --- parts -------------------------------------------------------------
    def validate(self):
        rows = []
        for entry in self.manifest["validate"]:
            row = {"case": entry["case"], "program": entry["program"],
                   "sizes": entry["sizes"], "check": entry["check"],
                   "runs": [], "status": "skipped: time budget"}
            rows.append(row)
            if self.left() < 30 and not self.dry:
                continue
            log(f"validate {entry['case']} ({entry['check']}), seeds "
                f"{entry['seeds']}")
            work = self.tmp / entry["case"]
            ran, status, messages = self.run_driver(
                entry["program"], entry["sizes"], entry["seeds"], work)
            if self.dry:
                row["status"] = "dry run"
                continue
            passed = True
            for seed in entry["seeds"]:
                if seed not in ran:
                    row["runs"].append({"seed": seed, "status": status})
                    passed = False
                    continue
                result = self.compare_run(entry, work, seed, entry["check"])
                fill = result.pop("_fill", {})
                ok = all(r["passed"] for r in result.values()) and \
                    all(fill.values())
                passed &= ok
                row["runs"].append({"seed": seed, "outputs": result,
                                    "fill_equal": fill,
                                    "status": "ok" if ok else "FAILED"})
                for r in result.values():
                    log(f"  seed {seed}: {r['line']}")
                if fill:
                    log(f"  seed {seed}: device fill equals the runner's: "
                        f"{fill}")
            if status:
                log(f"  driver: {status}: {messages[-2000:]}")
            row["status"] = "passed" if passed else "FAILED"
            shutil.rmtree(work, ignore_errors=True)
        return rows

    def sanitize(self):
        rows = []
        sanitizer = shutil.which("compute-sanitizer") or \
            "/usr/local/cuda/bin/compute-sanitizer"
        for entry in self.manifest["sanitize"]:
            row = {"case": entry["case"], "program": entry["program"],
                   "sizes": entry["sizes"], "tools": {}}
            rows.append(row)
            for tool in TOOLS:
                if self.left() < SANITIZER_TIMEOUT_S / 4 and not self.dry:
                    row["tools"][tool] = "skipped: time budget"
                    continue
                log(f"sanitize {entry['case']} with {tool}")
                work = self.tmp / f"{entry['case']}.{tool}"
                ran, status, messages = self.run_driver(
                    entry["program"], entry["sizes"], entry["seeds"], work,
                    write_inputs=False, timeout_s=SANITIZER_TIMEOUT_S,
                    wrapper=(sanitizer, "--tool", tool, "--print-limit", "10",
                             "--error-exitcode", "99"))
                if self.dry:
                    row["tools"][tool] = "dry run"
                    continue
                summary = re.findall(r"(?:ERROR|RACECHECK) SUMMARY: .*",
                                     messages)
                text = summary[-1] if summary else (status or "no summary")
                clean = bool(summary) and status is None and \
                    re.search(r"SUMMARY: 0 (errors|hazards)", text)
                row["tools"][tool] = ("clean: " if clean else "REPORTED: ") \
                    + text
                log(f"  {row['tools'][tool]}")
                self.sanitizer_log.append(
                    f"==== {entry['case']} {tool} (exit status: "
                    f"{status or 0})\n{messages[-20000:]}\n")
                shutil.rmtree(work, ignore_errors=True)
        return rows

    def bugs(self):
        rows = []
        for entry in self.manifest["bugs"]:
            row = {"case": entry["case"], "bug": entry["bug"],
                   "title": entry["title"], "role": entry["role"],
                   "program": entry["program"], "sizes": entry["sizes"],
                   "how": entry["how"],
                   "cu_edit": self.programs[entry["program"]]["cu_edit"],
                   "runs": 0, "right": 0, "wrong": 0, "hang": 0, "error": 0,
                   "nan_runs": 0, "unwritten_runs": 0,
                   "max_frobenius": 0.0, "max_element": 0.0,
                   "tolerance": None, "status": "not run", "notes": []}
            rows.append(row)
            log(f"bugs {entry['case']}: {len(entry['seeds'])} runs at "
                f"{size_string(entry['sizes'])}")
            pending = list(entry["seeds"])
            while pending and row["hang"] < MAX_HANGS:
                if self.left() < 20 and not self.dry:
                    row["notes"].append("stopped: time budget")
                    break
                batch = pending[:BATCH]
                work = self.tmp / entry["case"]
                ran, status, messages = self.run_driver(
                    entry["program"], entry["sizes"], batch, work)
                if self.dry:
                    break
                for seed in ran:
                    result = self.compare_run(entry, work, seed, "device")
                    row["runs"] += 1
                    ok = all(r["passed"] for r in result.values())
                    row["right" if ok else "wrong"] += 1
                    for r in result.values():
                        row["max_frobenius"] = max(row["max_frobenius"],
                                                   r["frobenius"])
                        row["max_element"] = max(row["max_element"],
                                                 r["max_element"])
                        row["tolerance"] = r["tolerance"]
                        row["nan_runs"] += r["nan"] > 0
                        row["unwritten_runs"] += r["unwritten"] > 0
                        if not ok and len(row["notes"]) < 3:
                            row["notes"].append(f"seed {seed}: {r['line']}")
                pending = pending[len(ran):]
                if status and len(ran) < len(batch):
                    failed = pending.pop(0)
                    row["runs"] += 1
                    kind = "hang" if status == "hang" else "error"
                    row[kind] += 1
                    if len(row["notes"]) < 6:
                        row["notes"].append(f"seed {failed}: {status}: "
                                            f"{messages[-300:]}")
                    log(f"  seed {failed}: {status}")
                shutil.rmtree(work, ignore_errors=True)
            if self.dry:
                row["status"] = "dry run"
                continue
            row["status"] = verdict(row)
            log(f"  {row['status']}")
        return rows


def verdict(row):
    if row["runs"] == 0:
        return "not run"
    parts = []
    if row["wrong"]:
        parts.append(f"wrong results in {row['wrong']}/{row['runs']} runs")
    if row["hang"]:
        parts.append(f"hung in {row['hang']}/{row['runs']} runs")
    if row["error"]:
        parts.append(f"CUDA error in {row['error']}/{row['runs']} runs")
    return "; ".join(parts) if parts else \
        f"silently right ({row['right']}/{row['runs']} runs)"


def fmt(value):
    return "-" if value is None else f"{value:.3g}"


def markdown(manifest, device, results, dry):
    lines = ["# GPU validation results", ""]
    if dry:
        lines += ["**Not run: no CUDA device (dry run).**", ""]
    lines += [f"Device: {device}. Bundle built {manifest['built']} from "
              f"commit {manifest['commit']}.", ""]
    if "validate" in results:
        lines += ["## Examples against their sequential meaning", "",
                  "`meaning`: the runner's outputs carried in the bundle; "
                  "`device`: an independent float64 reference computed on the "
                  "GPU machine. Errors relative, the largest over the runs "
                  "(one fresh seed each).", "",
                  "| kernel | sizes | check | runs | Frobenius error | "
                  "max elementwise | tolerance (Frob. / elem.) | NaN / "
                  "unwritten | fill = runner's | result |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | "
                  "--- |"]
        for row in results["validate"]:
            outs = [o for r in row["runs"] for o in
                    r.get("outputs", {}).values()]
            fill = [v for r in row["runs"] for v in
                    r.get("fill_equal", {}).values()]
            lines.append(
                f"| {row['program']} | {size_string(row['sizes'])} | "
                f"{row['check']} | {len(row['runs'])} | "
                f"{fmt(max((o['frobenius'] for o in outs), default=None))} | "
                f"{fmt(max((o['max_element'] for o in outs), default=None))}"
                f" | {fmt(outs[0]['tolerance']) if outs else '-'} / "
                f"{fmt(outs[0]['element_tolerance']) if outs else '-'} | "
                f"{sum(o['nan'] for o in outs)} / "
                f"{sum(o['unwritten'] for o in outs)} | "
                f"{('yes' if all(fill) else 'NO') if fill else '-'} | "
                f"{row['status']} |")
        lines.append("")
    if "sanitize" in results:
        lines += ["## compute-sanitizer", "",
                  "| kernel | sizes | " + " | ".join(TOOLS) + " |",
                  "| --- | --- |" + " --- |" * len(TOOLS)]
        for row in results["sanitize"]:
            lines.append(f"| {row['program']} | {size_string(row['sizes'])} "
                         "| " + " | ".join(row["tools"].get(t, "-")
                                           for t in TOOLS) + " |")
        lines.append("")
    if "bugs" in results:
        lines += ["## Seeded synchronization bugs", "",
                  "Each bug (rejected by `exogpu-opt --exogpu-sync-check`) "
                  "translated anyway and run on fresh inputs, next to the "
                  "correct kernel (control) at the same size.", "",
                  "| bug | role | kernel | sizes | runs | wrong | hang | "
                  "CUDA error | largest error (Frob. / elem.) | tolerance | "
                  "verdict |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | "
                  "--- | --- |"]
        for row in results["bugs"]:
            lines.append(
                f"| {row['title']} | {row['role']} | {row['program']} | "
                f"{size_string(row['sizes'])} | {row['runs']} | "
                f"{row['wrong']} | {row['hang']} | {row['error']} | "
                f"{fmt(row['max_frobenius'])} / {fmt(row['max_element'])} | "
                f"{fmt(row['tolerance'])} | {row['status']} |")
        lines += ["", "How each bug was made:", ""]
        for row in results["bugs"]:
            if row["role"] == "bug":
                edit = f" ({row['cu_edit']})" if row["cu_edit"] else ""
                lines.append(f"- {row['title']}: {row['how']}{edit}.")
        notes = [(row["case"], n) for row in results["bugs"]
                 for n in row["notes"]]
        if notes:
            lines += ["", "First failures:", ""]
            lines += [f"- {case}: `{note.splitlines()[0]}`"
                      for case, note in notes]
        lines.append("")
    return "\n".join(lines)


def count(results):
    """(passed, failed) over the validation runs and sanitizer tools; the
    bug study has no pass or fail."""
    passed = failed = 0
    for row in results.get("validate", []):
        if row["status"] == "passed":
            passed += 1
        elif row["status"] == "FAILED":
            failed += 1
    for row in results.get("sanitize", []):
        for text in row["tools"].values():
            if text.startswith("clean"):
                passed += 1
            elif text.startswith("REPORTED"):
                failed += 1
    return passed, failed


def spent_before():
    """Seconds run.sh spent before this script (building drivers)."""
    start = os.environ.get("GPUVAL_START")
    return max(0.0, time.time() - float(start)) if start else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # No `choices`: argparse rejects an empty list against them (bpo-9625).
    parser.add_argument("parts", nargs="*",
                        help="validate, sanitize, bugs (default: all)")
    parser.add_argument("--bundle", type=pathlib.Path, default=HERE)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--budget", type=float, default=540,
                        help="seconds for everything (a device call has "
                        "600), counted from $GPUVAL_START (epoch seconds, "
                        "set by run.sh before it builds) when set")
    parser.add_argument("--dry-run", action="store_true")
    opts = parser.parse_args()
    parts = opts.parts or list(PARTS)
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; parts: "
                     + ", ".join(PARTS))
    dry = opts.dry_run
    if not dry and not has_gpu():
        log("gpu-validation: no CUDA device: dry run (nothing is executed)")
        dry = True
    opts.out.mkdir(parents=True, exist_ok=True)
    bundle = Bundle(opts.bundle.resolve(), opts.out,
                    time.monotonic() + opts.budget - spent_before(), dry)
    missing = [p["binary"] for p in bundle.programs.values()
               if not os.access(bundle.root / p["binary"], os.X_OK)]
    if missing:
        log(f"gpu-validation: not built: {', '.join(missing)}")
        if not dry:
            return 1
    absent = bundle.missing_expected()
    if absent:
        log("gpu-validation: the bundle lacks the meaning's outputs: "
            + ", ".join(absent[:5]) + (" ..." if len(absent) > 5 else ""))
        return 1
    log(f"gpu-validation: bundle of {len(bundle.programs)} drivers "
        f"({len(bundle.programs) - len(missing)} built), "
        f"{len(bundle.manifest['validate'])} validation cases "
        f"({bundle.count_expected()} carried outputs), "
        f"{len(bundle.manifest['sanitize'])} sanitizer cases, "
        f"{len(bundle.manifest['bugs'])} bug-study cases")
    device = "none" if dry else device_description()
    log(f"gpu-validation: {', '.join(parts)} on {device}")
    results = {}
    try:
        for part in parts:
            results[part] = getattr(bundle, part)()
    finally:
        shutil.rmtree(bundle.tmp, ignore_errors=True)
        (opts.out / "results.json").write_text(
            json.dumps({"device": device, "dry_run": dry,
                        "manifest": {k: bundle.manifest[k]
                                     for k in ("built", "commit")},
                        "results": results}, indent=1))
        (opts.out / "results.md").write_text(
            markdown(bundle.manifest, device, results, dry))
        if bundle.sanitizer_log:
            (opts.out / "sanitizer.txt").write_text(
                "".join(bundle.sanitizer_log))
    if dry:
        log("gpu-validation: dry run done: 0 passed, 0 failed")
        return 0
    log((opts.out / "results.md").read_text())
    passed, failed = count(results)
    log(f"gpu-validation: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
