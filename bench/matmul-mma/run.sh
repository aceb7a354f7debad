#!/usr/bin/env bash
# Benchmark of the tensor-core matmul templates (f16 and bf16, f32
# accumulation, default schedules) against cuBLAS, over transformer GEMMs
# of 1, 16, 128 and 4096 rows and the square 4096^3 and 8192^3.
#   bench/matmul-mma/run.sh prepare DIR [build-dir]   # here: compile
#   bench/matmul-mma/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
# Each kernel is checked against a naive GPU kernel with f32 accumulation
# (ref/, compiled with anchors=0) before it is timed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
bench_driver "$here" gpu "--warmup 5 --reps 30" "$@"
