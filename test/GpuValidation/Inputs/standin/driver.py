#!/usr/bin/env python3
"""A stand-in for a bundle driver (simulated.test): the proc's sequential
meaning through exogpu-run (env EXOGPU_RUN), behind the driver's command
line (docs/running.md, "A kernel on a GPU against its meaning").

Usage: driver.py BUNDLE NAME --sizes ... --seed S --runs N --outputs DIR
                 [--write-inputs DIR] [--timeout-ms MS]
Stand-ins for what the GPU could do: a program whose name ends in _lag5
hangs (the watchdog's report and exit status 124); one whose name ends in
_unordered computes a wrong first element.
"""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np


def main():
    bundle, name = sys.argv[1], sys.argv[2]
    args = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    if "--sizes" not in args:
        print(f"driver: usage: {name} --sizes NAME=VALUE,... [--seed S] "
              "[--runs N] [--outputs DIR]", file=sys.stderr)
        return 1
    manifest = json.loads(pathlib.Path(bundle, "cases.json").read_text())
    program = manifest["programs"][name]
    first = int(args["--seed"])
    for run in range(int(args.get("--runs", "1"))):
        seed = first + run
        if name.endswith("_lag5"):
            print(f"driver: run {run} (seed {seed}): timeout: the kernel did "
                  "not finish in 10000 ms (a hang?)", file=sys.stderr)
            return 124
        outputs = args["--outputs"].replace("{seed}", str(seed))
        command = [os.environ["EXOGPU_RUN"],
                   f"{bundle}/src/{name}/module.mlir",
                   f"--proc={program['proc']}", f"--sizes={args['--sizes']}",
                   f"--seed={seed}", f"--output-dir={outputs}"]
        if "--write-inputs" in args:
            command.append("--write-inputs=" + args["--write-inputs"].replace(
                "{seed}", str(seed)))
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        if name.endswith("_unordered"):
            for output in program["outputs"]:
                path = pathlib.Path(outputs, output["name"] + ".npy")
                array = np.load(path)
                array.flat[0] += 1
                np.save(path, array)
        print(f"driver: @{program['proc']} run {run} (seed {seed}) ran; "
              f"outputs in {outputs}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
