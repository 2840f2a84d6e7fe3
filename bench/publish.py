#!/usr/bin/env python3
"""Puts a device run of bench/device-all.sh into the docs (issue 32): from
the files the device call brought back (summary.md, summary.json,
raw.tar.gz, performance.png where the GPU machine had matplotlib) it
rewrites

  * docs/performance.md between `<!-- device-run:begin -->` and
    `<!-- device-run:end -->`: the run's header, GEMM, targets, attention
    and profile tables;
  * docs/gpu-validation.md between the same markers: the run's header and
    the GPU bundle's tables;
  * README.md between `<!-- device-run-headline:begin -->` and
    `<!-- device-run-headline:end -->`: one line of headline figures;
  * docs/performance.png: the run's plot (bench/plot.py of its CSV where
    the run brought none);
  * bench/dispatch.json from the run's results (bench/dispatch.py
    --from-results) and the entry points it generates (examples/gemm_*.mlir).

Each block names the commit, device, date and command of the run. Nothing
is written when a file lacks its markers or the run lacks its summary.

Usage: bench/publish.py RESULTS [--root DIR] [--no-dispatch]
  RESULTS: the folder the device call's files are in.
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- device-run:begin -->", "<!-- device-run:end -->"
HEADLINE = ("<!-- device-run-headline:begin -->",
            "<!-- device-run-headline:end -->")
# The summary's sections each document takes (bench/summary.py headings).
PERFORMANCE_SECTIONS = ("GEMM", "Targets", "Attention", "Profiles")
VALIDATION_SECTIONS = ("GPU bundle",)


def fail(message):
    sys.exit(f"publish.py: error: {message}")


def sections(markdown):
    """(preamble, {first word(s) of a `## ` heading: its text})."""
    parts = re.split(r"^## ", markdown, flags=re.M)
    found = {}
    for part in parts[1:]:
        heading = part.split("\n", 1)[0]
        found[heading] = "## " + part
    return parts[0], found


def pick(found, names):
    """The sections whose heading starts with one of `names`, one level
    deeper (### instead of ##)."""
    texts = [text for heading, text in found.items()
             for name in names if heading.startswith(name)]
    return "\n".join("#" + text.rstrip() + "\n" for text in texts)


def replace_block(path, begin, end, text):
    document = path.read_text()
    if begin not in document or end not in document:
        fail(f"{path} lacks the markers {begin} ... {end}")
    head, rest = document.split(begin, 1)
    _, tail = rest.split(end, 1)
    path.write_text(f"{head}{begin}\n{text.rstrip()}\n{end}{tail}")
    print(f"publish.py: wrote {path.name}")


def header(summary):
    m = summary["manifest"]
    stages = ", ".join(f"{s['stage']} {s['status']} in {s['seconds']} s"
                       for s in summary["stages"])
    met = sum(c["verdict"] == "pass" for c in summary["targets"])
    return (f"**Device run of commit {m.get('commit', 'unknown')[:12]}** "
            f"(prepared {m.get('prepared', '?')}, run {summary['date']}) on "
            f"{summary['device']}: "
            "`bash bench/device-all.sh --prepare` here, then "
            "`run(command=\"bash bench/device-all.sh\", carry=[\".device\"], "
            f"timeout_s=540)`; stages: {stages}. Targets met: {met} of "
            f"{len(summary['targets'])}; wrong results: "
            f"{len(summary['wrong'])}.\n" + "".join(
                f"\n- WRONG: {w}" for w in summary["wrong"]) + "\n")


def headline(summary):
    """One line for the README: the range of each GEMM target's ratios and
    the counts."""
    ranges = {}
    for check in summary["targets"]:
        if check.get("ratio") is not None:
            key = f"{check['kind']} {check['figure']}"
            ranges.setdefault(key, []).append(check["ratio"])
    parts = [f"{key} {min(v):.2f}-{max(v):.2f}x" for key, v in ranges.items()]
    met = sum(c["verdict"] == "pass" for c in summary["targets"])
    m = summary["manifest"]
    return (f"Last device run (`bench/device-all.sh`, commit "
            f"{m.get('commit', 'unknown')[:12]}, {summary['device']}, "
            f"{summary['date']}): "
            f"{met} of {len(summary['targets'])} targets met; "
            + "; ".join(parts) + " (ratios to the better of cuBLAS and "
            "CUTLASS unless the target names cuBLAS; `docs/performance.md`).")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=pathlib.Path)
    parser.add_argument("--root", type=pathlib.Path, default=ROOT,
                        help="the repository whose docs to rewrite")
    parser.add_argument("--no-dispatch", action="store_true",
                        help="leave bench/dispatch.json and the entry "
                        "points as they are")
    args = parser.parse_args()
    results, root = args.results, args.root
    for name in ("summary.md", "summary.json", "raw.tar.gz"):
        if not (results / name).exists():
            fail(f"{results / name} is missing: give the folder the device "
                 "call brought back")
    summary = json.loads((results / "summary.json").read_text())
    _, found = sections((results / "summary.md").read_text())
    top = header(summary)
    replace_block(root / "docs" / "performance.md", BEGIN, END,
                  top + "\n" + pick(found, PERFORMANCE_SECTIONS))
    replace_block(root / "docs" / "gpu-validation.md", BEGIN, END,
                  top + "\n" + pick(found, VALIDATION_SECTIONS))
    replace_block(root / "README.md", *HEADLINE, headline(summary))

    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(results / "raw.tar.gz") as archive:
            archive.extractall(tmp, filter="data")
        csv = pathlib.Path(tmp) / "gemm" / "results.csv"
        png = root / "docs" / "performance.png"
        if (results / "performance.png").exists():
            shutil.copyfile(results / "performance.png", png)
            print(f"publish.py: copied {png}")
        elif csv.exists():
            plotted = subprocess.run(
                [sys.executable, str(ROOT / "bench" / "plot.py"), str(csv),
                 "-o", str(png)], capture_output=True, text=True)
            print(plotted.stdout.strip() or
                  f"publish.py: no plot: {plotted.stderr.strip()}")
        table = pathlib.Path(tmp) / "gemm" / "dispatch.json"
        if not args.no_dispatch and table.exists():
            measured = json.loads(table.read_text())
            measured["source"] = (
                "measured: the best variant per shape of the device run of "
                f"commit {summary['manifest'].get('commit', 'unknown')[:12]} "
                f"on {summary['device']} (bench/device-all.sh)")
            (root / "bench" / "dispatch.json").write_text(
                json.dumps(measured, indent=2) + "\n")
            subprocess.run([sys.executable, str(ROOT / "bench" / "dispatch.py"),
                            "--table", str(root / "bench" / "dispatch.json"),
                            "--output-dir", str(root / "examples")],
                           check=True)
            print("publish.py: wrote bench/dispatch.json and the entry points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
