#!/usr/bin/env bash
# Benchmark of the rule-based scheduler (issue: GPU execution path).
#   bench/rule-based/run.sh prepare DIR [build-dir]   # here: compile
#   bench/rule-based/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
# `run` verifies every kernel against its CPU reference, times it, measures
# the PyTorch baselines in the same run and writes OUT/rule-based.{json,md}.
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
  # Softmax again with approximate division and exp in the kernel
  # (hidet-gpu-pipeline{fast-math=1}); checked against the same reference.
  "$build/bin/hidet-compile" "$here/softmax.mlir" -o "$dir/softmax_fast.gpu.so" \
    --runtime-dir="$build/lib" --pipeline-options="fast-math=1"
  cp "$dir/softmax.cpu.so" "$dir/softmax_fast.cpu.so"
  ;;
run)
  dir="$(cd "$dir" && pwd)"
  out="${3:?OUT}" commit="${4:?COMMIT}" date="${5:?DATE}"
  run_all "$dir"
  python3 "$here/torch_baselines.py" "$dir" > /dev/null
  python3 "$here/report.py" "$dir" "$out" "$commit" "$date"
  ;;
esac
