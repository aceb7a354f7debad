#!/usr/bin/env bash
# Tuning whole models against their default schedules: each model of
# utils/models/generate.py (random weights, seed 0) is tuned by
# utils/tune-model.sh (plan, rounds compiled in parallel, every round
# profiled on the test inputs, the winning rounds checked against PyTorch's
# float32 output, records), compiled again with its records, and timed
# against its default library in the same run: whole forwards as CUDA graph
# replays (hidet-run --cuda-graph, median of 200), twice alternately, the
# second pair counting, both checked against the same outputs. Every check
# is bench/models' (bench/models/checks.sh: each element and the relative
# L2 error, bounds scaled to the output), so that a round whose outputs
# bench/models would reject gives no record; DIR/NAME/checks holds the
# hidet-run arguments used.
#
#   bench/tuning-models/run.sh DIR OUT COMMIT DATE [--tools T] [--jobs N]
#       [--space L] [--models bert,gpt2,resnet50] [--batch 32]
#       [--precision f16] [--first-pass N] [--one-process] [--compile-only]
#       [--no-report]
#
# --first-pass N: early elimination (utils/tune-model.sh --first-pass):
# every round is profiled N times first and only the survivors again.
# --one-process: the rounds measured by one hidet-run process
# (utils/tune-model.sh --one-process).
# --compile-only: generate, plan and compile the rounds, then stop; a later
# call (same DIR) measures them, so that a model whose tuning outlasts one
# call of the GPU machine is tuned in two.
#
# Runs on the GPU machine (PyTorch, torchvision and onnx for the models).
# T holds bin/{hidet-compile,hidet-run,hidet-tune} and lib/
# (utils/static-tools.sh; default: build). A model whose DIR/NAME is
# complete is not tuned again, so that a run cut short resumes. Writes
# OUT/tuning.{json,md} of the models complete in DIR (report.py; for f32
# models OUT/tuning-f32.{json,md}).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
usage="usage: run.sh DIR OUT COMMIT DATE [--tools T] [--jobs N] [--space L] [--models M,...] [--batch B] [--precision P] [--first-pass N] [--one-process] [--compile-only] [--no-report]"
dir="${1:?$usage}" out="${2:?$usage}" commit="${3:?$usage}" date="${4:?$usage}"
shift 4
tools="$src/build" jobs=$(nproc) space=small models=bert,gpt2,resnet50
batch=32 precision=f16 report=1 first_pass=0 compile_only=0 one_process=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --space) space="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    --batch) batch="$2"; shift 2 ;;
    --precision) precision="$2"; shift 2 ;;
    --first-pass) first_pass="$2"; shift 2 ;;
    --one-process) one_process=(--one-process); shift ;;
    --compile-only) compile_only=1; shift ;;
    --no-report) report=0; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
bin="$tools/bin" lib="$tools/lib"
# The checks of bench/models/run.sh against PyTorch's float32 CPU output.
# shellcheck source=../models/checks.sh
source "$src/bench/models/checks.sh"
case "$precision" in
  f16) compile_precision=(--precision=f16) ;;
  f32) compile_precision=() ;;
  *) echo "run.sh: --precision f16 or f32" >&2; exit 2 ;;
esac
tolerances="$(model_check_args "$precision")"

# shellcheck source=../common/step.sh
source "$src/bench/common/step.sh"

# tune MODEL: DIR/NAME/{gen/,tune/,tuned.so,default.json,tuned.json}, then
# DIR/NAME/done; a model whose step fails is left without done, and the
# others go on. The rounds compiled (DIR/NAME/compiled) are kept for a later
# call; each phase of utils/tune-model.sh logs to DIR/NAME/tune-PHASE.log,
# and DIR/NAME/tune.log is all of them.
tune() {
  local model="$1" name="$1-b$batch-$precision" d="$dir/$1-b$batch-$precision"
  local start phase
  start=$(date +%s)
  [ -f "$d/done" ] && return
  local data="$d/gen/$model/test_data_set_0" inputs="" expected="" f
  # Every round's weights are the plan's: the schedules do not change them.
  local tune_args=("$d/gen/$model.onnx" "$d/tune" --tools "$bin" --space "$space"
    --jobs "$jobs" --first-pass "$first_pass" ${one_process[@]+"${one_process[@]}"})
  local compile_args=(-- "${compile_precision[@]}" --external-weights="$d/w-%ROUND%"
    --runtime-dir="$lib")
  if [ ! -f "$d/compiled" ]; then
    rm -rf "$d/tune" "$d"/tune*.log && mkdir -p "$d"
    if [ ! -f "$d/gen/$model.onnx" ]; then
      step "$name" "$d/generate.log" python3 "$src/utils/models/generate.py" \
        --out "$d/gen" --models "$model" --batch "$batch" --seed 0 \
        --reference || return 0
    fi
    for phase in plan compile; do
      step "$name" "$d/tune-$phase.log" "$src/utils/tune-model.sh" \
        "${tune_args[@]}" --phase "$phase" "${compile_args[@]}" || return 0
    done
    touch "$d/compiled"
  fi
  [ "$compile_only" = 1 ] && return
  echo "$tolerances" > "$d/checks"
  for f in "$data"/input_*.pb; do inputs="$inputs --input=@$f"; done
  for f in "$data"/output_*.pb; do expected="$expected --expected-output=@$f"; done
  local run="--weights=@$d/w-plan$inputs"
  for phase in measure check records; do
    step "$name" "$d/tune-$phase.log" "$src/utils/tune-model.sh" \
      "${tune_args[@]}" --phase "$phase" --run "$run" \
      --check "$expected $tolerances" "${compile_args[@]}" || return 0
  done
  cat "$d"/tune-{plan,compile,measure,check,records}.log > "$d/tune.log"
  rm -f "$d"/w-[0-9]*
  step "$name" "$d/tuned-compile.log" "$bin/hidet-compile" \
    "$d/gen/$model.onnx" "${compile_precision[@]}" \
    --external-weights="$d/w-tuned" --tuning-records="$d/tune/records.json" \
    --runtime-dir="$lib" -o "$d/tuned.so" || return 0
  local pass v so weights
  for pass in 1 2; do
    for v in default tuned; do
      so="$d/tuned.so" weights="$d/w-tuned"
      [ "$v" = default ] && so="$d/tune/default.so" weights="$d/w-plan"
      # shellcheck disable=SC2086 # the inputs and checks are words
      step "$name" "$d/$v.log" "$bin/hidet-run" "$so" --weights="@$weights" \
        $inputs $expected $tolerances --cuda-graph --warmup 20 --reps 200 \
        --json "$d/$v.json" || return 0
    done
  done
  touch "$d/done"
  echo "$name: $(sed -n 's/^plan: \([0-9]*\) rounds.*/\1 rounds/p' "$d/tune.log"), $(( $(date +%s) - start )) s"
}

IFS=, read -r -a model_list <<< "$models"
for model in "${model_list[@]}"; do
  tune "$model"
done
if [ "$report" = 1 ]; then
  python3 "$here/report.py" "$dir" "$out" "$commit" "$date"
fi
