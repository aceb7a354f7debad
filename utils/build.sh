#!/usr/bin/env bash
# Configures (once) and builds Hidet-MLIR against Debian's LLVM/MLIR 22.
# Usage: utils/build.sh [build-dir [cmake-option...]]   (default: build)
# The CMake options apply when the directory is first configured. The targets
# built are HIDET_BUILD_TARGETS (space-separated; default: all).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
shift || true
llvm=/usr/lib/llvm-22
# With ccache, builds of one checkout in several directories (the test build
# and utils/static-tools.sh's) share compiled objects: paths are hashed
# relative to the checkout.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$src" CCACHE_NOHASHDIR=1
  # Sources that use a precompiled header are cached too (ccache's manual,
  # "Precompiled headers"); the build's flags include -fno-pch-timestamp.
  export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$src" -B "$build" "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" \
    -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" "$@"
fi
targets=()
for t in ${HIDET_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" "${targets[@]}"
