# The steps of bench/models/run.sh `run` (sourced by it): each configuration's
# generation, hidet-compile, hidet-run and PyTorch measurement, one and all,
# and the stopping of what outlasts the deadline. They read run_bench's
# settings and paths (models, work, results, jobs, timeouts, ...).

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
  local m="$1" b="$2" d rc base="$1" extra=()
  d="$(model_dir "$m" "$b")"
  # MODEL_dynamo: MODEL through PyTorch's dynamo exporter (generate.py names
  # its file so). The off-the-shelf models keep their weights beside the
  # graph (Llama's exceed protobuf's 2 GB).
  case "$m" in *_dynamo) base="${m%_dynamo}" extra=(--exporter dynamo) ;; esac
  case "$base" in hf_* | timm_*) extra+=(--external-data) ;; esac
  if [ -f "$d/gen.ok" ]; then
    log "generate $m b$b: reusing $d"
    return
  fi
  rm -rf "$d"
  mkdir -p "$d"
  log "generate $m b$b: start"
  nice -n 10 timeout -k 10 "$step_timeout" "$PYTHON" "$dir/generate.py" \
    --out "$d" --models "$base" "${extra[@]}" --batch "$b" --seed 0 --reference \
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
  [ "$p" != f32 ] && opts=(--precision="$p")
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
  local m="$1" b="$2" p="$3" cfg data status seconds rc k line
  local inputs=() expected=() outputs=() pairs=() graph=() profile=() checks=()
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
  read -r -a checks <<<"$(model_check_args "$p")"
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
    "${expected[@]}" "${checks[@]}" "${graph[@]}" \
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
    --model "$m" --batch "$b" --dtype "$p" --rel-l2-bound "$(model_rel_l2_bound "$p")" \
    --variants "$torch_variants" \
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
