// The fused attention template (#hidet.attention) on a causal mask with
// left padding, as a decoder batches prompts of different lengths: batches
// padded by 0, 20 or 40 tokens, the masked scores at f16's lowest value,
// -65504, as Hugging Face models write masks (torch.finfo(dtype).min). The
// padded queries have every key masked: their rows are a uniform average of
// the values (with -inf they would be NaN on both sides: the reference's
// softmax subtracts -inf from -inf, the kernel multiplies a zero sum's
// reciprocal, 1 / 0, by 0). Against an f32 reference
// (Inputs/attention-padded-rows.ref.mlir), on uniform, sparse and {-1, 0, 1}
// inputs. Not with attention-skip-masked: it skips the key tiles whose
// scores are all masked (at most -1e4) in each of a warp's 16 rows, so a
// fully masked row averages only the tiles that another row of its warp
// keeps, or none (a zero sum: NaN), where the reference averages every key.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/attention-padded-rows.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// CHECK: hidet-run: left_padded_causal_f16 PASS

func.func @left_padded_causal_f16(%q: tensor<6x100x64xf16>, %k: tensor<6x100x64xf16>, %v: tensor<6x100x64xf16>) -> tensor<6x100x64xf16> {
  %z = arith.constant 0.0 : f16
  %ekt = tensor.empty() : tensor<6x64x100xf16>
  %kt = linalg.transpose ins(%k : tensor<6x100x64xf16>) outs(%ekt : tensor<6x64x100xf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<6x100x100xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<6x100x64xf16>, tensor<6x64x100xf16>) outs(%f : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<6x100x100xf16>) outs(%e : tensor<6x100x100xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.125 : f16
    %y = arith.mulf %a, %c : f16
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c20 = arith.constant 20 : index
    %r = arith.remui %b, %c3 : index
    %pad = arith.muli %r, %c20 : index
    %past = arith.cmpi ule, %j, %i : index
    %real = arith.cmpi uge, %j, %pad : index
    %keep = arith.andi %past, %real : i1
    %lowest = arith.constant 0xFBFF : f16
    %w = arith.select %keep, %y, %lowest : f16
    linalg.yield %w : f16
  } -> tensor<6x100x100xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<6x100x100xf16>) outs(%e : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %eo = tensor.empty() : tensor<6x100x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<6x100x64xf16>) -> tensor<6x100x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x100x100xf16>, tensor<6x100x64xf16>) outs(%fo : tensor<6x100x64xf16>) -> tensor<6x100x64xf16>
  return %o : tensor<6x100x64xf16>
}
