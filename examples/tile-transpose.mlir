// A 32-thread kernel that transposes a 16x16 tile through shared memory,
// written with task mappings. Each thread moves 8 elements: the mapping
// repeat<[4, 2]> * spatial<[4, 8]> lets neighbouring threads touch
// neighbouring columns (coalesced global accesses), and the 4x2 repeat walks
// the tile in 4x8 steps. Run it with utils/run-demo.sh, or:
//   hidet-opt examples/tile-transpose.mlir --tm-print-task-table
//   hidet-opt examples/tile-transpose.mlir --convert-tm-to-scf --canonicalize --cse
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose_16x16(%src: memref<16x16xf32>, %dst: memref<16x16xf32>)
        workgroup(%tile: memref<16x17xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      // Global -> shared, row by row.
      tm.foreach (%i, %j) in #tm.compose<repeat<[4, 2]> * spatial<[4, 8]>> on thread_x {
        %v = memref.load %src[%i, %j] : memref<16x16xf32>
        memref.store %v, %tile[%i, %j] : memref<16x17xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // Shared -> global, transposed; the padded row (17) avoids bank conflicts.
      tm.foreach (%i, %j) in #tm.compose<repeat<[4, 2]> * spatial<[4, 8]>> on thread_x {
        %v = memref.load %tile[%j, %i] : memref<16x17xf32, #gpu.address_space<workgroup>>
        memref.store %v, %dst[%i, %j] : memref<16x16xf32>
      }
      gpu.return
    }
  }
}
