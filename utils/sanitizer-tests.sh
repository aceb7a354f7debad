#!/usr/bin/env bash
# The lit and GoogleTest suites with everything built under AddressSanitizer
# and UndefinedBehaviorSanitizer (clang-22's runtimes, libclang-rt-22-dev):
#
#   utils/sanitizer-tests.sh [BUILD]     # default BUILD: build-sanitize
#
# Every error stops the process that hits it (-fno-sanitize-recover=all,
# halt_on_error), so a test that trips a sanitizer fails. LLVM's and MLIR's
# shared libraries are not instrumented; the tools, passes, importer,
# runtime and tests are. Leak checking is off: MLIR's contexts and
# registries, and LLVM's option parsers, are process-lifetime objects that
# are never freed by design. Manual poisoning is off too: LLVM's allocators
# poison memory from the header code compiled into this project, while the
# uninstrumented libMLIR.so uses the same memory without unpoisoning it
# (every report was a false use-after-poison inside libMLIR). The stock
# mlir-opt that loads the plugin is not instrumented, so the runtime's
# link-order check is off. Left out: the ONNX conformance suite (hundreds of
# compilations, minutes more under the sanitizers; the importer's lit tests
# cover its rules) and cmake-package, which builds a consumer without the
# sanitizer flags against these libraries.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$src/build-sanitize}"
"$src/utils/install-deps.sh"
sanitize="-fsanitize=address,undefined"
flags="$sanitize -fno-sanitize-recover=all -fno-omit-frame-pointer"
# The shared runtimes: libhidet_runtime.so links with -z defs, which the
# static runtimes (linked into executables only) would leave unresolved.
runtimes=/usr/lib/llvm-22/lib/clang/22/lib/linux
link="$sanitize -shared-libsan -Wl,-rpath,$runtimes"
"$src/utils/build.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=$link" "-DCMAKE_SHARED_LINKER_FLAGS=$link"
asan="detect_leaks=0:abort_on_error=1:allow_user_poisoning=0"
export ASAN_OPTIONS="$asan:verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" \
  -E '^(onnx-conformance|cmake-package)'
