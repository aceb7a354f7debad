// The functions of ../ref-check.mlir with the mistakes that hidet-run --ref
// must catch: an infinity in row 3 and a NaN in row 5 of the sums, one
// element of the f16 product off by 0.5, the last column of the bf16
// product's last 64-row tile without the last 64 of its 512 terms, a sign
// of 1 at 0, and a softmax that does not subtract its rows' maximum.

#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>

func.func @rowsum_f32(%a: tensor<64x4096xf32>) -> tensor<64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%a : tensor<64x4096xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %w = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%r : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %inf = arith.constant 0x7F800000 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %at3 = arith.cmpi eq, %i, %c3 : index
    %at5 = arith.cmpi eq, %i, %c5 : index
    %y = arith.select %at3, %inf, %x : f32
    %v = arith.select %at5, %nan, %y : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %w : tensor<64xf32>
}

func.func @matmul_f16(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %z = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<128x128xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x128xf16>) outs(%fc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %eh = tensor.empty() : tensor<128x128xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<128x128xf32>) outs(%eh : tensor<128x128xf16>) {
  ^bb0(%x: f32, %o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c77 = arith.constant 77 : index
    %c5 = arith.constant 5 : index
    %half = arith.constant 0.5 : f32
    %ati = arith.cmpi eq, %i, %c77 : index
    %atj = arith.cmpi eq, %j, %c5 : index
    %at = arith.andi %ati, %atj : i1
    %off = arith.addf %x, %half : f32
    %y = arith.select %at, %off, %x : f32
    %r = arith.truncf %y : f32 to f16
    linalg.yield %r : f16
  } -> tensor<128x128xf16>
  return %h : tensor<128x128xf16>
}

func.func @tile_bf16(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %z = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<256x1024xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%fc : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  // The last 64 terms of each element.
  %at = tensor.extract_slice %a[0, 448] [256, 64] [1, 1] : tensor<256x512xbf16> to tensor<256x64xbf16>
  %bt = tensor.extract_slice %b[448, 0] [64, 1024] [1, 1] : tensor<512x1024xbf16> to tensor<64x1024xbf16>
  %t = linalg.matmul ins(%at, %bt : tensor<256x64xbf16>, tensor<64x1024xbf16>) outs(%fc : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %eh = tensor.empty() : tensor<256x1024xbf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %t : tensor<256x1024xf32>, tensor<256x1024xf32>) outs(%eh : tensor<256x1024xbf16>) {
  ^bb0(%x: f32, %tail: f32, %o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c192 = arith.constant 192 : index
    %c1023 = arith.constant 1023 : index
    %lastTile = arith.cmpi uge, %i, %c192 : index
    %lastColumn = arith.cmpi eq, %j, %c1023 : index
    %edge = arith.andi %lastTile, %lastColumn : i1
    %short = arith.subf %x, %tail : f32
    %y = arith.select %edge, %short, %x : f32
    %r = arith.truncf %y : f32 to bf16
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
    %one = arith.constant 1.0 : f32
    %minus = arith.constant -1.0 : f32
    %nonneg = arith.cmpf oge, %x, %zero : f32
    %y = arith.select %nonneg, %one, %minus : f32
    linalg.yield %y : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// exp(x) over the sum of its row's exp(x): no maximum subtracted.
func.func @softmax_f32(%a: tensor<64x333xf32>) -> tensor<64x333xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x333xf32>
  %x = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x333xf32>) outs(%e : tensor<64x333xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp %v : f32
    linalg.yield %y : f32
  } -> tensor<64x333xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fs = linalg.fill ins(%z : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%x : tensor<64x333xf32>) outs(%fs : tensor<64xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %t = arith.addf %v, %acc : f32
      linalg.yield %t : f32
    }
  %r = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x333xf32>, tensor<64xf32>) outs(%e : tensor<64x333xf32>) {
  ^bb0(%v: f32, %sum: f32, %o: f32):
    %y = arith.divf %v, %sum : f32
    linalg.yield %y : f32
  } -> tensor<64x333xf32>
  return %r : tensor<64x333xf32>
}
