#!/usr/bin/env bash
# Differential testing of random graphs (issue: nothing miscompiles
# unnoticed). Each graph, hidet-random-graph --seed=S, is compiled for the
# GPU and for the CPU and both run on the same random inputs; hidet-run
# --ref compares every output by its relative L2 error (f32 1e-5, f16 2e-3,
# bf16 1.6e-2).
#
#   utils/difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]
#   utils/difftest.sh --report OUT    # the report of a run cut short
#
# Seeds FIRST .. FIRST+COUNT-1. TOOLS holds bin/{hidet-random-graph,
# hidet-compile,hidet-run} and lib/ (default: build; utils/static-tools.sh
# packs them for a machine without LLVM); JOBS graphs at a time (default:
# the cores). OUT gets:
#   difftest.log  one line per graph: seed, dtype, verdict (pass, mismatch,
#                 cpu-compile, gpu-compile, run), the generator's op counts
#                 and the GPU kernels by kind;
#   failures/     each failing graph's MLIR and its tools' output;
#   coverage.md   the verdicts, and how many graphs used each generated op
#                 and each kind of kernel (which templates, fused epilogues
#                 and rule-based kernels ran).
# The exit status is 1 when any graph failed.
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"

# A table of how many graphs of OUT/difftest.log have each NAME=COUNT word
# of field FIELD ('|'-separated): the generator's ops, or the kernel kinds.
counts() {
  echo "$1 (graphs using each):"
  echo
  echo "| $2 | graphs |"
  echo "|---|---|"
  awk -F'|' -v f="$3" '{print $f}' "$out/difftest.log" | tr ' ' '\n' |
    grep = | sed 's/=.*//' | sort | uniq -c | sort -rn |
    awk '{printf "| %s | %s |\n", $2, $1}'
  echo
}

# OUT/difftest.log from OUT/lines, and OUT/coverage.md from it.
report() {
  local out=$1
  cat $(ls "$out"/lines/* | sort -t/ -k2 -V) > "$out/difftest.log"
  local total seeds
  total=$(wc -l < "$out/difftest.log")
  seeds=$(awk 'NR == 1 {lo = $1} {hi = $1} END {print lo " to " hi}' \
    "$out/difftest.log")
  # The GPU the run had (OUT/gpu), when the report is made elsewhere.
  [ -f "$out/gpu" ] || nvidia-smi --query-gpu=name --format=csv,noheader \
    2>/dev/null | head -1 > "$out/gpu"
  {
    echo "# Random graphs, GPU against CPU"
    echo
    echo "$(date -u +%F), $(cat "$out/gpu"), commit $(cat "$out/commit" 2>/dev/null || git -C "$src" rev-parse --short HEAD 2>/dev/null), seeds $seeds: $total graphs (utils/difftest.sh; hidet-random-graph)."
    echo
    echo "| verdict | graphs |"
    echo "|---|---|"
    awk '{print $3}' "$out/difftest.log" | sort | uniq -c |
      awk '{printf "| %s | %s |\n", $2, $1}'
    echo
    echo "| dtype | graphs |"
    echo "|---|---|"
    awk '{print $2}' "$out/difftest.log" | sort | uniq -c |
      awk '{printf "| %s | %s |\n", $2, $1}'
    echo
    counts "Generated ops" op 2
    counts "GPU kernels by kind" kernel 3
  } > "$out/coverage.md"
  local fails
  fails=$(awk '$3 != "pass"' "$out/difftest.log" | wc -l)
  echo "difftest: $total graphs, $fails failed"
  [ "$fails" -eq 0 ]
}

if [ "${1:-}" = --report ]; then
  report "${2:?usage: difftest.sh --report OUT}"
  exit
fi
first="${1:?usage: difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]}"
count="${2:?usage: difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]}"
out="${3:?usage: difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]}"
tools="${4:-$src/build}"
jobs="${5:-$(nproc)}"
mkdir -p "$out/lines" "$out/failures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

one() {
  local s=$1 d="$work/$1" verdict=pass
  mkdir -p "$d"
  local summary
  summary=$("$tools/bin/hidet-random-graph" --seed="$s" --summary \
    -o "$d/g.mlir" 2>&1 >/dev/null) || summary="generator failed"
  local dtype
  dtype=$(sed -n 's/.*--dtype=\([a-z0-9]*\).*/\1/p' "$d/g.mlir" | head -1)
  if ! timeout 300 "$tools/bin/hidet-compile" "$d/g.mlir" --target=cpu \
      -o "$d/cpu.so" > "$d/log" 2>&1; then
    verdict=cpu-compile
  elif ! timeout 300 "$tools/bin/hidet-compile" "$d/g.mlir" \
      --runtime-dir="$tools/lib" -o "$d/gpu.so" >> "$d/log" 2>&1; then
    verdict=gpu-compile
  else
    timeout 300 "$tools/bin/hidet-run" "$d/gpu.so" --ref "$d/cpu.so" \
      --reps 0 --profile 1 --seed "$s" --json "$d/run.json" >> "$d/log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then
      if grep -q "FAIL" "$d/log"; then verdict=mismatch; else verdict=run; fi
    fi
  fi
  local kernels=""
  if [ -f "$d/run.json" ]; then
    kernels=$(grep -o '"kernel": *"[^"]*"' "$d/run.json" |
      sed 's/.*"\([^"]*\)"$/\1/; s/^graph_//' |
      sed -E 's/_[0-9]+$//' | sort | uniq -c |
      awk '{printf "%s%s=%s", (NR>1?" ":""), $2, $1}')
  fi
  echo "$s ${dtype:-?} $verdict | ${summary#*: } | $kernels" > "$out/lines/$s"
  if [ "$verdict" != pass ]; then
    cp "$d/g.mlir" "$out/failures/seed-$s.mlir"
    cp "$d/log" "$out/failures/seed-$s.log"
  fi
  rm -rf "$d"
}
export -f one
export tools work out
seq "$first" $((first + count - 1)) | xargs -P "$jobs" -I{} bash -c 'one {}'

report "$out"
