// A chain of elementwise ops (add, mul, exp, tanh, max) on a ragged shape, f32.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: PASS

func.func @elementwise_chain_f32(%a: tensor<333x257xf32>, %b: tensor<333x257xf32>) -> tensor<333x257xf32> {
  %e = tensor.empty() : tensor<333x257xf32>
  %c = arith.constant 0.5 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<333x257xf32>, tensor<333x257xf32>) outs(%e : tensor<333x257xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %s, %c : f32
    %t = math.tanh %m : f32
    %x2 = math.exp %x : f32
    %r = arith.maximumf %t, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<333x257xf32>
  return %r : tensor<333x257xf32>
}
