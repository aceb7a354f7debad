// RUN: hidet-opt %s -split-input-file --hidet-outline-kernels -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline="builtin.module(hidet-outline-kernels,gpu.module(convert-gpu-to-nvvm))" | FileCheck %s --check-prefix=NVVM

// Each launch becomes a launch_func of its own kernel, as upstream's
// gpu-kernel-outlining makes it; the nvvm.* attributes of a launch (the
// SIMT template's resident blocks per SM) move to its kernel, which the
// NVVM lowering keeps on the llvm.func (PTX: .minnctapersm). Other
// attributes are dropped, and a launch without any leaves its kernel bare.
// CHECK-LABEL: func.func @two(
// CHECK:         gpu.launch_func @first::@first blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         gpu.launch_func @second::@second
// CHECK:       gpu.module @first
// CHECK:         gpu.func @first({{.*}}: memref<8xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 1, 1>, nvvm.minctasm = 3 : i32}
// CHECK-NOT:     hidet.note
// CHECK:       gpu.module @second
// CHECK:         gpu.func @second({{.*}}: memref<8xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
// NVVM:        llvm.func @first({{.*}}) attributes {gpu.kernel, {{.*}}, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32}
// NVVM:        llvm.func @second({{.*}}) attributes {gpu.kernel, {{.*}}, nvvm.kernel, nvvm.maxntid = array<i32: 64, 1, 1>} {
func.func @two(%m: memref<8xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             function(@first) {
    %i = arith.remui %tx, %c4 : index
    memref.store %v, %m[%i] : memref<8xf32>
    gpu.terminator
  } {nvvm.minctasm = 3 : i32, hidet.note = "dropped"}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             function(@second) {
    %i = arith.remui %tx, %c4 : index
    memref.store %v, %m[%i] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// A kernel launched before outlining keeps its attributes; the launch after
// it pairs with its own new launch_func.
// CHECK:       gpu.module @old
// CHECK-NEXT:    gpu.func @old() kernel {
// CHECK-LABEL: func.func @already_outlined(
// CHECK:         gpu.launch_func @old::@old
// CHECK:         gpu.launch_func @fresh::@fresh
// CHECK:       gpu.module @fresh
// CHECK:         gpu.func @fresh() kernel attributes {{{.*}}nvvm.minctasm = 2 : i32}
module attributes {gpu.container_module} {
  gpu.module @old {
    gpu.func @old() kernel {
      gpu.return
    }
  }
  func.func @already_outlined() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @old::@old blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               function(@fresh) {
      gpu.terminator
    } {nvvm.minctasm = 2 : i32}
    return
  }
}
