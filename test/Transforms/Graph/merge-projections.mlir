// RUN: hidet-opt %s -split-input-file --hidet-merge-projections | FileCheck %s

// Attention's query, key and value projections of one x with constant
// weights, each read only by the addition of a constant bias along its
// columns (either operand order), through the same expand_shape: one
// matmul of the weights side by side ([4, 2 + 3 + 2], a new resource), one
// addition of the biases side by side, and a slice of it per projection.
// The matmul of another input (z) is left alone.
// CHECK-LABEL: func.func @qkv(
// CHECK-SAME:    %[[X:.*]]: tensor<6x4xf32>, %[[Z:.*]]: tensor<6x4xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense_resource<wq_weight> : tensor<4x7xf32>
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<6x4xf32>, tensor<4x7xf32>)
// CHECK:         %[[PE:.*]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2]] output_shape [2, 3, 7]
// CHECK:         %[[B:.*]] = arith.constant dense_resource<wq_bias> : tensor<7xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[PE]], %[[B]] : tensor<2x3x7xf32>, tensor<7xf32>)
// CHECK:           arith.addf
// CHECK:         %[[Q:.*]] = tensor.extract_slice %[[S]][0, 0, 0] [2, 3, 2] [1, 1, 1]
// CHECK:         %[[K:.*]] = tensor.extract_slice %[[S]][0, 0, 2] [2, 3, 3] [1, 1, 1]
// CHECK:         %[[V:.*]] = tensor.extract_slice %[[S]][0, 0, 5] [2, 3, 2] [1, 1, 1]
// CHECK:         %[[ZZ:.*]] = linalg.matmul ins(%[[Z]], %{{.*}} : tensor<6x4xf32>, tensor<4x2xf32>)
// CHECK-NOT:     linalg.matmul
// CHECK:         return %[[Q]], %[[K]], %[[V]], %[[ZZ]]
// Row 0 of the merged weight: 1, 2 (wq), 10, 11, 12 (wk), 30, 31 (wv);
// row 1 starts with 3, 4. The biases: 0.5, 0.25, 1, 2, 3, 4, 5.
// CHECK:         wq_weight: "0x040000000000803F000000400000204100003041000040410000F0410000F84100004040000080400000504100006041
// CHECK:         wq_bias: "0x040000000000003F0000803E0000803F0000004000004040000080400000A040"
#id = affine_map<(b, s, n) -> (b, s, n)>
#col = affine_map<(b, s, n) -> (n)>
func.func @qkv(%x: tensor<6x4xf32>, %z: tensor<6x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x3xf32>, tensor<2x3x2xf32>, tensor<6x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %wq = arith.constant dense_resource<wq> : tensor<4x2xf32>
  %wk = arith.constant dense_resource<wk> : tensor<4x3xf32>
  %wv = arith.constant dense_resource<wv> : tensor<4x2xf32>
  %bq = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %bk = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %bv = arith.constant dense<[4.0, 5.0]> : tensor<2xf32>
  %e2 = tensor.empty() : tensor<6x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<6x2xf32>) -> tensor<6x2xf32>
  %e3 = tensor.empty() : tensor<6x3xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<6x3xf32>) -> tensor<6x3xf32>
  %pq = linalg.matmul ins(%x, %wq : tensor<6x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<6x2xf32>) -> tensor<6x2xf32>
  %pqe = tensor.expand_shape %pq [[0, 1], [2]] output_shape [2, 3, 2] : tensor<6x2xf32> into tensor<2x3x2xf32>
  %o2 = tensor.empty() : tensor<2x3x2xf32>
  %q = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pqe, %bq : tensor<2x3x2xf32>, tensor<2xf32>) outs(%o2 : tensor<2x3x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3x2xf32>
  %pk = linalg.matmul ins(%x, %wk : tensor<6x4xf32>, tensor<4x3xf32>) outs(%f3 : tensor<6x3xf32>) -> tensor<6x3xf32>
  %pke = tensor.expand_shape %pk [[0, 1], [2]] output_shape [2, 3, 3] : tensor<6x3xf32> into tensor<2x3x3xf32>
  %o3 = tensor.empty() : tensor<2x3x3xf32>
  %k = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bk, %pke : tensor<3xf32>, tensor<2x3x3xf32>) outs(%o3 : tensor<2x3x3xf32>) {
  ^bb0(%b: f32, %a: f32, %o: f32):
    %s = arith.addf %b, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x3x3xf32>
  %pv = linalg.matmul ins(%x, %wv : tensor<6x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<6x2xf32>) -> tensor<6x2xf32>
  %pve = tensor.expand_shape %pv [[0, 1], [2]] output_shape [2, 3, 2] : tensor<6x2xf32> into tensor<2x3x2xf32>
  %v = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pve, %bv : tensor<2x3x2xf32>, tensor<2xf32>) outs(%o2 : tensor<2x3x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3x2xf32>
  %pz = linalg.matmul ins(%z, %wq : tensor<6x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<6x2xf32>) -> tensor<6x2xf32>
  return %q, %k, %v, %pz : tensor<2x3x2xf32>, tensor<2x3x3xf32>, tensor<2x3x2xf32>, tensor<6x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      wq: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041",
      wk: "0x04000000000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A841",
      wv: "0x040000000000F0410000F841000000420000044200000842000010420000144200001842"
    }
  }
#-}

// -----

// Llama's projections have no bias: the key and value projections of one
// x (their own readers each) become one matmul and two slices of it. The
// gate and up projections of h are not merged: silu(gate) * up combines them
// elementwise, which is the up GEMM's epilogue when the GEMMs are apart.
// CHECK-LABEL: func.func @gate_up(
// CHECK:         %[[P:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x64xf16>) outs(%{{.*}} : tensor<8x64xf16>)
// CHECK:         %[[K:.*]] = tensor.extract_slice %[[P]][0, 0] [8, 32] [1, 1]
// CHECK:         %[[V:.*]] = tensor.extract_slice %[[P]][0, 32] [8, 32] [1, 1]
// CHECK:         %[[G:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x32xf16>)
// CHECK:         %[[U:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x32xf16>)
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic {{.*}} ins(%[[G]], %[[U]] :
// CHECK:         return %[[K]], %[[V]],
#id2 = affine_map<(m, n) -> (m, n)>
func.func @gate_up(%x: tensor<8x16xf16>, %h: tensor<8x16xf16>) -> (tensor<8x32xf16>, tensor<8x32xf16>, tensor<8x32xf16>) {
  %zero = arith.constant 0.0 : f16
  %wg = arith.constant dense_resource<wg> : tensor<16x32xf16>
  %wu = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]]> : tensor<16x32xf16>
  %e = tensor.empty() : tensor<8x32xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
  %k = linalg.matmul ins(%x, %wu : tensor<8x16xf16>, tensor<16x32xf16>) outs(%f : tensor<8x32xf16>) -> tensor<8x32xf16>
  %v = linalg.matmul ins(%x, %wg : tensor<8x16xf16>, tensor<16x32xf16>) outs(%f : tensor<8x32xf16>) -> tensor<8x32xf16>
  %g = linalg.matmul ins(%h, %wg : tensor<8x16xf16>, tensor<16x32xf16>) outs(%f : tensor<8x32xf16>) -> tensor<8x32xf16>
  %u = linalg.matmul ins(%h, %wu : tensor<8x16xf16>, tensor<16x32xf16>) outs(%f : tensor<8x32xf16>) -> tensor<8x32xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.mulf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<8x32xf16>
  return %k, %v, %y : tensor<8x32xf16>, tensor<8x32xf16>, tensor<8x32xf16>
}

{-#
  dialect_resources: {
    builtin: {
      wg: "0x02000000003C013C023C033C043C053C063C073C083C093C0A3C0B3C0C3C0D3C0E3C0F3C103C113C123C133C143C153C163C173C183C193C1A3C1B3C1C3C1D3C1E3C1F3C203C213C223C233C243C253C263C273C283C293C2A3C2B3C2C3C2D3C2E3C2F3C303C313C323C333C343C353C363C373C383C393C3A3C3B3C3C3C3D3C3E3C3F3C403C413C423C433C443C453C463C473C483C493C4A3C4B3C4C3C4D3C4E3C4F3C503C513C523C533C543C553C563C573C583C593C5A3C5B3C5C3C5D3C5E3C5F3C603C613C623C633C643C653C663C673C683C693C6A3C6B3C6C3C6D3C6E3C6F3C703C713C723C733C743C753C763C773C783C793C7A3C7B3C7C3C7D3C7E3C7F3C803C813C823C833C843C853C863C873C883C893C8A3C8B3C8C3C8D3C8E3C8F3C903C913C923C933C943C953C963C973C983C993C9A3C9B3C9C3C9D3C9E3C9F3CA03CA13CA23CA33CA43CA53CA63CA73CA83CA93CAA3CAB3CAC3CAD3CAE3CAF3CB03CB13CB23CB33CB43CB53CB63CB73CB83CB93CBA3CBB3CBC3CBD3CBE3CBF3CC03CC13CC23CC33CC43CC53CC63CC73CC83CC93CCA3CCB3CCC3CCD3CCE3CCF3CD03CD13CD23CD33CD43CD53CD63CD73CD83CD93CDA3CDB3CDC3CDD3CDE3CDF3CE03CE13CE23CE33CE43CE53CE63CE73CE83CE93CEA3CEB3CEC3CED3CEE3CEF3CF03CF13CF23CF33CF43CF53CF63CF73CF83CF93CFA3CFB3CFC3CFD3CFE3CFF3C003D013D023D033D043D053D063D073D083D093D0A3D0B3D0C3D0D3D0E3D0F3D103D113D123D133D143D153D163D173D183D193D1A3D1B3D1C3D1D3D1E3D1F3D203D213D223D233D243D253D263D273D283D293D2A3D2B3D2C3D2D3D2E3D2F3D303D313D323D333D343D353D363D373D383D393D3A3D3B3D3C3D3D3D3E3D3F3D403D413D423D433D443D453D463D473D483D493D4A3D4B3D4C3D4D3D4E3D4F3D503D513D523D533D543D553D563D573D583D593D5A3D5B3D5C3D5D3D5E3D5F3D603D613D623D633D643D653D663D673D683D693D6A3D6B3D6C3D6D3D6E3D6F3D703D713D723D733D743D753D763D773D783D793D7A3D7B3D7C3D7D3D7E3D7F3D803D813D823D833D843D853D863D873D883D893D8A3D8B3D8C3D8D3D8E3D8F3D903D913D923D933D943D953D963D973D983D993D9A3D9B3D9C3D9D3D9E3D9F3DA03DA13DA23DA33DA43DA53DA63DA73DA83DA93DAA3DAB3DAC3DAD3DAE3DAF3DB03DB13DB23DB33DB43DB53DB63DB73DB83DB93DBA3DBB3DBC3DBD3DBE3DBF3DC03DC13DC23DC33DC43DC53DC63DC73DC83DC93DCA3DCB3DCC3DCD3DCE3DCF3DD03DD13DD23DD33DD43DD53DD63DD73DD83DD93DDA3DDB3DDC3DDD3DDE3DDF3DE03DE13DE23DE33DE43DE53DE63DE73DE83DE93DEA3DEB3DEC3DED3DEE3DEF3DF03DF13DF23DF33DF43DF53DF63DF73DF83DF93DFA3DFB3DFC3DFD3DFE3DFF3D"
    }
  }
#-}

// -----

// Near misses: a splat weight (its bytes are one value), a weight that is
// an argument, and a matmul that does not start from zero stay apart (the
// one left, c2, has no sibling).
// CHECK-LABEL: func.func @apart(
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT:     tensor.extract_slice
func.func @apart(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %splat = arith.constant dense<2.0> : tensor<16x8xf32>
  %c = arith.constant dense_resource<c> : tensor<16x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = linalg.matmul ins(%x, %splat : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c1 = linalg.matmul ins(%x, %c : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c2 = linalg.matmul ins(%x, %c : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %a, %b, %c1, %c2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
