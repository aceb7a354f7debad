// A scalar read at the function's top level (the scale of a dequantize, a
// step of a schedule) that only linalg bodies use is read by the kernels,
// not by the host code: the GPU library runs and matches the CPU's.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 3 | FileCheck %s
// CHECK: scale_shift PASS
#id = affine_map<(i, j) -> (i, j)>
func.func @scale_shift(%x: tensor<64x256xf32>, %s: tensor<2xf32>) -> tensor<64x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %scale = tensor.extract %s[%c0] : tensor<2xf32>
  %shift = tensor.extract %s[%c1] : tensor<2xf32>
  %twice = arith.addf %shift, %shift : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    %t = arith.addf %m, %twice : f32
    linalg.yield %t : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}
