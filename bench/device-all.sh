#!/usr/bin/env bash
# The one device command of issue 32 (docs/performance.md, "Measuring on a
# GPU"): everything a decision about ExoGPU's speed needs, from one carried
# folder, in one call of at most 8 minutes.
#
# Here (with the ExoGPU build, nvcc and nvidia-cutlass; minutes, the CUTLASS
# kernels the longest), from the repository root:
#     bash bench/device-all.sh --prepare
# builds the folder .device (at most 60 MiB): the GEMM benchmark with the
# CUTLASS kernels (bench/kernels.py), the attention library
# (bench/attention.py), the GPU validation bundle (utils/gpu-bundle.py) and
# manifest.json (commit, date, sizes). It ends by printing the device call.
#
# There (an H100 or H200 with nvcc, PyTorch, ncu and compute-sanitizer; no
# MLIR), from the repository root with .device carried:
#     bash bench/device-all.sh
# runs the stages, each under its own time limit (a stage that runs out
# costs only its own results):
#     gemm       bench/kernels.py --all: ExoGPU, cuBLAS and CUTLASS GEMMs
#     attention  bench/attention.py at the issue's shapes
#     bundle     the GPU bundle's validate sanitize bugs
#     ncu        Nsight Compute (--clock-control none) on every row below
#                its target, worst first, while its time lasts
# then bench/summary.py writes $OUT/summary.md (every row, its anchors,
# ratios, pass or fail against bench/targets.json) and summary.json, and the
# raw files go to $OUT/raw.tar.gz ($OUT takes at most 8 files).
#
# Exit status: 1 if any result is wrong (a kernel against its reference, a
# validation case, a sanitizer report), else 2 if a stage did not finish,
# else 0. Rows below target do not change it: the summary reports them.
#
# Options: --dir DIR (the prepared folder, default .device). Through the
# environment: the limits in seconds GEMM_S (150), ATTENTION_S (100),
# BUNDLE_S (130), NCU_S (70), TOTAL_S (460; every stage's limit is cut to
# what is left of it); ATTENTION_ARGS (the attention shapes, default the
# targets' own); TARGETS (default bench/targets.json); for --prepare,
# CUTLASS_KERNELS (kernels.py --cutlass, default all), BUG_RUNS (20),
# CONTROL_RUNS (5) and BUNDLE_ARGS (more gpu-bundle.py options).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=.device
prepare=0
while (($#)); do
  case $1 in
    --prepare) prepare=1 ;;
    --dir) dir=$2; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "device-all: unknown argument $1" >&2; exit 64 ;;
  esac
  shift
done
dir=$(mkdir -p "$dir" && cd "$dir" && pwd)
# What travels with a device call is 64 MiB, the working tree included.
max_mib=${MAX_MIB:-60}

log() { echo "device-all: $*"; }

if ((prepare)); then
  set -e
  log "preparing $dir"
  python3 bench/kernels.py --no-run --out "$dir/bench" \
    --cutlass "${CUTLASS_KERNELS:-all}"
  python3 bench/attention.py --no-run --out "$dir/attention"
  rm -rf "$dir/gpu-bundle"
  nice -n 10 python3 utils/gpu-bundle.py --out "$dir/gpu-bundle" \
    --bug-runs "${BUG_RUNS:-20}" --control-runs "${CONTROL_RUNS:-5}" \
    ${BUNDLE_ARGS:-}
  # The device runs the programs as built (kernels.py --prebuilt,
  # attention.py --library): the ExoGPU objects need not travel (the
  # stamps, not the objects, tell the next --prepare what is up to date;
  # the CUTLASS objects stay, 1 MiB, as the program's stamp covers them).
  rm -f "$dir"/bench/obj/*.o "$dir"/attention/*.o
  commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  dirty=$(git status --porcelain --untracked-files=no 2>/dev/null | wc -l)
  kib=$(du -sk "$dir" | cut -f1)
  python3 - "$dir/manifest.json" "$commit" "$dirty" "$kib" <<'EOF'
import datetime, json, sys
path, commit, dirty, kib = sys.argv[1:]
json.dump({"commit": commit, "modified_files": int(dirty),
           "prepared": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%d %H:%M UTC"),
           "size_kib": int(kib)}, open(path, "w"), indent=2)
EOF
  mib=$(( (kib + 1023) / 1024 ))
  if ((mib > max_mib)); then
    log "error: $dir is $mib MiB, over the $max_mib MiB that may travel"
    exit 1
  fi
  rel=${dir#"$root"/}
  log "prepared $rel: $mib MiB (commit ${commit:0:12}$( ((dirty)) && echo ", $dirty modified files"))"
  log "device call: run(command=\"bash bench/device-all.sh\", carry=[\"$rel\"], timeout_s=540)"
  exit 0
fi

# ---------------------------------------------------------------- device --
out=${OUT:-$root/build/device-all}
mkdir -p "$out"
raw=$(mktemp -d "${TMPDIR:-/tmp}/device-all.XXXXXX")
stages="$raw/stages.tsv"
: >"$stages"
started=$(date +%s)
total=${TOTAL_S:-460}
date -u '+%Y-%m-%d %H:%M UTC' >"$raw/date.txt"
[ -f "$dir/manifest.json" ] && cp "$dir/manifest.json" "$raw/manifest.json"
[ -f "$dir/manifest.json" ] ||
  log "warning: $dir/manifest.json is missing (run --prepare first)"

# Runs stage NAME with LIMIT seconds (cut to what is left of TOTAL_S); its
# output goes to raw/NAME.log and stdout; one line of stages.tsv: name,
# status (ok, failed RC, timeout, skipped), seconds, limit.
stage() {
  local name=$1 limit=$2
  shift 2
  local left=$((total - ($(date +%s) - started)))
  ((limit > left)) && limit=$left
  if ((limit < 10)); then
    log "stage $name skipped: the time is spent"
    printf '%s\tskipped\t0\t%s\n' "$name" "$limit" >>"$stages"
    return 0
  fi
  log "stage $name (limit ${limit} s): $*"
  local begin rc status
  begin=$(date +%s)
  timeout -k 5 "$limit" "$@" 2>&1 | tee "$raw/$name.log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0) status=ok ;;
    124|137) status=timeout ;;
    *) status="failed $rc" ;;
  esac
  printf '%s\t%s\t%s\t%s\n' "$name" "$status" $(($(date +%s) - begin)) \
    "$limit" >>"$stages"
  log "stage $name: $status after $(($(date +%s) - begin)) s"
}

{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total,power.limit --format=csv,noheader 2>&1
  nvcc --version 2>&1 | tail -2
  python3 -c "import torch; print('torch', torch.__version__, torch.version.cuda)" 2>&1
  ncu --version 2>&1 | tail -1
  uname -r
} >"$raw/device.txt"

export PYTHONUNBUFFERED=1
targets=${TARGETS:-bench/targets.json}
stage gemm "${GEMM_S:-150}" python3 bench/kernels.py --all --prebuilt \
  --out "$dir/bench" --results "$raw/gemm" --runs 30 --warmup 5 \
  --timeout $(( ${GEMM_S:-150} - 10 ))
stage attention "${ATTENTION_S:-100}" python3 bench/attention.py \
  --library "$dir/attention/libattention.so" --results "$raw/attention" \
  ${ATTENTION_ARGS:---bh 16x16 --seqlens 4096,16384 --dims 64,128} \
  --causal both --runs 20 --warmup 3 \
  --budget $(( ${ATTENTION_S:-100} - 20 ))
stage bundle "${BUNDLE_S:-130}" env OUT="$raw/bundle" bash \
  "$dir/gpu-bundle/run.sh" validate sanitize bugs \
  --budget $(( ${BUNDLE_S:-130} - 15 ))

# The rows below target, worst first, each with the command that profiles
# its ExoGPU kernel.
python3 bench/summary.py --raw "$raw" --dir "$dir" --targets "$targets" \
  --plan >"$raw/ncu-plan.tsv"
ncu_stage() {
  local deadline=$(($(date +%s) + $1)) n=0
  mkdir -p "$raw/ncu"
  while IFS=$'\t' read -r label kernel command; do
    local left=$((deadline - $(date +%s)))
    if ((left < 20)); then
      log "ncu: no time left for $label"
      continue
    fi
    ((left > 60)) && left=60
    log "ncu $label: $kernel (limit $left s)"
    n=$((n + 1))
    timeout -k 5 "$left" ncu --clock-control none --set full \
      -k "regex:^${kernel}" --launch-skip 1 --launch-count 1 \
      bash -c "$command" >"$raw/ncu/$label.txt" 2>&1 ||
      log "ncu $label: exit status $?"
  done <"$raw/ncu-plan.tsv"
  log "ncu: $n profiles"
}
export -f ncu_stage log
export raw
ncu_s=${NCU_S:-70}
left=$((total - ($(date +%s) - started)))
((ncu_s > left)) && ncu_s=$left
if [ -s "$raw/ncu-plan.tsv" ]; then
  stage ncu "$ncu_s" bash -c "ncu_stage $((ncu_s - 5))"
else
  printf 'ncu\tok\t0\t0\n' >>"$stages"
fi

python3 bench/summary.py --raw "$raw" --dir "$dir" --targets "$targets" \
  --out "$out"
status=$?
if [ -f "$raw/gemm/performance.png" ]; then
  cp "$raw/gemm/performance.png" "$out/performance.png"
fi
tar -czf "$out/raw.tar.gz" -C "$raw" .
log "summary: $out/summary.md; raw files: $out/raw.tar.gz ($(du -k "$out/raw.tar.gz" | cut -f1) KiB)"
rm -rf "$raw"
exit $status
