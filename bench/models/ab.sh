#!/usr/bin/env bash
# One model configuration compiled several ways and timed against itself in
# one run: which compiler option costs or gains what, end to end. Each
# variant is hidet-compile with extra arguments (e.g. pipeline options);
# every library is checked against PyTorch's float32 output (the checks of
# run.sh, checks.sh) and the variants are timed in turns, ROUNDS times, each a CUDA
# graph replay (median of 200), so that drift hits them alike.
#
#   bench/models/ab.sh run DIR OUT COMMIT DATE --model M [--batch B]
#       [--precision f16|f32] [--rounds R] VARIANT...
#
# DIR is prepared by `bench/models/run.sh prepare DIR --tools TARBALL` (its
# generate.py and tools). A VARIANT is NAME or NAME=ARGS: ARGS are added to
# hidet-compile's command line (split at spaces, so that several pipeline
# options are several --pipeline-options, which add up), e.g.
#   default  no-tma-b=--pipeline-options=wgmma-tma-b=0
#   "neither=--pipeline-options=wgmma-tma-b=0 --pipeline-options=wgmma-async-arrive=0"
# Output: OUT/ab-<model>-b<batch>-<precision>-<gpu>.{json,md}; the first
# variant is the one the others are compared with.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "ab.sh: $*" >&2; exit 1; }
usage() { sed -n '/^#   bench\/models\/ab.sh/,/^#       \[/s/^#   //p' "$0" >&2; exit 2; }

[ "${1:-}" = run ] || usage
[ $# -ge 5 ] || usage
dir="$2" out="$3" commit="$4" date="$5"
shift 5
model="" batch=1 precision=f16 rounds=2 variants=()
while [ $# -gt 0 ]; do
  case "$1" in
  --model) model="${2:?}"; shift 2 ;;
  --batch) batch="${2:?}"; shift 2 ;;
  --precision) precision="${2:?}"; shift 2 ;;
  --rounds) rounds="${2:?}"; shift 2 ;;
  -*) die "unknown option $1" ;;
  *) variants+=("$1"); shift ;;
  esac
done
[ -n "$model" ] || die "--model is required"
[[ "$batch" =~ ^[1-9][0-9]*$ ]] || die "bad --batch '$batch'"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "bad --rounds '$rounds'"
# shellcheck source=checks.sh
. "$here/checks.sh"
read -r -a checks <<<"$(model_check_args "$precision" 2>/dev/null)"
[ ${#checks[@]} -gt 0 ] || die "bad --precision '$precision' (f16 or f32)"
[ ${#variants[@]} -ge 2 ] || die "at least two variants"
for x in generate.py own_models.py hub_models.py tools.tar.xz; do
  [ -f "$dir/$x" ] || die "$dir/$x missing: run 'bench/models/run.sh prepare $dir' first"
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xJf "$dir/tools.tar.xz" -C "$work" || die "cannot untar $dir/tools.tar.xz"
found="$(find "$work" -maxdepth 3 -path '*/bin/hidet-compile' | head -1)"
[ -n "$found" ] || die "no bin/hidet-compile in $dir/tools.tar.xz"
tools="$(dirname "$(dirname "$found")")"
cfg="$model-b$batch-$precision"
echo "[$SECONDS s] generate $model b$batch"
python3 "$dir/generate.py" --out "$work/model" --models "$model" --batch "$batch" \
  --seed 0 --reference >"$work/generate.log" 2>&1 || {
  tail -5 "$work/generate.log"
  die "generate.py failed"
}
onnx="$work/model/$model.onnx"
data="$work/model/$model/test_data_set_0"
if [ ! -f "$onnx" ] || [ ! -d "$data" ]; then
  die "generate.py wrote no $onnx or $data"
fi
io=()
for ((k = 0; ; k++)); do
  [ -f "$data/input_$k.pb" ] || break
  io+=("--input=@$data/input_$k.pb")
done
for ((k = 0; ; k++)); do
  [ -f "$data/output_$k.pb" ] || break
  io+=("--expected-output=@$data/output_$k.pb")
done

# Compile every variant at once (the CPUs), then time them in turns.
names=()
for v in "${variants[@]}"; do
  name="${v%%=*}" args=()
  [[ "$name" =~ ^[A-Za-z0-9_.-]+$ ]] || die "bad variant name '$name'"
  # shellcheck disable=SC2206 # the arguments are words
  [ "$v" != "$name" ] && args=(${v#*=})
  names+=("$name")
  prec=()
  [ "$precision" = f16 ] && prec=(--precision=f16)
  "$tools/bin/hidet-compile" "$onnx" "${prec[@]}" "${args[@]}" \
    --external-weights="$work/$name.weights" --runtime-dir="$tools/lib" \
    -o "$work/$name.so" >"$work/$name.compile.log" 2>&1 &
done
wait
mkdir -p "$out/ab-raw" || die "cannot create $out"
for name in "${names[@]}"; do
  [ -f "$work/$name.so" ] || { tail -5 "$work/$name.compile.log"; die "$name: compile failed"; }
done
for ((r = 1; r <= rounds; r++)); do
  for name in "${names[@]}"; do
    LD_LIBRARY_PATH="$tools/lib" "$tools/bin/hidet-run" "$work/$name.so" \
      --weights="@$work/$name.weights" "${io[@]}" "${checks[@]}" \
      --cuda-graph --warmup 20 --reps 200 --json "$out/ab-raw/$name.$r.json" \
      >"$work/$name.$r.log" 2>&1
    echo "[$SECONDS s] round $r $name: exit $? $(grep -m1 -o 'PASS.*\|FAIL.*' "$work/$name.$r.log" | cut -c1-100)"
  done
done
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
python3 "$here/ab_report.py" "$out" "$cfg" "$commit" "$date" "$gpu" "$rounds" \
  "${variants[@]}"
