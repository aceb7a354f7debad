// RUN: hidet-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect | FileCheck %s

// The SIMT matmul schedule round-trips; the grid fields default to 1 and
// are printed only when set.
// CHECK: "test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, split_k = 4>}
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, split_k = 4>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 1, split_k = 1>} : () -> ()
// cp.async stages; 0 (register staging) is the default, not printed.
// CHECK: "test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>}
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, stages = 0>} : () -> ()

// The tensor-core schedule round-trips, with and without grid fields.
// CHECK: "test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 16], swizzle = 8>}
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 16], swizzle = 8>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 2>}
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 2>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>}
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 64], mma = [16, 8, 8]>}
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 64], mma = [16, 8, 8]>} : () -> ()
// tf32 with split operands; tf32_terms = 1 is the default, not printed.
// CHECK: "test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 32], mma = [16, 8, 8], stages = 3, tf32_terms = 3>}
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 32], mma = [16, 8, 8], stages = 3, tf32_terms = 3>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 32], mma = [16, 8, 8]>}
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 32], mma = [16, 8, 8], tf32_terms = 1>} : () -> ()

// -----

// Grid fields are checked too.
// expected-error @+1 {{split_k must be in [1, 64], got 0}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, split_k = 0>} : () -> ()

// -----

// expected-error @+1 {{swizzle must be in [1, 64], got 100}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 16], swizzle = 100>} : () -> ()

// -----

// The mma shape is the f16/bf16 instruction's or the tf32 one's.
// expected-error @+1 {{mma must be [16, 8, 16] (f16/bf16) or [16, 8, 8] (tf32), got [16, 8, 4]}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 4]>} : () -> ()

// -----

// tf32 terms: 1 or 3, and 3 only for tf32 operands.
// expected-error @+1 {{tf32_terms must be 1 or 3, got 2}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 32], mma = [16, 8, 8], tf32_terms = 2>} : () -> ()

// -----

// expected-error @+1 {{tf32_terms = 3 splits tf32 operands: mma must be [16, 8, 8]}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 16], tf32_terms = 3>} : () -> ()

// -----

// Stages: 0 (register staging) or a cp.async pipeline of 2 to 8.
// expected-error @+1 {{stages must be 0 (register staging) or in [2, 8] (cp.async), got 1}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 16], stages = 1>} : () -> ()

// -----

// List lengths.
// expected-error @+1 {{block must have 3 entries, got 2}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128], warp = [64, 32], mma = [16, 8, 16]>} : () -> ()

// -----

// Block tiles are powers of two (the shared-memory swizzle needs it).
// expected-error @+1 {{block N must be a power of two in [16, 256], got 96}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 96, 32], warp = [64, 32], mma = [16, 8, 16]>} : () -> ()

// -----

// Warp tiles are whole mma tiles (16 x 16: ldmatrix loads B in pairs).
// expected-error @+1 {{warp N must be a positive multiple of 16, got 8}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 8], mma = [16, 8, 16]>} : () -> ()

// -----

// expected-error @+1 {{warp M = 64 does not divide block M = 32}}
"test.op"() {s = #hidet.mma_matmul<block = [32, 128, 32], warp = [64, 32], mma = [16, 8, 16]>} : () -> ()

// -----

// expected-error @+1 {{block K must be 16, 32 or 64, got 128}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 128], warp = [64, 32], mma = [16, 8, 16]>} : () -> ()

// -----

// expected-error @+1 {{the 16 x 16 and 16 x 32 tiles cannot be split evenly into 16-byte pieces over 64 threads}}
"test.op"() {s = #hidet.mma_matmul<block = [16, 32, 16], warp = [16, 16], mma = [16, 8, 16]>} : () -> ()

// -----

// A missing field is a parse error naming it.
// expected-error @+1 {{struct is missing required parameter: warp}}
"test.op"() {s = #hidet.mma_matmul<block = [128, 128, 32], mma = [16, 8, 16]>} : () -> ()

// -----

// warp_mid must cover the 32 lanes.
// expected-error @+1 {{warp_mid must cover the 32 lanes of a warp, got 4 x 4}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 4], warp_inner = [4, 4], block_k = 8>} : () -> ()

// -----

// Each list has two entries.
// expected-error @+1 {{block_warps must have 2 entries (rows, columns), got 3}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2, 1], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>} : () -> ()

// -----

// Entries are positive.
// expected-error @+1 {{warp_outer entries must be in [1, 1024], got 0}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [0, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>} : () -> ()

// -----

// At most 1024 threads per block.
// expected-error @+1 {{block_warps gives 2048 threads per block; at most 1024}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [8, 8], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [1, 1], block_k = 8>} : () -> ()

// -----

// block_k in range.
// expected-error @+1 {{block_k must be in [1, 64], got 0}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 0>} : () -> ()

// -----

// The tile loads must split evenly over the threads.
// expected-error @+1 {{block_k = 3: the 128 x 3 and 3 x 128 tiles cannot be split evenly over 256 threads}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 3>} : () -> ()

// -----

// A missing field is a parse error naming it.
// expected-error @+1 {{struct is missing required parameter: block_k}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4]>} : () -> ()

// -----

// The Hopper schedule round-trips; stages default to 4, the grid fields to
// 1, persistent and pingpong to false, and each is printed only when it
// differs.
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], swizzle = 8>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 4, swizzle = 8, persistent = false>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 192], stages = 6, persistent = true>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 192], stages = 6, split_k = 1, persistent = true>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [256, 128], stages = 3, persistent = true>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [256, 128], stages = 3, persistent = true>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], swizzle = 8, split_k = 8, persistent = true>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], swizzle = 8, split_k = 8, persistent = true>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128]>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128]>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>} : () -> ()
// CHECK: "test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], persistent = true>}
"test.op"() {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], persistent = true, pingpong = false>} : () -> ()

// -----

// Pingpong consumers each take a whole 64-row tile of a persistent grid.
// expected-error @+1 {{pingpong = true takes block M = 64 (each consumer warpgroup a whole tile) and persistent = true}}
"test.op"() {s = #hidet.wgmma_matmul<block = [128, 256], persistent = true, pingpong = true>} : () -> ()

// -----

// expected-error @+1 {{pingpong = true takes block M = 64 (each consumer warpgroup a whole tile) and persistent = true}}
"test.op"() {s = #hidet.wgmma_matmul<block = [64, 256], pingpong = true>} : () -> ()

// -----

// expected-error @+1 {{block M must be 64, 128, 192 or 256 (64 rows per consumer warpgroup), got 96}}
"test.op"() {s = #hidet.wgmma_matmul<block = [96, 128]>} : () -> ()

// -----

// expected-error @+1 {{block N must be 64, 128, 192 or 256 (B arrives in 64-column boxes; wgmma takes N <= 256), got 320}}
"test.op"() {s = #hidet.wgmma_matmul<block = [128, 320]>} : () -> ()

// -----

// expected-error @+1 {{stages must be in [2, 8], got 1}}
"test.op"() {s = #hidet.wgmma_matmul<block = [128, 128], stages = 1>} : () -> ()

// -----

// expected-error @+1 {{split_k must be in [1, 64], got 65}}
"test.op"() {s = #hidet.wgmma_matmul<block = [128, 128], split_k = 65>} : () -> ()

// -----

// expected-error @+1 {{block must have 2 entries, got 3}}
"test.op"() {s = #hidet.wgmma_matmul<block = [128, 128, 64]>} : () -> ()

// -----

// A fusion group marker round-trips.
// CHECK: "test.op"() {hidet.fusion = #hidet.fusion<group = 3, role = epilogue>}
"test.op"() {hidet.fusion = #hidet.fusion<group = 3, role = epilogue>} : () -> ()

// -----

// expected-error @+1 {{'hidet.fusion' must be a #hidet.fusion, got 3 : i64}}
"test.op"() {hidet.fusion = 3} : () -> ()

// -----

// expected-error @+1 {{'hidet.fusion' group must be non-negative, got -1}}
"test.op"() {hidet.fusion = #hidet.fusion<group = -1, role = anchor>} : () -> ()

// -----

// The target round-trips; num_sms is printed only when set.
// CHECK: module attributes {hidet.target = #hidet.target<chip = "sm_80">}
module attributes {hidet.target = #hidet.target<chip = "sm_80", num_sms = 0>} {
}

// -----

// CHECK: module attributes {hidet.target = #hidet.target<chip = "sm_90a", num_sms = 114>}
module attributes {hidet.target = #hidet.target<chip = "sm_90a", num_sms = 114>} {
}

// -----

// expected-error @+1 {{unknown chip 'gfx90a'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a}}
module attributes {hidet.target = #hidet.target<chip = "gfx90a">} {
}

// -----

// expected-error @+1 {{num_sms must be in [0, 1024] (0: the chip's), got 5000}}
module attributes {hidet.target = #hidet.target<chip = "sm_80", num_sms = 5000>} {
}

// -----

// expected-error @+1 {{'hidet.target' must be a #hidet.target, got "sm_90a"}}
module attributes {hidet.target = "sm_90a"} {
}

// -----

// The fused attention's schedule round-trips, on a batch matmul (its Q K^T)
// or on the gpu.launch of its kernel.
// CHECK: linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>}
func.func @attention(%q: memref<2x16x16xf16>, %k: memref<2x16x16xf16>, %s: memref<2x16x16xf16>) {
  linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>} ins(%q, %k : memref<2x16x16xf16>, memref<2x16x16xf16>) outs(%s : memref<2x16x16xf16>)
  return
}

// -----

// expected-error @+1 {{block_q must be a multiple of 16 in [16, 128] (16 query rows a warp), got 24}}
"test.op"() {s = #hidet.attention<block_q = 24, block_kv = 32>} : () -> ()

// -----

// expected-error @+1 {{block_kv must be a multiple of 16 in [16, 128], got 256}}
"test.op"() {s = #hidet.attention<block_q = 64, block_kv = 256>} : () -> ()


// -----

// expected-error @+1 {{'hidet.attention' must be a #hidet.attention, got 64 : i64}}
"test.op"() {hidet.attention = 64} : () -> ()

// -----

// expected-error @+1 {{'hidet.attention' must be on a linalg.batch_matmul (the attention's Q K^T) or the gpu.launch of its kernel, not on 'test.op'}}
"test.op"() {hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>} : () -> ()

// -----

// SIMT stages: 0 (register staging) or 2 to 8 cp.async stages.
// expected-error @+1 {{stages must be 0 (register staging) or in [2, 8] (cp.async), got 1}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, stages = 1>} : () -> ()
