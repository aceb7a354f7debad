#!/usr/bin/env bash
# The lit tests that need a GPU, run on a machine that has the GPU but no
# MLIR or LLVM (the device machine), with the statically linked tools:
#
#   utils/gpu-lit.sh prepare DIR [build-dir]
#       DIR gets FileCheck, not, count and lit from LLVM 22 with the shared
#       libraries they need, the runtime's test programs and fixtures from
#       build-dir (default: build), and a lit site configuration
#       (DIR/test/lit.site.cfg.py) that runs the source tree's tests with
#       them. DIR must lie inside the source tree, which the device machine
#       receives with it.
#   utils/gpu-lit.sh run DIR TOOLS [LOG] [PATH...]
#       adds the tools of TOOLS, the output of utils/static-tools.sh
#       (bin/hidet-compile, bin/hidet-run, bin/hidet-tune, lib/), to DIR,
#       runs lit on the tests under PATH (relative to test/; default:
#       Runtime Tools/hidet-run Tools/hidet-tune Models Integration/GPU) and
#       writes its output to LOG (default:
#       bench/results/gpu-lit-<gpu>.log) after a first line naming the GPU,
#       the date and the commit.
#
# Tests that need hidet-opt, mlir-opt or hidet-import-onnx are not among the
# default paths: they need no GPU and run in CI.
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: gpu-lit.sh prepare DIR [build-dir] | run DIR TOOLS [LOG] [PATH...]"
mode="${1:?$usage}"
dir="${2:?$usage}"
llvm=/usr/lib/llvm-22

case "$mode" in
prepare)
  build="${3:-$src/build}"
  set -e
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  case "$dir/" in
  "$src"/*) ;;
  *) echo "gpu-lit.sh: $dir is not inside $src" >&2; exit 2 ;;
  esac
  rm -rf "$dir/bin" "$dir/lib" "$dir/lit" "$dir/runtime" "$dir/test"
  mkdir -p "$dir/bin" "$dir/lib" "$dir/runtime/test" "$dir/test"
  cp -r "$llvm/utils/lit/lit" "$dir/lit"
  for tool in FileCheck not count; do
    cp "$llvm/bin/$tool" "$dir/bin/"
    ldd "$llvm/bin/$tool" | awk '/=> \// {print $3}' | while read -r lib; do
      case "$(basename "$lib")" in
        libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|ld-linux*) ;;
        *) cp -L "$lib" "$dir/lib/" ;;
      esac
    done
    patchelf --set-rpath '$ORIGIN/../lib' "$dir/bin/$tool"
  done
  # The runtime's test programs and fixtures find libhidet_runtime.so
  # through $ORIGIN/../../lib, as in the build tree.
  find "$build/runtime/test" -maxdepth 1 -type f \( -name '*.so' -o -perm -u+x \) \
    -exec cp {} "$dir/runtime/test/" \;
  rel="$(realpath --relative-to="$dir/test" "$src")"
  cat >"$dir/test/lit.site.cfg.py" <<CFG
# Written by utils/gpu-lit.sh: the source tree's lit tests with the tools of
# this directory, wherever the tree is.
import os
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
config.llvm_tools_dir = os.path.join(root, "bin")
config.mlir_obj_dir = root
config.hidet_src_root = os.path.normpath(os.path.join(here, "$rel"))
config.hidet_obj_root = root
config.hidet_tools_dir = os.path.join(root, "bin")
config.hidet_libs_dir = os.path.join(root, "lib")
config.llvm_shlib_ext = ".so"
config.hidet_run_has_protobuf = True
config.protoc = ""
config.onnx_proto_dir = ""
config.hidet_without_mlir = True
config.hidet_compile_has_onnx = True
# The static tools are built with ONNX and protobuf (utils/static-tools.sh).

import lit.llvm
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, os.path.join(config.hidet_src_root, "test", "lit.cfg.py"))
CFG
  git -C "$src" rev-parse --short=7 HEAD >"$dir/commit" 2>/dev/null || echo unknown >"$dir/commit"
  git -C "$src" diff --quiet HEAD 2>/dev/null || sed -i 's/$/-dirty/' "$dir/commit"
  du -sh "$dir"
  ;;
run)
  dir="$(cd "$dir" && pwd)"
  tools="${3:?$usage}"
  cp "$tools"/bin/hidet-compile "$tools"/bin/hidet-run "$dir/bin/"
  [ -x "$tools/bin/hidet-tune" ] && cp "$tools/bin/hidet-tune" "$dir/bin/"
  cp "$tools"/lib/* "$dir/lib/"
  gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
  case "$gpu" in
  *H100*) tag=h100 ;; *H200*) tag=h200 ;; *) tag=gpu ;;
  esac
  log="${4:-$src/bench/results/gpu-lit-$tag.log}"
  shift $(( $# < 4 ? $# : 4 ))
  paths=("$@")
  [ ${#paths[@]} -gt 0 ] || paths=(Runtime Tools/hidet-run Tools/hidet-tune Models Integration/GPU)
  args=()
  for p in "${paths[@]}"; do
    mkdir -p "$dir/test/$p"
    args+=("$dir/test/$p")
  done
  {
    echo "# ${gpu:-no GPU}, $(date -u +%Y-%m-%d), commit $(cat "$dir/commit")"
    PATH="$dir/bin:$PATH" PYTHONPATH="$dir" \
      python3 -c 'import sys; from lit.main import main; sys.exit(main())' \
      -v "${args[@]}" 2>&1
    echo $? >"$dir/status"
  } | sed "s#$dir#DIR#g; s#$src#SRC#g" >"$log.tmp"
  status="$(cat "$dir/status")"
  mv "$log.tmp" "$log"
  grep -E '^(FAIL|XPASS|UNRESOLVED):|^  (Passed|Failed|Unsupported)' "$log"
  exit "$status"
  ;;
*)
  echo "$usage" >&2
  exit 2
  ;;
esac
