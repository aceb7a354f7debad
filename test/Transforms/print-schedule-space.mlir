// RUN: hidet-opt %s --hidet-print-schedule-space -o /dev/null | FileCheck %s
// RUN: hidet-opt %s --hidet-print-schedule-space=list=1 -o /dev/null | grep -c "^  #hidet.simt_matmul" | FileCheck %s --check-prefix=COUNT
// RUN: hidet-opt %s --hidet-print-schedule-space="num-sms=1" -o /dev/null | FileCheck %s --check-prefix=ONESM

// Each f32 matmul: its template, the size of the H100 space (hardware
// values filtered by threads, shared memory and registers), the
// heuristic's pick for its shape, and the schedule written on the op.
// CHECK: anchor linalg.matmul 4096x4096x1024 f32: template simt_matmul, 1092 schedules
// CHECK-NEXT: default: #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>
// CHECK: anchor linalg.matmul 1x4096x4096 f32: template simt_matmul, 1092 schedules
// CHECK-NEXT: default: #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>
// CHECK-NEXT: written on the op: #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>
// CHECK-NOT: anchor
// The listing has every schedule: 1092 lines per anchor.
// COUNT: 2184
// ONESM: anchor linalg.matmul 1x4096x4096
// ONESM-NEXT: default: #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2]

func.func @large(%a: tensor<4096x1024xf32>, %b: tensor<1024x4096xf32>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4096x1024xf32>, tensor<1024x4096xf32>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}

func.func @skinny_scheduled(%a: tensor<1x4096xf32>, %b: tensor<4096x4096xf32>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
      ins(%a, %b : tensor<1x4096xf32>, tensor<4096x4096xf32>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %r : tensor<1x4096xf32>
}

// No template for f16 yet: nothing is printed.
func.func @half(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}
