#!/usr/bin/env bash
# The main job: sets up, builds hidet-opt and runs it on the shipped
# example, printing the task table of the example's mapping and the IR it
# lowers to. Usage: utils/run-demo.sh [build-dir]
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
