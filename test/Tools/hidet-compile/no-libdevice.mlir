// A GPU library whose kernels call libdevice (tanh here) needs the CUDA
// toolkit's libdevice even for PTX (cubin-format=isa): without it the PTX
// would call functions nothing defines. Upstream's serialization reports
// the missing toolkit as an error and still returns the PTX;
// hidet-gpu-module-to-binary fails on that error, so no library is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not hidet-compile %s -o %t/lib.so --cuda-path=%t/no-toolkit --pipeline-options="cubin-format=isa" 2>&1 | FileCheck %s
// RUN: test ! -e %t/lib.so
// CHECK: error: CUDA path: {{.*}}no-toolkit does not exist
// CHECK: hidet-compile: the gpu pipeline failed
func.func @tanh(%a: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
