# Shell helpers shared by the benchmark drivers (sourced).

# prepare_dir DIR BUILD MLIR...: copies hidet-run and the runtime into DIR
# and compiles each MLIR file into DIR/<name>.gpu.so and DIR/<name>.cpu.so.
prepare_dir() {
  local dir="$1" build="$2"
  shift 2
  mkdir -p "$dir"
  cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
  local f name
  for f in "$@"; do
    name="$(basename "$f" .mlir)"
    "$build/bin/hidet-compile" "$f" -o "$dir/$name.gpu.so" --runtime-dir="$build/lib"
    "$build/bin/hidet-compile" "$f" --target=cpu -o "$dir/$name.cpu.so"
  done
}

# prepare_gpu_ref DIR BUILD BENCH: for each BENCH/<name>.mlir, compiles
# DIR/<name>.gpu.so and, from BENCH/ref/<name>.mlir (the same function with
# f32 accumulation and one rounding), DIR/<name>.ref.so with the anchor
# templates off: naive GPU kernels, the reference for shapes too large for
# the CPU. The schedule each anchor gets is saved in DIR/<name>.schedule.
prepare_gpu_ref() {
  local dir="$1" build="$2" bench="$3" f name
  mkdir -p "$dir"
  cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
  for f in "$bench"/*.mlir; do
    name="$(basename "$f" .mlir)"
    "$build/bin/hidet-compile" "$f" -o "$dir/$name.gpu.so" --runtime-dir="$build/lib"
    "$build/bin/hidet-compile" "$bench/ref/$name.mlir" -o "$dir/$name.ref.so" \
      --runtime-dir="$build/lib" --pipeline-options="anchors=0"
    "$build/bin/hidet-opt" "$f" --hidet-print-schedule-space -o /dev/null |
      sed -n 's/^  default: //p' >"$dir/$name.schedule"
  done
}

# run_all DIR [hidet-run options...]: verifies and times every library in
# DIR against DIR/<name>.ref.so (a GPU reference) or DIR/<name>.cpu.so,
# writing DIR/<name>.json.
run_all() {
  local dir="$1" gpu name
  shift
  for gpu in "$dir"/*.gpu.so; do
    name="$(basename "$gpu" .gpu.so)"
    local ref=(--ref "$dir/$name.cpu.so")
    [ -f "$dir/$name.ref.so" ] && ref=(--ref "$dir/$name.ref.so" --ref-gpu)
    LD_LIBRARY_PATH="$dir" "$dir/hidet-run" "$gpu" "${ref[@]}" \
      --json "$dir/$name.json" "$@"
  done
}

# gpu_ref_bench BENCH prepare DIR [build-dir] | run DIR OUT COMMIT DATE:
# the driver of the benchmarks checked against naive GPU kernels
# (prepare_gpu_ref); `run` then calls BENCH/report.py.
gpu_ref_bench() {
  local bench="$1" mode="${2:?usage: run.sh prepare|run DIR ...}"
  local dir="${3:?usage: run.sh prepare|run DIR ...}"
  local src
  src="$(cd "$bench/../.." && pwd)"
  case "$mode" in
  prepare)
    prepare_gpu_ref "$dir" "${4:-$src/build}" "$bench"
    ;;
  run)
    dir="$(cd "$dir" && pwd)"
    local out="${4:?OUT}" commit="${5:?COMMIT}" date="${6:?DATE}"
    run_all "$dir" --warmup 5 --reps 30
    python3 "$bench/report.py" "$dir" "$out" "$commit" "$date"
    ;;
  *)
    echo "usage: run.sh prepare|run DIR ..." >&2
    return 2
    ;;
  esac
}
