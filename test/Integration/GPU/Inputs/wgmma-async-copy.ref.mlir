// CPU reference of ../wgmma-async-copy.mlir: accumulated in f32, 16-bit
// results rounded once.

func.func @async_bmm_ragged_bf16(%a: tensor<3x200x264xbf16>, %b: tensor<3x264x136xbf16>) -> tensor<3x200x136xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x200x136xf32>) -> tensor<3x200x136xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x200x264xbf16>, tensor<3x264x136xbf16>) outs(%f : tensor<3x200x136xf32>) -> tensor<3x200x136xf32>
  %o = tensor.empty() : tensor<3x200x136xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<3x200x136xf32>) outs(%o : tensor<3x200x136xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %rounded = arith.truncf %in : f32 to bf16
    linalg.yield %rounded : bf16
  } -> tensor<3x200x136xbf16>
  return %t : tensor<3x200x136xbf16>
}

func.func @async_bmm_persistent_f16(%a: tensor<12x512x256xf16>, %b: tensor<12x256x512xf16>) -> tensor<12x512x512xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x512x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<12x512x512xf32>) -> tensor<12x512x512xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<12x512x256xf16>, tensor<12x256x512xf16>) outs(%f : tensor<12x512x512xf32>) -> tensor<12x512x512xf32>
  %o = tensor.empty() : tensor<12x512x512xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r : tensor<12x512x512xf32>) outs(%o : tensor<12x512x512xf16>) {
  ^bb0(%in: f32, %out: f16):
    %rounded = arith.truncf %in : f32 to f16
    linalg.yield %rounded : f16
  } -> tensor<12x512x512xf16>
  return %t : tensor<12x512x512xf16>
}

func.func @async_conv3x3_f32(%x: tensor<4x56x56x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<4x56x56x64xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<4x56x56x64xf16> to tensor<4x58x58x64xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x56x56x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf { dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<4x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
  return %r : tensor<4x56x56x64xf32>
}

func.func @async_conv3x3_persistent_bf16(%x: tensor<8x14x14x256xbf16>, %w: tensor<3x3x256x256xbf16>) -> tensor<8x14x14x256xbf16> {
  %zp = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : bf16
  } : tensor<8x14x14x256xbf16> to tensor<8x16x16x256xbf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x14x14x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x14x14x256xf32>) -> tensor<8x14x14x256xf32>
  %r = linalg.conv_2d_nhwc_hwcf { dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<8x16x16x256xbf16>, tensor<3x3x256x256xbf16>) outs(%f : tensor<8x14x14x256xf32>) -> tensor<8x14x14x256xf32>
  %o = tensor.empty() : tensor<8x14x14x256xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<8x14x14x256xf32>) outs(%o : tensor<8x14x14x256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %rounded = arith.truncf %in : f32 to bf16
    linalg.yield %rounded : bf16
  } -> tensor<8x14x14x256xbf16>
  return %t : tensor<8x14x14x256xbf16>
}

func.func @async_conv_ragged_k(%x: tensor<1x9x9x8xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<1x9x9x16xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<1x9x9x8xf16> to tensor<1x11x11x8xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9x9x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %r = linalg.conv_2d_nhwc_hwcf { dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x11x11x8xf16>, tensor<3x3x8x16xf16>) outs(%f : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %o = tensor.empty() : tensor<1x9x9x16xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<1x9x9x16xf32>) outs(%o : tensor<1x9x9x16xf16>) {
  ^bb0(%in: f32, %out: f16):
    %rounded = arith.truncf %in : f32 to f16
    linalg.yield %rounded : f16
  } -> tensor<1x9x9x16xf16>
  return %t : tensor<1x9x9x16xf16>
}

func.func @async_conv3x3_s2_f16(%x: tensor<2x28x28x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<2x14x14x128xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<2x28x28x128xf16> to tensor<2x30x30x128xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x14x14x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %r = linalg.conv_2d_nhwc_hwcf { dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x30x30x128xf16>, tensor<3x3x128x128xf16>) outs(%f : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %o = tensor.empty() : tensor<2x14x14x128xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<2x14x14x128xf32>) outs(%o : tensor<2x14x14x128xf16>) {
  ^bb0(%in: f32, %out: f16):
    %rounded = arith.truncf %in : f32 to f16
    linalg.yield %rounded : f16
  } -> tensor<2x14x14x128xf16>
  return %t : tensor<2x14x14x128xf16>
}
