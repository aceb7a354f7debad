// CPU reference of ../matmul-wgmma.mlir: 16-bit results are accumulated in
// f32 and rounded once.

func.func @wgmma2_square_f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %o = tensor.empty() : tensor<256x256xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<256x256xf32>) outs(%o : tensor<256x256xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<256x256xf16>
  return %t : tensor<256x256xf16>
}

func.func @wgmma4_ragged_f32(%a: tensor<333x552xf16>, %b: tensor<552x440xf16>) -> tensor<333x440xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x440xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x440xf32>) -> tensor<333x440xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x552xf16>, tensor<552x440xf16>) outs(%f : tensor<333x440xf32>) -> tensor<333x440xf32>
  return %r : tensor<333x440xf32>
}

func.func @wgmma3_ragged_bf16(%a: tensor<200x264xbf16>, %b: tensor<264x136xbf16>) -> tensor<200x136xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x264xbf16>, tensor<264x136xbf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  %o = tensor.empty() : tensor<200x136xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<200x136xf32>) outs(%o : tensor<200x136xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %w = arith.truncf %x : f32 to bf16
    linalg.yield %w : bf16
  } -> tensor<200x136xbf16>
  return %t : tensor<200x136xbf16>
}

func.func @wgmma5_k_short(%a: tensor<200x40xf16>, %b: tensor<40x136xf16>) -> tensor<200x136xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul ins(%a, %b : tensor<200x40xf16>, tensor<40x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  %o = tensor.empty() : tensor<200x136xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<200x136xf32>) outs(%o : tensor<200x136xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<200x136xf16>
  return %t : tensor<200x136xf16>
}

func.func @wgmma4_skinny_bf16(%a: tensor<16x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<16x1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  return %r : tensor<16x1024xf32>
}

func.func @wgmma3_accumulate(%a: tensor<192x128xf16>, %b: tensor<128x192xf16>, %c: tensor<192x192xf16>) -> tensor<192x192xf16> {
  %e = tensor.empty() : tensor<192x192xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<192x192xf16>) outs(%e : tensor<192x192xf32>) {
  ^bb0(%x: f16, %y: f32):
    %w = arith.extf %x : f16 to f32
    linalg.yield %w : f32
  } -> tensor<192x192xf32>
  %r = linalg.matmul ins(%a, %b : tensor<192x128xf16>, tensor<128x192xf16>) outs(%f : tensor<192x192xf32>) -> tensor<192x192xf32>
  %o = tensor.empty() : tensor<192x192xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<192x192xf32>) outs(%o : tensor<192x192xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<192x192xf16>
  return %t : tensor<192x192xf16>
}

func.func @wgmma6_deep_bf16(%a: tensor<256x1024xbf16>, %b: tensor<1024x384xbf16>) -> tensor<256x384xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x1024xbf16>, tensor<1024x384xbf16>) outs(%f : tensor<256x384xf32>) -> tensor<256x384xf32>
  %o = tensor.empty() : tensor<256x384xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<256x384xf32>) outs(%o : tensor<256x384xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %w = arith.truncf %x : f32 to bf16
    linalg.yield %w : bf16
  } -> tensor<256x384xbf16>
  return %t : tensor<256x384xbf16>
}

func.func @wgmma4_tall_f16(%a: tensor<512x192xf16>, %b: tensor<192x256xf16>) -> tensor<512x256xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x192xf16>, tensor<192x256xf16>) outs(%f : tensor<512x256xf32>) -> tensor<512x256xf32>
  %o = tensor.empty() : tensor<512x256xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<512x256xf32>) outs(%o : tensor<512x256xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<512x256xf16>
  return %t : tensor<512x256xf16>
}

func.func @wgmma5_persistent_ragged_f16(%a: tensor<1000x200xf16>, %b: tensor<200x1240xf16>) -> tensor<1000x1240xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1240xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1000x1240xf32>) -> tensor<1000x1240xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x200xf16>, tensor<200x1240xf16>) outs(%f : tensor<1000x1240xf32>) -> tensor<1000x1240xf32>
  %o = tensor.empty() : tensor<1000x1240xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<1000x1240xf32>) outs(%o : tensor<1000x1240xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<1000x1240xf16>
  return %t : tensor<1000x1240xf16>
}

func.func @wgmma4_persistent_f32(%a: tensor<2100x328xbf16>, %b: tensor<328x2104xbf16>) -> tensor<2100x2104xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2100x2104xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2100x2104xf32>) -> tensor<2100x2104xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2100x328xbf16>, tensor<328x2104xbf16>) outs(%f : tensor<2100x2104xf32>) -> tensor<2100x2104xf32>
  return %r : tensor<2100x2104xf32>
}

func.func @pp4_ragged_f16(%a: tensor<1000x200xf16>, %b: tensor<200x1240xf16>) -> tensor<1000x1240xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1240xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1000x1240xf32>) -> tensor<1000x1240xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1000x200xf16>, tensor<200x1240xf16>) outs(%f : tensor<1000x1240xf32>) -> tensor<1000x1240xf32>
  %o = tensor.empty() : tensor<1000x1240xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<1000x1240xf32>) outs(%o : tensor<1000x1240xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<1000x1240xf16>
  return %t : tensor<1000x1240xf16>
}

func.func @pp3_accumulate_f16(%a: tensor<640x256xf16>, %b: tensor<256x1088xf16>, %c: tensor<640x1088xf16>) -> tensor<640x1088xf16> {
  %e = tensor.empty() : tensor<640x1088xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<640x1088xf16>) outs(%e : tensor<640x1088xf32>) {
  ^bb0(%x: f16, %y: f32):
    %w = arith.extf %x : f16 to f32
    linalg.yield %w : f32
  } -> tensor<640x1088xf32>
  %r = linalg.matmul ins(%a, %b : tensor<640x256xf16>, tensor<256x1088xf16>) outs(%f : tensor<640x1088xf32>) -> tensor<640x1088xf32>
  %o = tensor.empty() : tensor<640x1088xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<640x1088xf32>) outs(%o : tensor<640x1088xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<640x1088xf16>
  return %t : tensor<640x1088xf16>
}

func.func @pp4_bmm_split_f32(%a: tensor<4x500x512xbf16>, %b: tensor<4x512x520xbf16>) -> tensor<4x500x520xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x500x520xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x500x520xf32>) -> tensor<4x500x520xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x500x512xbf16>, tensor<4x512x520xbf16>) outs(%f : tensor<4x500x520xf32>) -> tensor<4x500x520xf32>
  return %r : tensor<4x500x520xf32>
}
