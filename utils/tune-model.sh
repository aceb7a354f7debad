#!/usr/bin/env bash
# Tunes a model's anchors (docs/Tuning.md): plans the candidates, compiles
# one library per round, measures each round's kernels on the GPU, and
# writes the records of the fastest candidates.
#
#   utils/tune-model.sh MODEL DIR [options] [-- hidet-compile args...]
#
#   --tools BIN       directory of hidet-compile, hidet-run, hidet-tune
#                     (default: build/bin)
#   --space LEVEL     default, small (default) or full
#   --jobs N          compilations at a time (default: the cores / 2)
#   --phase P         plan, compile, measure, check or records only
#                     (default: all; plan and compile need no GPU, measure
#                     and check need one)
#   --run "ARGS"      hidet-run arguments of each measurement and check:
#                     the inputs (default: none, random inputs); with
#                     --expected-output and tolerances, every round is
#                     checked as it is measured
#   --check "ARGS"    hidet-run arguments that check a round's outputs
#                     (--expected-output, tolerances): only the rounds whose
#                     candidates would win are checked, after all rounds are
#                     measured, until every winner has passed
#   --profile N       profiled runs per round (default 10)
#   --one-process     measure the rounds in one hidet-run process (one CUDA
#                     context; each round still loads its weights), a new
#                     one after a round that fails with an error (default:
#                     one process per round)
#   --first-pass N    early elimination: first profile every round N times,
#                     then profile again (--profile times) only the rounds
#                     that hidet-tune survivors keeps: those not clearly
#                     slower than the best for every signature they measure,
#                     and the default's (default 0: off; at least 5 for
#                     the default --eliminate-significance, which fewer
#                     runs cannot reach)
#   --eliminate "ARGS" hidet-tune survivors options (--eliminate-margin,
#                     --eliminate-significance)
#   --pick "ARGS"     hidet-tune records options that decide when a candidate
#                     replaces the default (--min-gain, --significance)
#   --cache FILE      records of earlier runs: their signatures (measured by
#                     this hidet-tune version) are not tuned again, and the
#                     new records are merged into FILE
#
# Each round compiled or measured reports the round, how many signatures it
# tunes, the time so far and an ETA: a bar redrawn in place on a terminal,
# a line each in a log or a pipe.
#
# DIR gets plan/ (plan.json, round-<i>.json), round-<i>.so, its profile
# round-<i>.profile.json, the checks round-<i>.check.json, records.json,
# summary.json (hidet-tune --json) and log/. Arguments after -- go to
# every hidet-compile, with %ROUND% replaced by the round (the plan's
# compilation: "plan"), so that parallel compilations write their own
# files (e.g. --precision=f16 --external-weights=DIR/w-%ROUND%).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: tune-model.sh MODEL DIR [--tools BIN] [--space L] [--jobs N] [--phase P] [--run ARGS] [--check ARGS] [--profile N] [--one-process] [--first-pass N] [--eliminate ARGS] [--pick ARGS] [--cache FILE] [-- compile args]"
model="${1:?$usage}"
dir="${2:?$usage}"
shift 2
tools="$src/build/bin" space=small phase=all run="" check="" profile=10 cache=""
one_process=0
pick="" first_pass=0 eliminate=""
jobs=$(( ($(nproc) + 1) / 2 ))
compile_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools="$2"; shift 2 ;;
    --space) space="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --phase) phase="$2"; shift 2 ;;
    --run) run="$2"; shift 2 ;;
    --check) check="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --one-process) one_process=1; shift ;;
    --first-pass) first_pass="$2"; shift 2 ;;
    --eliminate) eliminate="$2"; shift 2 ;;
    --pick) pick="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --) shift; compile_args=("$@"); break ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir/log"
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
rounds() { ls "$dir/plan" | sed -n 's/^round-\([0-9]*\)\.json$/\1/p' | sort -n; }

if [ "$phase" = all ] || [ "$phase" = plan ]; then
  t=$(now)
  plan_args=("${compile_args[@]//%ROUND%/plan}")
  if [ -n "$cache" ] && [ -f "$cache" ]; then
    plan_args+=(--tuning-records="$cache")
  fi
  "$tools/hidet-compile" "$model" "${plan_args[@]}" \
    --tuning-plan="$dir/plan" --tuning-space="$space" -o "$dir/default.so" \
    > "$dir/log/plan.log" 2>&1
  echo "plan: $(rounds | wc -l) rounds, $(sed -n 's/.*"known": \([0-9]*\).*/\1/p' "$dir/plan/plan.json") anchors known ($(elapsed "$t") s)"
fi
compile_round() {
  local r="$1"
  local args=("${compile_args[@]//%ROUND%/$r}")
  "$tools/hidet-compile" "$model" "${args[@]}" \
    --tuning-records="$dir/plan/round-$r.json" -o "$dir/round-$r.so" \
    > "$dir/log/compile-$r.log" 2>&1 ||
    say "round $r: compilation failed (log/compile-$r.log)"
}
# The signatures that round $1 gives a candidate of (its records file has
# one record per signature).
signatures_of() {
  grep -c '"signature"' "$dir/plan/round-$1.json" 2>/dev/null || echo 0
}
# On a terminal, progress is a bar redrawn in place; elsewhere (a log, a
# pipe) plain lines.
tty=0
if [ -t 1 ]; then tty=1; fi
# "what i/n (round r: k signatures), e s, ETA s" from the start time, the
# count done and the round at hand; on a terminal after a bar of i/n.
progress() {
  awk -v what="$1" -v i="$2" -v n="$3" -v t="$4" -v now="$(now)" \
    -v r="$5" -v k="$(signatures_of "$5")" -v tty="$tty" 'BEGIN {
    e = now - t
    line = sprintf("%s %d/%d (round %d: %d signature%s), %.0f s, ETA %.0f s",
      what, i, n, r, k, (k == 1 ? "" : "s"), e, (i ? e / i * (n - i) : 0))
    if (!tty) { print line; exit }
    bar = ""
    for (j = 0; j < 24; ++j) bar = bar (j < int(24 * i / (n ? n : 1)) ? "#" : ".")
    printf "\r[%s] %s\033[K", bar, line }'
}
# A message on a line of its own (below the bar, on a terminal).
say() {
  if [ "$tty" = 1 ]; then printf '\r\033[K%s\n' "$*"; else echo "$*"; fi
}
# Ends a phase's bar, so that what follows starts on a new line.
end_progress() {
  if [ "$tty" = 1 ]; then printf '\n'; fi
}
if [ "$phase" = all ] || [ "$phase" = compile ]; then
  t=$(now)
  total=$(rounds | wc -l) running=0 done=0
  for r in $(rounds); do
    compile_round "$r" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
      wait -n || true
      running=$((running - 1)) done=$((done + 1))
      progress compile "$done" "$total" "$t" "$r"
    fi
  done
  wait
  end_progress
  echo "compile: $(elapsed "$t") s with $jobs at a time"
fi
# measure_rounds WHAT RUNS ROUNDS...: profiles each round's library RUNS
# times into round-<i>.profile.json.
measure_rounds() {
  local what="$1" runs="$2" total done=0 t r
  shift 2
  t=$(now) total=$#
  if [ "$one_process" = 1 ]; then
    measure_together "$what" "$runs" "$t" "$@"
    end_progress
    return
  fi
  for r in "$@"; do
    done=$((done + 1))
    progress "$what" "$done" "$total" "$t" "$r"
    [ -f "$dir/round-$r.so" ] || continue
    # shellcheck disable=SC2086
    "$tools/hidet-run" "$dir/round-$r.so" $run --reps 0 --profile "$runs" \
      --json "$dir/round-$r.profile.json" > "$dir/log/measure-$r.log" 2>&1 ||
      say "round $r: did not pass (log/measure-$r.log)"
  done
  end_progress
}
# measure_together WHAT RUNS START ROUNDS...: measure_rounds with the rounds
# left in one hidet-run process (--json-dir), which stops at the first round
# that fails with an error: the rounds after the last one it started go to
# a new process. A round without a report, or whose report's status is
# not pass or unverified, is reported.
measure_together() {
  local what="$1" runs="$2" t="$3" total base=0 r k first started status
  shift 3
  total=$#
  local left=() libs=() next=() reports="$dir/log/reports"
  for r in "$@"; do
    if [ -f "$dir/round-$r.so" ]; then left+=("$r"); else base=$((base + 1)); fi
  done
  while [ ${#left[@]} -gt 0 ]; do
    first=${left[0]} libs=() next=() k=0
    for r in "${left[@]}"; do libs+=("$dir/round-$r.so"); done
    rm -rf "$reports"
    # Progress as hidet-run starts each library ("library i/n: PATH").
    # shellcheck disable=SC2086 # the run options are words
    { "$tools/hidet-run" "${libs[@]}" $run --reps 0 --profile "$runs" \
      --json-dir "$reports" 2>&1 || true; } | tee "$dir/log/measure-$first.log" |
      while IFS= read -r line; do
        case "$line" in
        *"hidet-run: library "*/*": "*)
          r=${line##*round-} i=${line##*hidet-run: library }
          progress "$what" $((base + ${i%%/*})) "$total" "$t" "${r%.so}" ;;
        esac
      done
    # hidet-run always starts the first library; it names each only when
    # it has several.
    started=$(sed -n 's|.*hidet-run: library \([0-9]*\)/.*|\1|p' \
      "$dir/log/measure-$first.log" | tail -n 1)
    [ "${started:-0}" -gt 0 ] || started=1
    for r in "${left[@]}"; do
      k=$((k + 1))
      if [ "$k" -gt "$started" ]; then
        next+=("$r")
        continue
      fi
      base=$((base + 1)) status=missing
      if [ -f "$reports/round-$r.json" ]; then
        mv "$reports/round-$r.json" "$dir/round-$r.profile.json"
        status=$(sed -n 's/^  "status": "\(.*\)",$/\1/p' "$dir/round-$r.profile.json")
      fi
      case "$status" in
      "" | pass | unverified) ;;
      *) say "round $r: did not pass (log/measure-$first.log)" ;;
      esac
    done
    left=(${next[@]+"${next[@]}"})
  done
  rm -rf "$reports"
}
if [ "$phase" = all ] || [ "$phase" = measure ]; then
  t=$(now)
  # shellcheck disable=SC2046 # the rounds are words
  if [ "$first_pass" -gt 0 ]; then
    measure_rounds "measure (first pass)" "$first_pass" $(rounds)
    shopt -s nullglob
    # shellcheck disable=SC2086 # the options are words
    survivors=$("$tools/hidet-tune" survivors --plan="$dir/plan/plan.json" \
      $eliminate "$dir"/round-*.profile.json 2> "$dir/log/survivors.log") || {
      echo "measure: hidet-tune survivors failed (log/survivors.log)" >&2
      exit 1
    }
    shopt -u nullglob
    say "$(tail -n 1 "$dir/log/survivors.log" | sed 's/^hidet-tune: //') after $first_pass runs"
    # shellcheck disable=SC2086
    measure_rounds measure "$profile" $survivors
  else
    measure_rounds measure "$profile" $(rounds)
  fi
  if [ "$one_process" = 1 ]; then
    echo "measure: $(elapsed "$t") s in one process"
  else
    echo "measure: $(elapsed "$t") s"
  fi
fi
# The rounds whose candidates would win are checked (hidet-tune to-check),
# those that fail drop out, and the next winners are checked, until every
# winner has passed: the other rounds' outputs are never read back.
shopt -s nullglob
if { [ "$phase" = all ] || [ "$phase" = check ]; } && [ -n "$check" ]; then
  t=$(now) checked=0
  while :; do
    # shellcheck disable=SC2086 # the pick options are words
    pending=$("$tools/hidet-tune" to-check --plan="$dir/plan/plan.json" $pick \
      "$dir"/round-*.profile.json "$dir"/round-*.check.json \
      2> "$dir/log/to-check.log") || {
      echo "check: hidet-tune to-check failed (log/to-check.log)" >&2
      exit 1
    }
    [ -n "$pending" ] || break
    for r in $pending; do
      checked=$((checked + 1))
      say "check round $r"
      # shellcheck disable=SC2086
      "$tools/hidet-run" "$dir/round-$r.so" $run $check --reps 0 \
        --json "$dir/round-$r.check.json" > "$dir/log/check-$r.log" 2>&1 ||
        say "round $r: did not pass its check (log/check-$r.log)"
      # A run that wrote no report failed: so recorded, it is not listed
      # again.
      [ -f "$dir/round-$r.check.json" ] ||
        echo '{"status": "error"}' > "$dir/round-$r.check.json"
    done
  done
  echo "check: $checked rounds ($(elapsed "$t") s)"
fi
if [ "$phase" = all ] || [ "$phase" = records ]; then
  merge=()
  if [ -n "$cache" ]; then merge=(--merge="$cache"); fi
  # shellcheck disable=SC2086 # the pick options are words
  "$tools/hidet-tune" records --plan="$dir/plan/plan.json" "${merge[@]}" $pick \
    "$dir"/round-*.profile.json "$dir"/round-*.check.json \
    -o "$dir/records.json" \
    --json="$dir/summary.json"
  if [ -n "$cache" ]; then cp "$dir/records.json" "$cache"; fi
fi
