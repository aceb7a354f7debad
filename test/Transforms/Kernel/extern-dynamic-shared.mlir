// RUN: hidet-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(hidet-extern-dynamic-shared))" -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(hidet-extern-dynamic-shared,convert-gpu-to-nvvm))" -verify-diagnostics | FileCheck %s --check-prefix=NVVM

// A module that takes dynamic shared memory gets its symbol declared
// external (PTX's `.extern .shared`, placed after the static variables such
// as the mbarrier below), and the NVVM lowering takes that symbol instead of
// creating an internal one.
// CHECK-LABEL: gpu.module @dynamic
// CHECK-NEXT:    llvm.mlir.global external @__hidet_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// NVVM-LABEL: gpu.module @dynamic
// NVVM:         llvm.mlir.global external @__hidet_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// NVVM-NOT:     llvm.mlir.global internal @__dynamic_shmem
// NVVM:         llvm.func @kernel(
// NVVM:           llvm.mlir.addressof @__hidet_dynamic_shared : !llvm.ptr<3>
gpu.module @dynamic {
  memref.global "private" @barrier : memref<2xi64, #gpu.address_space<workgroup>>
  gpu.func @kernel(%v: f32) kernel {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %smem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %v, %view[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A module without dynamic shared memory is left as it is.
// CHECK-LABEL: gpu.module @static
// CHECK-NOT:     llvm.mlir.global
// CHECK:         gpu.func @kernel
gpu.module @static {
  gpu.func @kernel(%v: f32) kernel {
    gpu.return
  }
}

// -----

// A zero-sized shared i8 array aligned to 16 bytes, which the lowering would
// reuse, is made external rather than declared a second time.
// CHECK-LABEL: gpu.module @existing
// CHECK-NEXT:    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NOT:     llvm.mlir.global
gpu.module @existing {
  llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  gpu.func @kernel() kernel {
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// The symbol's name taken by something else is an error.
// expected-error @+1 {{'__hidet_dynamic_shared' is already defined and is not a zero-sized shared i8 array aligned to 16 bytes}}
gpu.module @taken {
  llvm.mlir.global internal @__hidet_dynamic_shared(0 : i32) {addr_space = 3 : i32} : i32
  gpu.func @kernel() kernel {
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
