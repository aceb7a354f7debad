#!/usr/bin/env bash
# Benchmark of implicit-GEMM convolution (the tensor-core template, f16,
# default schedules) against cuDNN, on ResNet-50 layers at batch 32.
#   bench/conv-mma/run.sh prepare DIR [build-dir]   # here: compile
#   bench/conv-mma/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
# Each kernel is checked against a naive GPU kernel with f32 accumulation
# (ref/, compiled with anchors=0) before it is timed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
bench_driver "$here" gpu "--warmup 5 --reps 30" "$@"
