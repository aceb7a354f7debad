// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-host-buffers-to-device))' -verify-diagnostics --allow-unregistered-dialect | FileCheck %s

// Temporaries become device buffers released at the end of their block;
// the host dealloc goes away (the device one replaces it).
// CHECK-LABEL: func.func @temporary(
// CHECK:         %[[BUF:.*]] = gpu.alloc  () : memref<16xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         "test.use"(%[[BUF]])
// CHECK-NOT:     memref.dealloc
// CHECK:         gpu.dealloc  %[[BUF]] : memref<16xf32>
// CHECK-NEXT:    return
func.func @temporary() {
  %a = memref.alloc() : memref<16xf32>
  "test.use"(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  return
}

// -----

// A constant held in a host global is copied into a device buffer.
// CHECK-LABEL: func.func @constant(
// CHECK:         %[[DEV:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK:         %[[HOST:.*]] = memref.get_global @weights : memref<4xf32>
// CHECK:         gpu.memcpy  %[[DEV]], %[[HOST]] : memref<4xf32>, memref<4xf32>
// CHECK:         "test.use"(%[[DEV]])
// CHECK:         gpu.dealloc  %[[DEV]]
memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @constant() {
  %w = memref.get_global @weights : memref<4xf32>
  "test.use"(%w) : (memref<4xf32>) -> ()
  return
}

// -----

// Buffers inside kernels are left alone.
// CHECK-LABEL: func.func @inside_launch(
// CHECK:         gpu.launch
// CHECK:           memref.alloc() : memref<4xf32, #gpu.address_space<private>>
func.func @inside_launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = memref.alloc() : memref<4xf32, #gpu.address_space<private>>
    "test.use"(%p) : (memref<4xf32, #gpu.address_space<private>>) -> ()
    gpu.terminator
  }
  return
}

// -----

// A returned buffer would outlive its device allocation.
func.func @returned() -> memref<4xf32> {
  // expected-error @+1 {{a returned buffer cannot be placed on the device; run buffer-results-to-out-params first}}
  %a = memref.alloc() : memref<4xf32>
  return %a : memref<4xf32>
}

// -----

func.func @strided() {
  // expected-error @+1 {{only identity layouts are supported}}
  %a = memref.alloc() : memref<4xf32, strided<[2]>>
  "test.use"(%a) : (memref<4xf32, strided<[2]>>) -> ()
  return
}
