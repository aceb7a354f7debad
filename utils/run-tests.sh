#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds, and runs every test: the
# GoogleTest unit tests, the lit suite (GPU tests are skipped where no GPU
# is present) and the ONNX conformance suite on the CPU. Prints how long the
# build and the tests took. Usage: utils/run-tests.sh [build-dir]
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
"$src/utils/install-deps.sh"
start=$SECONDS
"$src/utils/build.sh" "$build"
built=$SECONDS
status=0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" || status=$?
minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
echo "run-tests: build $(minutes $((built - start))), tests" \
  "$(minutes $((SECONDS - built))) on $(nproc) cores"
exit "$status"
