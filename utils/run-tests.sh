#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds, and runs every test: the
# GoogleTest unit tests and the lit suite (GPU tests are skipped where no
# GPU is present). Usage: utils/run-tests.sh [build-dir]
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build}"
"$src/utils/install-deps.sh"
"$src/utils/build.sh" "$build"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
