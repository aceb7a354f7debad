// The host code of a GPU library never reads device memory. A scalar that
// the function reads at its top level and that only linalg bodies use is
// read by the kernels (hidet-sink-scalar-reads): the library compiles, and
// on the CPU it computes x * s. A scalar that the function returns is an
// error at its read, with exit status 1 and no library written.
// RUN: rm -rf %t && mkdir %t
// RUN: hidet-compile %s --pipeline-options=cubin-format=isa --emit=mlir -o %t/gpu.mlir
// RUN: FileCheck %s --check-prefix=GPU < %t/gpu.mlir
// RUN: hidet-compile %s --target=cpu -o %t/cpu.so
// x = [1, 2, 3, 4], s = 2.5: y = [2.5, 5, 7.5, 10].
// RUN: printf "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }" > %t/x.npy
// RUN: printf '%%*s\n' 60 '' >> %t/x.npy
// RUN: printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40' >> %t/x.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (), }" > %t/s.npy
// RUN: printf '%%*s\n' 62 '' >> %t/s.npy
// RUN: printf '\x00\x00\x20\x40' >> %t/s.npy
// RUN: printf "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }" > %t/y.npy
// RUN: printf '%%*s\n' 60 '' >> %t/y.npy
// RUN: printf '\x00\x00\x20\x40\x00\x00\xa0\x40\x00\x00\xf0\x40\x00\x00\x20\x41' >> %t/y.npy
// RUN: hidet-run %t/cpu.so --func scale --input=@%t/x.npy --input=@%t/s.npy --expected-output=@%t/y.npy --rtol 0 --atol 0 --reps 0 | FileCheck %s --check-prefix=RESULT
// RUN: hidet-compile %S/Inputs/host-read-returned.mlir --pipeline-options=cubin-format=isa -o %t/returned.so > %t/err.log 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ERR < %t/err.log
// RUN: test ! -e %t/returned.so
// RUN: ls -A %t | FileCheck %s --check-prefix=FILES

// The read is in the kernel: the host function loads nothing.
// GPU-LABEL: llvm.func @scale(
// GPU-NOT:     llvm.load
// GPU:         gpu.launch_func
// GPU-NOT:     llvm.load
// GPU:         llvm.return
// RESULT: scale PASS
// ERR: host-read-returned.mlir":6:8): error: hidet-host-buffers-to-device: the host code would read device memory here, which it cannot; compute the value in a kernel
// ERR: hidet-compile: the gpu pipeline failed
// FILES: cpu.so
// FILES-NOT: returned

#id = affine_map<(i) -> (i)>
func.func @scale(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %v = tensor.extract %s[] : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
