// hidet-run reads ONNX TensorProto files as the ONNX backend tests store
// them (test_data_set_0/input_<i>.pb, output_<i>.pb): the functions below
// have the signatures of three of those tests, compiled for the CPU, and
// pass on their data (f32, f16 with NaN and infinities, bool).
// REQUIRES: hidet-runtime, hidet-run-onnx, onnx-testdata
// RUN: hidet-compile %s --target=cpu -o %t.so

// RUN: hidet-run %t.so --func test_add --input=@%onnx_node_data/test_add/test_data_set_0/input_0.pb --input=@%onnx_node_data/test_add/test_data_set_0/input_1.pb --expected-output=@%onnx_node_data/test_add/test_data_set_0/output_0.pb --output=@%t.sum.npy --reps 0 | FileCheck %s --check-prefix=ADD
// ADD: hidet-run: test_add PASS expected_max_abs=0 (device: cpu)

// The sum saved as .npy is the expected output, read back.
// RUN: hidet-run %t.so --func test_add --input=@%onnx_node_data/test_add/test_data_set_0/input_0.pb --input=@%onnx_node_data/test_add/test_data_set_0/input_1.pb --expected-output=@%t.sum.npy --rtol 0 --atol 0 --reps 0 | FileCheck %s --check-prefix=ADD

// Against another tensor of the same type the sum is a mismatch (exit 1).
// RUN: hidet-run %t.so --func test_add --input=@%onnx_node_data/test_add/test_data_set_0/input_0.pb --input=@%onnx_node_data/test_add/test_data_set_0/input_1.pb --expected-output=@%onnx_node_data/test_add/test_data_set_0/input_0.pb --reps 0 > %t.off; test $? -eq 1
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// OFF: hidet-run: test_add FAIL expected_max_abs={{.*}} expected_mismatches=60 (device: cpu)
// OFF-NEXT: output 2 (f32 3x4x5) vs {{.*}}input_0.pb: max_abs={{.*}} mismatches=60 of 60 beyond atol + rtol*|expected| (rtol=0.001 atol=1e-07); worst at [{{[0-9]}}, {{[0-9]}}, {{[0-9]}}] (element {{[0-9]+}}): got {{.*}}, expected {{.*}} MISMATCH

// Cast to f16, exactly, NaN where NaN is expected.
// RUN: hidet-run %t.so --func test_cast_FLOAT_to_FLOAT16 --input=@%onnx_node_data/test_cast_FLOAT_to_FLOAT16/test_data_set_0/input_0.pb --expected-output=@%onnx_node_data/test_cast_FLOAT_to_FLOAT16/test_data_set_0/output_0.pb --rtol 0 --atol 0 --reps 0 | FileCheck %s --check-prefix=CAST
// CAST: hidet-run: test_cast_FLOAT_to_FLOAT16 PASS expected_max_abs={{.*}} (device: cpu)

// RUN: hidet-run %t.so --func test_where_example --input=@%onnx_node_data/test_where_example/test_data_set_0/input_0.pb --input=@%onnx_node_data/test_where_example/test_data_set_0/input_1.pb --input=@%onnx_node_data/test_where_example/test_data_set_0/input_2.pb --expected-output=@%onnx_node_data/test_where_example/test_data_set_0/output_0.pb --reps 0 | FileCheck %s --check-prefix=WHERE
// WHERE: hidet-run: test_where_example PASS expected_max_abs=0 (device: cpu)

// A tensor of another dtype is an error that names both.
// RUN: (hidet-run %t.so --func test_cast_FLOAT_to_FLOAT16 --input=@%onnx_node_data/test_cast_FLOAT16_to_FLOAT/test_data_set_0/input_0.pb; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: hidet-run: {{.*}}input_0.pb, --input 0 (arg 0 of 'test_cast_FLOAT_to_FLOAT16'): expected f32 3x4, got f16 3x4 (FLOAT16)

func.func @test_add(%x: tensor<3x4x5xf32>, %y: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
  %e = tensor.empty() : tensor<3x4x5xf32>
  %r = linalg.add ins(%x, %y : tensor<3x4x5xf32>, tensor<3x4x5xf32>)
                  outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %r : tensor<3x4x5xf32>
}

#id = affine_map<(i, j) -> (i, j)>
func.func @test_cast_FLOAT_to_FLOAT16(%x: tensor<3x4xf32>) -> tensor<3x4xf16> {
  %e = tensor.empty() : tensor<3x4xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf16>) {
  ^bb0(%a: f32, %out: f16):
    %h = arith.truncf %a : f32 to f16
    linalg.yield %h : f16
  } -> tensor<3x4xf16>
  return %r : tensor<3x4xf16>
}

func.func @test_where_example(%c: tensor<2x2xi1>, %x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %x, %y : tensor<2x2xi1>, tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%p: i1, %a: f32, %b: f32, %out: f32):
    %s = arith.select %p, %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
