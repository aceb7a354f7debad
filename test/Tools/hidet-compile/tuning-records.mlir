// hidet-compile --tuning-records: the selection pass reads the records
// inside the GPU pipeline, where the matmul has the signature of record 0 of
// the file that test/Transforms/Schedule/select-schedules-tuning.mlir reads; the
// compilation prints the warnings about its malformed records and builds
// the library. A record for the matmul whose schedule does not fit the
// target is reported and the heuristic's schedule is built. A file that
// cannot be read fails the compilation and writes nothing; the option is
// for GPU libraries only.
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t && mkdir %t
// RUN: hidet-compile %s --tuning-records=%S/../../Transforms/Schedule/Inputs/tuning-records.json --emit=mlir -o %t/tuned.mlir 2>&1 | FileCheck %s
// RUN: test -s %t/tuned.mlir
// RUN: hidet-compile %s --tuning-records=%S/Inputs/tuning-too-large.json -o %t/large.so 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: test -s %t/large.so
// RUN: not hidet-compile %s --tuning-records=%t/missing.json -o %t/missing.so 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not test -e %t/missing.so
// With --tuning-plan, the compilation also writes the plan and its rounds'
// records, and a library built from a round's records takes its schedules.
// RUN: hidet-compile %s --tuning-plan=%t/plan --tuning-space=small -o %t/default.so
// RUN: FileCheck %s --check-prefix=PLAN < %t/plan/plan.json
// RUN: hidet-compile %s --tuning-records=%t/plan/round-1.json -o %t/round1.so 2>&1 | count 0
// RUN: test -s %t/round1.so
// PLAN: "signature": "linalg.matmul(memref<256x128xf16>, memref<128x512xf16>, memref<256x512xf16>)
// PLAN: "kernels": [
// PLAN-NEXT: "main_wgmma",
// RUN: not hidet-compile %s --target=cpu --tuning-records=%S/../../Transforms/Schedule/Inputs/tuning-records.json -o %t/cpu.so 2>&1 | FileCheck %s --check-prefix=CPU
// CHECK: tuning-records.json":0:0): warning: hidet-select-schedules: tuning record 4 is malformed (no "chip"); ignored
// CHECK: tuning-records.json":0:0): warning: hidet-select-schedules: tuning record 5 is malformed ("schedule" is not a string); ignored
// CHECK-NOT: warning
// LARGE: warning: hidet-select-schedules: tuning record 0 of '{{.*}}tuning-too-large.json' is not applied: the tiles need {{[0-9]+}} bytes of shared memory; the target has {{[0-9]+}}; the heuristic's schedule instead
// MISSING: error: hidet-select-schedules: cannot read the tuning records: No such file or directory
// CPU: hidet-compile: --tuning-records and --tuning-plan apply to GPU libraries (--target=gpu)
func.func @main(%a: tensor<256x128xf16>, %b: tensor<128x512xf16>) -> tensor<256x512xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x512xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x512xf16>) -> tensor<256x512xf16>
  %m = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x512xf16>) outs(%f : tensor<256x512xf16>) -> tensor<256x512xf16>
  return %m : tensor<256x512xf16>
}
