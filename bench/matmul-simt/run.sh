#!/usr/bin/env bash
# Benchmark of the SIMT f32 matmul template against cuBLAS (TF32 off).
#   bench/matmul-simt/run.sh prepare DIR [build-dir]   # here: compile
#   bench/matmul-simt/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
source "$here/../common/compile.sh"
mode="${1:?usage: run.sh prepare|run DIR ...}"
dir="${2:?usage: run.sh prepare|run DIR ...}"
case "$mode" in
prepare)
  build="${3:-$src/build}"
  prepare_dir "$dir" "$build" "$here"/*.mlir
  ;;
run)
  dir="$(cd "$dir" && pwd)"
  out="${3:?OUT}" commit="${4:?COMMIT}" date="${5:?DATE}"
  run_all "$dir" --reps 20
  python3 "$here/report.py" "$dir" "$out" "$commit" "$date"
  ;;
esac
