
// The SIMT matmul schedule round-trips; the grid fields default to 1 and
// are printed only when set.
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>} : () -> ()
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, split_k = 4>} : () -> ()
"test.op"() {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 1, split_k = 1>} : () -> ()

// The tensor-core schedule round-trips, with and without grid fields.
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 16], swizzle = 8>} : () -> ()
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 2>} : () -> ()
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>} : () -> ()
"test.op"() {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 64], mma = [16, 8, 8]>} : () -> ()

