// RUN: not hidet-opt %s --hidet-workgroup-allocs-to-dynamic-shared=alignment=8 2>&1 | FileCheck %s
// RUN: not hidet-opt %s --hidet-workgroup-allocs-to-dynamic-shared=alignment=96 2>&1 | FileCheck %s --check-prefix=NPOT

// CHECK: alignment must be a power of two of at least 16, got 8
// NPOT: alignment must be a power of two of at least 16, got 96
func.func @f() {
  return
}
