// RUN: hidet-opt %s --pass-pipeline="builtin.module(func.func(hidet-plan-device-memory{alignment=48}))" -verify-diagnostics

// expected-error @below {{hidet-plan-device-memory: alignment must be a positive power of two; got 48}}
func.func @f() {
  %a = gpu.alloc () : memref<4xf32>
  gpu.dealloc %a : memref<4xf32>
  return
}
