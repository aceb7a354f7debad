// A GPU library takes its large constants as weights, stored once in the
// library (`hidet_weights`, in the format of hidet/Weights.h) and listed as
// `weight` arguments in the manifest, and its temporaries in one workspace
// whose size (and the sum of the temporaries it holds) follows the `func`
// line. Unused, small and splat constants are not weights;
// --constants-as-weights=false keeps every constant in the code.
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa -o - | FileCheck %s
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa --constants-as-weights=false -o - | FileCheck %s --check-prefix=INLINE
// RUN: hidet-compile %s --emit=llvm --pipeline-options="cubin-format=isa plan-memory=false" -o - | FileCheck %s --check-prefix=NOPLAN
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa --pipeline-options=plan-memory=false -o - | FileCheck %s --check-prefix=NOPLAN

// CHECK-DAG: @hidet_manifest = constant [{{[0-9]+}} x i8] c"hidet-manifest 1\0Atarget gpu\0Afunc mlp 3 1\0Aworkspace 1280 1280\0Aarg 0 in f32 16x4 x\0Aarg 1 weight f32 4x20 weight0\0Aarg 2 weight f32 20 weight1\0Aarg 3 out f32 16x4\0A\00"
// CHECK-DAG: @hidet_weights = constant [576 x i8] c"hidet-weights 1\0Aweight weight0 f32 4x20 0 320\0Aweight weight1 f32 20 320 80\0Aend\0A{{.*}}", align 64
// INLINE: c"hidet-manifest 1\0Atarget gpu\0Afunc mlp 1 1\0Aworkspace 2048 2048\0Aarg 0 in f32 16x4 x\0Aarg 1 out f32 16x4\0A\00"
// INLINE-NOT: @hidet_weights
// NOPLAN: c"hidet-manifest 1\0Atarget gpu\0Afunc mlp 3 1\0Aarg 0 in f32 16x4 x\0A

func.func @mlp(%x: tensor<16x4xf32> {hidet.name = "x"}) -> tensor<16x4xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0], [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0], [3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0]]> : tensor<4x20xf32>
  %b = arith.constant dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5]> : tensor<20xf32>
  %unused = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0]> : tensor<20xf32>
  %e = tensor.empty() : tensor<16x20xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x20xf32>) -> tensor<16x20xf32>
  %y = linalg.matmul ins(%x, %w : tensor<16x4xf32>, tensor<4x20xf32>) outs(%f : tensor<16x20xf32>) -> tensor<16x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<16x20xf32>, tensor<20xf32>) outs(%e : tensor<16x20xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<16x20xf32>
  %e2 = tensor.empty() : tensor<16x4xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>] ins(%r, %w : tensor<16x20xf32>, tensor<4x20xf32>) outs(%f2 : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %o : tensor<16x4xf32>
}
