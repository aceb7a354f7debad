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
# Usage: utils/run-demo.sh [build-dir]
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
"$src/utils/install-deps.sh"
"$src/utils/build.sh" "$build" >/dev/null

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
echo "== compiling $(basename "$model") for the GPU and the CPU reference =="
"$build/bin/hidet-compile" "$model" -o "$out/libmlp.so" --runtime-dir="$build/lib"
"$build/bin/hidet-compile" "$model" --target=cpu -o "$out/libmlp.ref.so"
ls -l "$out/libmlp.so" "$out/libmlp.ref.so"
if [ ! -x "$build/bin/hidet-run" ]; then
  echo "== skipped the run: hidet-run was not built (no CUDA toolkit) =="
  exit 0
fi
bert="$src/test/Models/onnx/bert_tiny"
if [ -x "$build/bin/hidet-import-onnx" ]; then
  data="$bert/test_data_set_0"
  files=(--input=@"$data/input_0.pb" --input=@"$data/input_1.pb"
         --expected-output=@"$data/output_0.pb" --atol 1e-5 --reps 0)
  echo "== an ONNX model (2-layer BERT from PyTorch) on the CPU, against PyTorch's outputs =="
  "$build/bin/hidet-compile" "$bert/model.onnx" --target=cpu -o "$out/libbert.ref.so"
  "$build/bin/hidet-run" "$out/libbert.ref.so" "${files[@]}"
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
