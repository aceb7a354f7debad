// A GPU library takes every constant that is not a splat as a weight,
// however small (a 4-element scale), and i1 masks too, stored a byte per
// element: a constant left in the module would be copied from the host on
// every call, which a CUDA graph cannot replay. Splats stay in the code.
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa -o - | FileCheck %s
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa -o - | FileCheck %s --check-prefix=NOCOPY
// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa --constants-as-weights=false -o - | FileCheck %s --check-prefix=COPY

// CHECK-DAG: @hidet_manifest = constant [{{[0-9]+}} x i8] c"hidet-manifest 1\0Atarget gpu\0Afunc masked 3 1\0A{{.*}}arg 0 in f32 16x4 x\0Aarg 1 weight f32 4 weight0\0Aarg 2 weight i1 16x4 weight1\0Aarg 3 out f32 16x4\0A\00"
// CHECK-DAG: @hidet_weights = constant [{{[0-9]+}} x i8] c"hidet-weights 1\0Aweight weight0 f32 4 0 16\0Aweight weight1 i1 16x4 {{[0-9]+}} 64\0Aend\0A{{.*}}\01\00\01\00\00\01\00\01\01\00\01\00\00\01\00\01{{.*}}", align 64
// No call copies from the host; with the constants kept in the code, the
// scale and the mask are copied on every call.
// NOCOPY-NOT: call void @mgpuMemcpy
// COPY-COUNT-2: call void @mgpuMemcpy
// COPY-NOT: call void @mgpuMemcpy

func.func @masked(%x: tensor<16x4xf32> {hidet.name = "x"}) -> tensor<16x4xf32> {
  %scale = arith.constant dense<[0.5, 1.5, 2.5, 3.5]> : tensor<4xf32>
  %mask = arith.constant dense<[[true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true], [true, false, true, false], [false, true, false, true]]> : tensor<16x4xi1>
  %zero = arith.constant dense<0.0> : tensor<16x4xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %scale, %mask, %zero : tensor<16x4xf32>, tensor<4xf32>, tensor<16x4xi1>, tensor<16x4xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%a: f32, %s: f32, %m: i1, %z: f32, %o: f32):
    %p = arith.mulf %a, %s : f32
    %q = arith.select %m, %p, %z : f32
    linalg.yield %q : f32
  } -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}
