#!/usr/bin/env bash
# How a model's tuning rounds are measured, compared on the same compiled
# rounds: one hidet-run process per round ("per-round", the default of
# utils/tune-model.sh), all rounds in one process ("one-process",
# --one-process), and one process with early elimination ("first-pass",
# --one-process --first-pass N). The rounds are compiled once
# (bench/tuning-models/run.sh --compile-only); each mode then measures,
# checks and records them in a copy of that directory, and the model is
# compiled with its records and timed against its default as run.sh does.
#
#   bench/tuning-models/measure-modes.sh DIR OUT COMMIT DATE [--tools T]
#       [--model gpt2] [--batch 32] [--precision f16] [--first-pass 5]
#
# Runs on the GPU machine (as run.sh). Writes
# OUT/tuning-measure-modes-<gpu>.{json,md} (measure-modes.py); each mode's
# run.sh report is in DIR/report-<mode>.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: measure-modes.sh DIR OUT COMMIT DATE [--tools T] [--model M] [--batch B] [--precision P] [--first-pass N]"
dir="${1:?$usage}" out="${2:?$usage}" commit="${3:?$usage}" date="${4:?$usage}"
shift 4
tools="$here/../../build" model=gpt2 batch=32 precision=f16 first_pass=5
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools="$2"; shift 2 ;;
    --model) model="$2"; shift 2 ;;
    --batch) batch="$2"; shift 2 ;;
    --precision) precision="$2"; shift 2 ;;
    --first-pass) first_pass="$2"; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
mkdir -p "$dir" "$out"
dir="$(cd "$dir" && pwd)"
name="$model-b$batch-$precision"
common=(--tools "$tools" --models "$model" --batch "$batch" --precision "$precision" --no-report)
"$here/run.sh" "$dir/base" "$out" "$commit" "$date" "${common[@]}" --compile-only
[ -f "$dir/base/$name/compiled" ] || { echo "measure-modes.sh: $name did not compile" >&2; exit 1; }
# Every round is measured with the plan's weights (w-plan): the rounds' own
# copies are not needed.
rm -f "$dir/base/$name"/w-[0-9]*
for mode in per-round one-process first-pass; do
  opts=()
  case "$mode" in
    one-process) opts=(--one-process) ;;
    first-pass) opts=(--one-process --first-pass "$first_pass") ;;
  esac
  rm -rf "${dir:?}/$mode" "$dir/report-$mode"
  mkdir -p "$dir/$mode"
  # The libraries, weights and model are read only and shared (hard links);
  # everything else is copied, since the measurement writes beside it.
  cp -al "$dir/base/." "$dir/$mode/"
  find "$dir/$mode" -type f ! -name '*.so' ! -name 'w-plan' ! -name '*.onnx' \
    ! -name '*.pb' -exec sh -c 'cp -p "$0" "$0.copy" && mv -f "$0.copy" "$0"' {} \;
  start=$(date +%s)
  "$here/run.sh" "$dir/$mode" "$out" "$commit" "$date" "${common[@]}" \
    ${opts[@]+"${opts[@]}"}
  echo "$mode: $(($(date +%s) - start)) s"
  python3 "$here/report.py" "$dir/$mode" "$dir/report-$mode" "$commit" "$date" >/dev/null
done
python3 "$here/measure-modes.py" "$dir" "$out" "$commit" "$date" "$first_pass"
