#!/usr/bin/env bash
# Sweep behind the Hopper heuristic's pingpong rule: plain GEMMs, GEMMs +
# bias + ReLU and GEMMs + bias + GELU (f16) at four shapes, with the heuristic's schedule
# ("default"), with cooperative 128 x 256 tiles on a persistent grid
# ("cooperative") and with pingpong 64 x 256 tiles written on the op, each
# checked against naive GPU kernels with f32 accumulation before it is
# timed.
#   bench/wgmma-pingpong/run.sh prepare DIR [build-dir]   # here: compile
#   bench/wgmma-pingpong/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
shapes=("4096 3072 768" "4096 768 3072" "4096 4096 4096" "8192 8192 1024")
cooperative='{hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 4, swizzle = 8, persistent = true>}'
pingpong='{hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], stages = 4, swizzle = 8, persistent = true, pingpong = true>}'
# instantiate TEMPLATE M N K SCHEDULE OUT: the template with its shape and
# the attribute dictionary of the matmul (empty: the heuristic's).
instantiate() {
  sed -e "s/@M@/$2/g; s/@N@/$3/g; s/@K@/$4/g" -e "s|@SCHEDULE@|$5|" "$1" >"$6"
}
bench_prepare() {
  local dir="$1" build="$2" shape m n k kind ref variant name sched
  mkdir -p "$dir/src"
  for shape in "${shapes[@]}"; do
    read -r m n k <<<"$shape"
    for kind in mm bias_relu gelu; do
      ref="$dir/src/${kind}_${m}x${n}x${k}.ref.mlir"
      instantiate "$here/ref/$kind.mlir.in" "$m" "$n" "$k" "" "$ref"
      for variant in default cooperative pingpong; do
        name="${kind}_${m}x${n}x${k}_$variant"
        sched=""
        [ "$variant" = cooperative ] && sched="$cooperative"
        [ "$variant" = pingpong ] && sched="$pingpong"
        instantiate "$here/$kind.mlir.in" "$m" "$n" "$k" "$sched" "$dir/src/$name.mlir"
        "$build/bin/hidet-compile" "$dir/src/$name.mlir" -o "$dir/$name.gpu.so" \
          --runtime-dir="$build/lib"
        "$build/bin/hidet-compile" "$ref" -o "$dir/$name.ref.so" \
          --runtime-dir="$build/lib" --pipeline-options="anchors=0 fuse=0"
        save_schedule "$dir" "$build" "$dir/src/$name.mlir"
      done
    done
  done
}
bench_driver "$here" none "--warmup 5 --reps 30" "$@"
