#!/usr/bin/env bash
# Benchmark of the SIMT f32 matmul template against cuBLAS (TF32 off).
#   bench/matmul-simt/run.sh prepare DIR [build-dir]   # here: compile
#   bench/matmul-simt/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
bench_driver "$here" cpu "--reps 20" "$@"
