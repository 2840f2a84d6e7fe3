#!/usr/bin/env python3
"""Cuts a quick bundle down for simulated.test and installs stand-in
drivers: BUNDLE DRIVER_PY.

Keeps five examples checked against the meaning and, the same runs,
against the float64 reference; one sanitizer case; three bugs at sizes
the sequential meaning computes in a moment. bin/NAME runs DRIVER_PY."""

import copy
import json
import pathlib
import sys

bundle, driver = pathlib.Path(sys.argv[1]), sys.argv[2]
manifest = json.loads((bundle / "cases.json").read_text())
kept = [e for e in manifest["validate"]
        if e["program"] in ("vector_add", "gemm_bf16_sm90a",
                            "gemm_splitk_sm90a", "attention_fwd_d128",
                            "attention_fwd_d64_causal")]
for entry in list(kept):
    twin = copy.deepcopy(entry)
    twin["case"] += ".device"
    twin["check"] = "device"
    del twin["expected"], twin["input_hashes"]
    kept.append(twin)
manifest["validate"] = kept
manifest["sanitize"] = manifest["sanitize"][:1]
small = {"ring-lag-off-by-one": {"M": 256, "N": 256, "K": 64},
         "warp-scope-fence": {"N": 1024},
         "splitk-unordered": {"M": 256, "K": 64}}
manifest["bugs"] = [b for b in manifest["bugs"] if b["bug"] in small]
for bug in manifest["bugs"]:
    bug["sizes"] = small[bug["bug"]]
(bundle / "cases.json").write_text(json.dumps(manifest, indent=1))
(bundle / "bin").mkdir(exist_ok=True)
for name in manifest["programs"]:
    binary = bundle / "bin" / name
    binary.write_text(f'#!/usr/bin/env bash\nexec "{sys.executable}" '
                      f'"{driver}" "{bundle}" {name} "$@"\n')
    binary.chmod(0o755)
