// RUN: hidet-opt %s --hidet-unshare-inits --split-input-file | FileCheck %s

// One zero fill read by three matmuls (as CSE leaves it): each matmul gets
// a fill of its own, on a tensor.empty of its own, right before it; the
// first keeps the original.
// CHECK-LABEL: func.func @qkv(
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<32x64xf16>
// CHECK:         %[[F0:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E0]] : tensor<32x64xf16>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf16>, tensor<64x64xf16>) outs(%[[F0]] :
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<32x64xf16>
// CHECK:         %[[F1:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E1]] : tensor<32x64xf16>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf16>, tensor<64x64xf16>) outs(%[[F1]] :
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<32x64xf16>
// CHECK:         %[[F2:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E2]] : tensor<32x64xf16>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf16>, tensor<64x64xf16>) outs(%[[F2]] :
// CHECK-NOT:     linalg.fill
func.func @qkv(%x: tensor<32x64xf16>, %wq: tensor<64x64xf16>, %wk: tensor<64x64xf16>,
               %wv: tensor<64x64xf16>) -> (tensor<32x64xf16>, tensor<32x64xf16>, tensor<32x64xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<32x64xf16>) -> tensor<32x64xf16>
  %q = linalg.matmul ins(%x, %wq : tensor<32x64xf16>, tensor<64x64xf16>) outs(%f : tensor<32x64xf16>) -> tensor<32x64xf16>
  %k = linalg.matmul ins(%x, %wk : tensor<32x64xf16>, tensor<64x64xf16>) outs(%f : tensor<32x64xf16>) -> tensor<32x64xf16>
  %v = linalg.matmul ins(%x, %wv : tensor<32x64xf16>, tensor<64x64xf16>) outs(%f : tensor<32x64xf16>) -> tensor<32x64xf16>
  return %q, %k, %v : tensor<32x64xf16>, tensor<32x64xf16>, tensor<32x64xf16>
}

// -----

// A fill whose destination is not a tensor.empty is cloned alone; a fill on
// buffers is left as it is.
// CHECK-LABEL: func.func @others(
// CHECK-SAME:    %[[D:[a-z0-9]+]]: tensor<8xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[D]] : tensor<8xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[D]] : tensor<8xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK-NOT:     linalg.fill
func.func @others(%d: tensor<8xf32>, %m: memref<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%d : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.map { math.exp } ins(%f : tensor<8xf32>) outs(%d : tensor<8xf32>)
  %b = linalg.map { math.log } ins(%f : tensor<8xf32>) outs(%d : tensor<8xf32>)
  linalg.fill ins(%one : f32) outs(%m : memref<8xf32>)
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// One tensor.empty that two elementwise ops write (as CSE leaves it): the
// second gets a tensor.empty of its own, right before it, so that
// bufferization gives each value its own buffer instead of reusing the
// first's once it is dead.
// CHECK-LABEL: func.func @values(
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<16xf32>
// CHECK:         %[[A:.*]] = linalg.map { math.exp } ins(%{{.*}} : tensor<16xf32>) outs(%[[E0]] : tensor<16xf32>)
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<16xf32>
// CHECK-NEXT:    linalg.map { math.log } ins(%[[A]] : tensor<16xf32>) outs(%[[E1]] : tensor<16xf32>)
// CHECK-NEXT:    return
func.func @values(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>)
  %b = linalg.map { math.log } ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>)
  return %b : tensor<16xf32>
}

// -----

// Bufferized, each value lives in an allocation of its own: without the
// pass, `sqrt` would write into the first allocation once `exp`'s value is
// dead (the plan of device memory shares buffers later, by liveness).
// RUN: hidet-opt %s --split-input-file --hidet-unshare-inits \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries=1" \
// RUN:   | FileCheck %s --check-prefix=BUF
// BUF-LABEL: func.func @bufferized(
// BUF:         %[[M0:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// BUF:         linalg.map { math.exp } ins(%{{.*}} : memref<16xf32{{.*}}) outs(%[[M0]] : memref<16xf32>)
// BUF:         %[[M1:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// BUF:         linalg.map { math.log } ins(%[[M0]] : memref<16xf32>) outs(%[[M1]] : memref<16xf32>)
// BUF:         %[[M2:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// BUF:         linalg.map { math.sqrt } ins(%{{.*}} : memref<16xf32{{.*}}) outs(%[[M2]] : memref<16xf32>)
func.func @bufferized(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.map { math.exp } ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>)
  %b = linalg.map { math.log } ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>)
  %c = linalg.map { math.sqrt } ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>)
  return %b, %c : tensor<16xf32>, tensor<16xf32>
}
