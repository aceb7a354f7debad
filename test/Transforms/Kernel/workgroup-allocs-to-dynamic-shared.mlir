// RUN: hidet-opt %s -split-input-file --hidet-workgroup-allocs-to-dynamic-shared -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-workgroup-allocs-to-dynamic-shared=alignment=16 -verify-diagnostics | FileCheck %s --check-prefix=A16

// Each workgroup allocation becomes a view of the block's dynamic shared
// memory at an offset aligned to 128 bytes (8192, then 40 bytes, then 96:
// offsets 0, 8192 and 8320, 8416 bytes in all), wherever it sits in the
// launch; its deallocation goes. Private allocations stay.
// CHECK-LABEL: func.func @tiles(
// CHECK:         %[[SIZE:.*]] = arith.constant 8416 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK-NEXT:      %[[ALL:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:           %[[O0:.*]] = arith.constant 0 : index
// CHECK:           %[[A:.*]] = memref.view %[[ALL]][%[[O0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[O1:.*]] = arith.constant 8192 : index
// CHECK:           %[[B:.*]] = memref.view %[[ALL]][%[[O1]]][] : {{.*}} to memref<10xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.alloca() : memref<4xf32>
// CHECK:           scf.for
// CHECK:             %[[O2:.*]] = arith.constant 8320 : index
// CHECK:             %[[C:.*]] = memref.view %[[ALL]][%[[O2]]][] : {{.*}} to memref<3x16xf16, #gpu.address_space<workgroup>>
// CHECK:             memref.store %{{.*}}, %[[C]]
// CHECK:           memref.store %{{.*}}, %[[A]]
// CHECK:           memref.store %{{.*}}, %[[B]]
// CHECK-NOT:       memref.dealloc
// CHECK-NOT:       memref.alloc()
// CHECK:           gpu.terminator
// With 16-byte alignment the third buffer starts at 8240 (8232 rounded up).
// A16-LABEL: func.func @tiles(
// A16:         arith.constant 8336 : i32
// A16:         arith.constant 8240 : index
func.func @tiles(%h: f16, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<10xf32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %c = memref.alloc() : memref<3x16xf16, #gpu.address_space<workgroup>>
      memref.store %h, %c[%c0, %i] : memref<3x16xf16, #gpu.address_space<workgroup>>
      memref.dealloc %c : memref<3x16xf16, #gpu.address_space<workgroup>>
    }
    memref.store %h, %a[%c0, %c0, %c0] : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    memref.store %f, %b[%c0] : memref<10xf32, #gpu.address_space<workgroup>>
    memref.store %f, %p[%c0] : memref<4xf32>
    memref.dealloc %a : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A launch that already has dynamic shared memory (100 bytes) keeps it: the
// new buffers come after it.
// CHECK-LABEL: func.func @after_existing(
// CHECK:         %[[SIZE:.*]] = arith.constant 192 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:           arith.constant 128 : index
// CHECK:           memref.view {{.*}} to memref<16xf32, #gpu.address_space<workgroup>>
func.func @after_existing(%f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %c100 {
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %f, %a[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A launch without workgroup allocations is left as it is.
// CHECK-LABEL: func.func @none(
// CHECK-NOT:     dynamic_shared_memory
func.func @none() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @dynamic_shape(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{a workgroup allocation needs a static shape and the identity layout to be placed in dynamic shared memory}}
    %a = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @unknown_size(%size: i32) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{the dynamic shared memory size of a launch with workgroup allocations must be a constant}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %size {
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
