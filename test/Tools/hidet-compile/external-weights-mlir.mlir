// --external-weights applies to MLIR input too: the constants that are not
// splats become weight inputs (named after their resource, else their
// location's name), their values go to the file and not into the library,
// and the library run with the file computes what the library with its
// weights inside does, bit for bit.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu --external-weights=%t.weights -o %t.ext.so
// RUN: hidet-compile %s --target=cpu --external-weights=%t.weights2 --emit=llvm -o - | FileCheck %s --check-prefix=MANIFEST
// RUN: head -c 200 %t.weights | FileCheck %s --check-prefix=FILE
// RUN: hidet-compile %s --target=cpu -o %t.emb.so
// RUN: hidet-run %t.emb.so --seed 5 --output=@%t.emb.npy --reps 0
// RUN: hidet-run %t.ext.so --weights=@%t.weights --seed 5 --expected-output=@%t.emb.npy --rtol 0 --atol 0 --reps 0 | FileCheck %s
// CHECK: hidet-run: affine PASS expected_max_abs=0 (device: cpu)
// MANIFEST: arg 1 weight f32 3x4 scale
// MANIFEST: arg 2 weight f32 4 shift
// FILE: hidet-weights 1
// FILE: weight scale f32 3x4
// FILE: weight shift f32 4
// A GPU library holds its weights' image (hidet_weights) unless they go to
// a file.
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa -o - | FileCheck %s --check-prefix=IMAGE
// RUN: hidet-compile %s --external-weights=%t.gpu.weights --emit=llvm --pipeline-options=cubin-format=isa -o - | FileCheck %s --check-prefix=NOIMAGE
// IMAGE: @hidet_weights
// NOIMAGE-NOT: @hidet_weights

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @affine(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %w = arith.constant dense_resource<scale> : tensor<3x4xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> loc("shift")
  %e = tensor.empty() : tensor<3x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %w, %b : tensor<3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %s: f32, %t: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    %r = arith.addf %m, %t : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      scale: "0x040000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041"
    }
  }
#-}
