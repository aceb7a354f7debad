// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-narrow-math,canonicalize))' | FileCheck %s --check-prefix=APPROX
// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-narrow-math{exp2-tanh=1},canonicalize))' | FileCheck %s
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-narrow-math{exp2-tanh=maybe}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --exp2-tanh option: 'maybe' is invalid value for boolean argument

// By default a 16-bit tanh in a kernel (scalar or vector, existing flags
// or not) becomes llvm.tanh with afn (tanh.approx.f32 in the NVPTX backend).
// Host code and f32 tanh keep math.tanh.
// APPROX-LABEL: func.func @tanh(
// APPROX:         math.tanh %{{.*}} : f16
// APPROX:         gpu.launch
// APPROX:           %[[T:.*]] = llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f16) -> f16
// APPROX-NEXT:      memref.store %[[T]]
// APPROX-NEXT:      %[[TV:.*]] = llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (vector<8xbf16>) -> vector<8xbf16>
// APPROX-NEXT:      vector.store %[[TV]]
// APPROX-NEXT:      math.tanh %{{.*}} : f32
// APPROX-NEXT:      memref.store
// APPROX-NEXT:      llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f16) -> f16
// APPROX-NOT:       math.tanh

// With exp2-tanh it is computed in f32 as 1 - 2 / (1 + 2^(2 log2(e) x))
// with the hardware's ex2.approx.ftz and rcp.approx.ftz, or x for
// |x| < 2^-7, and rounded back; vectors element by element.
// CHECK-LABEL: func.func @tanh(
// CHECK-DAG:     %[[SMALL_BOUND:.*]] = arith.constant 7.812500e-03 : f32
// CHECK-DAG:     %[[MINUS_TWO:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[TWO_LOG2E:.*]] = arith.constant 2.885390e+00 : f32
// CHECK:         math.tanh %{{.*}} : f16
// CHECK:         gpu.launch
// CHECK:           %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[X]], %[[TWO_LOG2E]] : f32
// CHECK-NEXT:      %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[S]]) : (f32) -> f32
// CHECK-NEXT:      %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : f32
// CHECK-NEXT:      %[[R:.*]] = nvvm.rcp.approx.ftz.f %[[D]] : f32
// CHECK-NEXT:      %[[LARGE:.*]] = math.fma %[[R]], %[[MINUS_TWO]], %[[ONE]] : f32
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:      %[[IS_SMALL:.*]] = arith.cmpf olt, %[[ABS]], %[[SMALL_BOUND]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.select %[[IS_SMALL]], %[[X]], %[[LARGE]] : f32
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK-NEXT:      memref.store %[[H]]
// CHECK-NEXT:      %[[XV:.*]] = arith.extf %{{.*}} : vector<8xbf16> to vector<8xf32>
// CHECK-COUNT-8:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK:           %[[TV:.*]] = vector.from_elements %{{.*}} : vector<8xf32>
// CHECK-NEXT:      arith.truncf %[[TV]] : vector<8xf32> to vector<8xbf16>
// CHECK:           math.tanh %{{.*}} : f32
// CHECK:           llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
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
    %tflags = math.tanh %a fastmath<arcp,contract,afn> : f16
    memref.store %tflags, %m[%c1] : memref<3xf16>
    gpu.terminator
  }
  return
}

// A 16-bit division in a kernel (scalar or vector) is computed in f32 by the
// hardware's full-range approximate division (div.full.f32) and rounded
// back; vectors element by element. Host code and f32 divisions stay
// arith.divf (correctly rounded). exp2-tanh does not change it.
// APPROX-LABEL: func.func @divide(
// APPROX:         arith.divf %{{.*}}, %{{.*}} : f16
// APPROX:         gpu.launch
// APPROX:           %[[A:.*]] = arith.extf %{{.*}} : f16 to f32
// APPROX-NEXT:      %[[B:.*]] = arith.extf %{{.*}} : f16 to f32
// APPROX-NEXT:      %[[Q:.*]] = llvm.call_intrinsic "llvm.nvvm.div.full"(%[[A]], %[[B]]) : (f32, f32) -> f32
// APPROX-NEXT:      %[[H:.*]] = arith.truncf %[[Q]] : f32 to f16
// APPROX-NEXT:      memref.store %[[H]]
// APPROX-NEXT:      %[[AV:.*]] = arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// APPROX-NEXT:      %[[BV:.*]] = arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// APPROX-COUNT-4:   llvm.call_intrinsic "llvm.nvvm.div.full"
// APPROX:           %[[QV:.*]] = vector.from_elements %{{.*}} : vector<4xf32>
// APPROX-NEXT:      arith.truncf %[[QV]] : vector<4xf32> to vector<4xbf16>
// APPROX:           arith.divf %{{.*}}, %{{.*}} : f32
// APPROX-NOT:       arith.divf
// CHECK-LABEL: func.func @divide(
// CHECK:         gpu.launch
// CHECK-COUNT-5:   llvm.call_intrinsic "llvm.nvvm.div.full"
func.func @divide(%a: f16, %b: f16, %v: vector<4xbf16>, %w: vector<4xbf16>, %x: f32,
                  %m: memref<2xf16>, %mv: memref<4xbf16>, %mf: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = arith.divf %a, %b : f16
  memref.store %h, %m[%c0] : memref<2xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %q = arith.divf %a, %b : f16
    memref.store %q, %m[%c1] : memref<2xf16>
    %qv = arith.divf %v, %w : vector<4xbf16>
    vector.store %qv, %mv[%c0] : memref<4xbf16>, vector<4xbf16>
    %qf = arith.divf %x, %x : f32
    memref.store %qf, %mf[%c0] : memref<1xf32>
    gpu.terminator
  }
  return
}
