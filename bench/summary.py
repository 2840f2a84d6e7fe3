#!/usr/bin/env python3
"""The summary of a device run (bench/device-all.sh, issue 32): every GEMM
and attention row with its anchors and ratios, pass or fail against
bench/targets.json, the GPU bundle's verdicts, the stages' times, and the
Nsight Compute profiles of the rows below target.

Reads the raw folder device-all.sh fills (RAW/gemm/results.csv from
bench/kernels.py, RAW/attention/attention.csv from bench/attention.py,
RAW/bundle/results.json from the GPU bundle, RAW/stages.tsv,
RAW/manifest.json, RAW/device.txt, RAW/date.txt, RAW/ncu/*.txt) and writes
OUT/summary.md and OUT/summary.json (bench/publish.py turns the latter into
the docs). With --plan it prints instead, for each row below target (worst
first, each kernel and shape once), a tab-separated line: a label, the
ExoGPU kernel function to profile, and the command that launches it.

Exit status (without --plan): 1 if a result is wrong (a kernel against its
reference, a validation case, a sanitizer report on a correct kernel, a
bug study's control run), else 2 if a stage did not finish or a part is
missing, else 0.

Usage: bench/summary.py --raw RAW [--dir .device] [--targets FILE]
                        (--out OUT | --plan)
"""

import argparse
import csv
import json
import math
import pathlib
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import dispatch  # noqa: E402

DEVICE_COMMAND = ('run(command="bash bench/device-all.sh", '
                  'carry=[".device"], timeout_s=540)')


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


# ------------------------------------------------------------------ GEMM --

def gemm_shapes(path):
    """{(kind, label): shape} from gemm_bench's CSV: per shape the best
    ExoGPU variant, the entry point, each variant, cuBLAS and the best
    CUTLASS kernel (rows that failed their check are kept apart)."""
    shapes = {}
    if not path.exists():
        return shapes
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            label = "x".join(row[d] for d in ("M", "N", "K")
                             if row["kind"] != "gemv" or d != "K")
            shape = shapes.setdefault((row["kind"], label), {
                "kind": row["kind"], "shape": label, "unit": row["unit"],
                "M": int(row["M"]), "N": int(row["N"]), "K": int(row["K"]),
                "variants": {}, "failed": [], "cutlass_all": {}})
            rate = number(row["rate_median"])
            if row["failed"] == "1":
                shape["failed"].append(row["variant"])
                continue
            anchor = row.get("anchor", "")
            if anchor == "cublas":
                shape["cublas"] = rate
            elif anchor == "cutlass":
                shape["cutlass_all"][row["variant"]] = rate
            elif anchor == "copy":
                shape["copy"] = rate
            elif row["entry"] == "1":
                shape["entry"] = rate
            else:
                shape["variants"][row["variant"]] = rate
                if row["best"] == "1":
                    shape["specialized"] = rate
                    shape["specialized_variant"] = row["variant"]
    for shape in shapes.values():
        timed = {k: v for k, v in shape["cutlass_all"].items() if v}
        if timed:
            name = max(timed, key=timed.get)
            shape["cutlass"], shape["cutlass_kernel"] = timed[name], name
        anchors = [v for v in (shape.get("cublas"), shape.get("cutlass"))
                   if v]
        shape["best_anchor"] = max(anchors) if anchors else None
    return shapes


def anchor_of(shape, which):
    return shape["best_anchor"] if which == "best" else shape.get(which)


def figure_of(shape, which):
    if which in ("specialized", "entry"):
        return shape.get(which)
    return shape["variants"].get(which)


def kernel_of(shape, figure, table):
    """The ExoGPU proc whose kernel a figure of a shape launches."""
    if figure == "specialized":
        return shape.get("specialized_variant", "").split(" ")[0] or None
    if figure == "entry":
        kind = "bf16" if shape["kind"] == "bf16" else "f32"
        entry = next((e for e in table["entries"] if e["element"] == kind),
                     None)
        sizes = {d: shape[d] for d in ("M", "N", "K")}
        return dispatch.dispatched(entry, sizes) if entry else None
    return figure


def gemm_checks(shapes, targets, table):
    """One check per (target, shape): value, anchor, ratio, verdict."""
    checks = []
    for target in targets["gemm"]:
        for label in target["shapes"]:
            shape = shapes.get((target["kind"], label))
            check = {"kind": target["kind"], "shape": label,
                     "figure": target["figure"], "anchor": target["anchor"],
                     "min": target["min"], "aim": target.get("aim")}
            checks.append(check)
            if not shape:
                check["verdict"] = "not measured"
                continue
            value = figure_of(shape, target["figure"])
            anchor = anchor_of(shape, target["anchor"])
            check.update(value=value, anchor_value=anchor,
                         kernel=kernel_of(shape, target["figure"], table))
            if value is None or anchor is None:
                check["verdict"] = "not measured"
                continue
            check["ratio"] = value / anchor
            check["verdict"] = "pass" if check["ratio"] >= target["min"] \
                else "FAIL"
    return checks


# ------------------------------------------------------------- attention --

def attention_rows(path, targets):
    """The attention CSV's rows with their ratios and verdicts (rows at a
    target's dimension, length and causality are held against it)."""
    rows = []
    if not path.exists():
        return rows
    goal = targets["attention"]
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            # The ExoGPU kernels of the row (bench/attention.py VARIANTS):
            # every one must be right; the faster one is held against the
            # targets.
            variants = [v for v in ("exogpu", "pingpong")
                        if row.get(f"{v}_ok")]
            errors = [number(row.get(f"{v}_o_error")) for v in variants]
            out = {"shape": row["shape"], "S": int(row["S"]),
                   "D": int(row["D"]), "causal": row["causal"] == "True",
                   "ok": all(row[f"{v}_ok"] == "True" for v in variants),
                   "note": "; ".join(row[f"{v}_note"] for v in variants
                                     if row.get(f"{v}_note")),
                   "o_error": None if None in errors or not errors
                   else max(errors)}
            for key in ("flash", "efficient", "cudnn"):
                out[key] = number(row.get(f"{key}_tflops"))
            out["exogpu"] = max(filter(None, (number(row.get(f"{v}_tflops"))
                                              for v in variants)),
                                default=None)
            for key in ("flash", "cudnn"):
                if out["exogpu"] and out[key]:
                    out[f"x_{key}"] = out["exogpu"] / out[key]
            targeted = (out["D"] in goal["dims"] and
                        out["S"] in goal["seqlens"] and
                        out["causal"] in goal["causal"])
            if not out["ok"]:
                out["verdict"] = "WRONG"
            elif not targeted:
                out["verdict"] = "-"
            elif "x_flash" not in out:
                out["verdict"] = "not measured"
            else:
                met = (out["x_flash"] >= goal["flash"] and
                       out.get("x_cudnn", math.inf) >= goal["cudnn"])
                out["verdict"] = "pass" if met else "FAIL"
            rows.append(out)
    return rows


# ---------------------------------------------------------------- bundle --

def bundle_results(path):
    """Counts and the bug study's outcomes from the bundle's results.json;
    `wrong` lists what is wrong (a failed case, a sanitizer report, a
    control run that was not right)."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    results = data.get("results", {})
    summary = {"dry_run": data.get("dry_run", False), "validate": {},
               "sanitize": {}, "bugs": [], "wrong": []}
    for row in results.get("validate", []):
        summary["validate"][row["status"]] = \
            summary["validate"].get(row["status"], 0) + 1
        if row["status"] == "FAILED":
            summary["wrong"].append(f"validation {row['case']}")
    for row in results.get("sanitize", []):
        for tool, text in row["tools"].items():
            verdict = text.split(":")[0]
            summary["sanitize"][verdict] = \
                summary["sanitize"].get(verdict, 0) + 1
            if verdict == "REPORTED":
                summary["wrong"].append(f"{tool} on {row['case']}: {text}")
    for row in results.get("bugs", []):
        summary["bugs"].append({k: row.get(k) for k in (
            "title", "role", "program", "sizes", "runs", "wrong", "hang",
            "error", "status")})
        if row["role"] == "control" and row.get("runs") and \
                row.get("right") != row.get("runs"):
            summary["wrong"].append(f"control {row['case']}: {row['status']}")
    return summary


# ------------------------------------------------------------------- ncu --

NCU_METRICS = ("Duration", "Compute (SM) Throughput", "Memory Throughput",
               "Registers Per Thread", "Achieved Occupancy")


def ncu_digest(path):
    """A few figures of an ncu --set full text report."""
    digest = {}
    for line in path.read_text(errors="replace").splitlines():
        parts = line.split()
        for metric in NCU_METRICS:
            if line.strip().startswith(metric) and metric not in digest \
                    and len(parts) >= 2:
                digest[metric] = f"{parts[-1]} {parts[-2]}"
    if not digest:
        text = path.read_text(errors="replace").strip().splitlines()
        digest["note"] = (text[-1] if text else "empty")[:200]
    return digest


def attention_label(row):
    """The profile label of an attention row: its length and proc."""
    proc = f"attention_fwd_d{row['D']}" + ("_causal" if row["causal"] else "")
    return f"attention-S{row['S']}-{proc}", proc


def plan(checks, attention, prepared, bh):
    """(label, kernel function, command) per row below target, worst
    first, each kernel and shape once."""
    bench = prepared / "bench"
    rows = []
    for c in checks:
        if c["verdict"] == "FAIL" and c.get("kernel"):
            only = "splitk" if c["kind"] == "splitk" else c["kind"]
            command = ["python3", "bench/kernels.py", "--prebuilt",
                       "--out", str(bench),
                       "--results", "/tmp/device-all-ncu", "--only", only,
                       "--shapes", c["shape"], "--runs", "1", "--warmup", "1"]
            rows.append((c["ratio"], f"{c['kind']}-{c['shape']}-{c['kernel']}",
                         f"{c['kernel']}_kernel", command))
    for r in attention:
        if r["verdict"] == "FAIL":
            label, proc = attention_label(r)
            command = ["python3", "bench/attention.py", "--library",
                       str(prepared / "attention" / "libattention.so"),
                       "--results", "/tmp/device-all-ncu",
                       "--bh", bh, "--seqlens", str(r["S"]),
                       "--dims", str(r["D"]), "--causal",
                       "yes" if r["causal"] else "no", "--runs", "1",
                       "--warmup", "1"]
            rows.append((min(r.get("x_flash", math.inf),
                             r.get("x_cudnn", math.inf)),
                         label, f"{proc}_kernel", command))
    seen, lines = set(), []
    for _, label, kernel, command in sorted(rows, key=lambda r: r[0]):
        key = (kernel, tuple(command))
        if key not in seen:
            seen.add(key)
            lines.append((label, kernel, shlex.join(command)))
    return lines


# ---------------------------------------------------------------- output --

def fmt(value, digits=1):
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(value):
    return "-" if value is None else f"{value:.3f}"


def read_stages(path):
    stages = []
    if path.exists():
        for line in path.read_text().splitlines():
            name, status, seconds, limit = line.split("\t")
            stages.append({"stage": name, "status": status,
                           "seconds": int(seconds), "limit": int(limit)})
    return stages


def markdown(s):
    m = s["manifest"]
    lines = ["# Device run summary", "",
             f"Commit {m.get('commit', 'unknown')[:12]}"
             + (f" ({m['modified_files']} modified files)"
                if m.get("modified_files") else "")
             + f", prepared {m.get('prepared', '?')}, run {s['date']}; "
             f"device: {s['device']}; command: `{DEVICE_COMMAND}` after "
             "`bash bench/device-all.sh --prepare`.", "",
             "| stage | status | seconds | limit |", "| --- | --- | --- | --- |"]
    lines += [f"| {t['stage']} | {t['status']} | {t['seconds']} | "
              f"{t['limit']} |" for t in s["stages"]]
    met = [c for c in s["targets"] if c["verdict"] == "pass"]
    lines += ["", f"**Targets: {len(met)} of {len(s['targets'])} met.** "
              f"Wrong results: {len(s['wrong'])}.", ""]
    for w in s["wrong"]:
        lines.append(f"- WRONG: {w}")

    lines += ["", "## GEMM (median TFLOP/s, TB/s for the GEMV)", "",
              "| kind | shape | ExoGPU specialized | one kernel | cuBLAS | "
              "CUTLASS (best schedule) | specialized / best | one kernel / "
              "best | specialized kernel |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for g in s["gemm"]:
        best = g["best_anchor"]
        div = (lambda v: v / best if v and best else None)
        cutlass = fmt(g.get("cutlass"))
        if g.get("cutlass_kernel"):
            cutlass += f" ({g['cutlass_kernel'].removeprefix('cutlass_')})"
        kernel = g.get("specialized_variant", "-")
        if g["failed"]:
            kernel += "; FAILED CHECK: " + ", ".join(g["failed"])
        if g.get("copy"):
            kernel += f"; copy {g['copy']:.2f}"
        lines.append(f"| {g['kind']} | {g['shape']} | "
                     f"{fmt(g.get('specialized'))} | {fmt(g.get('entry'))} | "
                     f"{fmt(g.get('cublas'))} | {cutlass} | "
                     f"{ratio(div(g.get('specialized')))} | "
                     f"{ratio(div(g.get('entry')))} | {kernel} |")

    lines += ["", "## Targets (issue 32)", "",
              "| kind | shape | figure | anchor | ratio | target | verdict "
              "| ExoGPU kernel | profile |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for c in s["targets"]:
        if "figure" not in c:
            continue
        target = f">= {c['min']}" + (f" (aim {c['aim']})" if c.get("aim")
                                     else "")
        lines.append(f"| {c['kind']} | {c['shape']} | {c['figure']} | "
                     f"{c['anchor']} | {ratio(c.get('ratio'))} | {target} | "
                     f"{c['verdict']} | {c.get('kernel') or '-'} | "
                     f"{c.get('profile', '-')} |")

    goal = s["attention_goal"]
    lines += ["", "## Attention (bf16, median TFLOP/s; 4 B H S^2 D, halved "
              "when causal)", "",
              "| shape | ExoGPU | flash | efficient | cuDNN | x flash | "
              "x cuDNN | O error | verdict (>= "
              f"{goal['flash']} flash, >= {goal['cudnn']} cuDNN) |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for a in s["attention"]:
        verdict = a["verdict"] + (f" ({a['note']})" if a["note"] else "") \
            + (f"; profile: {a['profile']}" if a.get("profile") else "")
        lines.append(f"| {a['shape']} | {fmt(a['exogpu'])} | "
                     f"{fmt(a['flash'])} | {fmt(a['efficient'])} | "
                     f"{fmt(a['cudnn'])} | {ratio(a.get('x_flash'))} | "
                     f"{ratio(a.get('x_cudnn'))} | "
                     f"{fmt(a['o_error'], 4) if a['o_error'] is not None else '-'}"
                     f" | {verdict} |")

    b = s["bundle"]
    lines += ["", "## GPU bundle (validate, sanitize, bugs)", ""]
    if b is None:
        lines.append("No results (the stage did not run or finish).")
    else:
        lines.append("Validation cases: " + (", ".join(
            f"{n} {k}" for k, n in sorted(b["validate"].items())) or "none")
            + "; sanitizer runs: " + (", ".join(
                f"{n} {k}" for k, n in sorted(b["sanitize"].items()))
                or "none") + (" (dry run)" if b["dry_run"] else "") + ".")
        lines += ["", "| bug | role | kernel | sizes | runs | wrong | hang | "
                  "CUDA error | outcome |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in b["bugs"]:
            sizes = ",".join(f"{k}={v}" for k, v in (r["sizes"] or {}).items())
            lines.append(f"| {r['title']} | {r['role']} | {r['program']} | "
                         f"{sizes} | {r['runs']} | {r['wrong']} | {r['hang']} "
                         f"| {r['error']} | {r['status']} |")

    lines += ["", "## Profiles of the rows below target (ncu --clock-control "
              "none --set full, one launch)", ""]
    if not s["ncu"]:
        lines.append("None.")
    for name, digest in s["ncu"].items():
        lines.append(f"- `{name}`: " + "; ".join(
            f"{k} {v}" for k, v in digest.items()))
    return "\n".join(lines) + "\n"


def summarize(raw, prepared, targets):
    table = json.loads((ROOT / "bench" / "dispatch.json").read_text())
    shapes = gemm_shapes(raw / "gemm" / "results.csv")
    checks = gemm_checks(shapes, targets, table)
    attention = attention_rows(raw / "attention" / "attention.csv", targets)
    bundle = bundle_results(raw / "bundle" / "results.json")
    manifest_path = raw / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) \
        if manifest_path.exists() else {}
    device = "unknown"
    device_txt = raw / "device.txt"
    if device_txt.exists():
        lines = device_txt.read_text().splitlines()
        device = lines[0] if lines else device
    date_txt = raw / "date.txt"
    date = date_txt.read_text().strip() if date_txt.exists() else "unknown"
    ncu = {p.stem: ncu_digest(p) for p in sorted((raw / "ncu").glob("*.txt"))} \
        if (raw / "ncu").is_dir() else {}
    for label, _, _ in plan(checks, attention, prepared,
                            targets["attention"]["bh"]):
        for c in checks:
            if c.get("kernel") and label == \
                    f"{c['kind']}-{c['shape']}-{c['kernel']}":
                c["profile"] = f"ncu/{label}.txt" if label in ncu else \
                    "not profiled"
        for a in attention:
            if label == attention_label(a)[0]:
                a["profile"] = f"ncu/{label}.txt" if label in ncu else \
                    "not profiled"
    wrong = [f"{g['kind']} {g['shape']}: {v} failed its check"
             for g in shapes.values() for v in g["failed"]]
    wrong += [f"attention {a['shape']}: {a['note'] or 'wrong result'}"
              for a in attention if not a["ok"]]
    wrong += bundle["wrong"] if bundle else []
    attention_checks = [{"kind": "attention", "shape": a["shape"],
                         "verdict": a["verdict"]} for a in attention
                        if a["verdict"] not in ("-", "WRONG")]
    return {"manifest": manifest, "device": device, "date": date,
            "stages": read_stages(raw / "stages.tsv"),
            "gemm": list(shapes.values()), "targets": checks +
            attention_checks, "attention": attention,
            "attention_goal": targets["attention"], "bundle": bundle,
            "ncu": ncu, "wrong": wrong,
            "missing": [part for part, there in (
                ("gemm", shapes), ("attention", attention),
                ("bundle", bundle and not bundle["dry_run"])) if not there]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=pathlib.Path, required=True)
    parser.add_argument("--dir", type=pathlib.Path, default=ROOT / ".device",
                        help="the prepared folder (for the --plan commands)")
    parser.add_argument("--targets", type=pathlib.Path,
                        default=ROOT / "bench" / "targets.json")
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument("--plan", action="store_true")
    args = parser.parse_args()
    targets = json.loads(args.targets.read_text())
    summary = summarize(args.raw, args.dir, targets)
    if args.plan:
        checks = [c for c in summary["targets"] if "figure" in c]
        for line in plan(checks, summary["attention"], args.dir,
                         targets["attention"]["bh"]):
            print("\t".join(line))
        return 0
    if not args.out:
        parser.error("--out or --plan")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    text = markdown(summary)
    (args.out / "summary.md").write_text(text)
    print(text, end="")
    incomplete = [t["stage"] for t in summary["stages"] if t["status"] != "ok"]
    if summary["wrong"]:
        print(f"summary.py: {len(summary['wrong'])} wrong results")
        return 1
    if incomplete or summary["missing"]:
        print("summary.py: not finished: " + ", ".join(
            incomplete + [f"{p} (no results)" for p in summary["missing"]]))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
