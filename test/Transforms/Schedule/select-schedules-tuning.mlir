// RUN: hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{tuning-records=%S/Inputs/tuning-records.json}))' 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=DIAG < %t.err
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{tuning-records=%s}))' 2>&1 | FileCheck %s --check-prefix=NOTRECORDS
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{tuning-records=%t.missing}))' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{signatures=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SIG

// Tuning records (Inputs/tuning-records.json) keyed by anchor signature and
// chip. Record 0 matches the first matmul on sm_90a: its schedule replaces
// the heuristic's. Record 1 is for sm_80: the second matmul keeps the
// heuristic's. Record 2's schedule does not parse and record 3's does not fit
// (a 256 x 256 tile of 64 x 128 C): both are reported on their anchors,
// which keep the heuristic's. Records 4 (no chip) and 5 (a number for a
// schedule) are malformed: reported with their index and skipped.
// CHECK-LABEL: func.func @tuned(
// CHECK:         linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], stages = 3>}
// CHECK:         linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>}
// CHECK:         linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>}
// CHECK:         linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>}
// DIAG-DAG: tuning-records.json:0:0: warning: hidet-select-schedules: tuning record 4 is malformed (no "chip"); ignored
// DIAG-DAG: tuning-records.json:0:0: warning: hidet-select-schedules: tuning record 5 is malformed ("schedule" is not a string); ignored
// DIAG-DAG: select-schedules-tuning.mlir:[[@LINE+10]]:3: remark: hidet-select-schedules: schedule of tuning record 0 of '{{.*}}tuning-records.json'
// DIAG-DAG: select-schedules-tuning.mlir:[[@LINE+11]]:3: warning: hidet-select-schedules: tuning record 2 of '{{.*}}tuning-records.json' is not applied: {{.*}}no_such_schedule{{.*}}; the heuristic's schedule instead
// DIAG-DAG: select-schedules-tuning.mlir:[[@LINE+11]]:3: warning: hidet-select-schedules: tuning record 3 of '{{.*}}tuning-records.json' is not applied: the tiles need {{[0-9]+}} bytes of shared memory; the target has {{[0-9]+}}; the heuristic's schedule instead
// NOTRECORDS: error: hidet-select-schedules: not a tuning records file: not JSON
// MISSING: error: hidet-select-schedules: cannot read the tuning records: No such file or directory
// SIG: remark: hidet-select-schedules: anchor signature: linalg.matmul(memref<256x128xf16>, memref<128x512xf16>, memref<256x512xf16>) {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], operandSegmentSizes = array<i32: 2, 1>}
func.func @tuned(%a: memref<256x128xf16>, %b: memref<128x512xf16>, %c: memref<256x512xf16>,
                 %x: memref<512x512xf16>, %y: memref<512x512xf16>, %z: memref<512x512xf16>,
                 %p: memref<256x256xf16>, %q: memref<256x256xf16>, %r: memref<256x256xf16>,
                 %s: memref<128x64xf16>, %t: memref<64x128xf16>, %u: memref<128x128xf16>) {
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x512xf16>) outs(%c : memref<256x512xf16>)
  linalg.matmul ins(%x, %y : memref<512x512xf16>, memref<512x512xf16>) outs(%z : memref<512x512xf16>)
  linalg.matmul ins(%p, %q : memref<256x256xf16>, memref<256x256xf16>) outs(%r : memref<256x256xf16>)
  linalg.matmul ins(%s, %t : memref<128x64xf16>, memref<64x128xf16>) outs(%u : memref<128x128xf16>)
  return
}
