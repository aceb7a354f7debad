// RUN: hidet-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(hidet-remf-to-libdevice))" -verify-diagnostics | FileCheck %s

// Floating-point remainders in kernels call libdevice's fmod: f32 and f64
// directly (one declaration each), f16 through f32 (rounded once), vectors
// element by element.
// CHECK-LABEL: gpu.module @kernels
// CHECK-DAG:     func.func private @__nv_fmodf(f32, f32) -> f32
// CHECK-DAG:     func.func private @__nv_fmod(f64, f64) -> f64
// CHECK-LABEL:   gpu.func @scalars(
// CHECK-SAME:        %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32, %[[C:[a-z0-9]+]]: f64, %[[D:[a-z0-9]+]]: f64, %[[E:[a-z0-9]+]]: f16, %[[F:[a-z0-9]+]]: f16,
// CHECK:           %[[R0:.*]] = func.call @__nv_fmodf(%[[A]], %[[B]]) : (f32, f32) -> f32
// CHECK:           %[[R1:.*]] = func.call @__nv_fmod(%[[C]], %[[D]]) : (f64, f64) -> f64
// CHECK:           %[[E32:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK:           %[[F32:.*]] = arith.extf %[[F]] : f16 to f32
// CHECK:           %[[R2:.*]] = func.call @__nv_fmodf(%[[E32]], %[[F32]]) : (f32, f32) -> f32
// CHECK:           arith.truncf %[[R2]] : f32 to f16
// CHECK-NOT:       arith.remf
// CHECK-LABEL:   gpu.func @vector(
// CHECK-COUNT-4:   func.call @__nv_fmodf
// CHECK-NOT:       arith.remf
gpu.module @kernels {
  gpu.func @scalars(%a: f32, %b: f32, %c: f64, %d: f64, %e: f16, %f: f16, %out: memref<3xf32>) kernel {
    %r0 = arith.remf %a, %b : f32
    %r1 = arith.remf %c, %d : f64
    %r2 = arith.remf %e, %f : f16
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %t1 = arith.truncf %r1 : f64 to f32
    %t2 = arith.extf %r2 : f16 to f32
    memref.store %r0, %out[%c0] : memref<3xf32>
    memref.store %t1, %out[%c1] : memref<3xf32>
    memref.store %t2, %out[%c2] : memref<3xf32>
    gpu.return
  }
  gpu.func @vector(%a: vector<4xf32>, %b: vector<4xf32>, %out: memref<4xf32>) kernel {
    %r = arith.remf %a, %b : vector<4xf32>
    %c0 = arith.constant 0 : index
    vector.store %r, %out[%c0] : memref<4xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @matrix {
  gpu.func @kernel(%a: vector<2x2xf32>, %b: vector<2x2xf32>) kernel {
    // expected-error @+1 {{cannot compute the remainder of 'vector<2x2xf32>' in a GPU kernel (f16, bf16, f32, f64 and their 1-D vectors can)}}
    %r = arith.remf %a, %b : vector<2x2xf32>
    gpu.return
  }
}
