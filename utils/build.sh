#!/usr/bin/env bash
# Configures (once) and builds Hidet-MLIR against Debian's LLVM/MLIR 22.
# Usage: utils/build.sh [build-dir]   (default: build)
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
llvm=/usr/lib/llvm-22
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$src" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" \
    -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm/bin/lit"
fi
cmake --build "$build"
