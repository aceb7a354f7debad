#!/usr/bin/env bash
# The ONNX backend conformance suite (Debian's libonnx-testdata) through the
# front door: each test's model.onnx is compiled (hidet-compile, which
# imports it; hidet-import-onnx where graph inputs must be bound) and run,
# several tests at once, on its test_data_set_*/input_*.pb against
# output_*.pb (hidet-run, ONNX's tolerances: rtol 1e-3, atol 1e-7). In two
# halves, for when the machine with MLIR is not the one with the GPU:
#
#   utils/onnx-conformance.sh prepare DIR [options]
#       --target cpu|gpu   (default cpu)
#       --suite NAME       node, pytorch-converted, pytorch-operator or
#                          simple (default node; repeatable)
#       --filter REGEX     only tests whose name matches (grep -E)
#       --build DIR        the build directory (default build/)
#       --data DIR         the suite's root (default
#                          /usr/share/libonnx-testdata/data)
#       --import-options "OPTS"  more import options, which
#                          hidet-compile and hidet-import-onnx both take
#                          (e.g. "--precision=f16")
#       --compile-options "OPTS" more hidet-compile options (e.g.
#                          "--cpu-pipeline=fast")
#       --tolerance "RTOL ATOL"   for run (default "1e-3 1e-7", ONNX's)
#       --jobs N           tests prepared at once (default: the CPUs)
#     writes DIR/<suite>/<test>/{model.mlir,model.so,test_data_set_*,status}
#     and copies hidet-run and libhidet_runtime.so into DIR. Graph inputs
#     that must be known at import (shapes, axes, pads: this compiler
#     specializes on them) are bound to test_data_set_0's values; the
#     other data sets of such a test are run only if they hold the same
#     values for them.
#   utils/onnx-conformance.sh run DIR [REPORT] [--jobs N]
#     runs every compiled test (N at once, default: the CPUs) and writes
#     DIR/results.tsv (suite, test, outcome, detail: one line per test, in
#     the order of the tests' names) and a Markdown summary to REPORT
#     (default DIR/report.md): counts per suite, every failure with its
#     reason, and a table by op type. Outcomes: pass, mismatch, run-error,
#     compile-error, unsupported-op, import-error.
#   utils/onnx-conformance.sh report DIR [REPORT]
#     writes the summary of DIR/results.tsv to REPORT again (default
#     DIR/report.md), e.g. after the tests of DIR ran in parts.
#   utils/onnx-conformance.sh check DIR EXPECTED
#     fails (exit 1) when a test listed in EXPECTED (one suite/test per
#     line) did not pass, and lists the tests that pass but are not listed.
#
# On a machine with both, `prepare DIR --target gpu && run DIR` does it all.
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: onnx-conformance.sh prepare|run|report|check DIR ..."
mode="${1:?$usage}"
dir="${2:?$usage}"
shift 2

prepare() {
  local target=cpu filter='' build="$src/build" extra='' tolerance='1e-3 1e-7'
  local compileExtra=''
  local data=/usr/share/libonnx-testdata/data jobs
  jobs="$(nproc)"
  local suites=()
  while [ $# -gt 0 ]; do
    case "$1" in
    --target) target="$2"; shift 2 ;;
    --suite) suites+=("$2"); shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --data) data="$2"; shift 2 ;;
    --import-options) extra="$2"; shift 2 ;;
    --compile-options) compileExtra="$2"; shift 2 ;;
    --tolerance) tolerance="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "onnx-conformance: unknown option $1" >&2; exit 2 ;;
    esac
  done
  [ ${#suites[@]} -eq 0 ] && suites=(node)
  case "$target" in cpu | gpu) ;; *)
    echo "onnx-conformance: --target must be cpu or gpu" >&2; exit 2 ;;
  esac
  checkJobs "$jobs"
  for tool in hidet-import-onnx hidet-compile; do
    [ -x "$build/bin/$tool" ] || {
      echo "onnx-conformance: $build/bin/$tool is missing" >&2; exit 2; }
  done
  mkdir -p "$dir"
  echo "$target" >"$dir/target"
  echo "$tolerance" >"$dir/tolerance"
  echo "$extra" >"$dir/import-options"
  git -C "$src" rev-parse --short=7 HEAD >"$dir/commit" 2>/dev/null ||
    echo unknown >"$dir/commit"
  [ -x "$build/bin/hidet-run" ] &&
    cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$dir/"
  local compileArgs=(--target="$target")
  [ "$target" = gpu ] && compileArgs=(--runtime-dir="$build/lib")
  local -a compileMore
  read -r -a compileMore <<<"$compileExtra"
  compileArgs+=("${compileMore[@]}")
  local -a importArgs
  read -r -a importArgs <<<"$extra"
  local suite test name
  for suite in "${suites[@]}"; do
    [ -d "$data/$suite" ] || {
      echo "onnx-conformance: no suite $data/$suite" >&2; exit 2; }
  done
  for suite in "${suites[@]}"; do
    for test in "$data/$suite"/*/; do
      name="$(basename "$test")"
      [ -f "$test/model.onnx" ] || continue
      if [ -n "$filter" ] && ! grep -qE "$filter" <<<"$name"; then
        continue
      fi
      startJob "$jobs" prepareTest "$build" "$test" "$dir/$suite/$name"
    done
  done
  wait
}

# Imports and compiles one TEST into OUT, whose status file says how far it
# got. Reads compileArgs and importArgs from prepare.
prepareTest() {
  local build="$1" test="$2" out="$3"
  mkdir -p "$out"
  : >"$out/bound"
  "$build/bin/hidet-import-onnx" "$test/model.onnx" --print-op-types \
    >"$out/ops" 2>/dev/null
  # hidet-compile imports the model itself: one process instead of two.
  # Only a model with inputs to bind goes through hidet-import-onnx.
  if ! "$build/bin/hidet-compile" "$test/model.onnx" -o "$out/model.so" \
    "${compileArgs[@]}" "${importArgs[@]}" 2>"$out/log"; then
    if ! grep -q "hidet-compile: cannot import" "$out/log"; then
      echo "compile-error" >"$out/status"
      return
    fi
    if ! grep -q "must be known at import" "$out/log" ||
      ! import "$build" "$test" "$out" "${importArgs[@]}"; then
      if grep -q "unsupported ONNX ops" "$out/log"; then
        echo "unsupported-op" >"$out/status"
      else
        echo "import-error" >"$out/status"
      fi
      return
    fi
    if ! "$build/bin/hidet-compile" "$out/model.mlir" -o "$out/model.so" \
      "${compileArgs[@]}" 2>"$out/log"; then
      echo "compile-error" >"$out/status"
      return
    fi
    rm -f "$out/model.mlir" # As large as the weights; the .so has them.
  fi
  cp -r "$test"/test_data_set_* "$out/"
  echo "ready" >"$out/status"
}

# The tests are independent processes, each of one core: N run at once.
checkJobs() {
  [[ "$1" =~ ^[1-9][0-9]*$ ]] || {
    echo "onnx-conformance: --jobs must be a positive number" >&2; exit 2; }
}

# startJob N COMMAND...: runs COMMAND in the background once fewer than N
# started ones are still running.
startJob() {
  local jobs="$1"
  shift
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n || true
  done
  "$@" &
}

# Imports TEST's model into OUT/model.mlir. A graph input that the model
# needs at import (a shape, axes, pads) is bound to its value in
# test_data_set_0 (hidet-import-onnx --bind-input) and listed in OUT/bound
# by position, so that the runner does not pass it.
import() {
  local build="$1" test="$2" out="$3" binds=() name index
  shift 3
  local -a inputs
  mapfile -t inputs < <("$build/bin/hidet-import-onnx" "$test/model.onnx" \
    --print-inputs 2>/dev/null)
  for _ in 1 2 3 4 5 6; do
    if "$build/bin/hidet-import-onnx" "$test/model.onnx" "$@" "${binds[@]}" \
      -o "$out/model.mlir" 2>"$out/log"; then
      return 0
    fi
    name="$(sed -n "s/.* input [0-9]* ('\(.*\)') must be known at import.*/\1/p" \
      "$out/log" | head -n1)"
    [ -n "$name" ] || return 1
    index=-1
    for i in "${!inputs[@]}"; do
      [ "${inputs[$i]}" = "$name" ] && index=$i
    done
    [ "$index" -ge 0 ] && [ -f "$test/test_data_set_0/input_$index.pb" ] ||
      return 1
    binds+=("--bind-input=$name=@$test/test_data_set_0/input_$index.pb")
    echo "$index" >>"$out/bound"
  done
  return 1
}

# One line of detail from a log: its first error, else its last line.
detail() {
  { grep -m1 -iE "error|mismatch|fail" "$1" || tail -n1 "$1"; } |
    tr '\t' ' ' | cut -c1-200
}

run() {
  local report="$dir/report.md" jobs
  jobs="$(nproc)"
  while [ $# -gt 0 ]; do
    case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    -*) echo "onnx-conformance: unknown option $1" >&2; exit 2 ;;
    *) report="$1"; shift ;;
    esac
  done
  checkJobs "$jobs"
  dir="$(cd "$dir" && pwd)"
  local results="$dir/results.tsv" out rtol atol
  read -r rtol atol <"$dir/tolerance"
  for out in "$dir"/*/*/; do
    [ -f "$out/status" ] || continue
    rm -f "$out/result"
    startJob "$jobs" runTest "$out" "$rtol" "$atol"
  done
  wait
  : >"$results"
  for out in "$dir"/*/*/; do
    [ -f "$out/status" ] || continue
    cat "$out/result" >>"$results"
  done
  summarize "$results" >"$report"
  cat "$report"
}

# Runs the compiled test OUT on each of its data sets and writes its line
# of results.tsv to OUT/result.
runTest() {
  local out="$1" rtol="$2" atol="$3" suite name status set args rc outcome
  local i same
  name="$(basename "$out")"
  suite="$(basename "$(dirname "$out")")"
  status="$(cat "$out/status")"
  if [ "$status" != ready ]; then
    printf '%s\t%s\t%s\t%s\n' "$suite" "$name" "$status" \
      "$(detail "$out/log")" >"$out/result"
    return
  fi
  outcome=pass
  : >"$out/run.log"
  for set in "$out"/test_data_set_*/; do
    same=1
    while read -r i; do
      cmp -s "$set/input_$i.pb" "$out/test_data_set_0/input_$i.pb" || same=0
    done <"$out/bound"
    [ "$same" -eq 1 ] || continue
    args=()
    for ((i = 0; ; i++)); do
      [ -f "$set/input_$i.pb" ] || break
      grep -qx "$i" "$out/bound" && continue
      args+=("--input=@$set/input_$i.pb")
    done
    for ((i = 0; ; i++)); do
      [ -f "$set/output_$i.pb" ] || break
      args+=("--expected-output=@$set/output_$i.pb")
    done
    LD_LIBRARY_PATH="$dir:${LD_LIBRARY_PATH:-}" \
      "$dir/hidet-run" "$out/model.so" "${args[@]}" --reps=0 --warmup=0 \
      --rtol="$rtol" --atol="$atol" \
      >>"$out/run.log" 2>&1
    rc=$?
    if [ "$rc" -eq 1 ]; then
      outcome=mismatch
      break
    elif [ "$rc" -ne 0 ]; then
      outcome=run-error
      break
    fi
  done
  printf '%s\t%s\t%s\t%s\n' "$suite" "$name" "$outcome" \
    "$(if [ "$outcome" = pass ]; then echo; else detail "$out/run.log"; fi)" \
    >"$out/result"
}

summarize() {
  local results="$1" total
  total=$(wc -l <"$results")
  echo "# ONNX backend conformance: $(cat "$dir/target") target"
  echo
  echo "Commit $(cat "$dir/commit"), $(date -u +%Y-%m-%d), ONNX test data from"
  echo "Debian's libonnx-testdata (ONNX 1.12) unless the suite says otherwise."
  echo "Tolerances: rtol $(cut -d' ' -f1 "$dir/tolerance"), atol $(cut -d' ' -f2 "$dir/tolerance")."
  if [ -n "$(cat "$dir/import-options" 2>/dev/null)" ]; then
    echo "hidet-import-onnx options: $(cat "$dir/import-options")."
  fi
  [ -f "$dir/device" ] && echo "Device: $(cat "$dir/device")."
  echo
  echo "| suite | tests | pass | mismatch | run-error | compile-error | unsupported-op | import-error |"
  echo "|---|---|---|---|---|---|---|---|"
  local suite
  for suite in $(cut -f1 "$results" | sort -u) ALL; do
    awk -F'\t' -v s="$suite" '
      s == "ALL" || $1 == s { n++; c[$3]++ }
      END { printf "| %s | %d | %d | %d | %d | %d | %d | %d |\n", s, n,
            c["pass"], c["mismatch"], c["run-error"], c["compile-error"],
            c["unsupported-op"], c["import-error"] }' "$results"
  done
  echo
  echo "Every test that does not pass, with the first line of its log:"
  echo
  echo '```'
  awk -F'\t' '$3 != "pass" { printf "%s/%s: %s: %s\n", $1, $2, $3, $4 }' \
    "$results"
  echo '```'
  echo
  echo "$total tests."
  echo
  echo "## By op type"
  echo
  echo "Tests that use each op type (a test counts for every op its model uses)"
  echo "and how many of them pass."
  echo
  echo "| op | tests | pass |"
  echo "|---|---|---|"
  local out t
  for out in "$dir"/*/*/; do
    [ -f "$out/ops" ] || continue
    t="$(basename "$(dirname "$out")")/$(basename "$out")"
    sed "s#\$# $t#" "$out/ops"
  done | sort | awk -v results="$results" '
    BEGIN { while ((getline line < results) > 0) {
              split(line, f, "\t"); outcome[f[1] "/" f[2]] = f[3] } }
    { n[$1]++; if (outcome[$2] == "pass") p[$1]++ }
    END { for (op in n) printf "| %s | %d | %d |\n", op, n[op], p[op] }' |
    sort
}

check() {
  local expected="${1:?usage: onnx-conformance.sh check DIR EXPECTED}"
  local results="$dir/results.tsv" status=0 t
  while read -r t; do
    [ -z "$t" ] && continue
    case "$t" in \#*) continue ;; esac
    if ! awk -F'\t' -v t="$t" '$1 "/" $2 == t && $3 == "pass" { found = 1 }
                               END { exit !found }' "$results"; then
      echo "REGRESSION: $t no longer passes: $(awk -F'\t' -v t="$t" \
        '$1 "/" $2 == t { print $3 ": " $4 }' "$results")"
      status=1
    fi
  done <"$expected"
  awk -F'\t' '$3 == "pass" { print $1 "/" $2 }' "$results" |
    grep -vxF -f <(grep -v '^#' "$expected") |
    sed 's/^/NEWLY PASSING (add it to the expected list): /'
  [ "$status" -eq 0 ] && echo "onnx-conformance: every expected test passes"
  return "$status"
}

case "$mode" in
prepare) prepare "$@" ;;
run) run "$@" ;;
report)
  dir="$(cd "$dir" && pwd)"
  [ -f "$dir/results.tsv" ] || { echo "onnx-conformance: no $dir/results.tsv" >&2; exit 2; }
  summarize "$dir/results.tsv" >"${1:-$dir/report.md}"
  ;;
check) check "$@" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
