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
# torch_baselines.py, report.py (with model_results.py and model_tables.py),
# utils/models/generate.py, the statically
# linked tools (utils/static-tools.sh, packed as a tarball of bin/hidet-compile,
# bin/hidet-run and lib/; default .gpu/carry/tools.tar.xz) and DIR/commit.
#
# `run` (PyTorch, torchvision, onnx and numpy on that machine; no MLIR):
#   1. untars the tools into a temporary directory;
#   2. generates each model at each batch with generate.py --reference (the
#      ONNX file and test_data_set_0: its inputs and PyTorch's float32 CPU
#      outputs);
#   3. compiles it with hidet-compile (--precision=f16 for f16;
#      --external-weights), --jobs at a time, timing each;
#   4. runs it with hidet-run on the test inputs, checks the outputs against
#      PyTorch's (RTOL_*/ATOL_* below) and times the whole forward as one
#      CUDA graph replay (--cuda-graph; median of REPS);
#   5. measures PyTorch on the same weights and inputs (torch_baselines.py:
#      eager, torch.compile, max-autotune; each captured in a CUDA graph and
#      timed the same way);
#   6. writes OUT/models.json, OUT/models.md and OUT/models.png (report.py).
# A failure of one model or configuration (export, compile, mismatch, run,
# PyTorch) is recorded in the results and the run goes on.
#
# Options of `run` (defaults in brackets):
#   --models bert,gpt2,resnet50   --batches 1,32   --precisions f16,f32
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

# The documented per-precision checks of the models benchmark, against
# PyTorch's float32 CPU output: hidet-run checks every output element,
# |out - expected| <= ATOL + RTOL * |expected|, and the report bounds the
# relative L2 error ||out - expected|| / ||expected|| of each output by
# RELL2 (torch_baselines.py bounds PyTorch's variants by the same against
# float32 eager). The f16 bounds leave room for the error that PyTorch's
# own f16 makes on these models against float32 (relative L2 1e-3 to 2e-3;
# largest elementwise error 0.15 to 0.18 on ResNet-50's logits, whose
# magnitude reaches 150), and no more than 5x its L2 error.
RTOL_F32=1e-3
ATOL_F32=1e-4
RELL2_F32=1e-4
RTOL_F16=5e-2
ATOL_F16=0.25
RELL2_F16=1e-2
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
  cp "$here/run.sh" "$here/torch_baselines.py" "$here/report.py" \
    "$here/model_results.py" "$here/model_tables.py" \
    "$src/utils/models/generate.py" "$dir/" || die "prepare: copy failed"
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

# Names and paths of one configuration.
cfg_name() { echo "${1}_b${2}_${3}"; }       # model batch precision
model_dir() { echo "$models/${1}_b${2}"; }   # model batch

# wait_for FILE [PID]: until FILE exists or PID (its producer; none: do
# not wait) is gone; fails when FILE does not exist then.
wait_for() {
  while [ ! -e "$1" ]; do
    if [ -z "${2:-}" ] || ! kill -0 "$2" 2>/dev/null; then
      [ -e "$1" ]
      return
    fi
    sleep 2
  done
  return 0
}

# pool_wait N: until fewer than N background jobs of this shell run.
pool_wait() {
  while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do
    wait -n 2>/dev/null || true
  done
}

# gpu_exclusive CMD...: CMD with the GPU lock held exclusively (as
# torch_baselines.py's GpuLock: the turnstile first, so that waiting here
# keeps new shared holders out).
gpu_exclusive() {
  (
    exec 8>>"$lock.turnstile" 9>>"$lock"
    flock -x 8 && flock -x 9 && flock -u 8 && exec 8>&- && "$@"
  )
}

# tail_text FILE: its last lines, for progress messages.
tail_text() { tail -n "${2:-3}" "$1" 2>/dev/null | tr '\n' ' ' | cut -c1-400; }

# --- 2. generation ---------------------------------------------------------
gen_one() { # model batch
  local m="$1" b="$2" d rc
  d="$(model_dir "$m" "$b")"
  if [ -f "$d/gen.ok" ]; then
    log "generate $m b$b: reusing $d"
    return
  fi
  rm -rf "$d"
  mkdir -p "$d"
  log "generate $m b$b: start"
  nice -n 10 timeout -k 10 "$step_timeout" "$PYTHON" "$dir/generate.py" \
    --out "$d" --models "$m" --batch "$b" --seed 0 --reference \
    --threads "$gen_threads" >"$d/gen.log" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ] && [ -f "$d/$m.onnx" ] && [ -f "$d/$m/test_data_set_0/output_0.pb" ]; then
    rm -f "$d/$m/test_data_set_0/"*.npy # the .pb files hold the same arrays
    touch "$d/gen.ok"
    log "generate $m b$b: done ($(grep -o 'export [0-9.]* s' "$d/gen.log" | head -1))"
  else
    cp "$d/gen.log" "$res/${m}_b${b}.gen.log" 2>/dev/null
    echo "$rc" >"$d/gen.fail"
    log "generate $m b$b: FAILED (exit $rc): $(tail_text "$d/gen.log")"
  fi
}

gen_all() {
  local m b
  for m in "${model_list[@]}"; do
    for b in "${batch_list[@]}"; do
      pool_wait "$gen_jobs"
      gen_one "$m" "$b" &
    done
  done
  wait
}

# --- 3. hidet-compile -----------------------------------------------------
compile_one() { # model batch precision
  local m="$1" b="$2" p="$3" cfg d begin rc seconds status opts=()
  cfg="$(cfg_name "$m" "$b" "$p")"
  d="$(model_dir "$m" "$b")"
  [ "$p" = f16 ] && opts=(--precision=f16)
  local records="$tuning_records/$m-b$b-$p.json"
  rm -f "$res/$cfg.records"
  if [ -n "$tuning_records" ] && [ -f "$records" ]; then
    opts+=(--tuning-records="$records")
    basename "$records" >"$res/$cfg.records"
  fi
  log "compile $cfg: start"
  begin="$(date +%s.%N)"
  nice -n 10 timeout -k 10 "$step_timeout" "$tools/bin/hidet-compile" \
    "$d/$m.onnx" "${opts[@]}" --external-weights="$build/$cfg.weights" \
    --runtime-dir="$tools/lib" -o "$build/$cfg.so" >"$res/$cfg.compile.log" 2>&1
  rc=$?
  seconds="$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $begin }")"
  case "$rc" in
  0) status=ok ;;
  124 | 137) status=timeout ;;
  *) status=error ;;
  esac
  # Written last and renamed: the marker that the run step waits for.
  echo "$status $seconds $rc" >"$res/$cfg.compile.tmp"
  mv "$res/$cfg.compile.tmp" "$res/$cfg.compile"
  if [ "$status" = ok ]; then
    log "compile $cfg: ok, ${seconds} s"
  else
    log "compile $cfg: $status (exit $rc) after ${seconds} s: $(tail_text "$res/$cfg.compile.log")"
  fi
}

compile_all() {
  local m b p d cfg
  for m in "${model_list[@]}"; do
    for b in "${batch_list[@]}"; do
      d="$(model_dir "$m" "$b")"
      wait_for "$d/gen.ok" "$gen_pid"
      for p in "${precision_list[@]}"; do
        cfg="$(cfg_name "$m" "$b" "$p")"
        if [ ! -f "$d/gen.ok" ]; then
          echo "no-model 0 -" >"$res/$cfg.compile"
          continue
        fi
        pool_wait "$jobs"
        compile_one "$m" "$b" "$p" &
      done
    done
  done
  wait
}

# --- 4. hidet-run -----------------------------------------------------------
# compare_outputs JSON EXPECTED.pb GOT.npy [EXPECTED.pb GOT.npy ...]: the
# errors of hidet's outputs against PyTorch's float32 CPU outputs, in the
# measures PyTorch's side reports (torch_baselines.py), hidet-run's JSON
# having only elementwise ones against --expected-output.
compare_outputs() {
  nice -n 10 "$PYTHON" - "$@" <<'EOF'
import json, sys
import numpy as np
import onnx
from onnx import numpy_helper
res = []
args = sys.argv[2:]
for k in range(0, len(args), 2):
    exp = numpy_helper.to_array(onnx.load_tensor(args[k])).astype(np.float64)
    got = np.load(args[k + 1]).astype(np.float64)
    d = np.abs(got - exp)
    finite = np.isfinite(d)
    res.append({"index": k // 2,
                "rel_l2": float(np.linalg.norm(np.where(finite, got - exp, 0))
                                / np.linalg.norm(exp)),
                "max_abs": float(d[finite].max()) if finite.any() else None,
                "max_abs_rel": float(d[finite].max() / np.abs(exp).max())
                if finite.any() else None,
                "nonfinite": int((~finite).sum())})
json.dump({"outputs": res}, open(sys.argv[1], "w"), indent=1)
EOF
}

run_one() { # model batch precision
  local m="$1" b="$2" p="$3" cfg data status seconds rc k rtol atol line
  local inputs=() expected=() outputs=() pairs=() graph=() profile=()
  cfg="$(cfg_name "$m" "$b" "$p")"
  read -r status seconds _ <"$res/$cfg.compile"
  if [ "$status" != ok ]; then
    log "run $cfg: skipped (compile: $status)"
    return
  fi
  data="$(model_dir "$m" "$b")/$m/test_data_set_0"
  for ((k = 0; ; k++)); do
    [ -f "$data/input_$k.pb" ] || break
    inputs+=("--input=@$data/input_$k.pb")
  done
  for ((k = 0; ; k++)); do
    [ -f "$data/output_$k.pb" ] || break
    expected+=("--expected-output=@$data/output_$k.pb")
    outputs+=("--output=@$build/$cfg.out$k.npy")
    pairs+=("$data/output_$k.pb" "$build/$cfg.out$k.npy")
  done
  if [ "$p" = f16 ]; then rtol=$RTOL_F16 atol=$ATOL_F16; else rtol=$RTOL_F32 atol=$ATOL_F32; fi
  if [ "$cuda_graph" = 1 ]; then
    graph=(--cuda-graph)
    echo cuda-graph >"$res/$cfg.run.mode"
  else
    echo per-call >"$res/$cfg.run.mode"
  fi
  [ "$profiling" = 1 ] && profile=(--profile "$PROFILE_RUNS")
  rm -f "$build/$cfg".out*.npy
  log "run $cfg: waiting for the GPU"
  LD_LIBRARY_PATH="$tools/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    gpu_exclusive timeout -k 10 "$step_timeout" "$tools/bin/hidet-run" \
    "$build/$cfg.so" --weights="@$build/$cfg.weights" "${inputs[@]}" \
    "${expected[@]}" --rtol "$rtol" --atol "$atol" "${graph[@]}" \
    --warmup "$WARMUP" --reps "$REPS" "${profile[@]}" "${outputs[@]}" \
    --json "$res/$cfg.hidet.json" >"$res/$cfg.run.log" 2>&1
  rc=$?
  echo "$rc" >"$res/$cfg.run.rc"
  # The commit of the tools that measured it: a work directory may hold the
  # results of several calls.
  echo "$commit" >"$res/$cfg.commit"
  if [ -n "$gpu" ]; then echo "$gpu" >"$res/$cfg.gpu"; else rm -f "$res/$cfg.gpu"; fi
  line="$(grep -m1 "^hidet-run: .*\(PASS\|FAIL\|UNVERIFIED\)" "$res/$cfg.run.log" | cut -c1-200)"
  if [ "$rc" -le 1 ]; then
    log "run $cfg: exit $rc: ${line#hidet-run: }"
  else
    log "run $cfg: ERROR (exit $rc): $(tail_text "$res/$cfg.run.log")"
  fi
  # The relative L2 error, off the GPU's critical path.
  if [ -f "${pairs[1]:-/nonexistent}" ]; then
    (compare_outputs "$res/$cfg.error.json" "${pairs[@]}" \
      >"$res/$cfg.error.log" 2>&1; rm -f "$build/$cfg".out*.npy) &
  fi
}

run_all() {
  local m b p cfg
  for m in "${model_list[@]}"; do
    for b in "${batch_list[@]}"; do
      for p in "${precision_list[@]}"; do
        cfg="$(cfg_name "$m" "$b" "$p")"
        wait_for "$res/$cfg.compile" "$compile_pid" || {
          log "run $cfg: no compile result"
          continue
        }
        run_one "$m" "$b" "$p"
      done
    done
  done
  wait
}

# --- 5. PyTorch --------------------------------------------------------------
torch_one() { # model batch precision
  local m="$1" b="$2" p="$3" cfg d part rc v status data_args=()
  cfg="$(cfg_name "$m" "$b" "$p")"
  d="$(model_dir "$m" "$b")"
  [ -f "$d/gen.ok" ] && data_args=(--data "$d/$m/test_data_set_0")
  part="$res/$cfg.torch.part"
  rm -f "$part"
  log "torch $cfg: start ($torch_variants)"
  timeout -k 10 "$step_timeout" "$PYTHON" "$dir/torch_baselines.py" \
    --model "$m" --batch "$b" --dtype "$p" --variants "$torch_variants" \
    "${data_args[@]}" --warmup-replays "$WARMUP" --reps "$REPS" \
    --gpu-lock "$lock" --generate "$dir/generate.py" --out "$part" \
    >"$res/$cfg.torch.log" 2>&1
  rc=$?
  # The GPU of a --gpu run, in each variant's record.
  [ -n "$gpu" ] && [ -f "$part" ] && sed -i "s/^{/{\"gpu\": $gpu, /" "$part"
  status=crashed
  case "$rc" in 124 | 137) status=timeout ;; esac
  # A variant the process did not get to (crash, timeout) is recorded too.
  for v in ${torch_variants//,/ }; do
    grep -q "\"variant\": \"$v\"" "$part" 2>/dev/null && continue
    printf '{"model": "%s", "batch": %s, "precision": "%s", "variant": "%s", "status": "%s", "error": "torch_baselines.py exited with status %s before writing this variant: %s"}\n' \
      "$m" "$b" "$p" "$v" "$status" "$rc" \
      "$(tail_text "$res/$cfg.torch.log" 2 | tr -d '\\"' | tr -c '[:print:]' ' ')" >>"$part"
  done
  cat "$part" >>"$res/$cfg.torch.jsonl"
  rm -f "$part"
  log "torch $cfg: exit $rc; $(grep '^torch_baselines: ' "$res/$cfg.torch.log" |
    sed 's/^torch_baselines: [^ ]* //' | tr '\n' ';' | cut -c1-300)"
}

torch_all() {
  local m b p
  for m in "${model_list[@]}"; do
    for b in "${batch_list[@]}"; do
      # The same inputs as the ONNX test data: wait for them.
      wait_for "$(model_dir "$m" "$b")/gen.ok" "$gen_pid"
      for p in "${precision_list[@]}"; do
        pool_wait "$torch_jobs"
        torch_one "$m" "$b" "$p" &
      done
    done
  done
  wait
}

# descendants PID: the processes below PID, parents first.
descendants() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

# stop_tree PID...: ends each PID and every process below it: first stops
# them all (SIGSTOP, parents first, again until no new one shows up: a
# stopped parent starts nothing more), then SIGTERM and SIGCONT, and SIGKILL
# to what is left 3 seconds later.
stop_tree() {
  local pids="" now p
  while :; do
    now="$(for p in "$@"; do
      kill -0 "$p" 2>/dev/null && echo "$p"
      descendants "$p"
    done | awk '!seen[$0]++')"
    [ "$now" = "$pids" ] && break
    pids="$now"
    # shellcheck disable=SC2086 # a list of ids
    kill -s STOP $pids 2>/dev/null
  done
  [ -n "$pids" ] || return 0
  # shellcheck disable=SC2086
  kill -s TERM $pids 2>/dev/null
  # shellcheck disable=SC2086
  kill -s CONT $pids 2>/dev/null
  sleep 3
  # shellcheck disable=SC2086
  kill -s KILL $pids 2>/dev/null
  return 0
}

# finish_results STOPPED: what the steps that were stopped (or died) left
# unrecorded, recorded as not run, so that the report lists it.
finish_results() {
  local why="the step ended without a result" m b p v cfg part
  [ "$1" = 1 ] && why="stopped at the --deadline of ${deadline} s"
  for m in "${model_list[@]}"; do
    for b in "${batch_list[@]}"; do
      for p in "${precision_list[@]}"; do
        cfg="$(cfg_name "$m" "$b" "$p")"
        if [ "$hidet" = 1 ] && [ ! -f "$res/$cfg.compile" ]; then
          echo "not-run 0 -" >"$res/$cfg.compile"
        fi
        part="$res/$cfg.torch.part"
        if [ -n "$torch_variants" ]; then
          touch "$part"
          for v in ${torch_variants//,/ }; do
            grep -q "\"variant\": \"$v\"" "$part" && continue
            grep -q "\"variant\": \"$v\"" "$res/$cfg.torch.jsonl" 2>/dev/null && continue
            printf '{"model": "%s", "batch": %s, "precision": "%s", "variant": "%s", "status": "not-run", "error": "%s"}\n' \
              "$m" "$b" "$p" "$v" "$why" >>"$part"
          done
          cat "$part" >>"$res/$cfg.torch.jsonl"
        fi
        rm -f "$part"
      done
    done
  done
}

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
    [[ "$x" =~ ^(f16|f32)$ ]] || die "bad precision '$x' (f16 or f32)"
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
    generate.py tools.tar.xz; do
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
  printf '{"rtol": {"f32": %s, "f16": %s}, "atol": {"f32": %s, "f16": %s}, "rel_l2_bound": {"f32": %s, "f16": %s}, "warmup": %s, "reps": %s, "hidet_cuda_graph": %s, "jobs": %s, "torch_jobs": %s, "sequential": %s, "cpus": %s}\n' \
    "$RTOL_F32" "$RTOL_F16" "$ATOL_F32" "$ATOL_F16" "$RELL2_F32" "$RELL2_F16" "$WARMUP" "$REPS" \
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
