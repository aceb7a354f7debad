#!/usr/bin/env bash
# Sweep of the Hopper template's stages on the ResNet-50 3x3 convolutions of
# bench/conv-mma (batch 32, f16, NHWC/HWCF, pre-padded input): each layer
# with the heuristic's schedule ("default"), with it and the filter by
# cp.async too ("cp-async-b", pipeline option wgmma-tma-b=0), and with the
# heuristic's tile at every stage count from 3 to 8 that fits ("s<N>"), and
# the same with the copies arriving on their stage by themselves
# ("arrive", "arrive-s<N>": wgmma-async-arrive=1), each checked against a
# naive GPU kernel with f32 accumulation before it is timed; cuDNN timed
# again in the same run.
#   bench/conv-stages/run.sh prepare DIR [build-dir]   # here: compile
#   bench/conv-stages/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
conv="$here/../conv-mma"
layers=(conv_c64_h56_f64_r3_s1_b32 conv_c128_h28_f128_r3_s1_b32
  conv_c256_h14_f256_r3_s1_b32 conv_c512_h7_f512_r3_s1_b32)
# with_schedule MLIR SCHEDULE OUT: the layer with SCHEDULE on its convolution.
with_schedule() {
  sed "s|linalg.conv_2d_nhwc_hwcf {|linalg.conv_2d_nhwc_hwcf {hidet.schedule = $2, |" "$1" >"$3"
}
bench_prepare() {
  local dir="$1" build="$2" layer sched stages name producer opts
  mkdir -p "$dir/src"
  for layer in "${layers[@]}"; do
    "$build/bin/hidet-compile" "$conv/ref/$layer.mlir" -o "$dir/$layer.ref.so" \
      --runtime-dir="$build/lib" --pipeline-options="anchors=0 fuse=0"
    compile_variant "$dir" "$build" "$conv/$layer.mlir" default ref ""
    compile_variant "$dir" "$build" "$conv/$layer.mlir" cp-async-b ref "wgmma-tma-b=0"
    compile_variant "$dir" "$build" "$conv/$layer.mlir" arrive ref "wgmma-async-arrive=1"
    sched="$(cat "$dir/${layer}_default.schedule")"
    for stages in 3 4 5 6 7 8; do
      # The default's tile with `stages` (the attribute omits the default 4).
      with_schedule "$conv/$layer.mlir" "$(echo "$sched" | sed -e 's/, stages = [0-9]*//' \
        -e "s/\(block = \[[0-9]*, [0-9]*\]\)/\1, stages = $stages/")" \
        "$dir/src/${layer}_s$stages.mlir"
      for producer in s arrive-s; do
        name="${layer}_$producer$stages"
        opts=""
        [ "$producer" = arrive-s ] && opts="wgmma-async-arrive=1"
        if "$build/bin/hidet-compile" "$dir/src/${layer}_s$stages.mlir" -o "$dir/$name.gpu.so" \
          --runtime-dir="$build/lib" --pipeline-options="$opts" 2>"$dir/src/$name.log"; then
          cp "$dir/$layer.ref.so" "$dir/$name.ref.so"
          save_schedule "$dir" "$build" "$dir/src/${layer}_s$stages.mlir" "$name"
        else
          # A stage count whose shared memory does not fit: the verifier's
          # diagnostic, for the report.
          rm -f "$dir/$name.gpu.so"
          cp "$dir/src/$name.log" "$dir/$name.skipped"
        fi
      done
    done
    rm -f "$dir/$layer.ref.so"
  done
}
bench_driver "$here" none "--warmup 5 --reps 30" "$@"
