# bench/refresh.sh run (sourced by bench/refresh.sh): a group's steps on
# the GPU machine, within the call's deadline, each step's results packed
# by itself.

# Each step_NAME WORK OUT COMMIT TAG DATE SECONDS writes its result files
# (named as in bench/results) into OUT; WORK is the group's unpacked
# payload, SECONDS the time it has.

step_lit() {
  "$src/utils/gpu-lit.sh" run "$1/lit" "$1/tools" "$2/gpu-lit-$4.log"
}

step_integration() {
  "$src/utils/gpu-integration.sh" run "$1/integration" "$2/gpu-integration-$4.log"
}

# The ONNX backend suite, 8 tests at once (a test's time is mostly
# hidet-run's start and the CUDA context). Beside the lit tests, each of
# whose 16 jobs holds a context too, a test per core in each of 8 parts
# (128 contexts) made creating a context fail with CUDA_ERROR_OUT_OF_MEMORY
# on the H200.
step_conformance() {
  local conf="$1/conformance" rc=0
  gpu_name >"$conf/device"
  "$src/utils/onnx-conformance.sh" run "$conf" "$conf/report.md" --jobs 8 >/dev/null
  "$src/utils/onnx-conformance.sh" report "$conf" "$2/onnx-conformance-$4.md" || rc=1
  cp "$conf/results.tsv" "$2/onnx-conformance-$4.tsv"
  grep -E '^\| (ALL|node) ' "$2/onnx-conformance-$4.md"
  return "$rc"
}

# The MLP demo of utils/run-demo.sh: the GPU library against the CPU one,
# timed.
step_mlp() {
  local mlp="$1/mlp" log="$2/mlp-demo-$4.log" rc
  (cd "$mlp" && LD_LIBRARY_PATH="$mlp:${LD_LIBRARY_PATH:-}" \
    ./hidet-run libmlp.so --ref libmlp.ref.so --reps 20) >"$2/mlp.out" 2>&1
  rc=$?
  {
    echo "# bench/refresh.sh (examples/mlp.mlir, as utils/run-demo.sh runs it): $(gpu_name), $5, commit $3"
    cat "$2/mlp.out"
  } >"$log"
  rm "$2/mlp.out"
  cat "$log"
  return "$rc"
}

bench_step() {
  local bench="$1"
  shift
  "$here/$bench/run.sh" run "$1/$bench" "$2" "$3" "$5"
}
step_matmul-mma() { bench_step matmul-mma "$@"; }
step_conv-mma() { bench_step conv-mma "$@"; }
step_fusion() { bench_step fusion "$@"; }
step_rule-based() { bench_step rule-based "$@"; }
step_matmul-simt() { bench_step matmul-simt "$@"; }

# models_step NAME MODELS WORK OUT COMMIT TAG DATE SECONDS: bench/models on
# MODELS at batch 1 and 32 in f16 and f32 against eager and torch.compile,
# stopped 40 s before SECONDS to write its report, as NAME-<tag>.*.
models_step() {
  local name="$1" models="$2" work="$3" out="$4" rep="$4/report" f rc
  mkdir -p "$rep"
  "$here/models/run.sh" run "$work/bench" "$rep" "$5" "$7" --models "$models" \
    --batches 1,32 --precisions f16,f32 --torch eager,compile \
    --deadline $(($8 - 40)) --timeout $(($8 - 60))
  rc=$?
  for f in json md png; do
    [ -f "$rep/models.$f" ] && mv "$rep/models.$f" "$out/$name-$6.$f"
  done
  rm -rf "$rep"
  [ -f "$out/$name-$6.md" ] || rc=1
  return "$rc"
}
step_models() { models_step models bert,gpt2,resnet50 "$@"; }
step_models-more() { models_step models-more vit,mobilenetv2,efficientnet_b0 "$@"; }

# The device call of GROUP, for the dry run.
call_line() {
  local rel="${2#"$src"/}"
  echo "  device call: command 'bench/refresh.sh run $1 $rel \"\$OUT\"', carry [\"$rel/$1\"], timeout_s 600"
}

# dry_run GROUPS DIR DEADLINE FORCE: what the calls would run.
dry_run() {
  local groups="$1" dir="$2" deadline="$3" force="$4" g s b total=0 calls=0 left used
  for g in $groups; do
    used=0 left=""
    echo "group $g ($(if parallel_group "$g"; then echo "side by side"; else echo "one after another"; fi)):"
    if [ -f "$dir/$g/payload.tar.xz" ]; then
      echo "  prepared at $(cat "$dir/$g/commit"), $(mib "$(du -sb "$dir/$g" | cut -f1)") MiB to carry"
    else
      echo "  not prepared (bench/refresh.sh prepare --groups $g)"
    fi
    for s in $(group_steps "$g"); do
      b="$(step_budget "$s")"
      if [ -e "$dir/$g/done/$s" ] && [ "$force" = 0 ]; then
        printf '  %-12s %4d s  done\n' "$s" "$b"
        continue
      fi
      if parallel_group "$g"; then
        [ "$b" -gt "$used" ] && [ "$b" -le "$deadline" ] && used="$b"
        [ "$b" -le "$deadline" ] || left="$left $s"
      elif [ $((used + b)) -le "$deadline" ]; then
        used=$((used + b))
      else
        left="$left $s"
      fi
      printf '  %-12s %4d s  %s\n' "$s" "$b" \
        "$([[ " $left " == *" $s "* ]] && echo "left for another call" || echo "runs")"
    done
    echo "  this call: ${used} s of steps within a deadline of ${deadline} s"
    [ "$used" -gt 0 ] && { call_line "$g" "$dir"; calls=$((calls + 1)); total=$((total + used)); }
  done
  [ "$calls" -gt 0 ] &&
    echo "in all: calls $calls, about $((total + calls * start_cost)) s of device time with ${start_cost} s to start each machine"
}

# run_one GROUP STEP WORK OUT COMMIT TAG DATE SECONDS: one step under a
# time limit, its results packed into OUT/STEP.tar.gz; its status.
run_one() {
  local g="$1" s="$2" work="$3" out="$4" res="$3/../results/$2" begin rc
  rm -rf "$res"
  mkdir -p "$res"
  res="$(cd "$res" && pwd)"
  begin=$SECONDS
  echo "== $s: started (budget $(step_budget "$s") s, limit $8 s)"
  timeout -k 15 "$8" "$src/bench/refresh.sh" _step "$s" "$work" "$res" "$5" "$6" "$7" "$8" 2>&1 | sed "s/^/[$s] /"
  rc=${PIPESTATUS[0]}
  [ "$rc" = 124 ] && echo "== $s: stopped at its limit of $8 s"
  printf 'group %s\nstep %s\ncommit %s\ngpu %s\ndate %s\nstatus %s\nseconds %s\n' \
    "$g" "$s" "$5" "$(gpu_name)" "$7" "$rc" "$((SECONDS - begin))" >"$res/refresh-step.txt"
  tar -C "$res" -czf "$out/$s.tar.gz" . || rc=1
  echo "== $s: status $rc in $((SECONDS - begin)) s; results $(ls "$res" | tr '\n' ' ')"
  return "$rc"
}

run_group() {
  local g="$1" dir="$2" out="$3" deadline="$4" force="$5" start=$SECONDS s b limit
  local work="$dir/$g/work" commit tag date pids=() failed="" left=""
  commit="$(cat "$dir/$g/commit")"
  tag="$(gpu_tag "$(gpu_name)")"
  date="$(date -u +%F)"
  local here_commit
  here_commit="$(tree_commit)"
  [ "$here_commit" = unknown ] || [ "$here_commit" = "$commit" ] ||
    echo "refresh.sh: warning: prepared at $commit, this tree is at $here_commit" >&2
  if [ ! -d "$work" ]; then
    tar -xJf "$dir/$g/payload.tar.xz" -C "$dir/$g" || die "cannot unpack $dir/$g/payload.tar.xz"
  fi
  echo "refresh: group $g on $(gpu_name) ($tag), commit $commit, deadline $deadline s"
  for s in $(group_steps "$g"); do
    if [ -e "$dir/$g/done/$s" ] && [ "$force" = 0 ]; then
      echo "== $s: done in an earlier call"
      continue
    fi
    b="$(step_budget "$s")"
    limit=$((deadline - (SECONDS - start)))
    if [ "$limit" -lt "$b" ]; then
      echo "== $s: left for another call (budget $b s, $limit s left)"
      left="$left $s"
      continue
    fi
    if parallel_group "$g"; then
      run_one "$g" "$s" "$work" "$out" "$commit" "$tag" "$date" "$limit" &
      pids+=("$!:$s")
    else
      run_one "$g" "$s" "$work" "$out" "$commit" "$tag" "$date" "$limit" || failed="$failed $s"
    fi
  done
  local p
  for p in "${pids[@]}"; do
    wait "${p%%:*}" || failed="$failed ${p#*:}"
  done
  echo "refresh: group $g in $((SECONDS - start)) s;${failed:+ failed:$failed;}${left:+ left:$left;} results in $out"
  [ -z "$failed" ] || return 1
  [ -z "$left" ] || return 75
  return 0
}

run() {
  local group="" dir="" out="" deadline=560 force=0 dry=0 a
  local -a pos=()
  while [ $# -gt 0 ]; do
    case "$1" in
    --deadline) deadline="${2:?--deadline S}"; shift 2 ;;
    --force) force=1; shift ;;
    --dry-run) dry=1; shift ;;
    -*) die "run: unknown option $1" ;;
    *) pos+=("$1"); shift ;;
    esac
  done
  [[ "$deadline" =~ ^[1-9][0-9]*$ ]] || die "run: bad --deadline '$deadline'"
  # A dry run's GROUP may be left out (all three) or be "all".
  if [ "$dry" = 1 ] && [ ${#pos[@]} -gt 0 ] && [ "${pos[0]}" != all ] &&
    ! is_group "${pos[0]}" && [ -d "${pos[0]}" ]; then
    pos=(all "${pos[@]}")
  fi
  group="${pos[0]:-}"
  case "${#pos[@]}" in
  0 | 1) ;;
  2) if [ "$dry" = 1 ]; then dir="${pos[1]}"; else out="${pos[1]}"; fi ;;
  3) dir="${pos[1]}" out="${pos[2]}" ;;
  *) die "run: GROUP [DIR] OUT" ;;
  esac
  dir="${dir:-$default_dir}"
  [ -d "$dir" ] && dir="$(cd "$dir" && pwd)"
  if [ "$dry" = 1 ]; then
    [ -z "$group" ] || [ "$group" = all ] && group="$main_groups"
    for a in $group; do is_group "$a" || die "run: no group '$a' ($all_groups)"; done
    dry_run "$group" "$dir" "$deadline" "$force"
    return 0
  fi
  is_group "$group" || die "run: no group '$group' ($all_groups)"
  [ -n "$out" ] || die "run: GROUP [DIR] OUT"
  [ -f "$dir/$group/payload.tar.xz" ] || die "run: $dir/$group is not prepared"
  [ -n "$(gpu_name)" ] || die "run: no GPU here (nvidia-smi names none)"
  mkdir -p "$out" || die "cannot create $out"
  out="$(cd "$out" && pwd)"
  run_group "$group" "$dir" "$out" "$deadline" "$force" 2>&1 | tee "$out/refresh-$group.log"
  return "${PIPESTATUS[0]}"
}
