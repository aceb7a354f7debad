# Shell helper shared by the benchmark drivers (sourced).

# step NAME LOG COMMAND...: runs COMMAND with its output in LOG; on failure
# says which step of NAME failed, with the end of LOG, and returns 1.
step() {
  local name="$1" log="$2"
  shift 2
  if ! "$@" > "$log" 2>&1; then
    echo "$name: failed: $* (end of $log:)"
    tail -5 "$log" | sed 's/^/  /'
    return 1
  fi
}
