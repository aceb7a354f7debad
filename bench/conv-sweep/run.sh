#!/usr/bin/env bash
# Sweep of the Hopper template on the ResNet-50 3x3 convolutions of
# bench/conv-mma (batch 32, f16, NHWC/HWCF, pre-padded input): each layer
# with the heuristic's schedule ("default"), with it and the filter by
# cp.async too ("cp-async-b", pipeline option wgmma-tma-b=0), with the
# producer waiting for its copies instead of their arriving on their stage
# by themselves ("wait", wgmma-async-arrive=0), with the heuristic's tile
# at every stage count from 3 to 8 that fits ("s<N>", "wait-s<N>"), and
# with tiles of 128 x 128, 128 x 256, 192 x 128 and pingpong 64 x 256 at
# split-K 1 to 6 ("t<M>x<N>-k<S>": the waves of blocks they make), each
# checked against a naive GPU kernel with f32 accumulation before it is
# timed; cuDNN timed again in the same run. A schedule that does not fit is
# listed with the verifier's reason. --only REGEX keeps the variants whose
# names match it (grep -E, whole name).
#   bench/conv-sweep/run.sh prepare DIR [build-dir] [--only REGEX]   # here
#   bench/conv-sweep/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
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
# variant DIR BUILD LAYER NAME SCHEDULE OPTIONS: LAYER with SCHEDULE (empty:
# the heuristic's) compiled with the pipeline OPTIONS into DIR/LAYER_NAME,
# or DIR/LAYER_NAME.skipped with the diagnostic when it does not fit.
variant() {
  local dir="$1" build="$2" layer="$3" name="$3_$4" src="$conv/$3.mlir"
  if [ -n "$only" ] && ! grep -qxE "$only" <<<"$4"; then
    return 0
  fi
  if [ -n "$5" ]; then
    src="$dir/src/$name.mlir"
    with_schedule "$conv/$layer.mlir" "$5" "$src"
  fi
  if "$build/bin/hidet-compile" "$src" -o "$dir/$name.gpu.so" \
    --runtime-dir="$build/lib" --pipeline-options="$6" 2>"$dir/src/$name.log"; then
    cp "$dir/$layer.ref.so" "$dir/$name.ref.so"
    save_schedule "$dir" "$build" "$src" "$name" "$6"
  else
    rm -f "$dir/$name.gpu.so"
    cp "$dir/src/$name.log" "$dir/$name.skipped"
  fi
}
bench_prepare() {
  local dir="$1" build="$2" layer sched sched_s stages tile split pp
  mkdir -p "$dir/src"
  for layer in "${layers[@]}"; do
    "$build/bin/hidet-compile" "$conv/ref/$layer.mlir" -o "$dir/$layer.ref.so" \
      --runtime-dir="$build/lib" --pipeline-options="anchors=0 fuse=0"
    variant "$dir" "$build" "$layer" default "" ""
    variant "$dir" "$build" "$layer" cp-async-b "" "wgmma-tma-b=0"
    variant "$dir" "$build" "$layer" wait "" "wgmma-async-arrive=0"
    save_schedule "$dir" "$build" "$conv/$layer.mlir" "${layer}_heuristic"
    sched="$(cat "$dir/${layer}_heuristic.schedule")"
    rm "$dir/${layer}_heuristic.schedule"
    for stages in 3 4 5 6 7 8; do
      # The default's tile with `stages` (the attribute omits the default 4).
      sched_s="$(echo "$sched" | sed -e 's/, stages = [0-9]*//' \
        -e "s/\(block = \[[0-9]*, [0-9]*\]\)/\1, stages = $stages/")"
      variant "$dir" "$build" "$layer" "s$stages" "$sched_s" ""
      variant "$dir" "$build" "$layer" "wait-s$stages" "$sched_s" "wgmma-async-arrive=0"
    done
    for tile in 128x128 128x256 192x128 64x256; do
      pp=""
      [ "$tile" = 64x256 ] && pp=", persistent = true, pingpong = true"
      for split in 1 2 3 4 5 6; do
        variant "$dir" "$build" "$layer" "t$tile-k$split" \
          "#hidet.wgmma_matmul<block = [${tile%x*}, ${tile#*x}], swizzle = 8, split_k = $split$pp>" ""
      done
    done
    rm -f "$dir/$layer.ref.so"
  done
}
# --only REGEX, anywhere after prepare's DIR.
only="" args=()
while [ $# -gt 0 ]; do
  case "$1" in
  --only) only="${2:?--only REGEX}"; shift 2 ;;
  --only=*) only="${1#--only=}"; shift ;;
  *) args+=("$1"); shift ;;
  esac
done
bench_driver "$here" none "--warmup 5 --reps 30" "${args[@]}"
