#!/usr/bin/env bash
# Whole models on the GPU against PyTorch: BERT-base, GPT-2 small (seq 128)
# and ResNet-50 (224x224) from utils/models/generate.py (random weights,
# seed 0), at batch 1 and 32, in f16 and f32.
#
#   bench/models/run.sh prepare DIR [--tools TARBALL]      # here
#   bench/models/run.sh run DIR OUT COMMIT DATE [options]  # on the GPU machine
#   bench/models/run.sh report DIR OUT COMMIT DATE [--work W]  # report of W
#
# `prepare` copies into DIR what the GPU machine needs: this script,
# steps.sh and checks.sh, torch_baselines.py, report.py (with model_results.py and model_tables.py),
# utils/models/generate.py, the statically
# linked tools (utils/static-tools.sh, packed as a tarball of bin/hidet-compile,
# bin/hidet-run and lib/; default .gpu/carry/tools.tar.xz) and DIR/commit.
#
# `run` (PyTorch, torchvision, onnx and numpy on that machine; no MLIR):
#   1. untars the tools into a temporary directory;
#   2. generates each model at each batch with generate.py --reference (the
#      ONNX file and test_data_set_0: its inputs and PyTorch's float32 CPU
#      outputs);
#   3. compiles it with hidet-compile (--precision=f16 or bf16 for those;
#      --external-weights), --jobs at a time, timing each;
#   4. runs it with hidet-run on the test inputs, checks the outputs against
#      PyTorch's (checks.sh: each element and the relative L2 error, bounds
#      scaled to the output) and times the whole forward as one CUDA graph
#      replay (--cuda-graph; median of REPS);
#   5. measures PyTorch on the same weights and inputs (torch_baselines.py:
#      eager, torch.compile, max-autotune; each captured in a CUDA graph and
#      timed the same way);
#   6. writes OUT/models.json, OUT/models.md and OUT/models.png (report.py).
# A failure of one model or configuration (export, compile, mismatch, run,
# PyTorch) is recorded in the results and the run goes on.
#
# Options of `run` (defaults in brackets):
#   --models bert,gpt2,resnet50   --batches 1,32   --precisions f16,f32 (also bf16)
#                     (any model of generate.py; MODEL_dynamo: its export by
#                     PyTorch's dynamo exporter, e.g. hf_bert_dynamo)
#   --torch eager,compile,max-autotune  (none: no PyTorch)
#   --jobs 4          hidet-compile processes at a time
#   --torch-jobs 3    PyTorch processes at a time (see "GPU lock" below)
#   --no-hidet        no hidet compile or run (e.g. to add max-autotune)
#   --work W [DIR/work]  models, libraries and results; kept between calls
#   --fresh           forget the results of earlier calls in W
#   --sequential      one thing at a time: generate, compile, run, PyTorch
#                     (compile times without contention; slower)
#   --timeout S [480] limit of each generate, compile, run and PyTorch step
#   --deadline S [540] seconds after the start: stop what still runs, record
#                     it as not run and write the report (0: no deadline)
#   --keep-logs D     copy the raw results and logs to D at the end
#   --tuning-records D  compile each configuration with the tuning records
#                     D/<model>-b<batch>-<precision>.json where there is one
#                     (bench/tuning-models names them so); the report marks
#                     those rows tuned
#   --gpu N           run on GPU N only (CUDA_VISIBLE_DEVICES), with a GPU
#                     lock and inductor cache of its own in W: several runs
#                     with different --gpu and --models can share W at once
#                     on a host of several GPUs; `report` then covers them
#                     all, naming the GPU of each measurement
#
# Time: the default set with --torch eager,compile is meant to fit the GPU
# machine's 10-minute limit per command (progress lines carry the elapsed
# seconds). max-autotune takes minutes per model: measure it in a later call
# with the same DIR, e.g. `--no-hidet --torch max-autotune --models bert`;
# the results of earlier calls in W (same DIR, hence the same commit and
# tools) stay, and the report covers every configuration measured there
# (--fresh to start over; `prepare` empties DIR/work). On a host of several
# GPUs, runs with --gpu 0, --gpu 1, ... and disjoint --models in the same W
# at once take a fraction of the time (max-autotune included); then
# `report DIR OUT COMMIT DATE --work W` writes the report of them all.
# bench/models/queue.sh runs a list of configurations one after another,
# detached, across commands (max-autotune of many configurations), and
# report.py --add-torch adds such PyTorch results to an earlier report;
# report.py --keep-torch carries an earlier report's variants (max-autotune)
# into a new one that did not measure them (same GPU and PyTorch).
#
# Overlap: export and hidet-compile use only the CPU and run beside the GPU
# work. PyTorch's compilations run --torch-jobs at a time too, but everything
# that times, autotunes or measures memory on the GPU holds a file lock
# (W/gpu.lock, or W/gpu<N>.lock with --gpu N) exclusively: the hidet-run
# calls, every PyTorch measurement, eager first calls and max-autotune
# compilations. Only torch.compile's first call (default mode) holds it
# shared, beside other such calls; waiting measurements keep new ones out.
# So nothing else of this run uses the GPU while something is timed; compile
# times, however, are wall times on a busy machine (--sequential for quiet
# ones).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
PYTHON="${PYTHON:-python3}"

# The checks against PyTorch's float32 CPU output (model_check_args, with
# their derivation) are checks.sh's, the same as bench/tuning-models'.
# shellcheck source=checks.sh
. "$here/checks.sh" || {
  echo "run.sh: no $here/checks.sh: run 'bench/models/run.sh prepare' again" >&2
  exit 2
}
# Timing, the same on both sides: untimed replays, then timed replays.
WARMUP=20
REPS=200
# hidet-run --profile: direct runs with events around each kernel (the
# breakdown of hidet's time by kernel in the report).
PROFILE_RUNS=10

die() {
  echo "run.sh: $*" >&2
  exit 2
}

usage() {
  cat >&2 <<'EOF2'
usage: bench/models/run.sh prepare DIR [--tools TARBALL]
       bench/models/run.sh run DIR OUT COMMIT DATE [--models bert,gpt2,resnet50]
           [--batches 1,32] [--precisions f16,f32]
           [--torch eager,compile,max-autotune|none] [--jobs 4] [--torch-jobs 3]
           [--no-hidet] [--work W] [--fresh] [--sequential] [--timeout 480]
           [--deadline 540] [--keep-logs D] [--tuning-records D] [--gpu N]
       bench/models/run.sh report DIR OUT COMMIT DATE [--work W]
(see the comment at the top of bench/models/run.sh)
EOF2
  exit 2
}

start_seconds=$SECONDS
log() {
  printf '[%s +%4ds] %s\n' "$(date +%H:%M:%S)" "$((SECONDS - start_seconds))" "$*"
}

# ---------------------------------------------------------------------------
# prepare DIR [--tools TARBALL]
# ---------------------------------------------------------------------------
prepare() {
  local dir="${1:-}" src tarball
  [ -n "$dir" ] || usage
  shift
  src="$(cd "$here/../.." && pwd)"
  tarball="$src/.gpu/carry/tools.tar.xz"
  while [ $# -gt 0 ]; do
    case "$1" in
    --tools) tarball="${2:?--tools TARBALL}"; shift 2 ;;
    --tools=*) tarball="${1#--tools=}"; shift ;;
    *) die "prepare: unknown option $1" ;;
    esac
  done
  if [ ! -f "$tarball" ]; then
    die "prepare: no tools tarball at $tarball. Build the statically linked
tools with utils/static-tools.sh OUT (bin/hidet-compile, bin/hidet-run,
lib/libhidet_runtime.so), pack them with tar -C OUT -cJf TARBALL . and pass
--tools TARBALL."
  fi
  mkdir -p "$dir" || die "prepare: cannot create $dir"
  cp "$here/run.sh" "$here/steps.sh" "$here/checks.sh" "$here/torch_baselines.py" \
    "$here/report.py" "$here/model_results.py" "$here/model_tables.py" \
    "$src/utils/models/generate.py" "$src/utils/models/own_models.py" \
    "$src/utils/models/hub_models.py" "$dir/" || die "prepare: copy failed"
  if [ "$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")" != \
    "$(cd "$dir" && pwd)/tools.tar.xz" ]; then
    cp "$tarball" "$dir/tools.tar.xz" || die "prepare: copy of $tarball failed"
  fi
  git -C "$src" rev-parse --short HEAD >"$dir/commit" ||
    die "prepare: git rev-parse failed"
  # Results of another commit's tools would mix with the next run's.
  rm -rf "$dir/work"
  echo "prepared $dir (commit $(cat "$dir/commit")):"
  ls -l "$dir"
}

# ---------------------------------------------------------------------------
# run DIR OUT COMMIT DATE [options]
# ---------------------------------------------------------------------------

# The steps: generate, compile, run, PyTorch (gen_all, compile_all, run_all,
# torch_all), and stop_tree/finish_results for the deadline.
. "$here/steps.sh"

run_bench() {
  dir="${1:-}" out="${2:-}" commit="${3:-}" date="${4:-}"
  if [ -z "$dir" ] || [ -z "$out" ] || [ -z "$commit" ] || [ -z "$date" ]; then
    usage
  fi
  shift 4
  local models_opt=bert,gpt2,resnet50 batches_opt=1,32 precisions_opt=f16,f32
  torch_variants=eager,compile,max-autotune jobs=4 torch_jobs=3
  step_timeout=480 deadline=540 hidet=1 tuning_records="" gpu=""
  local fresh=0 sequential=0 keep_logs="" opt val
  work=""
  while [ $# -gt 0 ]; do
    opt="$1"
    case "$opt" in
    --no-hidet | --fresh | --sequential) val="" ;;
    --*=*) val="${opt#*=}"; opt="${opt%%=*}" ;;
    --*) val="${2-}"; [ $# -ge 2 ] || die "$opt needs a value"; shift ;;
    *) die "unknown argument $opt" ;;
    esac
    shift
    case "$opt" in
    --models) models_opt="$val" ;;
    --batches) batches_opt="$val" ;;
    --precisions) precisions_opt="$val" ;;
    --torch) torch_variants="$val" ;;
    --jobs) jobs="$val" ;;
    --torch-jobs) torch_jobs="$val" ;;
    --work) work="$val" ;;
    --timeout) step_timeout="$val" ;;
    --deadline) deadline="$val" ;;
    --keep-logs) keep_logs="$val" ;;
    --tuning-records) tuning_records="$(cd "$val" && pwd)" || die "no directory $val" ;;
    --gpu) gpu="$val" ;;
    --no-hidet) hidet=0 ;;
    --fresh) fresh=1 ;;
    --sequential) sequential=1 ;;
    *) die "unknown option $opt" ;;
    esac
  done
  IFS=, read -r -a model_list <<<"$models_opt"
  IFS=, read -r -a batch_list <<<"$batches_opt"
  IFS=, read -r -a precision_list <<<"$precisions_opt"
  local x
  for x in "${model_list[@]}"; do
    [[ "$x" =~ ^[a-z0-9_]+$ ]] || die "bad model name '$x'"
  done
  for x in "${batch_list[@]}"; do
    [[ "$x" =~ ^[1-9][0-9]*$ ]] || die "bad batch '$x'"
  done
  for x in "${precision_list[@]}"; do
    [[ "$x" =~ ^(f16|bf16|f32)$ ]] || die "bad precision '$x' (f16, bf16 or f32)"
  done
  case "$torch_variants" in none | "") torch_variants="" ;; esac
  for x in ${torch_variants//,/ }; do
    [[ "$x" =~ ^(eager|compile|max-autotune)$ ]] || die "bad --torch variant '$x'"
  done
  [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "bad --jobs '$jobs'"
  [[ "$torch_jobs" =~ ^[1-9][0-9]*$ ]] || die "bad --torch-jobs '$torch_jobs'"
  [[ "$step_timeout" =~ ^[1-9][0-9]*$ ]] || die "bad --timeout '$step_timeout'"
  [[ "$deadline" =~ ^[0-9]+$ ]] || die "bad --deadline '$deadline'"
  [[ "$gpu" =~ ^(0|[1-9][0-9]*)?$ ]] || die "bad --gpu '$gpu' (a GPU index)"
  [ "$sequential" = 1 ] && torch_jobs=1

  local given="$dir"
  dir="$(cd "$dir" 2>/dev/null && pwd)" || die "no directory $given"
  for x in torch_baselines.py report.py model_results.py model_tables.py \
    generate.py own_models.py hub_models.py tools.tar.xz; do
    [ -f "$dir/$x" ] || die "$dir/$x missing: run '$0 prepare $dir' first"
  done
  if [ -f "$dir/commit" ] && [ "$(cat "$dir/commit")" != "$commit" ]; then
    echo "run.sh: warning: $dir was prepared at commit $(cat "$dir/commit"), not $commit" >&2
  fi
  work="${work:-$dir/work}"
  mkdir -p "$work" "$out" || die "cannot create $work or $out"
  work="$(cd "$work" && pwd)"
  out="$(cd "$out" && pwd)"
  models="$work/models" build="$work/build" res="$work/results"
  [ "$fresh" = 1 ] && rm -rf "$res"
  mkdir -p "$models" "$build" "$res"
  lock="$work/gpu${gpu}.lock"
  [ -n "$gpu" ] && export CUDA_VISIBLE_DEVICES="$gpu"
  local ncpu
  ncpu="$(nproc 2>/dev/null || echo 8)"
  gen_jobs=2
  gen_threads=$((ncpu / 4 > 0 ? ncpu / 4 : 1))
  # torch.compile's caches start cold in every call, so that its compile
  # times are first-time ones (and do not depend on earlier calls).
  export TORCHINDUCTOR_CACHE_DIR="$work/inductor-cache${gpu:+-gpu$gpu}"
  export TRITON_CACHE_DIR="$TORCHINDUCTOR_CACHE_DIR/triton"
  rm -rf "$TORCHINDUCTOR_CACHE_DIR"

  # 1. The tools.
  tools="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand now
  trap "rm -rf '$tools'" EXIT
  tar -xJf "$dir/tools.tar.xz" -C "$tools" || die "cannot untar $dir/tools.tar.xz"
  local found
  found="$(find "$tools" -maxdepth 3 -path '*/bin/hidet-compile' | head -1)"
  [ -n "$found" ] || die "no bin/hidet-compile in $dir/tools.tar.xz"
  tools="$(dirname "$(dirname "$found")")"
  cuda_graph=0
  if "$tools/bin/hidet-run" --help 2>&1 | grep -q -- '--cuda-graph'; then
    cuda_graph=1
  else
    echo "run.sh: warning: this hidet-run has no --cuda-graph; timing each call instead" >&2
  fi
  profiling=0
  "$tools/bin/hidet-run" --help 2>&1 | grep -q -- '--profile' && profiling=1

  # Results of the configurations measured now replace earlier ones.
  local m b p v cfg
  for m in "${model_list[@]}"; do
    for b in "${batch_list[@]}"; do
      rm -f "$res/${m}_b${b}.gen.log"
      for p in "${precision_list[@]}"; do
        cfg="$(cfg_name "$m" "$b" "$p")"
        if [ "$hidet" = 1 ]; then
          rm -f "$res/$cfg".{compile,compile.log,hidet.json,run.log,run.rc,run.mode,error.json,error.log,commit,gpu}
        fi
        rm -f "$res/$cfg.torch.part"
        if [ -n "$torch_variants" ] && [ -f "$res/$cfg.torch.jsonl" ]; then
          local keep=()
          for v in ${torch_variants//,/ }; do keep+=(-e "\"variant\": \"$v\""); done
          grep -v "${keep[@]}" "$res/$cfg.torch.jsonl" >"$res/$cfg.torch.jsonl.tmp"
          mv "$res/$cfg.torch.jsonl.tmp" "$res/$cfg.torch.jsonl"
        fi
      done
    done
  done
  printf '{%s, "warmup": %s, "reps": %s, "hidet_cuda_graph": %s, "jobs": %s, "torch_jobs": %s, "sequential": %s, "cpus": %s}\n' \
    "$(model_check_settings)" "$WARMUP" "$REPS" \
    "$([ "$cuda_graph" = 1 ] && echo true || echo false)" "$jobs" "$torch_jobs" \
    "$([ "$sequential" = 1 ] && echo true || echo false)" "$ncpu" >"$res/settings.json"

  log "models ${model_list[*]}; batches ${batch_list[*]}; precisions ${precision_list[*]};" \
    "hidet $([ "$hidet" = 1 ] && echo "on (--jobs $jobs)" || echo off);" \
    "torch ${torch_variants:-off} (--torch-jobs $torch_jobs);${gpu:+ GPU $gpu;} work $work"

  compile_pid=""
  local pipelines=()
  if [ "$sequential" = 1 ]; then
    gen_pid=""
    (
      gen_all
      if [ "$hidet" = 1 ]; then
        compile_all
        run_all
      fi
      if [ -n "$torch_variants" ]; then torch_all; fi
    ) &
    pipelines+=("$!")
  else
    gen_all &
    gen_pid=$!
    pipelines+=("$gen_pid")
    if [ "$hidet" = 1 ]; then
      compile_all &
      compile_pid=$!
      run_all &
      pipelines+=("$compile_pid" "$!")
    fi
    if [ -n "$torch_variants" ]; then
      torch_all &
      pipelines+=("$!")
    fi
  fi
  # Until everything is done or the deadline; then stop what still runs and
  # report what is there.
  local stopped=0
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do
    if [ "$deadline" -gt 0 ] && [ "$((SECONDS - start_seconds))" -ge "$deadline" ]; then
      log "deadline (${deadline} s): stopping what still runs"
      stop_tree "${pipelines[@]}"
      stopped=1
      break
    fi
    sleep 2
  done
  wait
  finish_results "$stopped"
  log "measurements done"

  # 6. The report.
  "$PYTHON" "$dir/report.py" "$res" "$out" "$commit" "$date" ||
    echo "run.sh: report.py failed" >&2
  if [ -n "$keep_logs" ]; then
    mkdir -p "$keep_logs" && cp -r "$res/." "$keep_logs/"
  fi
  log "done: $out/models.json, $out/models.md"
}

# ---------------------------------------------------------------------------
# report DIR OUT COMMIT DATE [--work W]: the report of what W holds (e.g.
# after runs with --gpu on several GPUs at once)
# ---------------------------------------------------------------------------
report_only() {
  local dir="${1:-}" out="${2:-}" commit="${3:-}" date="${4:-}" work=""
  if [ -z "$dir" ] || [ -z "$out" ] || [ -z "$commit" ] || [ -z "$date" ]; then
    usage
  fi
  shift 4
  while [ $# -gt 0 ]; do
    case "$1" in
    --work) work="${2:?--work W}"; shift 2 ;;
    --work=*) work="${1#--work=}"; shift ;;
    *) die "report: unknown option $1" ;;
    esac
  done
  work="${work:-$dir/work}"
  [ -d "$work/results" ] || die "report: no results in $work"
  [ -f "$dir/report.py" ] || die "$dir/report.py missing: run '$0 prepare $dir' first"
  mkdir -p "$out" || die "cannot create $out"
  "$PYTHON" "$dir/report.py" "$work/results" "$out" "$commit" "$date"
}

case "${1:-}" in
prepare)
  shift
  prepare "$@"
  ;;
run)
  shift
  run_bench "$@"
  ;;
report)
  shift
  report_only "$@"
  ;;
*) usage ;;
esac
