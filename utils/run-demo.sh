#!/usr/bin/env bash
# The main job: sets up, builds, then
#   1. prints the task table and lowered IR of a task-mapping example, and
#   2. imports an ONNX model (the 2-layer BERT of test/Models, exported from
#      PyTorch), compiles it and checks it against PyTorch's outputs: on the
#      CPU everywhere, and on the GPU where there is one, and
#   3. compiles the shipped MLP block (examples/mlp.mlir) for the GPU and for
#      the CPU, and, on a machine with a GPU, runs both on random inputs,
#      verifies the GPU result against the CPU one and times it. The result
#      line goes to bench/results/mlp-demo-<gpu>.log (e.g. -h100) after a
#      first line naming the GPU, the date and the commit; the run replaces
#      that GPU's committed log.
# GPU libraries are compiled where a CUDA toolkit is (its ptxas and
# libdevice build the kernels) and run where a GPU is; elsewhere one line
# says what was skipped, and the CPU parts run all the same.
# Only the tools the demo uses are built (HIDET_BUILD_TARGETS overrides).
# Usage: utils/run-demo.sh [build-dir]
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
"$src/utils/install-deps.sh"
mkdir -p "$build"
echo "== building the tools into $build (log: $build/build.log; a first" \
  "build takes 5 to 10 minutes on 2 cores) =="
if ! HIDET_BUILD_TARGETS="${HIDET_BUILD_TARGETS:-hidet-opt hidet-compile hidet-import-onnx hidet-run}" \
  "$src/utils/build.sh" "$build" >"$build/build.log" 2>&1; then
  tail -n 30 "$build/build.log"
  echo "run-demo: the build failed; the whole log is $build/build.log" >&2
  exit 1
fi

# Where hidet-compile finds a CUDA toolkit: ptxas on PATH, the toolkit named
# by CUDA_ROOT, CUDA_HOME or CUDA_PATH, or /usr/local/cuda.
has_cuda_toolkit() {
  command -v ptxas >/dev/null 2>&1 && return 0
  local dir
  for dir in "${CUDA_ROOT:-}" "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    [ -n "$dir" ] && [ -x "$dir/bin/ptxas" ] && return 0
  done
  return 1
}
gpu=1
has_cuda_toolkit || gpu=0

example="$src/examples/tile-transpose.mlir"
echo "== task table of the mappings in $(basename "$example") =="
"$build/bin/hidet-opt" "$example" --tm-print-task-table="max-workers=8" -o /dev/null
echo "== owner grid of the same mappings =="
"$build/bin/hidet-opt" "$example" --tm-print-task-table="view=grid" -o /dev/null
echo "== lowered IR (convert-tm-to-scf, canonicalize, cse) =="
"$build/bin/hidet-opt" "$example" --convert-tm-to-scf --canonicalize --cse

model="$src/examples/mlp.mlir"
out="$build/demo"
mkdir -p "$out"
if [ "$gpu" -eq 1 ]; then
  echo "== compiling $(basename "$model") for the GPU and the CPU reference =="
  "$build/bin/hidet-compile" "$model" -o "$out/libmlp.so" --runtime-dir="$build/lib"
else
  echo "== skipped the GPU libraries: no CUDA toolkit (ptxas, libdevice) on" \
    "this machine; the CPU parts run =="
  echo "== compiling $(basename "$model") for the CPU =="
fi
"$build/bin/hidet-compile" "$model" --target=cpu -o "$out/libmlp.ref.so"
ls -l "$out"/libmlp*.so
bert="$src/test/Models/onnx/bert_tiny"
if [ -x "$build/bin/hidet-import-onnx" ]; then
  data="$bert/test_data_set_0"
  files=(--input=@"$data/input_0.pb" --input=@"$data/input_1.pb"
         --expected-output=@"$data/output_0.pb" --atol 1e-5 --reps 0)
  echo "== an ONNX model (2-layer BERT from PyTorch) on the CPU, against PyTorch's outputs =="
  "$build/bin/hidet-compile" "$bert/model.onnx" --target=cpu -o "$out/libbert.ref.so"
  "$build/bin/hidet-run" "$out/libbert.ref.so" "${files[@]}"
fi
[ "$gpu" -eq 1 ] || exit 0
if [ -x "$build/bin/hidet-import-onnx" ]; then
  echo "== the same model on the GPU, against PyTorch's outputs =="
  "$build/bin/hidet-compile" "$bert/model.onnx" -o "$out/libbert.so" --runtime-dir="$build/lib"
  set +e
  "$build/bin/hidet-run" "$out/libbert.so" "${files[@]}"
  rc=$?
  set -e
  if [ "$rc" -eq 3 ]; then
    echo "== skipped: this machine has no GPU =="
  elif [ "$rc" -ne 0 ]; then
    exit "$rc"
  fi
fi
echo "== running on the GPU and checking against the CPU reference =="
set +e
"$build/bin/hidet-run" "$out/libmlp.so" --ref "$out/libmlp.ref.so" --reps 20 2>&1 |
  tee "$out/mlp-demo.out"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -eq 3 ]; then
  echo "== skipped the run: this machine has no GPU (the libraries above run on one) =="
  exit 0
fi
# The GPU as hidet-run names it ("NVIDIA H100 80GB HBM3"); its model in
# lower case ("h100") names the log.
device="$(sed -n 's/.*(device: \(.*\))$/\1/p' "$out/mlp-demo.out" | head -n 1)"
if [ -n "$device" ]; then
  model="$(grep -oE '\b[A-Z]{1,2}[0-9]{2,4}[A-Z]?\b' <<<"$device" | head -n 1 | tr '[:upper:]' '[:lower:]' || true)"
  [ -n "$model" ] || model="$(tr '[:upper:]' '[:lower:]' <<<"$device" | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')"
  commit="$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)"
  if [ "$commit" != unknown ] && ! git -C "$src" diff --quiet HEAD 2>/dev/null; then
    commit="$commit-dirty"
  fi
  log="$src/bench/results/mlp-demo-$model.log"
  {
    echo "# utils/run-demo.sh (examples/mlp.mlir): $device, $(date +%F), commit $commit"
    cat "$out/mlp-demo.out"
  } >"$log"
  echo "== result written to $log =="
fi
exit "$rc"
