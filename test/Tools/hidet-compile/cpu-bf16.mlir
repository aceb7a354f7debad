// CPU libraries compute bf16 arithmetic and 16-bit math functions in f32,
// rounded after each op, with bf16 conversions as integer arithmetic: no
// bfloat instruction reaches LLVM, whose legalization of one would call
// __truncsfbf2, which libgcc before GCC 13 lacks (the library would not
// load there).
// RUN: hidet-compile %s --target=cpu --emit=llvm -o - | FileCheck %s --implicit-check-not=fptrunc --implicit-check-not=fpext --implicit-check-not="fmul bfloat" --implicit-check-not=".bf16"
// RUN: hidet-compile %s --target=cpu --cpu-pipeline=fast --emit=llvm -o - | FileCheck %s --implicit-check-not=fptrunc --implicit-check-not=fpext --implicit-check-not="fmul bfloat" --implicit-check-not=".bf16"
// CHECK-LABEL: define void @scaled_tanh(
// CHECK:         fmul float
// CHECK:         call float @llvm.tanh.f32(
// CHECK:         ret void

// Both load and agree on this host; tanh is libm's f32 tanhf.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.ref.so
// RUN: hidet-compile %s --target=cpu --cpu-pipeline=fast -o %t.fast.so
// RUN: hidet-run %t.fast.so --ref %t.ref.so --reps 0 | FileCheck %s --check-prefix=AGREE
// RUN: nm -D %t.ref.so | FileCheck %s --check-prefix=SYMBOLS --implicit-check-not=sfbf --implicit-check-not=bfsf
// RUN: nm -D %t.fast.so | FileCheck %s --check-prefix=SYMBOLS --implicit-check-not=sfbf --implicit-check-not=bfsf
// AGREE: hidet-run: scaled_tanh PASS
// SYMBOLS: U tanhf
func.func @scaled_tanh(%a: tensor<64xbf16>, %b: tensor<64xbf16>) -> tensor<64xbf16> {
  %e = tensor.empty() : tensor<64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<64xbf16>, tensor<64xbf16>) outs(%e : tensor<64xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %m = arith.mulf %x, %y : bf16
    %t = math.tanh %m : bf16
    linalg.yield %t : bf16
  } -> tensor<64xbf16>
  return %r : tensor<64xbf16>
}
