#!/usr/bin/env bash
# hidet-compile's time on the models of bench/models, one compilation at a
# time on this (CPU) machine: the compile-time half of the models benchmark
# that belongs to the machine without a GPU.
#
#   bench/models/compile-times.sh OUT [options]
#
# For each model and batch, exports the model with utils/models/generate.py
# (random weights, seed 0; PyTorch, torchvision and onnx on this machine:
# utils/install-deps.sh --models) unless W already holds it; then compiles each
# configuration with hidet-compile as bench/models/run.sh does (f16 with
# --precision=f16, --external-weights, a configuration's tuning records
# where --tuning-records has them), one after the other with nothing else of
# this script running, and measures its wall time and peak memory (GNU
# time). Writes OUT/models-compile-cpu.json and OUT/models-compile-cpu.md.
#
# Options (defaults in brackets):
#   --models bert,gpt2,resnet50,vit,mobilenetv2,efficientnet_b0
#   --batches 1,32   --precisions f16,f32
#   --tools DIR [build]   bin/hidet-compile and lib/ (a build directory or
#                         utils/static-tools.sh's output)
#   --tuning-records D    D/<model>-b<batch>-<precision>.json where present
#   --work W [/tmp/hidet-compile-times]  exported models and libraries
#   --commit C [git rev-parse --short HEAD]  the commit of the tools
# PYTHON (default python3) runs generate.py and writes the report: one with
# torch, torchvision and onnx (Debian: PYTHON=/usr/bin/python3).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
PYTHON="${PYTHON:-python3}"

die() {
  echo "compile-times.sh: $*" >&2
  exit 2
}

out="${1:-}"
[ -n "$out" ] && [ "${out#--}" = "$out" ] ||
  die "usage: compile-times.sh OUT [--models L] [--batches L] [--precisions L] [--tools DIR] [--tuning-records D] [--work W] [--commit C]"
shift
models=bert,gpt2,resnet50,vit,mobilenetv2,efficientnet_b0
batches=1,32 precisions=f16,f32 tools="$src/build" records="" work=/tmp/hidet-compile-times
commit=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 needs a value"
  case "$1" in
  --models) models="$2" ;;
  --batches) batches="$2" ;;
  --precisions) precisions="$2" ;;
  --tools) tools="$2" ;;
  --tuning-records) records="$(cd "$2" && pwd)" || die "no directory $2" ;;
  --work) work="$2" ;;
  --commit) commit="$2" ;;
  *) die "unknown option $1" ;;
  esac
  shift 2
done
[ -x "$tools/bin/hidet-compile" ] || die "no $tools/bin/hidet-compile"
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time; Debian: time)"
commit="${commit:-$(git -C "$src" rev-parse --short HEAD)}"
IFS=, read -r -a model_list <<<"$models"
IFS=, read -r -a batch_list <<<"$batches"
IFS=, read -r -a precision_list <<<"$precisions"
for x in "${model_list[@]}"; do [[ "$x" =~ ^[a-z0-9_]+$ ]] || die "bad model '$x'"; done
for x in "${batch_list[@]}"; do [[ "$x" =~ ^[1-9][0-9]*$ ]] || die "bad batch '$x'"; done
for x in "${precision_list[@]}"; do [[ "$x" =~ ^(f16|f32)$ ]] || die "bad precision '$x'"; done
mkdir -p "$work" "$out" || die "cannot create $work or $out"
work="$(cd "$work" && pwd)"
res="$work/results"
rm -rf "$res"
mkdir -p "$res"

# Export every model first, so that no export runs beside a compilation.
for m in "${model_list[@]}"; do
  for b in "${batch_list[@]}"; do
    d="$work/models/${m}_b$b"
    [ -f "$d/gen.ok" ] && continue
    rm -rf "$d" && mkdir -p "$d"
    echo "export $m b$b"
    if "$PYTHON" "$src/utils/models/generate.py" --out "$d" --models "$m" --batch "$b" \
      --seed 0 --threads "$(nproc)" >"$d/gen.log" 2>&1; then
      touch "$d/gen.ok"
    else
      echo "compile-times.sh: export of $m b$b failed: $(tail -n 2 "$d/gen.log")" >&2
    fi
  done
done
"$PYTHON" -c 'import torch, onnx; print("torch %s, onnx %s" % (torch.__version__, onnx.__version__))' \
  >"$res/exporter" 2>/dev/null || echo "unknown" >"$res/exporter"

for m in "${model_list[@]}"; do
  for b in "${batch_list[@]}"; do
    d="$work/models/${m}_b$b"
    for p in "${precision_list[@]}"; do
      cfg="${m}_b${b}_$p"
      if [ ! -f "$d/gen.ok" ]; then
        echo "no-model" >"$res/$cfg.status"
        tail -n 3 "$d/gen.log" >"$res/$cfg.log" 2>/dev/null
        continue
      fi
      opts=()
      [ "$p" = f16 ] && opts+=(--precision=f16)
      if [ -n "$records" ] && [ -f "$records/$m-b$b-$p.json" ]; then
        opts+=(--tuning-records="$records/$m-b$b-$p.json")
        echo "$m-b$b-$p.json" >"$res/$cfg.records"
      fi
      /usr/bin/time -f "%e %M" -o "$res/$cfg.time" "$tools/bin/hidet-compile" "$d/$m.onnx" \
        "${opts[@]}" --external-weights="$work/$cfg.weights" --runtime-dir="$tools/lib" \
        -o "$work/$cfg.so" >"$res/$cfg.log" 2>&1
      rc=$?
      if [ "$rc" = 0 ]; then
        echo ok >"$res/$cfg.status"
        stat -c %s "$work/$cfg.so" >"$res/$cfg.size"
      else
        echo "error $rc" >"$res/$cfg.status"
      fi
      echo "compile $cfg: $(cat "$res/$cfg.status"), $(cut -d' ' -f1 "$res/$cfg.time" | tail -n 1) s"
    done
  done
done

"$PYTHON" "$here/report.py" --compile-times "$res" "$out" "$commit" "$(date -u +%F)" \
  "$models" "$batches" "$precisions"
