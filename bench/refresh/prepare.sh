# bench/refresh.sh prepare (sourced by bench/refresh.sh): builds and packs
# each group for the GPU machine.

# The bytes a call may carry: 64 MiB with the working tree, less a margin.
carry_limit() {
  local tree
  tree="$(git -C "$src" ls-files -z 2>/dev/null | (cd "$src" && xargs -0 cat 2>/dev/null) | wc -c)"
  echo $((64 * 1024 * 1024 - tree - 1024 * 1024))
}

# prepare_checks WORK BUILD TOOLS: the lit tests, the integration suite and
# the ONNX backend suite, compiled here for the GPU.
prepare_checks() {
  local work="$1" build="$2" tools="$3" suite
  local -a suites=()
  "$src/utils/gpu-lit.sh" prepare "$work/lit" "$build" || return 1
  cp -r "$tools" "$work/tools" || return 1
  "$src/utils/gpu-integration.sh" prepare "$work/integration" "$build" || return 1
  for suite in node pytorch-converted pytorch-operator; do
    suites+=(--suite "$suite")
  done
  # A test that does not import or compile is an outcome of the suite, not
  # a failure of the preparation.
  "$src/utils/onnx-conformance.sh" prepare "$work/conformance" --target gpu \
    --build "$build" "${suites[@]}" >"$work/conformance.log" 2>&1
  [ -f "$work/conformance/target" ] || { tail -n 5 "$work/conformance.log"; return 1; }
  echo "conformance: $(grep -lx ready "$work"/conformance/*/*/status | wc -l) tests compiled"
}

# prepare_kernels WORK BUILD: the kernel benchmarks and the MLP demo.
prepare_kernels() {
  local work="$1" build="$2" bench
  for bench in matmul-mma conv-mma fusion rule-based matmul-simt; do
    echo "prepare: bench/$bench"
    "$here/$bench/run.sh" prepare "$work/$bench" "$build" >"$work/$bench.log" 2>&1 ||
      { tail -n 5 "$work/$bench.log"; return 1; }
  done
  mkdir -p "$work/mlp"
  "$build/bin/hidet-compile" "$src/examples/mlp.mlir" -o "$work/mlp/libmlp.so" \
    --runtime-dir="$build/lib" &&
    "$build/bin/hidet-compile" "$src/examples/mlp.mlir" --target=cpu \
      -o "$work/mlp/libmlp.ref.so" &&
    cp "$build/bin/hidet-run" "$build/lib/libhidet_runtime.so" "$work/mlp/"
}

# prepare_models WORK TARBALL: bench/models with the static tools.
prepare_models() {
  "$here/models/run.sh" prepare "$1/bench" --tools "$2" >/dev/null
}

# static_tools DIR TARBALL: the static tools unpacked in DIR/static and
# packed in DIR/tools.tar.xz, from TARBALL or built by utils/static-tools.sh;
# only those the groups run (each tool linked with MLIR adds tens of MiB to
# what a call carries).
static_tools() {
  local dir="$1" given="$2"
  rm -rf "$dir/static"
  mkdir -p "$dir/static"
  if [ -n "$given" ]; then
    tar -xf "$given" -C "$dir/static" || return 1
  else
    "$src/utils/static-tools.sh" "$dir/static" || return 1
  fi
  [ -x "$dir/static/bin/hidet-compile" ] && [ -x "$dir/static/bin/hidet-run" ] ||
    { echo "no bin/hidet-compile and bin/hidet-run in the static tools" >&2; return 1; }
  local tool
  for tool in "$dir"/static/bin/*; do
    case "$(basename "$tool")" in hidet-compile | hidet-run | hidet-tune) ;; *) rm "$tool" ;; esac
  done
  tar -C "$dir/static" -cJf "$dir/tools.tar.xz" .
}

prepare() {
  local dir="" groups="$main_groups" build="$src/build" tools="" g
  while [ $# -gt 0 ]; do
    case "$1" in
    --groups) groups="${2:?--groups G,G}"; groups="${groups//,/ }"; shift 2 ;;
    --build) build="${2:?--build B}"; shift 2 ;;
    --tools) tools="$(realpath "${2:?--tools TARBALL}")"; shift 2 ;;
    -*) die "prepare: unknown option $1" ;;
    *) [ -z "$dir" ] || die "prepare: one DIR"; dir="$1"; shift ;;
    esac
  done
  dir="${dir:-$default_dir}"
  # Read before the build, not after it.
  [ -z "$tools" ] || tar -tf "$tools" >/dev/null 2>&1 ||
    die "prepare: --tools $tools is not a tarball tar can read"
  for g in $groups; do is_group "$g" || die "prepare: no group '$g' ($all_groups)"; done
  mkdir -p "$dir" || die "cannot create $dir"
  dir="$(cd "$dir" && pwd)"
  case "$dir/" in "$src"/*) ;; *) die "prepare: $dir is not inside $src" ;; esac
  git -C "$src" check-ignore -q "$dir" 2>/dev/null ||
    echo "refresh.sh: warning: git does not ignore $dir; a call carries only ignored paths" >&2
  local commit
  commit="$(tree_commit)"
  [[ "$commit" == *-dirty ]] &&
    echo "refresh.sh: warning: the tree has changes not committed; results will name $commit" >&2
  echo "prepare: utils/build.sh $build"
  "$src/utils/build.sh" "$build" >"$dir/build.log" 2>&1 ||
    { tail -n 20 "$dir/build.log"; die "the build failed (log: $dir/build.log)"; }
  if [[ " $groups " == *" checks "* || " $groups " == *" models"* ]]; then
    echo "prepare: static tools${tools:+ from $tools}"
    static_tools "$dir" "$tools" || die "the static tools failed"
  fi
  local limit status=0 work size
  limit="$(carry_limit)"
  for g in $groups; do
    echo "prepare: group $g"
    work="$dir/$g/work"
    rm -rf "$dir/$g"
    mkdir -p "$work" "$dir/$g/done"
    case "$g" in
    checks) prepare_checks "$work" "$build" "$dir/static" ;;
    kernels) prepare_kernels "$work" "$build" ;;
    models | models-more) prepare_models "$work" "$dir/tools.tar.xz" ;;
    esac || die "prepare: group $g failed"
    echo "$commit" >"$dir/$g/commit"
    tar -C "$dir/$g" -cJf "$dir/$g/payload.tar.xz" work || die "cannot pack $g"
    rm -rf "$work"
    size="$(du -sb "$dir/$g" | cut -f1)"
    echo "prepare: $g: $(mib "$size") MiB to carry (the limit with this tree: $(mib "$limit") MiB)"
    if [ "$size" -gt "$limit" ]; then
      echo "refresh.sh: $dir/$g is too large to carry" >&2
      status=1
    fi
  done
  echo "prepared at $commit; the calls: bench/refresh.sh run --dry-run"
  return "$status"
}
