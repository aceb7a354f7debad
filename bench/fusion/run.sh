#!/usr/bin/env bash
# Benchmark of post-scheduling fusion on the GPU:
#   gelu(x @ w + b), f16, 4096 x 3072 x 768: fused (the bias and GELU in the
#   GEMM's kernel), fused with 16-bit tanh from exp2 and a reciprocal
#   (exp2-tanh=1) or with fast-math flags (fast-math=1), unfused
#   (fuse=0: three kernels) and the bare GEMM; relu(x @ w + b) fused (an
#   arithmetic epilogue: pingpong tiles); each
#   checked against naive GPU kernels with f32 accumulation (ref/, anchors
#   and fusion off) before it is timed; cuBLAS, PyTorch eager and
#   torch.compile measured in the same run;
#   kernel counts of a BERT encoder layer and a ResNet-50 bottleneck
#   (models/), fused and unfused, against their linalg ops (counted here at
#   prepare time: compiling needs MLIR, not the GPU).
#   bench/fusion/run.sh prepare DIR [build-dir]   # here: compile
#   bench/fusion/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../common/compile.sh"
bench_prepare() {
  local dir="$1" build="$2" gelu m model ops fused unfused sep
  # Variants of the fused function, checked against the same reference:
  # unfused (fuse=0), tanh from exp2 and a reciprocal (exp2-tanh=1) and
  # with fast-math flags (fast-math=1).
  gelu="$here/gelu_bias_f16_4096x3072x768.mlir"
  compile_variant "$dir" "$build" "$gelu" unfused ref "fuse=0"
  compile_variant "$dir" "$build" "$gelu" exp2tanh ref "exp2-tanh=1"
  compile_variant "$dir" "$build" "$gelu" fastmath ref "fast-math=1"
  {
    echo "{"
    sep=""
    for m in "$here"/models/*.mlir; do
      model="$(basename "$m" .mlir)"
      "$build/bin/hidet-compile" "$m" --emit=mlir -o "$dir/$model.fused.mlir"
      "$build/bin/hidet-compile" "$m" --emit=mlir -o "$dir/$model.unfused.mlir" \
        --pipeline-options="fuse=0"
      ops="$(grep -oE '\blinalg\.[a-z_0-9]+' "$m" | grep -vcE 'linalg\.(yield|index)')"
      fused="$(grep -c gpu.launch_func "$dir/$model.fused.mlir")"
      unfused="$(grep -c gpu.launch_func "$dir/$model.unfused.mlir")"
      printf '%s  "%s": {"linalg_ops": %s, "kernels_fused": %s, "kernels_unfused": %s}' \
        "$sep" "$model" "$ops" "$fused" "$unfused"
      sep=$',\n'
      rm "$dir/$model.fused.mlir" "$dir/$model.unfused.mlir"
    done
    printf '\n}\n'
  } >"$dir/kernel-counts.json"
  cat "$dir/kernel-counts.json"
}
bench_driver "$here" gpu "--warmup 5 --reps 50" "$@"
