// RUN: hidet-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect | FileCheck %s

// The SIMT matmul schedule round-trips.
// CHECK: "test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>} : () -> ()

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

// A missing field is a parse error at the attribute's end.
// expected-error @+1 {{expected ','}}
"test.op"() {s = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4]>} : () -> ()
