#!/usr/bin/env bash
# Builds hidet-compile, hidet-run, hidet-tune, hidet-random-graph and
# hidet-import-onnx with MLIR and LLVM linked statically and packs them,
# with the shared libraries
# they still need (libonnx, protobuf, the C++ runtime) and
# libhidet_runtime.so, into one directory that runs on a machine without
# LLVM: the GPU machine, which can then compile models whose weights are too
# large to copy there as libraries, tune them (utils/tune-model.sh) and test
# random graphs (utils/difftest.sh), and print what a model imports to
# (hidet-import-onnx --external-weights: the IR without the weights' values).
#
# Usage: utils/static-tools.sh OUT-DIR [build-dir]   (default: build-static)
#   OUT-DIR/bin/{hidet-compile,hidet-run,hidet-tune,hidet-random-graph,
#   hidet-import-onnx},
#   OUT-DIR/lib/*.so
# Run OUT-DIR/bin/hidet-compile as usual; it finds its libraries through its
# $ORIGIN/../lib rpath and links GPU libraries against OUT-DIR/lib (give
# --runtime-dir=OUT-DIR/lib). Linking a library needs a C compiler driver
# (`cc`) on that machine.
# The compile flags are those of utils/build.sh's directory when it was
# configured with the same CMAKE_CXX_FLAGS, so that with ccache the two
# builds share their objects: LLVM's probe of -Wcomment, which links with
# the static linker flags below and fails, is answered as for the other.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: static-tools.sh OUT-DIR [build-dir]}"
build="${2:-$src/build-static}"
tools="hidet-compile hidet-run hidet-tune hidet-random-graph hidet-import-onnx"
HIDET_BUILD_TARGETS="$tools hidet_runtime" \
  "$src/utils/build.sh" "$build" \
  -DHIDET_LINK_MLIR_DYLIB=OFF -DHIDET_BUILD_TESTS=OFF \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,--gc-sections -Wl,--as-needed -static-libstdc++ -static-libgcc" \
  -DCMAKE_CXX_FLAGS="-ffunction-sections -fdata-sections" \
  -DC_WCOMMENT_ALLOWS_LINE_WRAP=ON
mkdir -p "$out/bin" "$out/lib"
cp "$build/lib/libhidet_runtime.so" "$out/lib/"
for tool in $tools; do
  strip -o "$out/bin/$tool" "$build/bin/$tool"
  # Everything it loads that a bare machine may lack: what is not part of
  # glibc.
  ldd "$build/bin/$tool" | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*) ;;
      libhidet_runtime.so) ;;
      *) cp -L "$lib" "$out/lib/" ;;
    esac
  done
  patchelf --set-rpath '$ORIGIN/../lib' "$out/bin/$tool"
done
du -sh "$out"
