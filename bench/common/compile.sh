# Shell helpers shared by the benchmark drivers (sourced).

# save_schedule DIR BUILD MLIR [NAME [OPTIONS]]: the schedule the pipeline
# (with OPTIONS) gives MLIR's first anchor, as recorded on its kernel (the
# heuristic sees the fused epilogue), in DIR/<NAME>.schedule (NAME: MLIR's
# base name); empty without an anchor.
save_schedule() {
  local name="${4:-$(basename "$3" .mlir)}" opts="${5:-}"
  "$2/bin/hidet-opt" "$3" --hidet-bufferize="$opts" \
    --hidet-schedule-kernels="$opts" |
    sed -n 's/.*hidet\.schedule = \(#hidet\.[a-z_]*<[^>]*>\).*/\1/p' |
    head -n 1 >"$1/$name.schedule"
}

# compile_variant DIR BUILD MLIR SUFFIX REF OPTIONS: MLIR compiled with the
# pipeline OPTIONS into DIR/<name>_SUFFIX.gpu.so, checked against <name>'s
# reference (DIR/<name>.REF.so, REF = cpu or ref, copied beside it), with
# its schedule.
compile_variant() {
  local dir="$1" build="$2" mlir="$3" suffix="$4" ref="$5" opts="$6" name
  name="$(basename "$mlir" .mlir)"
  "$build/bin/hidet-compile" "$mlir" -o "$dir/${name}_$suffix.gpu.so" \
    --runtime-dir="$build/lib" --pipeline-options="$opts"
  cp "$dir/$name.$ref.so" "$dir/${name}_$suffix.$ref.so"
  save_schedule "$dir" "$build" "$mlir" "${name}_$suffix" "$opts"
}

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
    save_schedule "$dir" "$build" "$f"
  done
}

# prepare_gpu_ref DIR BUILD BENCH: for each BENCH/<name>.mlir, compiles
# DIR/<name>.gpu.so and, from BENCH/ref/<name>.mlir (the same function with
# f32 accumulation and one rounding), DIR/<name>.ref.so with the anchor
# templates off: naive GPU kernels, the reference for shapes too large for
# the CPU (fusion off too: the reference runs every op as it is written). The schedule each anchor gets is saved in DIR/<name>.schedule.
prepare_gpu_ref() {
  local dir="$1" build="$2" bench="$3" f name
  mkdir -p "$dir"
  cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
  for f in "$bench"/*.mlir; do
    name="$(basename "$f" .mlir)"
    "$build/bin/hidet-compile" "$f" -o "$dir/$name.gpu.so" --runtime-dir="$build/lib"
    "$build/bin/hidet-compile" "$bench/ref/$name.mlir" -o "$dir/$name.ref.so" \
      --runtime-dir="$build/lib" --pipeline-options="anchors=0 fuse=0"
    save_schedule "$dir" "$build" "$f"
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

# bench_driver BENCH REF "RUN-OPTIONS" prepare DIR [build-dir]
# bench_driver BENCH REF "RUN-OPTIONS" run DIR OUT COMMIT DATE
# The driver of the benchmarks: `prepare` compiles BENCH/*.mlir with their
# reference (REF = cpu: the CPU build of the same file, prepare_dir; REF =
# gpu: naive GPU kernels from BENCH/ref, prepare_gpu_ref; REF = none: only
# hidet-run and the runtime), then calls bench_prepare DIR BUILD if the
# script defines it (variants, generated sources); `run` checks and times
# every library with hidet-run RUN-OPTIONS, calls bench_before_report DIR if
# defined (baselines), then BENCH/report.py.
bench_driver() {
  local bench="$1" ref="$2" opts="$3" mode="${4:?usage: run.sh prepare|run DIR ...}"
  local dir="${5:?usage: run.sh prepare|run DIR ...}"
  local src
  src="$(cd "$bench/../.." && pwd)"
  case "$mode" in
  prepare)
    local build="${6:-$src/build}"
    case "$ref" in
    gpu) prepare_gpu_ref "$dir" "$build" "$bench" ;;
    cpu) prepare_dir "$dir" "$build" "$bench"/*.mlir ;;
    *)
      mkdir -p "$dir"
      cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
      ;;
    esac
    if declare -F bench_prepare >/dev/null; then
      bench_prepare "$dir" "$build"
    fi
    ;;
  run)
    dir="$(cd "$dir" && pwd)"
    local out="${6:?OUT}" commit="${7:?COMMIT}" date="${8:?DATE}"
    # shellcheck disable=SC2086 # the options are words
    run_all "$dir" $opts
    if declare -F bench_before_report >/dev/null; then
      bench_before_report "$dir"
    fi
    python3 "$bench/report.py" "$dir" "$out" "$commit" "$date"
    ;;
  *)
    echo "usage: run.sh prepare|run DIR ..." >&2
    return 2
    ;;
  esac
}
