#!/usr/bin/env bash
# Generates full-size models with random weights (generate.py), compiles each
# with hidet-compile in f32 and in f16 (--precision=f16; and f16 with
# --external-weights, run with hidet-run --weights), runs it on the GPU
# (hidet-run, the model's test_data_set_0) and compares its outputs with
# PyTorch's float32 outputs; also measures PyTorch's own f16 error on the
# same weights (torch_precision.py), the yardstick of the f16 rows.
#
# For the GPU machine, where the models are generated (its PyTorch) and
# compiled by the static tools of utils/static-tools.sh, since their
# libraries are too large to copy there:
#   utils/models/check-models.sh TOOLS-DIR OUT-DIR [MODEL...]
# MODEL: bert, gpt2, resnet50, vit, mobilenetv2, efficientnet_b0 (default
# bert gpt2 resnet50). Writes OUT-DIR/models.tsv (model, precision, compile
# seconds, result, max abs error, max abs error over max |expected|, relative
# L2 error) and prints it.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="$(cd "${1:?usage: check-models.sh TOOLS-DIR OUT-DIR [MODEL...]}" && pwd)"
out="${2:?usage: check-models.sh TOOLS-DIR OUT-DIR [MODEL...]}"
shift 2
models=("$@")
[ "${#models[@]}" -gt 0 ] || models=(bert gpt2 resnet50)
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tsv="$out/models.tsv"
printf 'model\tprecision\tcompile_s\tresult\tmax_abs\tmax_abs_rel\trel_l2\n' >"$tsv"

compare() { # got.npy expected.pb
  python3 - "$1" "$2" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import numpy_helper
got = np.load(sys.argv[1]).astype(np.float64)
exp = numpy_helper.to_array(onnx.load_tensor(sys.argv[2])).astype(np.float64)
d = np.abs(got - exp)
print("%.3g\t%.3g\t%.3g" % (d.max(), d.max() / np.abs(exp).max(),
                           np.linalg.norm(got - exp) / np.linalg.norm(exp)))
EOF
}

for m in "${models[@]}"; do
  python3 "$here/generate.py" --out "$work" --models "$m" --reference \
    --threads 8 >"$work/$m.gen.log" 2>&1 || { tail -5 "$work/$m.gen.log"; continue; }
  dir="$work/$m.d"
  mkdir -p "$dir"
  ln -sf "$work/$m.onnx" "$dir/model.onnx"
  ln -sfn "$work/$m/test_data_set_0" "$dir/test_data_set_0"
  data="$dir/test_data_set_0"
  inputs=()
  for f in "$data"/input_*.pb; do inputs+=("--input=@$f"); done
  for precision in f32 f16 f16-ext; do
    opts=() run=()
    case "$precision" in
      f16) opts=(--precision=f16) ;;
      f16-ext)
        opts=(--precision=f16 --external-weights="$work/$m.weights")
        run=(--weights=@"$work/$m.weights") ;;
    esac
    lib="$work/$m.$precision.so"
    start=$(date +%s.%N)
    if ! "$tools/bin/hidet-compile" "$work/$m.onnx" "${opts[@]}" \
        --runtime-dir="$tools/lib" -o "$lib" >"$work/$m.$precision.log" 2>&1; then
      printf '%s\t%s\t-\tcompile-error\t-\t-\t-\n' "$m" "$precision" >>"$tsv"
      tail -3 "$work/$m.$precision.log"
      continue
    fi
    seconds=$(awk "BEGIN { print $(date +%s.%N) - $start }")
    if ! "$tools/bin/hidet-run" "$lib" "${inputs[@]}" "${run[@]}" \
        --output=@"$work/$m.$precision.npy" --reps 0 \
        >>"$work/$m.$precision.log" 2>&1; then
      printf '%s\t%s\t%.1f\trun-error\t-\t-\t-\n' "$m" "$precision" "$seconds" >>"$tsv"
      tail -3 "$work/$m.$precision.log"
      continue
    fi
    printf '%s\t%s\t%.1f\tran\t%s\n' "$m" "$precision" "$seconds" \
      "$(compare "$work/$m.$precision.npy" "$data/output_0.pb")" >>"$tsv"
    rm -f "$lib" "$work/$m.weights"
  done
  python3 "$here/torch_precision.py" "$dir" --dtype float16 |
    sed "s/^/$m: /" >>"$out/torch-f16.txt"
  rm -f "$work/$m.onnx" "$work/$m.onnx.data"
done
cat "$tsv"
cat "$out/torch-f16.txt"
