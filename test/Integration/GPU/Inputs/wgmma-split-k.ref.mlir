// CPU reference of ../wgmma-split-k.mlir: 16-bit results are accumulated in
// f32 and rounded once.

func.func @split4_ragged_f16(%a: tensor<333x696xf16>, %b: tensor<696x200xf16>) -> tensor<333x200xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x200xf32>) -> tensor<333x200xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x696xf16>, tensor<696x200xf16>) outs(%f : tensor<333x200xf32>) -> tensor<333x200xf32>
  %o = tensor.empty() : tensor<333x200xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<333x200xf32>) outs(%o : tensor<333x200xf16>) {
  ^bb0(%x: f32, %y: f16):
    %w = arith.truncf %x : f32 to f16
    linalg.yield %w : f16
  } -> tensor<333x200xf16>
  return %t : tensor<333x200xf16>
}

func.func @split8_accumulate_bf16(%a: tensor<128x1536xbf16>, %b: tensor<1536x256xbf16>, %c: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<128x256xbf16>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: bf16, %y: f32):
    %w = arith.extf %x : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<128x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x1536xbf16>, tensor<1536x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  %o = tensor.empty() : tensor<128x256xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<128x256xf32>) outs(%o : tensor<128x256xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %w = arith.truncf %x : f32 to bf16
    linalg.yield %w : bf16
  } -> tensor<128x256xbf16>
  return %t : tensor<128x256xbf16>
}

func.func @split2_bmm_f32(%a: tensor<24x256x520xf16>, %b: tensor<24x520x192xf16>) -> tensor<24x256x192xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x256x192xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<24x256x192xf32>) -> tensor<24x256x192xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<24x256x520xf16>, tensor<24x520x192xf16>) outs(%f : tensor<24x256x192xf32>) -> tensor<24x256x192xf32>
  return %r : tensor<24x256x192xf32>
}

func.func @split4_conv3x3_f16(%x: tensor<2x7x7x256xf16>, %w: tensor<3x3x256x128xf16>) -> tensor<2x7x7x128xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<2x7x7x256xf16> to tensor<2x9x9x256xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x128xf32>) -> tensor<2x7x7x128xf32>
  %r = linalg.conv_2d_nhwc_hwcf { dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x9x9x256xf16>, tensor<3x3x256x128xf16>) outs(%f : tensor<2x7x7x128xf32>) -> tensor<2x7x7x128xf32>
  %o = tensor.empty() : tensor<2x7x7x128xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<2x7x7x128xf32>) outs(%o : tensor<2x7x7x128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %rounded = arith.truncf %in : f32 to f16
    linalg.yield %rounded : f16
  } -> tensor<2x7x7x128xf16>
  return %t : tensor<2x7x7x128xf16>
}
