// RUN: hidet-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file -verify-diagnostics | hidet-opt -split-input-file | FileCheck %s

// A kernel's persistent counters round-trip, in a gpu.launch and in a
// gpu.func.
// CHECK-LABEL: func.func @in_launch(
// CHECK:         gpu.launch
// CHECK:           %[[C:.*]] = hidet.persistent_counters : memref<32xi32>
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[C]][%{{.*}}] : (i32, memref<32xi32>) -> i32
func.func @in_launch(%i: index) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %c = hidet.persistent_counters : memref<32xi32>
    %old = memref.atomic_rmw addi %one, %c[%i] : (i32, memref<32xi32>) -> i32
    gpu.terminator
  }
  return
}

// -----

// CHECK-LABEL: gpu.func @kernel(
// CHECK:         hidet.persistent_counters : memref<4xi32>
gpu.module @kernels {
  gpu.func @kernel() kernel {
    %c = hidet.persistent_counters : memref<4xi32>
    gpu.return
  }
}

// -----

func.func @outside_kernel() {
  // expected-error @+1 {{'hidet.persistent_counters' op belongs to a kernel: it must be inside a gpu.launch or a gpu.func}}
  %c = hidet.persistent_counters : memref<4xi32>
  return
}

// -----

gpu.module @kernels {
  gpu.func @two_d() kernel {
    // expected-error @+1 {{'hidet.persistent_counters' op counts in a 1-D memref, got 'memref<2x2xi32>'}}
    %c = hidet.persistent_counters : memref<2x2xi32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @shared() kernel {
    // expected-error @+1 {{'hidet.persistent_counters' op counts in global memory (no memory space), got 'memref<4xi32, #gpu.address_space<workgroup>>'}}
    %c = hidet.persistent_counters : memref<4xi32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @floats() kernel {
    // expected-error @+1 {{'hidet.persistent_counters' op result #0 must be statically shaped memref of 32-bit signless integer values, but got 'memref<4xf32>'}}
    %c = hidet.persistent_counters : memref<4xf32>
    gpu.return
  }
}
