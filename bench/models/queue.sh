#!/usr/bin/env bash
# Long runs of bench/models/run.sh across commands of a limited length (the
# GPU machine stops a command after 10 minutes but keeps what it started in
# the background while it stays held): a detached queue of run.sh calls, one
# configuration after another, and a command that waits for it.
#
#   bench/models/queue.sh start DIR COMMIT DATE W ITEM... [-- RUN-OPTIONS]
#   bench/models/queue.sh wait W SECONDS [TARBALL]
#
# `start` runs, detached (setsid), `run.sh run DIR W/out COMMIT DATE --work W
# --models M --batches B --precisions P RUN-OPTIONS` for each ITEM
# (model:batch:precision, e.g. resnet50:32:f32) in order, and returns at
# once. An ITEM whose PyTorch variants (--torch) all already ended in ok or
# error in W is skipped, so that `start` again after the machine was lost
# resumes the queue (a configuration cut short starts over). Starting a
# queue while one runs in W is an error.
#
# `wait` returns when the queue is done or after SECONDS, whichever is
# first, prints the end of its log and, with TARBALL, packs W/results and
# the log into it (the results of the calls so far).
#
# Example, max-autotune of two configurations (run.sh's step timeout is
# raised, its deadline off):
#   queue.sh start DIR e6bae89 2026-11-28 /tmp/mw resnet50:1:f32 vit:32:f32 \
#     -- --no-hidet --torch max-autotune --gpu 0 --timeout 1700 --deadline 0
#   queue.sh wait /tmp/mw 570 $OUT/results.tgz    # again, until it says done
# max-autotune in f32 compiles each Triton candidate inside its benchmarking,
# one after another (ResNet-50 at batch 1: 1118 s on one H100). On a host of
# several GPUs, without --gpu and with inductor's multi-device autotuning,
# the candidates are benchmarked (so compiled) on all visible GPUs at once;
# torch_baselines.py records it and models.md says so:
#   CUDA_VISIBLE_DEVICES=0,1,2,3 TORCHINDUCTOR_AUTOTUNE_IN_SUBPROC=1 \
#   TORCHINDUCTOR_AUTOTUNE_MULTI_DEVICE=1 queue.sh start DIR ... \
#     -- --no-hidet --torch max-autotune --timeout 1700 --deadline 0
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
  sed -n '/^#   bench\/models\/queue.sh/s/^#   //p' "$0" >&2
  exit 2
}

# done_item W CFG VARIANTS: whether every variant of CFG ended in ok or error.
done_item() {
  local jsonl="$1/results/$2.torch.jsonl" v
  [ -f "$jsonl" ] || return 1
  for v in ${3//,/ }; do
    grep "\"variant\": \"$v\"" "$jsonl" | tail -n 1 |
      grep -q '"status": "\(ok\|error\)"' || return 1
  done
}

start() {
  [ $# -ge 5 ] || usage
  local dir="$1" commit="$2" date="$3" work="$4"
  shift 4
  local items=() opts=() torch=eager,compile,max-autotune
  while [ $# -gt 0 ] && [ "$1" != -- ]; do items+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  opts=("$@")
  local i
  for ((i = 0; i < ${#opts[@]}; i++)); do
    [ "${opts[i]}" = --torch ] && torch="${opts[i + 1]:-}"
    [[ "${opts[i]}" == --torch=* ]] && torch="${opts[i]#--torch=}"
  done
  for i in "${items[@]}"; do
    [[ "$i" =~ ^[a-z0-9_]+:[1-9][0-9]*:(f16|f32)$ ]] ||
      { echo "queue.sh: bad item '$i' (model:batch:precision)" >&2; exit 2; }
  done
  mkdir -p "$work" || exit 2
  work="$(cd "$work" && pwd)"
  if [ -f "$work/queue.pid" ] && kill -0 "$(cat "$work/queue.pid")" 2>/dev/null; then
    echo "queue.sh: a queue runs in $work (pid $(cat "$work/queue.pid"))" >&2
    exit 2
  fi
  rm -f "$work/queue.done"
  # shellcheck disable=SC2016 # expanded by the detached shell
  setsid bash -c '
    work="$1" dir="$2" commit="$3" date="$4" torch="$5" here="$6"; shift 6
    source "$here/queue.sh" --functions
    items=(); while [ "$1" != -- ]; do items+=("$1"); shift; done; shift
    for it in "${items[@]}"; do
      IFS=: read -r m b p <<<"$it"
      if done_item "$work" "${m}_b${b}_$p" "$torch"; then
        echo "queue: $it: done before, skipped"; continue
      fi
      echo "queue: $it: start $(date +%T)"
      bash "$here/run.sh" run "$dir" "$work/out" "$commit" "$date" --work "$work" \
        --models "$m" --batches "$b" --precisions "$p" "$@"
      echo "queue: $it: end $(date +%T)"
    done
    touch "$work/queue.done"
  ' queue "$work" "$dir" "$commit" "$date" "$torch" "$here" "${items[@]}" -- \
    ${opts[@]+"${opts[@]}"} >>"$work/queue.log" 2>&1 </dev/null &
  echo $! >"$work/queue.pid"
  echo "queue.sh: ${#items[@]} configurations queued in $work (log $work/queue.log)"
}

wait_queue() {
  [ $# -ge 2 ] || usage
  local work="$1" seconds="$2" tarball="${3:-}" end=$((SECONDS + $2))
  [[ "$seconds" =~ ^[0-9]+$ ]] || usage
  while [ $SECONDS -lt $end ] && [ ! -f "$work/queue.done" ]; do
    if ! { [ -f "$work/queue.pid" ] && kill -0 "$(cat "$work/queue.pid")" 2>/dev/null; }; then
      break
    fi
    sleep 5
  done
  grep -v '^\s*$' "$work/queue.log" 2>/dev/null | tail -n 30 | cut -c1-300
  if [ -f "$work/queue.done" ]; then
    echo "queue.sh: done"
  elif [ -f "$work/queue.pid" ] && kill -0 "$(cat "$work/queue.pid")" 2>/dev/null; then
    echo "queue.sh: still running"
  else
    echo "queue.sh: the queue stopped before its end (start it again to resume)"
  fi
  if [ -n "$tarball" ]; then
    tar -czf "$tarball" -C "$work" results queue.log || exit 1
  fi
}

# Sourced by the detached shell for its functions only.
# shellcheck disable=SC2317
if [ "${1:-}" = --functions ]; then return 0 2>/dev/null || exit 0; fi
case "${1:-}" in
start) shift; start "$@" ;;
wait) shift; wait_queue "$@" ;;
*) usage ;;
esac
