#!/usr/bin/env bash
# Benchmark of the SIMT f32 matmul template against cuBLAS (TF32 off).
#   bench/matmul-simt/run.sh prepare DIR [build-dir]   # here: compile
#   bench/matmul-simt/run.sh run DIR OUT COMMIT DATE   # on the GPU machine
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
mode="${1:?usage: run.sh prepare|run DIR ...}"
dir="${2:?usage: run.sh prepare|run DIR ...}"
case "$mode" in
prepare)
  build="${3:-$src/build}"
  mkdir -p "$dir"
  cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
  for f in "$here"/*.mlir; do
    name="$(basename "$f" .mlir)"
    "$build/bin/hidet-compile" "$f" -o "$dir/$name.gpu.so" --runtime-dir="$build/lib"
    "$build/bin/hidet-compile" "$f" --target=cpu -o "$dir/$name.cpu.so"
  done
  ;;
run)
  dir="$(cd "$dir" && pwd)"
  out="${3:?OUT}" commit="${4:?COMMIT}" date="${5:?DATE}"
  for gpu in "$dir"/*.gpu.so; do
    name="$(basename "$gpu" .gpu.so)"
    LD_LIBRARY_PATH="$dir" "$dir/hidet-run" "$gpu" --ref "$dir/$name.cpu.so" \
      --reps 20 --json "$dir/$name.json"
  done
  python3 "$here/report.py" "$dir" "$out" "$commit" "$date"
  ;;
esac
