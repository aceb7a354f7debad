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

// -----

// The host code reads an argument (a device buffer): a located error.
func.func @read_argument(%x: memref<4xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the host code would read device memory here, which it cannot; compute the value in a kernel (a scalar read that only linalg bodies use moves into them: hidet-sink-scalar-reads)}}
  %v = memref.load %x[%c0] : memref<4xf32>
  "test.use"(%v) : (f32) -> ()
  return
}

// -----

// A write of a temporary (in device memory once placed there), through a
// view of it.
func.func @write_temporary(%v: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  // expected-error @+1 {{the host code would write device memory here}}
  memref.store %v, %s[%c0] : memref<2xf32, strided<[1], offset: 1>>
  "test.use"(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// A linalg op that no kernel was built for.
func.func @no_kernel(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{the host code would read device memory here, which it cannot; no kernel was built for this op}}
  linalg.copy ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// -----

// Host memory (a stack buffer) is the host's to read and write.
// CHECK-LABEL: func.func @host_memory(
// CHECK:         memref.alloca
// CHECK:         memref.store
// CHECK:         memref.load
func.func @host_memory(%v: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloca() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  %w = memref.load %a[%c0] : memref<4xf32>
  "test.use"(%w) : (f32) -> ()
  return
}
