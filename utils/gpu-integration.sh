#!/usr/bin/env bash
# The GPU integration suite in two halves, for when the machine that has MLIR
# (to compile) is not the machine that has the GPU (to run):
#
#   utils/gpu-integration.sh prepare DIR [build-dir]
#       compiles every test/Integration/GPU/*.mlir (and *.onnxtxt, ONNX
#       models in text syntax) into DIR/<name>.gpu.so
#       (GPU) and DIR/<name>.cpu.so (CPU reference, built from
#       Inputs/<name>.ref.mlir when the test has one), and copies hidet-run
#       and libhidet_runtime.so into DIR, with the source tree's commit in
#       DIR/commit. DIR needs nothing but the CUDA driver.
#   utils/gpu-integration.sh run DIR [LOG]
#       runs hidet-run on every pair, prints one line per test and a final
#       "N passed, N failed" line, and writes them to LOG after a first line
#       naming the GPU, the date and the commit. LOG defaults to
#       bench/results/gpu-integration-<gpu>.log (e.g. -h100), the committed
#       log of that GPU, which the run replaces. The
#       options after `--ref %t.cpu.so` on a test's hidet-run RUN line (e.g. a
#       tolerance) are passed on; prepare saves them as DIR/<name>.options.
#       A test may compile variants of itself (a RUN line
#       `hidet-compile %s -o %t.V.gpu.so --runtime-dir=%hidet_libs OPTIONS`):
#       each becomes DIR/<name>.V.gpu.so, run against the same reference.
#
# On a machine that has both, `lit build/test/Integration/GPU` runs the same
# tests (they are marked REQUIRES: cuda).
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
mode="${1:?usage: gpu-integration.sh prepare|run DIR ...}"
dir="${2:?usage: gpu-integration.sh prepare|run DIR ...}"

case "$mode" in
prepare)
  build="${3:-$src/build}"
  mkdir -p "$dir"
  commit="$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)"
  if [ "$commit" != unknown ] && ! git -C "$src" diff --quiet HEAD 2>/dev/null; then
    commit="$commit-dirty"
  fi
  echo "$commit" >"$dir/commit"
  cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
  status=0
  for f in "$src"/test/Integration/GPU/*.mlir \
    "$src"/test/Integration/GPU/*.onnxtxt; do
    name="$(basename "$f")"
    name="${name%.*}"
    "$build/bin/hidet-compile" "$f" -o "$dir/$name.gpu.so" \
      --runtime-dir="$build/lib" || status=1
    ref="$f"
    [ -f "$src/test/Integration/GPU/Inputs/$name.ref.mlir" ] &&
      ref="$src/test/Integration/GPU/Inputs/$name.ref.mlir"
    "$build/bin/hidet-compile" "$ref" --target=cpu -o "$dir/$name.cpu.so" ||
      status=1
    sed -n 's#^\(//\|\#\) RUN: hidet-run %t.gpu.so --ref %t.cpu.so *\([^|]*\) |.*#\2#p' \
      "$f" >"$dir/$name.options"
    # Variants (`// RUN: hidet-compile %s -o %t.V.gpu.so --runtime-dir=...
    # OPTIONS`) become NAME.V.gpu.so, checked against the same reference.
    sed -n 's#^\(//\|\#\) RUN: hidet-compile %s -o %t\.\([a-z0-9_-]*\)\.gpu\.so --runtime-dir=%hidet_libs *\(.*\)$#\2 \3#p' \
      "$f" | while read -r variant options; do
      # The options as the RUN line quotes them ("--pipeline-options=a b").
      mapfile -t opts < <(xargs printf '%s\n' <<<"$options")
      "$build/bin/hidet-compile" "$f" -o "$dir/$name.$variant.gpu.so" \
        --runtime-dir="$build/lib" "${opts[@]}" || exit 1
      cp "$dir/$name.cpu.so" "$dir/$name.$variant.cpu.so"
      cp "$dir/$name.options" "$dir/$name.$variant.options"
      # A variant's own hidet-run line (`hidet-run %t.V.gpu.so --ref
      # %t.cpu.so OPTIONS |`) gives its options.
      own="$(sed -n "s#^\\(//\\|\\#\\) RUN: hidet-run %t\\.$variant\\.gpu\\.so --ref %t\\.cpu\\.so *\\([^|]*\\) |.*#\\2#p" "$f")"
      if [ -n "$own" ]; then
        printf '%s\n' "$own" >"$dir/$name.$variant.options"
      fi
    done || status=1
  done
  exit "$status"
  ;;
run)
  dir="$(cd "$dir" && pwd)"
  body="$dir/gpu-integration.out"
  passed=0 failed=0
  : >"$body"
  for gpu in "$dir"/*.gpu.so; do
    name="$(basename "$gpu" .gpu.so)"
    read -r -a extra <"$dir/$name.options" || true
    out="$(cd "$dir" && LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}" \
      ./hidet-run "$gpu" --ref "$dir/$name.cpu.so" --json "$dir/$name.json" \
      "${extra[@]}" 2>&1)"
    rc=$?
    printf '%s\n' "$out" | tee -a "$body"
    if [ "$rc" -eq 0 ]; then
      passed=$((passed + 1)); echo "PASS $name" | tee -a "$body"
    else
      failed=$((failed + 1)); echo "FAIL $name (exit $rc)" | tee -a "$body"
    fi
  done
  echo "gpu-integration: $passed passed, $failed failed" | tee -a "$body"
  # The GPU as hidet-run names it ("NVIDIA H100 80GB HBM3"); its model in
  # lower case ("h100") names the log.
  device="$(sed -n 's/.*(device: \(.*\))$/\1/p' "$body" | head -n 1)"
  [ -n "$device" ] || device="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)"
  [ -n "$device" ] || device="unknown GPU"
  model="$(grep -oE '\b[A-Z]{1,2}[0-9]{2,4}[A-Z]?\b' <<<"$device" | head -n 1 | tr '[:upper:]' '[:lower:]')"
  [ -n "$model" ] || model="$(tr '[:upper:]' '[:lower:]' <<<"$device" | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')"
  log="${3:-$src/bench/results/gpu-integration-$model.log}"
  mkdir -p "$(dirname "$log")"
  {
    echo "# utils/gpu-integration.sh run: $device, $(date +%F), commit $(cat "$dir/commit" 2>/dev/null || echo unknown)"
    cat "$body"
  } >"$log"
  echo "gpu-integration: log in $log"
  [ "$failed" -eq 0 ]
  ;;
*)
  echo "usage: gpu-integration.sh prepare|run DIR ..." >&2
  exit 2
  ;;
esac
