// The functions of ../ref-check.mlir computed in another order: rows summed
// in blocks of 64, products over two halves of their terms whose partial
// sums are rounded to the 16-bit dtype, the sign through two comparisons
// converted to floats, and the softmax written out with a reciprocal.

#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>

func.func @rowsum_f32(%a: tensor<64x4096xf32>) -> tensor<64xf32> {
  %z = arith.constant 0.0 : f32
  %b = tensor.expand_shape %a [[0], [1, 2]] output_shape [64, 64, 64] : tensor<64x4096xf32> into tensor<64x64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %blocks = linalg.reduce ins(%b : tensor<64x64x64xf32>) outs(%f2 : tensor<64x64xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%blocks : tensor<64x64xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}

func.func @matmul_f16(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %z = arith.constant 0.0 : f32
  %a0 = tensor.extract_slice %a[0, 0] [128, 128] [1, 1] : tensor<128x256xf16> to tensor<128x128xf16>
  %a1 = tensor.extract_slice %a[0, 128] [128, 128] [1, 1] : tensor<128x256xf16> to tensor<128x128xf16>
  %b0 = tensor.extract_slice %b[0, 0] [128, 128] [1, 1] : tensor<256x128xf16> to tensor<128x128xf16>
  %b1 = tensor.extract_slice %b[128, 0] [128, 128] [1, 1] : tensor<256x128xf16> to tensor<128x128xf16>
  %ec = tensor.empty() : tensor<128x128xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c0 = linalg.matmul ins(%a0, %b0 : tensor<128x128xf16>, tensor<128x128xf16>) outs(%fc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c1 = linalg.matmul ins(%a1, %b1 : tensor<128x128xf16>, tensor<128x128xf16>) outs(%fc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %eh = tensor.empty() : tensor<128x128xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c0, %c1 : tensor<128x128xf32>, tensor<128x128xf32>) outs(%eh : tensor<128x128xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %xh = arith.truncf %x : f32 to f16
    %yh = arith.truncf %y : f32 to f16
    %xf = arith.extf %xh : f16 to f32
    %yf = arith.extf %yh : f16 to f32
    %s = arith.addf %xf, %yf : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  } -> tensor<128x128xf16>
  return %h : tensor<128x128xf16>
}

func.func @tile_bf16(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %z = arith.constant 0.0 : f32
  %a0 = tensor.extract_slice %a[0, 0] [256, 256] [1, 1] : tensor<256x512xbf16> to tensor<256x256xbf16>
  %a1 = tensor.extract_slice %a[0, 256] [256, 256] [1, 1] : tensor<256x512xbf16> to tensor<256x256xbf16>
  %b0 = tensor.extract_slice %b[0, 0] [256, 1024] [1, 1] : tensor<512x1024xbf16> to tensor<256x1024xbf16>
  %b1 = tensor.extract_slice %b[256, 0] [256, 1024] [1, 1] : tensor<512x1024xbf16> to tensor<256x1024xbf16>
  %ec = tensor.empty() : tensor<256x1024xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %c0 = linalg.matmul ins(%a0, %b0 : tensor<256x256xbf16>, tensor<256x1024xbf16>) outs(%fc : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %c1 = linalg.matmul ins(%a1, %b1 : tensor<256x256xbf16>, tensor<256x1024xbf16>) outs(%fc : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %eh = tensor.empty() : tensor<256x1024xbf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c0, %c1 : tensor<256x1024xf32>, tensor<256x1024xf32>) outs(%eh : tensor<256x1024xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %xh = arith.truncf %x : f32 to bf16
    %yh = arith.truncf %y : f32 to bf16
    %xf = arith.extf %xh : bf16 to f32
    %yf = arith.extf %yh : bf16 to f32
    %s = arith.addf %xf, %yf : f32
    %r = arith.truncf %s : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<256x1024xbf16>
  return %h : tensor<256x1024xbf16>
}

func.func @sign_f32(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %x, %zero : f32
    %neg = arith.cmpf olt, %x, %zero : f32
    %p = arith.uitofp %pos : i1 to f32
    %n = arith.uitofp %neg : i1 to f32
    %y = arith.subf %p, %n : f32
    linalg.yield %y : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// exp(x - max) times the reciprocal of its row's sum.
func.func @softmax_f32(%a: tensor<64x333xf32>) -> tensor<64x333xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.reduce ins(%a : tensor<64x333xf32>) outs(%fm : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.maximumf %x, %acc : f32
      linalg.yield %s : f32
    }
  %e = tensor.empty() : tensor<64x333xf32>
  %x = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %m : tensor<64x333xf32>, tensor<64xf32>) outs(%e : tensor<64x333xf32>) {
  ^bb0(%v: f32, %mx: f32, %o: f32):
    %d = arith.subf %v, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<64x333xf32>
  %fs = linalg.fill ins(%z : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%x : tensor<64x333xf32>) outs(%fs : tensor<64xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %t = arith.addf %v, %acc : f32
      linalg.yield %t : f32
    }
  %r = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x333xf32>, tensor<64xf32>) outs(%e : tensor<64x333xf32>) {
  ^bb0(%v: f32, %sum: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %inv = arith.divf %one, %sum : f32
    %y = arith.mulf %v, %inv : f32
    linalg.yield %y : f32
  } -> tensor<64x333xf32>
  return %r : tensor<64x333xf32>
}
