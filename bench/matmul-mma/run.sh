#!/usr/bin/env bash
# Benchmark of the tensor-core matmul template (f16 and bf16, f32
# accumulation, default schedules) against cuBLAS, over the GEMM shapes of
# the H100 reference table.
#   bench/matmul-mma/run.sh prepare DIR [build-dir]   # here: compile
#   bench/matmul-mma/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
# Each kernel is checked against a naive GPU kernel with f32 accumulation
# (ref/, compiled with anchors=0) before it is timed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
source "$here/../common/compile.sh"
mode="${1:?usage: run.sh prepare|run DIR ...}"
dir="${2:?usage: run.sh prepare|run DIR ...}"
case "$mode" in
prepare)
  prepare_gpu_ref "$dir" "${3:-$src/build}" "$here"
  ;;
run)
  dir="$(cd "$dir" && pwd)"
  out="${3:?OUT}" commit="${4:?COMMIT}" date="${5:?DATE}"
  run_all "$dir" --warmup 5 --reps 30
  python3 "$here/report.py" "$dir" "$out" "$commit" "$date"
  ;;
esac
