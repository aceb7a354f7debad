// RUN: hidet-opt %s --hidet-print-schedule-space -o /dev/null | FileCheck %s
// RUN: hidet-opt %s --hidet-print-schedule-space=list=1 -o /dev/null | grep -c "^  #hidet.simt_matmul" | FileCheck %s --check-prefix=COUNT
// RUN: hidet-opt %s --hidet-print-schedule-space=list=1 -o /dev/null | grep -c "^  #hidet.mma_matmul" | FileCheck %s --check-prefix=MMACOUNT
// RUN: hidet-opt %s --hidet-set-target="num-sms=1" --hidet-print-schedule-space -o /dev/null | FileCheck %s --check-prefix=ONESM
// RUN: hidet-opt %s --hidet-print-schedule-space=list=1 -o /dev/null | grep -c "^  #hidet.wgmma_matmul" | FileCheck %s --check-prefix=WGCOUNT
// RUN: hidet-opt %s --hidet-set-target="chip=sm_80" --hidet-print-schedule-space -o /dev/null | FileCheck %s --check-prefix=SM80
// RUN: hidet-opt %s --hidet-print-schedule-space=conv-row-tiles=0 -o /dev/null | FileCheck %s --check-prefix=GEMMTILES

// Each anchor: its GEMM view (batch x M x N x K and types), its template,
// the size of the H100 space (hardware values filtered by threads, shared
// memory and registers), the heuristic's pick for its shape, and the
// schedule written on the op.
// CHECK: anchor linalg.matmul 4096x4096x1024 f32 x f32 -> f32: template simt_matmul, 33420 schedules
// CHECK-NEXT: default: #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>
// CHECK: anchor linalg.matmul 1x4096x4096 f32 x f32 -> f32: template simt_matmul, 33420 schedules
// CHECK-NEXT: default: #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8, swizzle = 8, split_k = 8>
// CHECK-NEXT: written on the op: #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>
// CHECK: anchor linalg.matmul 64x64x64 f16 x f16 -> f16: template wgmma_matmul, 1290 schedules
// CHECK-NEXT: default: #hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>
// SM80: anchor linalg.matmul 64x64x64 f16 x f16 -> f16: template mma_matmul, 10770 schedules
// SM80-NEXT: default: #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, swizzle = 8>
// Batched GEMMs and convolutions take the Hopper template too (cp.async
// loads): 12 x 4 x 2 tiles of 128 x 256 are one wave.
// CHECK: anchor linalg.batch_matmul 12x512x512x64 bf16 x bf16 -> f32: template wgmma_matmul, 1290 schedules
// CHECK-NEXT: default: #hidet.wgmma_matmul<block = [128, 256], swizzle = 8>
// ResNet-50's 3x3 layer at batch 32 as an implicit GEMM: M = 32 * 56 * 56,
// N = 64, K = 3 * 3 * 64; a window of 9 taps of 64 channels gets 64-row
// tiles, one of N = 64.
// CHECK: anchor linalg.conv_2d_nhwc_hwcf 100352x64x576 f16 x f16 -> f16: template wgmma_matmul, 1290 schedules
// CHECK-NEXT: default: #hidet.wgmma_matmul<block = [64, 64], swizzle = 8>
// With conv-row-tiles=0 it gets the GEMM model's tiles: 128 x 64 (not
// mostly padding) on a persistent grid (784 tiles of 9 K steps).
// GEMMTILES: anchor linalg.conv_2d_nhwc_hwcf 100352x64x576 f16 x f16 -> f16: template wgmma_matmul, 1290 schedules
// GEMMTILES-NEXT: default: #hidet.wgmma_matmul<block = [128, 64], swizzle = 8, persistent = true>
// CHECK: anchor linalg.matmul 8x8x8 f64 x f64 -> f64: no template
// The printer decides as the pass does: f16 operands with f64 results
// have no template, and an f32 op with a tensor-core schedule is tf32.
// CHECK: anchor linalg.matmul 8x8x8 f16 x f16 -> f64: no template
// CHECK: anchor linalg.matmul 64x64x64 f32 x f32 -> f32: template mma_matmul (tf32),
// CHECK-NEXT: default: #hidet.mma_matmul<block = [16, 64, 32], warp = [16, 16], mma = [16, 8, 8], stages = 3, swizzle = 8>
// CHECK-NEXT: written on the op: #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8]>
// CHECK-NOT: anchor
// The listing has every schedule: 10980 lines per SIMT anchor (2 x 10980),
// and 13310 per tf32 mma.sync anchor (the tf32 one
// alone: the two f16 matmuls, the batched matmul and the convolution take
// the Hopper template, 910 lines each (5 split-K values): 550 schedules
// persistent, 360 not, since 64-row tiles must be persistent).
// COUNT: 66840
// MMACOUNT: 13310
// ONESM: anchor linalg.matmul 1x4096x4096
// ONESM-NEXT: default: #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>

func.func @large(%a: tensor<4096x1024xf32>, %b: tensor<1024x4096xf32>, %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4096x1024xf32>, tensor<1024x4096xf32>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}

func.func @skinny_scheduled(%a: tensor<1x4096xf32>, %b: tensor<4096x4096xf32>, %c: tensor<1x4096xf32>) -> tensor<1x4096xf32> {
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
      ins(%a, %b : tensor<1x4096xf32>, tensor<4096x4096xf32>) outs(%c : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  return %r : tensor<1x4096xf32>
}

func.func @half(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

func.func @attention_scores(%q: tensor<12x512x64xbf16>, %k: tensor<12x64x512xbf16>, %s: tensor<12x512x512xf32>) -> tensor<12x512x512xf32> {
  %r = linalg.batch_matmul ins(%q, %k : tensor<12x512x64xbf16>, tensor<12x64x512xbf16>) outs(%s : tensor<12x512x512xf32>) -> tensor<12x512x512xf32>
  return %r : tensor<12x512x512xf32>
}

func.func @conv(%x: tensor<32x58x58x64xf16>, %w: tensor<3x3x64x64xf16>, %y: tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<32x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%y : tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
  return %r : tensor<32x56x56x64xf16>
}

// Anchors without a template say so.
func.func @double(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf64>, tensor<8x8xf64>) outs(%c : tensor<8x8xf64>) -> tensor<8x8xf64>
  return %r : tensor<8x8xf64>
}

func.func @half_to_double(%a: tensor<8x8xf16>, %b: tensor<8x8xf16>, %c: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf16>, tensor<8x8xf16>) outs(%c : tensor<8x8xf64>) -> tensor<8x8xf64>
  return %r : tensor<8x8xf64>
}

func.func @tf32_written(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8]>}
      ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// On sm_90a (the default chip), a large f16 GEMM whose row-major operands
// TMA can load gets the Hopper template; on sm_80, mma.sync, from a space
// filtered by the A100's 163 KiB of shared memory per block (12220
// schedules fit the H100's 227 KiB).
// CHECK: anchor linalg.matmul 4096x4096x4096 f16 x f16 -> f16: template wgmma_matmul, 1290 schedules
// CHECK-NEXT: default: #hidet.wgmma_matmul<block = [128, 256], swizzle = 8>
// WGCOUNT: 5160
// SM80: anchor linalg.matmul 4096x4096x4096 f16 x f16 -> f16: template mma_matmul, 10770 schedules
// SM80-NEXT: default: #hidet.mma_matmul<block = [128, 128, 64], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>
func.func @hopper(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>, %c: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %r : tensor<4096x4096xf16>
}
