#!/usr/bin/env bash
# Fuzzes one of the project's fuzz targets with libFuzzer for a given time:
#
#   utils/fuzz.sh mlir|pass|onnx [SECONDS] [BUILD]
#
#   mlir  hidet-mlir-fuzzer: MLIR text (the project's dialects) must parse,
#         verify, print and reparse to the same text, or be rejected with an
#         error;
#   pass  hidet-pass-fuzzer: generated modules (anchors, random schedules and
#         fusion groups, task mappings) through the project's pipelines must
#         verify or fail with an error;
#   onnx  hidet-onnx-fuzzer: mutated ONNX files through the importer must
#         import to a module that verifies or fail with an error.
#
# SECONDS defaults to 1800. BUILD (default build-fuzz) is configured with
# clang-22's libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer over
# the whole project (-fsanitize=fuzzer-no-link,address,undefined); LLVM's
# and MLIR's shared libraries are not instrumented. The corpus starts from
# the project's inputs (test/**/*.mlir split at "// -----" for mlir, the ONNX
# conformance models for onnx, the committed inputs under test/Fuzz/Inputs)
# and grows in BUILD/corpus/TARGET; findings are written to
# BUILD/findings/TARGET/, the log to BUILD/fuzz-TARGET.log. The exit status
# is libFuzzer's: 0 when the time ran out without a finding.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
target="${1:?usage: utils/fuzz.sh mlir|pass|onnx [SECONDS] [BUILD]}"
seconds="${2:-1800}"
build="${3:-$src/build-fuzz}"
case "$target" in
  mlir | pass | onnx) ;;
  *) echo "fuzz.sh: unknown target '$target' (mlir, pass or onnx)" >&2; exit 2 ;;
esac
"$src/utils/install-deps.sh"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
flags="$flags -fno-omit-frame-pointer"
HIDET_BUILD_TARGETS="hidet-$target-fuzzer" "$src/utils/build.sh" "$build" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHIDET_ENABLE_FUZZING=ON \
  -DHIDET_ENABLE_CUDA=OFF -DHIDET_BUILD_TESTS=OFF \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"

corpus="$build/corpus/$target" findings="$build/findings/$target"
mkdir -p "$corpus" "$findings"
if [ -z "$(ls -A "$corpus")" ]; then
  case "$target" in
    mlir)
      # One seed per split of every lit test.
      while IFS= read -r -d '' f; do
        awk -v out="$corpus/$(basename "$f" .mlir)-" '
          /^\/\/ -----/ { part++; next } { print > (out part ".mlir") }
        ' part=0 "$f"
      done < <(find "$src/test" -name '*.mlir' -not -path '*/Integration/*' -print0)
      ;;
    onnx)
      find /usr/share/libonnx-testdata/data -name model.onnx -size -64k |
        while read -r f; do
          cp "$f" "$corpus/$(echo "$f" | md5sum | cut -c1-16).onnx"
        done
      ;;
  esac
  cp "$src/test/Fuzz/Inputs/$target/"* "$corpus/" 2>/dev/null || true
fi
dict=()
[ -f "$src/tools/fuzzers/hidet-$target.dict" ] &&
  dict=(-dict="$src/tools/fuzzers/hidet-$target.dict")
max_len=4096
[ "$target" = pass ] && max_len=256
[ "$target" = onnx ] && max_len=65536
export ASAN_OPTIONS="detect_leaks=0:allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
echo "fuzzing hidet-$target-fuzzer for $seconds s; corpus $corpus ($(ls "$corpus" | wc -l) inputs)"
rc=0
"$build/bin/hidet-$target-fuzzer" "$corpus" "${dict[@]}" \
  -max_total_time="$seconds" -max_len="$max_len" -timeout=30 \
  -rss_limit_mb=4096 -artifact_prefix="$findings/" -print_final_stats=1 \
  > "$build/fuzz-$target.log" 2>&1 || rc=$?
grep -E '^#[0-9]+.*DONE|ERROR|finding|SUMMARY|^stat::' "$build/fuzz-$target.log" || true
echo "rc=$rc; findings: $(ls "$findings" | wc -l) in $findings"
exit "$rc"
