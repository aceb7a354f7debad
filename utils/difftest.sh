#!/usr/bin/env bash
# Differential testing of random graphs. Each graph, hidet-random-graph
# --seed=S, is compiled for the GPU and for the CPU and both run on the same
# random inputs, drawn from the distribution S picks (hidet-run
# --input-dist; S mod 4: uniform, normal, sparse, zeros-and-ones);
# hidet-run --ref compares every output by its relative L2 error (f32 1e-5,
# f16 2e-3, bf16 1.6e-2) and element by element (docs/GPUExecution.md,
# section 5), within 16 eps of the output's RMS for 16-bit graphs (atol).
#
# Wide inputs (hidet-run --input-dist=wide) are left to the GPU tests of
# single ops (row groups, attention, reductions), whose conditioning is
# known: a random chain that feeds values of 1e3 into softmaxes, norms and
# cancelling GEMMs is ill-conditioned in every dtype (rounding x moves a
# softmax by eps |x|), so that its comparison measures the graph, not the
# compiler. The per-element bound of 16-bit graphs is 16 eps of the RMS
# instead of hidet-run's 2 eps: the GPU keeps a fused chain's values in f32
# where the reference rounds after each op, and an output near zero that
# results from cancelling larger values differs by several eps of the RMS
# (up to 7 over 1,500 graphs on the H200); a wrong element is off by about
# the RMS.
#
#   utils/difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]
#   utils/difftest.sh --coverage-only FIRST COUNT OUT [TOOLS] [JOBS]
#   utils/difftest.sh --report OUT    # the report of a run cut short
#   utils/difftest.sh --shrink SEED OUT [TOOLS]
#
# Seeds FIRST .. FIRST+COUNT-1. TOOLS holds bin/{hidet-random-graph,
# hidet-compile,hidet-run} and lib/ (default: build; utils/static-tools.sh
# packs them for a machine without LLVM); JOBS graphs at a time (default:
# the cores). Seeds that OUT already has a verdict for are not run again,
# so that a run cut short resumes where it stopped. OUT gets:
#   difftest.log  one line per graph: seed, dtype, verdict (pass, mismatch,
#                 cpu-compile, gpu-compile, run), the generator's op counts
#                 and the GPU kernels' coverage features (hidet-compile
#                 --kernel-summary: kinds, template paths, fused prologue,
#                 epilogue and score kinds), each with its kernel count;
#   failures/     each failing graph's MLIR and its tools' output;
#   coverage.md   the verdicts, and how many graphs used each generated op
#                 and each coverage feature (those under 2% of the graphs
#                 marked).
# The exit status is 1 when any graph failed.
#
# --coverage-only needs no GPU and no CUDA toolkit: each graph only goes
# through the GPU path's scheduling stages (hidet-opt --hidet-bufferize
# --hidet-schedule-kernels, for sm_90a), which choose the kernels, and the
# verdict is compiled or gpu-compile. TOOLS/bin needs hidet-opt then.
#
# --shrink takes a failing seed to the fewest generator steps that fail the
# same way (--ops), then leaves out each step the failure does not need
# (--drop), and writes OUT/seed-SEED.test.mlir: the graph as a lit test
# (GPU against CPU) to commit under test/Integration/GPU, and its tools'
# output in OUT/seed-SEED.log. Exit status 1 when the seed passes.
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"

# The input distribution (hidet-run --input-dist) of seed $1's graph, of
# dtype $2.
dist() {
  local dists=(uniform normal sparse zeros-and-ones)
  echo "${dists[$(($1 % 4))]}"
}

# The per-element absolute bound (hidet-run --ref-atol-rms) of a graph of
# dtype $1: 16 eps for 16-bit graphs (the header says why), hidet-run's
# default for f32.
atol_rms() {
  case "$1" in
  f16) echo " --ref-atol-rms=0.015625" ;;
  bf16) echo " --ref-atol-rms=0.125" ;;
  esac
}

# A table of how many graphs of OUT/difftest.log have each NAME=COUNT word
# of field FIELD ('|'-separated): the generator's ops, or the coverage
# features; the share of all graphs, marked below 2%.
counts() {
  local total
  total=$(wc -l < "$out/difftest.log")
  echo "$1 (graphs using each):"
  echo
  echo "| $2 | graphs | share |"
  echo "|---|---|---|"
  awk -F'|' -v f="$3" '{print $f}' "$out/difftest.log" | tr ' ' '\n' |
    grep = | sed 's/=.*//' | sort | uniq -c | sort -rn |
    awk -v t="$total" '{s = 100 * $1 / t
      printf "| %s | %s | %.1f%%%s |\n", $2, $1, s, (s < 2 ? " (under 2%)" : "")}'
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
    if [ -f "$out/coverage-only" ]; then
      echo "# Random graphs: the kernels the GPU path chooses (compiled only)"
    else
      echo "# Random graphs, GPU against CPU"
    fi
    echo
    echo "$(date -u +%F), $(cat "$out/gpu" | grep . || echo "no GPU"), commit $(cat "$out/commit" 2>/dev/null || git -C "$src" rev-parse --short HEAD 2>/dev/null), seeds $seeds: $total graphs (utils/difftest.sh; hidet-random-graph)."
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
    counts "GPU kernels: kinds, template paths and fused ops (hidet-compile --kernel-summary)" feature 3
  } > "$out/coverage.md"
  local fails
  fails=$(awk '$3 != "pass" && $3 != "compiled"' "$out/difftest.log" | wc -l)
  echo "difftest: $total graphs, $fails failed"
  [ "$fails" -eq 0 ]
}

# The verdict on the graph DIR/g.mlir (pass, cpu-compile, gpu-compile,
# mismatch or run), its tools' output in DIR/log and the GPU kernels'
# summary in DIR/kernels.json; the inputs drawn from SEED for a graph of
# DTYPE.
check() {
  local d=$1 s=$2 dtype=$3
  if ! timeout 300 "$tools/bin/hidet-compile" "$d/g.mlir" --target=cpu \
      -o "$d/cpu.so" > "$d/log" 2>&1; then
    echo cpu-compile
  elif ! timeout 300 "$tools/bin/hidet-compile" "$d/g.mlir" \
      --runtime-dir="$tools/lib" --kernel-summary="$d/kernels.json" \
      -o "$d/gpu.so" >> "$d/log" 2>&1; then
    echo gpu-compile
  elif ! timeout 300 "$tools/bin/hidet-run" "$d/gpu.so" --ref "$d/cpu.so" \
      --reps 0 --seed "$s" --input-dist="$(dist "$s" "$dtype")"$(atol_rms "$dtype") \
      >> "$d/log" 2>&1
  then
    if grep -q "FAIL" "$d/log"; then echo mismatch; else echo run; fi
  else
    echo pass
  fi
}

# The GPU path's scheduling stages alone (--coverage-only): compiled or
# gpu-compile, and the kernels' summary in DIR/kernels.json.
schedule_only() {
  local d=$1
  if timeout 300 "$tools/bin/hidet-opt" "$d/g.mlir" -o /dev/null \
      --pass-pipeline="builtin.module(hidet-bufferize,hidet-schedule-kernels{chip=sm_90a kernel-summary=$d/kernels.json})" \
      > "$d/log" 2>&1; then
    echo compiled
  else
    echo gpu-compile
  fi
}

one() {
  local s=$1 d="$work/$1"
  # A run cut short resumes: a seed with a verdict in OUT is not run again.
  [ -f "$out/lines/$s" ] && return
  mkdir -p "$d"
  local summary
  summary=$("$tools/bin/hidet-random-graph" --seed="$s" --summary \
    -o "$d/g.mlir" 2>&1 >/dev/null) || summary="generator failed"
  local dtype
  dtype=$(sed -n 's/.*--dtype=\([a-z0-9]*\).*/\1/p' "$d/g.mlir" | head -1)
  local verdict
  if [ -n "${coverage_only:-}" ]; then
    verdict=$(schedule_only "$d")
  else
    verdict=$(check "$d" "$s" "$dtype")
  fi
  # Each coverage feature with the number of kernels that have it.
  local kernels=""
  if [ -f "$d/kernels.json" ]; then
    kernels=$(sed -n 's/.*"features": *"\([^"]*\)".*/\1/p' "$d/kernels.json" |
      tr ' ' '\n' | grep . | sort | uniq -c |
      awk '{printf "%s%s=%s", (NR>1?" ":""), $2, $1}')
  fi
  echo "$s ${dtype:-?} $verdict | ${summary#*: } | $kernels" > "$out/lines/$s"
  if [ "$verdict" != pass ] && [ "$verdict" != compiled ]; then
    cp "$d/g.mlir" "$out/failures/seed-$s.mlir"
    cp "$d/log" "$out/failures/seed-$s.log"
  fi
  rm -rf "$d"
}

# Shrinks the failing graph of seed S: the fewest steps (--ops) that fail
# the same way, then each step left out (--drop) that the failure does not
# need; writes OUT/seed-S.test.mlir, a lit test of the result.
shrink() {
  local s=$1 d="$work/shrink"
  mkdir -p "$d"
  "$tools/bin/hidet-random-graph" --seed="$s" -o "$d/g.mlir" || return 2
  local header dtype ops want
  header=$(head -1 "$d/g.mlir")
  dtype=$(echo "$header" | sed -n 's/.*--dtype=\([a-z0-9]*\).*/\1/p')
  ops=$(echo "$header" | sed -n 's/.*--ops=\([0-9]*\).*/\1/p')
  want=$(check "$d" "$s" "$dtype")
  if [ "$want" = pass ]; then
    echo "difftest: seed $s passes; nothing to shrink" >&2
    return 1
  fi
  echo "difftest: seed $s: $want with $ops steps" >&2
  # Tries `--ops=$1 --drop=$2`: 0 when it fails as the whole graph does.
  try() {
    local drop=${2:+--drop=$2}
    "$tools/bin/hidet-random-graph" --seed="$s" --dtype="$dtype" --ops="$1" \
      $drop -o "$d/g.mlir" && [ "$(check "$d" "$s" "$dtype")" = "$want" ]
  }
  local k
  for ((k = 1; k < ops; ++k)); do
    try "$k" "" && break
  done
  local drops="" i
  for ((i = 0; i < k; ++i)); do
    try "$k" "${drops:+$drops,}$i" && drops="${drops:+$drops,}$i"
  done
  try "$k" "$drops" || return 2
  echo "difftest: seed $s shrunk to --ops=$k${drops:+ --drop=$drops}" >&2
  local test="$out/seed-$s.test.mlir"
  {
    echo "// A random graph (hidet-random-graph --seed=$s, $want on the GPU"
    echo "// against the CPU), shrunk by utils/difftest.sh --shrink."
    echo "// REQUIRES: cuda"
    echo "// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs"
    echo "// RUN: hidet-compile %s --target=cpu -o %t.cpu.so"
    echo "// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --seed $s --input-dist=$(dist "$s" "$dtype")$(atol_rms "$dtype") | FileCheck %s"
    echo "// CHECK: graph PASS"
    echo
    cat "$d/g.mlir"
  } > "$test"
  cp "$d/log" "$out/seed-$s.log"
  echo "$test"
}

if [ "${1:-}" = --report ]; then
  report "${2:?usage: difftest.sh --report OUT}"
  exit
fi
if [ "${1:-}" = --shrink ]; then
  usage="usage: difftest.sh --shrink SEED OUT [TOOLS]"
  seed="${2:?$usage}"
  out="${3:?$usage}"
  tools="${4:-$src/build}"
  mkdir -p "$out"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  shrink "$seed"
  exit
fi
coverage_only=
if [ "${1:-}" = --coverage-only ]; then
  coverage_only=1
  shift
fi
first="${1:?usage: difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]}"
count="${2:?usage: difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]}"
out="${3:?usage: difftest.sh FIRST COUNT OUT [TOOLS] [JOBS]}"
tools="${4:-$src/build}"
jobs="${5:-$(nproc)}"
mkdir -p "$out/lines" "$out/failures"
if [ -n "$coverage_only" ]; then
  touch "$out/coverage-only"
elif [ -f "$out/coverage-only" ]; then
  echo "difftest: $out holds a --coverage-only run" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

export -f one check schedule_only dist atol_rms
export tools work out coverage_only
seq "$first" $((first + count - 1)) | xargs -P "$jobs" -I{} bash -c 'one {}'

report "$out"
