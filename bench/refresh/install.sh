# bench/refresh.sh install (sourced by bench/refresh.sh): the returned
# results into bench/results.

# The result files a step may install (shell patterns; <tag> the GPU's).
step_files() {
  case "$1" in
  lit) echo "gpu-lit-$2.log" ;;
  integration) echo "gpu-integration-$2.log" ;;
  conformance) echo "onnx-conformance-$2.md onnx-conformance-$2.tsv" ;;
  mlp) echo "mlp-demo-$2.log" ;;
  models | models-more) echo "$1-$2.json $1-$2.md $1-$2.png" ;;
  *) echo "$1-$2.json $1-$2.md" ;;
  esac
}

# headline FILE: the lines of a result file that the README quotes from:
# its GPU and commit, and its bold figures outside tables or, with none,
# the rows of its first table.
headline() {
  case "$1" in
  *.md)
    {
      grep -E '^GPU:|[Cc]ommit [0-9a-f]{7}' "$1" | head -n 1
      if grep -qE '^[^|].*\*\*' "$1"; then
        grep -E '^[^|].*\*\*' "$1" | head -n 6
      else
        # The rows of its first table.
        awk '/^\|/ { t = 1; if ($0 !~ /^\|[- |]*$/) print; next } t { exit }' "$1" | sed 1d
      fi
    } | cut -c1-200
    ;;
  *.log) { head -n 1 "$1"; grep -E '^  (Passed|Failed|Unsupported)|passed, [0-9]+ failed|^hidet-run: .* (PASS|FAIL)' "$1"; } | cut -c1-200 ;;
  esac
}

# install_one TARBALL DIR RESULTS: one step's results.
install_one() {
  local tmp rc
  tmp="$(mktemp -d)"
  install_from "$@" "$tmp"
  rc=$?
  rm -rf "$tmp"
  return "$rc"
}

# install_from TARBALL DIR RESULTS TMP: install_one, unpacking into TMP.
install_from() {
  local tarball="$1" dir="$2" results="$3" tmp="$4" meta group step commit gpu status tag f n=0
  tar -xzf "$tarball" -C "$tmp" || { echo "install: cannot unpack $tarball" >&2; return 1; }
  meta="$tmp/refresh-step.txt"
  [ -f "$meta" ] || { echo "install: $tarball holds no refresh-step.txt" >&2; return 1; }
  group="$(sed -n 's/^group //p' "$meta")"
  step="$(sed -n 's/^step //p' "$meta")"
  commit="$(sed -n 's/^commit //p' "$meta")"
  gpu="$(sed -n 's/^gpu //p' "$meta")"
  status="$(sed -n 's/^status //p' "$meta")"
  if [ "$(step_group "$step")" != "$group" ] || ! is_group "$group"; then
    echo "install: $tarball: unknown step '$step' of group '$group'" >&2
    return 1
  fi
  if [ -f "$dir/$group/commit" ] && [ "$(cat "$dir/$group/commit")" != "$commit" ]; then
    echo "install: $tarball was measured at $commit; $dir/$group is prepared at $(cat "$dir/$group/commit")" >&2
    return 1
  fi
  [ -n "$gpu" ] || { echo "install: $tarball names no GPU" >&2; return 1; }
  tag="$(gpu_tag "$gpu")"
  for f in $(step_files "$step" "$tag"); do
    [ -f "$tmp/$f" ] || continue
    cp "$tmp/$f" "$results/$f" || return 1
    n=$((n + 1))
    echo "installed $results/$f"
    headline "$tmp/$f" | sed 's/^/    /'
  done
  if [ "$n" -eq 0 ]; then
    echo "install: $tarball ($step, status $status) holds no result file" >&2
    return 1
  fi
  if [ "$status" = 0 ]; then
    mkdir -p "$dir/$group/done" && touch "$dir/$group/done/$step"
  else
    echo "install: $step ended with status $status: installed, not marked done" >&2
    return 1
  fi
}

install() {
  local dir="$default_dir" results="$src/bench/results" status=0 f
  local -a tarballs=()
  while [ $# -gt 0 ]; do
    case "$1" in
    --dir) dir="${2:?--dir DIR}"; shift 2 ;;
    --results) results="${2:?--results R}"; shift 2 ;;
    -*) die "install: unknown option $1" ;;
    *)
      if [ -d "$1" ]; then
        for f in "$1"/*.tar.gz; do [ -f "$f" ] && tarballs+=("$f"); done
      else
        tarballs+=("$1")
      fi
      shift
      ;;
    esac
  done
  [ ${#tarballs[@]} -gt 0 ] || die "install: no OUT/<step>.tar.gz given"
  mkdir -p "$results" || die "cannot create $results"
  for f in "${tarballs[@]}"; do
    install_one "$f" "$dir" "$results" || status=1
  done
  return "$status"
}
