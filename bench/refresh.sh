#!/usr/bin/env bash
# Measures every headline result again at the current commit: prepared on
# the machine with MLIR, run on the GPU machine (which has PyTorch and the
# CUDA driver, no MLIR) in a few calls of at most 10 minutes, installed into
# bench/results with the GPU, date and commit each file names.
#
#   bench/refresh.sh prepare [DIR] [--groups G,G] [--build B] [--tools TAR]
#       builds what the groups need (utils/build.sh B, default build/;
#       utils/static-tools.sh for the lit tests and the models unless --tools
#       gives a tarball of its output) and packs each group into
#       DIR/<group>/payload.tar.xz with the commit (DIR: default
#       .gpu/refresh, inside the source tree, which git ignores). A call of
#       the GPU machine carries the one path DIR/<group>.
#   bench/refresh.sh run GROUP [DIR] OUT [--deadline S] [--force] [--dry-run]
#       on the GPU machine: unpacks the group and runs its steps that are
#       not done yet (see install), each while it fits in the S seconds
#       (default 560) left of the call, each step's results into its own
#       OUT/<step>.tar.gz (at most 16 MiB), the run's log into
#       OUT/refresh-<group>.log. Exit 0: every step of the group done; 1: a
#       step failed (its results are packed all the same); 75: steps left
#       for another call. --force runs the steps marked done too.
#       --dry-run lists the steps, their budgets and what a call would run,
#       with the command and carry of the call, and runs nothing (no GPU
#       needed).
#   bench/refresh.sh install [--dir DIR] [--results R] FILE|FOLDER...
#       here: each returned OUT/<step>.tar.gz (a folder: those in it) into R
#       (default bench/results), checked against the commit prepared in
#       DIR; marks the step done in DIR/<group>/done/, so that the next run
#       of its group leaves it out; prints each file's headline lines.
#
# The groups, one call each (the GPU machine's commands are limited to 10
# minutes, a machine to 30, a session's device time to 30; a call starts a
# machine in about 1 to 2 minutes). Budgets are each step's expected
# seconds on one H200 with 16 cores, with room; a step that outlasts the
# time left is stopped and reported.
#   checks   the lit tests that need a GPU, the GPU integration suite and
#            the ONNX backend suite on the GPU, side by side (checks only,
#            nothing timed): gpu-lit-<gpu>.log, gpu-integration-<gpu>.log,
#            onnx-conformance-<gpu>.{md,tsv}
#   kernels  one after another, each timed alone: the MLP demo, GEMMs and
#            convolutions against cuBLAS and cuDNN, fusion, the rule-based
#            kernels and the SIMT GEMMs: mlp-demo-<gpu>.log and
#            {matmul-mma,conv-mma,fusion,rule-based,matmul-simt}-<gpu>.*
#   models   BERT-base, GPT-2 small and ResNet-50 at batch 1 and 32 in f16
#            and f32, default schedules, against PyTorch eager and
#            torch.compile: models-<gpu>.{json,md,png}
# and, outside the three calls' 30 minutes:
#   models-more  ViT-B/16, MobileNetV2 and EfficientNet-B0 the same way:
#            models-more-<gpu>.{json,md,png}
# Left out: max-autotune (55 to 276 s of compilation per configuration on
# the H200), tuning (bench/tuning-models, bench/tuning-kernels), the random
# graphs (utils/difftest.sh, its own resumable run) and the sweeps.
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
here="$src/bench"
default_dir="$src/.gpu/refresh"

# group step budget: the steps in the order they run.
steps_table="
checks lit 240
checks integration 120
checks conformance 240
kernels mlp 30
kernels matmul-mma 100
kernels conv-mma 60
kernels fusion 100
kernels rule-based 100
kernels matmul-simt 150
models models 540
models-more models-more 540"
main_groups="checks kernels models"
all_groups="$main_groups models-more"
# Seconds to start a machine and move the carried files, per call.
start_cost=120

die() {
  echo "refresh.sh: $*" >&2
  exit 2
}

group_steps() { awk -v g="$1" '$1 == g { print $2 }' <<<"$steps_table"; }
step_budget() { awk -v s="$1" '$2 == s { print $3 }' <<<"$steps_table"; }
step_group() { awk -v s="$1" '$2 == s { print $1 }' <<<"$steps_table"; }
is_group() { [[ " $all_groups " == *" $1 "* ]]; }
# Whether the checks of a group run side by side (nothing timed).
parallel_group() { [ "$1" = checks ]; }

# mib BYTES: in MiB, to a tenth.
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# The commit of the source tree (-dirty with changes not committed).
tree_commit() {
  local c
  c="$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null)" || { echo unknown; return; }
  git -C "$src" diff --quiet HEAD 2>/dev/null || c="$c-dirty"
  echo "$c"
}

# The GPU's name and its model in lower case ("NVIDIA H200" -> h200), as
# utils/gpu-integration.sh names its logs.
gpu_name() { nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1; }
gpu_tag() {
  local t
  t="$(grep -oE '\b[A-Z]{1,2}[0-9]{2,4}[A-Z]?\b' <<<"$1" | head -n 1 | tr '[:upper:]' '[:lower:]')"
  [ -n "$t" ] || t="$(tr '[:upper:]' '[:lower:]' <<<"$1" | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')"
  echo "${t:-gpu}"
}

# The three verbs, one file each.
source "$here/refresh/prepare.sh"
source "$here/refresh/run.sh"
source "$here/refresh/install.sh"

case "${1:-}" in
prepare) shift; prepare "$@" ;;
run) shift; run "$@" ;;
install) shift; install "$@" ;;
# One step, as run_one starts it under its time limit: _step STEP WORK OUT
# COMMIT TAG DATE SECONDS.
_step) shift; s="$1"; shift; "step_$s" "$@" ;;
*)
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
  ;;
esac
