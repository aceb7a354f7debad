// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-narrow-math,canonicalize))' | FileCheck %s

// A 16-bit tanh in a kernel is computed in f32 as 1 - 2 / (1 + 2^(2 log2(e) x)),
// or x (1 - x^2 / 3) for |x| < 2^-6, and rounded back; the reciprocal may be
// approximate (afn). Host code and f32 tanh keep math.tanh.
// CHECK-LABEL: func.func @tanh(
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[TWO_LOG2E:.*]] = arith.constant 2.885390e+00 : f32
// CHECK-DAG:     %[[MINUS_TWO:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG:     %[[MINUS_THIRD:.*]] = arith.constant -0.333333343 : f32
// CHECK-DAG:     %[[SMALL_BOUND:.*]] = arith.constant 1.562500e-02 : f32
// CHECK:         math.tanh %{{.*}} : f16
// CHECK:         gpu.launch
// CHECK:           %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[S:.*]] = arith.mulf %[[X]], %[[TWO_LOG2E]] : f32
// CHECK:           %[[E:.*]] = math.exp2 %[[S]] : f32
// CHECK:           %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
// CHECK:           %[[R:.*]] = arith.divf %[[ONE]], %[[D]] fastmath<afn> : f32
// CHECK:           %[[LARGE:.*]] = math.fma %[[R]], %[[MINUS_TWO]], %[[ONE]] : f32
// CHECK:           %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:           %[[P:.*]] = math.fma %[[SQ]], %[[MINUS_THIRD]], %[[ONE]] : f32
// CHECK:           %[[SMALL:.*]] = arith.mulf %[[X]], %[[P]] : f32
// CHECK:           %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK:           %[[IS_SMALL:.*]] = arith.cmpf olt, %[[ABS]], %[[SMALL_BOUND]] : f32
// CHECK:           %[[T:.*]] = arith.select %[[IS_SMALL]], %[[SMALL]], %[[LARGE]] : f32
// CHECK:           %[[H:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK:           memref.store %[[H]]
// CHECK:           arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK:           math.exp2 %{{.*}} : vector<8xf32>
// CHECK:           arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
// CHECK:           math.tanh %{{.*}} : f32
// CHECK-NOT:       math.tanh
func.func @tanh(%a: f16, %v: vector<8xbf16>, %x: f32, %m: memref<3xf16>, %mv: memref<8xbf16>, %mf: memref<3xf32>) {
  %h = math.tanh %a : f16
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %h, %m[%c0] : memref<3xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = math.tanh %a : f16
    memref.store %t, %m[%tx] : memref<3xf16>
    %tv = math.tanh %v : vector<8xbf16>
    vector.store %tv, %mv[%c0] : memref<8xbf16>, vector<8xbf16>
    %tf = math.tanh %x : f32
    memref.store %tf, %mf[%tx] : memref<3xf32>
    gpu.terminator
  }
  return
}
