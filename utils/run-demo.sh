#!/usr/bin/env bash
# The main job: sets up, builds, then
#   1. prints the task table and lowered IR of a task-mapping example, and
#   2. compiles the shipped MLP block (examples/mlp.mlir) for the GPU and for
#      the CPU, and, on a machine with a GPU, runs both on random inputs,
#      verifies the GPU result against the CPU one and times it.
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
echo "== running on the GPU and checking against the CPU reference =="
set +e
"$build/bin/hidet-run" "$out/libmlp.so" --ref "$out/libmlp.ref.so" --reps 20
rc=$?
set -e
if [ "$rc" -eq 3 ]; then
  echo "== skipped the run: this machine has no GPU (the libraries above run on one) =="
  exit 0
fi
exit "$rc"
