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

# run_all DIR [hidet-run options...]: verifies and times every pair in DIR,
# writing DIR/<name>.json.
run_all() {
  local dir="$1" gpu name
  shift
  for gpu in "$dir"/*.gpu.so; do
    name="$(basename "$gpu" .gpu.so)"
    LD_LIBRARY_PATH="$dir" "$dir/hidet-run" "$gpu" --ref "$dir/$name.cpu.so" \
      --json "$dir/$name.json" "$@"
  done
}
