#!/usr/bin/env bash
# Benchmark of the rule-based scheduler on memory-bound ops.
#   bench/rule-based/run.sh prepare DIR [build-dir]   # here: compile
#   bench/rule-based/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
# `run` verifies every kernel against its CPU reference, times it, measures
# the PyTorch baselines in the same run and writes
# OUT/rule-based-<gpu>.{json,md} (e.g. rule-based-h200).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
bench_prepare() {
  # Softmax again with approximate division and exp in the kernel
  # (hidet-gpu-pipeline{fast-math=1}); checked against the same reference.
  compile_variant "$1" "$2" "$here/softmax.mlir" fast cpu "fast-math=1"
}
bench_before_report() {
  python3 "$here/torch_baselines.py" "$1" >/dev/null
}
bench_driver "$here" cpu "" "$@"
