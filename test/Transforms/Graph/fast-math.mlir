// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-fast-math))' | FileCheck %s

// Floating-point ops in kernels get arcp, afn and contract (existing flags
// are kept); host code is left alone.
// CHECK-LABEL: func.func @kernel_only(
// CHECK:         arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:         gpu.launch
// CHECK:           arith.divf %{{.*}}, %{{.*}} fastmath<arcp,contract,afn> : f32
// CHECK:           math.exp %{{.*}} fastmath<arcp,contract,afn> : f32
// CHECK:           arith.mulf %{{.*}}, %{{.*}} fastmath<nnan,arcp,contract,afn> : f32
func.func @kernel_only(%a: f32, %b: f32, %m: memref<3xf32>) {
  %h = arith.divf %a, %b : f32
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %d = arith.divf %a, %b : f32
    %e = math.exp %d : f32
    %f = arith.mulf %e, %h fastmath<nnan> : f32
    memref.store %f, %m[%tx] : memref<3xf32>
    gpu.terminator
  }
  return
}

// tanh of every width only gets the flags (16-bit tanh is
// hidet-narrow-math's); host code is left alone.
// CHECK-LABEL: func.func @tanh(
// CHECK:         math.tanh %{{.*}} : f16
// CHECK:         gpu.launch
// CHECK:           math.tanh %{{.*}} fastmath<arcp,contract,afn> : f16
// CHECK:           math.tanh %{{.*}} fastmath<arcp,contract,afn> : vector<8xbf16>
// CHECK:           math.tanh %{{.*}} fastmath<arcp,contract,afn> : f32
// CHECK-NOT:       llvm.intr.tanh
func.func @tanh(%a: f16, %v: vector<8xbf16>, %x: f32, %m: memref<3xf16>, %mv: memref<8xbf16>, %mf: memref<3xf32>) {
  %h = math.tanh %a : f16
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = math.tanh %a : f16
    %tv = math.tanh %v : vector<8xbf16>
    %tf = math.tanh %x : f32
    memref.store %t, %m[%tx] : memref<3xf16>
    vector.store %tv, %mv[%tx] : memref<8xbf16>, vector<8xbf16>
    memref.store %tf, %mf[%tx] : memref<3xf32>
    gpu.terminator
  }
  memref.store %h, %m[%c1] : memref<3xf16>
  return
}
