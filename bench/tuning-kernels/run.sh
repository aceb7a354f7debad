#!/usr/bin/env bash
# Tuned against default schedules, kernel by kernel: each GEMM of
# bench/matmul-mma and each ResNet-50 convolution of bench/conv-mma is tuned
# by utils/tune-model.sh (plan, rounds compiled in parallel and profiled,
# the winning rounds' outputs checked against a naive GPU kernel with f32
# accumulation, records),
# compiled again with its records, and timed against its default library in
# the same run (hidet-run, median of 200, twice alternately: the second pair
# counts); cuBLAS and cuDNN are timed again by report.py.
#
#   bench/tuning-kernels/run.sh DIR OUT COMMIT DATE [--tools T] [--jobs N]
#                               [--space L] [--only REGEX] [--no-report]
#                               [--name NAME]
#
# Runs on the GPU machine. T holds bin/{hidet-compile,hidet-run,hidet-tune}
# and lib/ (utils/static-tools.sh; default: build). A kernel whose DIR/NAME
# is complete is not tuned again, so that a run cut short resumes. Writes
# OUT/NAME-<gpu>.{json,md} (NAME: tuning-kernels) of the kernels complete
# in DIR (not with --no-report: runs over parts of the set, one report at
# the end).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
usage="usage: run.sh DIR OUT COMMIT DATE [--tools T] [--jobs N] [--space L] [--only REGEX] [--no-report] [--name NAME]"
dir="${1:?$usage}" out="${2:?$usage}" commit="${3:?$usage}" date="${4:?$usage}"
shift 4
tools="$src/build" jobs=$(nproc) space=small only=. report=1 report_name=tuning-kernels
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --space) space="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --no-report) report=0; shift ;;
    --name) report_name="$2"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
bin="$tools/bin" lib="$tools/lib"

# shellcheck source=../common/step.sh
source "$src/bench/common/step.sh"

# tune BENCH NAME: DIR/NAME/{ref.so,tune/,tuned.so,default.json,
# tuned.json}, then DIR/NAME/done; a kernel whose step fails is left
# without done, and the others go on.
tune() {
  local bench="$1" name="$2" d="$dir/$2"
  [ -f "$d/done" ] && return
  rm -rf "$d" && mkdir -p "$d"
  # Every run is checked against the naive kernel by hidet-run's relative
  # L2 bound of the dtype (f16 2e-3, bf16 1.6e-2), as bench/matmul-mma is.
  local check=(--ref "$d/ref.so" --ref-gpu)
  step "$name" "$d/ref-compile.log" "$bin/hidet-compile" \
    "$bench/ref/$name.mlir" --runtime-dir="$lib" \
    --pipeline-options="anchors=0 fuse=0" -o "$d/ref.so" || return 0
  step "$name" "$d/tune.log" "$src/utils/tune-model.sh" "$bench/$name.mlir" \
    "$d/tune" --tools "$bin" --space "$space" --jobs "$jobs" \
    --check "${check[*]}" -- --runtime-dir="$lib" || return 0
  step "$name" "$d/tuned-compile.log" "$bin/hidet-compile" \
    "$bench/$name.mlir" --runtime-dir="$lib" \
    --tuning-records="$d/tune/records.json" -o "$d/tuned.so" || return 0
  local v so
  for _ in 1 2; do
    for v in default tuned; do
      so="$d/tuned.so"
      [ "$v" = default ] && so="$d/tune/default.so"
      step "$name" "$d/$v.log" "$bin/hidet-run" "$so" "${check[@]}" \
        --warmup 20 --reps 200 --json "$d/$v.json" || return 0
    done
  done
  touch "$d/done"
  echo "$name: $(sed -n 's/^plan: \([0-9]*\) rounds.*/\1 rounds/p' "$d/tune.log"), $(( $(date +%s) - start )) s"
}

start=$(date +%s)
for bench in "$src/bench/matmul-mma" "$src/bench/conv-mma"; do
  for f in "$bench"/*.mlir; do
    name="$(basename "$f" .mlir)"
    [[ "$name" =~ $only ]] || continue
    tune "$bench" "$name"
  done
done
if [ "$report" = 1 ]; then
  python3 "$here/report.py" "$dir" "$out" "$commit" "$date" "$report_name"
fi
