// TensorProto files keep their elements in raw_data or in the typed field of
// their data type; hidet-run reads both. The files are written from text by
// the protoc hidet-run was built with. The function returns its inputs, and
// the .npy outputs show the elements read: every output is compared with
// its input file, and the bytes of a few are checked.
// REQUIRES: hidet-runtime, hidet-run-onnx, protoc
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: echo 'dims: 2 data_type: 1 float_data: [1.5, -2]' | %encode_tensor_proto > %t.d/f32.pb
// RUN: echo 'dims: 2 data_type: 10 int32_data: [15360, 49152]' | %encode_tensor_proto > %t.d/f16.pb
// RUN: echo 'dims: 2 data_type: 16 int32_data: [16256, 49152]' | %encode_tensor_proto > %t.d/bf16.pb
// RUN: echo 'dims: 2 data_type: 11 double_data: [0.25, -1]' | %encode_tensor_proto > %t.d/f64.pb
// RUN: echo 'dims: 2 data_type: 6 int32_data: [-7, 65536]' | %encode_tensor_proto > %t.d/i32.pb
// RUN: echo 'dims: 2 data_type: 7 int64_data: [-3, 1099511627776]' | %encode_tensor_proto > %t.d/i64.pb
// RUN: echo 'dims: 2 data_type: 3 int32_data: [-5, 7]' | %encode_tensor_proto > %t.d/i8.pb
// RUN: echo 'dims: 2 data_type: 9 int32_data: [1, 0]' | %encode_tensor_proto > %t.d/bool.pb
// RUN: echo 'data_type: 1 raw_data: "\000\000\300\177"' | %encode_tensor_proto > %t.d/scalar-nan.pb

// RUN: hidet-run %t.so --input=@%t.d/f32.pb --input=@%t.d/f16.pb --input=@%t.d/bf16.pb --input=@%t.d/f64.pb --input=@%t.d/i32.pb --input=@%t.d/i64.pb --input=@%t.d/i8.pb --input=@%t.d/bool.pb --input=@%t.d/scalar-nan.pb --expected-output=@%t.d/f32.pb --expected-output=@%t.d/f16.pb --expected-output=@%t.d/bf16.pb --expected-output=@%t.d/f64.pb --expected-output=@%t.d/i32.pb --expected-output=@%t.d/i64.pb --expected-output=@%t.d/i8.pb --expected-output=@%t.d/bool.pb --expected-output=@%t.d/scalar-nan.pb --output=@%t.d/f32.npy --output=@%t.d/f16.npy --output=@%t.d/bf16.npy --output=@%t.d/f64.npy --output=@%t.d/i32.npy --output=@%t.d/i64.npy --output=@%t.d/i8.npy --output=@%t.d/bool.npy --output=@%t.d/scalar-nan.npy --rtol 0 --atol 0 --reps 0 | FileCheck %s
// CHECK: hidet-run: identity PASS expected_max_abs=0 (device: cpu)
// CHECK-COUNT-8: vs {{.*}}.pb: max_abs=0 mismatches=0 ok
// The scalar NaN, where a NaN is expected: counted, and no mismatch.
// CHECK-NEXT: vs {{.*}}scalar-nan.pb: max_abs=0 nan_or_inf=1 mismatches=0 ok

// RUN: tail -c 8 %t.d/f32.npy | od -An -tx1 | FileCheck %s --check-prefix=F32
// RUN: tail -c 4 %t.d/f16.npy | od -An -tx1 | FileCheck %s --check-prefix=F16
// RUN: tail -c 4 %t.d/bf16.npy | od -An -tx1 | FileCheck %s --check-prefix=BF16
// RUN: tail -c 16 %t.d/i64.npy | od -An -tx1 | FileCheck %s --check-prefix=I64
// RUN: tail -c 2 %t.d/i8.npy | od -An -tx1 | FileCheck %s --check-prefix=I8
// RUN: tail -c 2 %t.d/bool.npy | od -An -tx1 | FileCheck %s --check-prefix=BOOL
// RUN: head -c 127 %t.d/bf16.npy | tail -c +11 | FileCheck %s --check-prefix=BF16HEADER
// RUN: head -c 127 %t.d/scalar-nan.npy | tail -c +11 | FileCheck %s --check-prefix=SCALARHEADER
// F32: 00 00 c0 3f 00 00 00 c0
// F16: 00 3c 00 c0
// BF16: 80 3f 00 c0
// I64: fd ff ff ff ff ff ff ff 00 00 00 00 00 01 00 00
// I8: fb 07
// BOOL: 01 00
// BF16HEADER: {'descr': '<V2', 'fortran_order': False, 'shape': (2,), }
// SCALARHEADER: {'descr': '<f4', 'fortran_order': False, 'shape': (), }

// What cannot be read is an error naming the file and the reason.
// RUN: echo 'dims: 1 data_type: 8 string_data: "a"' | %encode_tensor_proto > %t.d/string.pb
// RUN: echo 'dims: 2 data_type: 1 data_location: EXTERNAL external_data { key: "location" value: "x.bin" }' | %encode_tensor_proto > %t.d/external.pb
// RUN: echo 'dims: 2 data_type: 5 raw_data: "\001\002\003\004"' | %encode_tensor_proto > %t.d/i16.pb
// RUN: echo 'dims: 2 data_type: 2 raw_data: "\001\002"' | %encode_tensor_proto > %t.d/u8.pb
// RUN: echo 'dims: 3 data_type: 1 float_data: [1, 2]' | %encode_tensor_proto > %t.d/count.pb
// RUN: echo 'dims: 2 data_type: 1 raw_data: "\000\000"' | %encode_tensor_proto > %t.d/raw.pb
// RUN: echo 'dims: 2 data_type: 3 int32_data: [1, 300]' | %encode_tensor_proto > %t.d/range.pb
// RUN: echo 'dims: 2 data_type: 1 float_data: [1, 2]' | %encode_tensor_proto | head -c 5 > %t.d/truncated.pb
// RUN: (hidet-run %t.so --input=@%t.d/string.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: (hidet-run %t.so --input=@%t.d/external.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=EXTERNAL
// RUN: (hidet-run %t.so --input=@%t.d/i16.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=I16
// RUN: (hidet-run %t.so --input=@%t.d/u8.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=U8
// RUN: (hidet-run %t.so --input=@%t.d/count.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: (hidet-run %t.so --input=@%t.d/raw.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: (hidet-run %t.so --input=@%t.d/f32.pb --input=@%t.d/f16.pb --input=@%t.d/bf16.pb --input=@%t.d/f64.pb --input=@%t.d/i32.pb --input=@%t.d/i64.pb --input=@%t.d/range.pb; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: (hidet-run %t.so --input=@%t.d/truncated.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: (hidet-run %t.so --input=@%t.d/f16.pb --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: test ! -e %t.d/out.npy
// STRING: string.pb, --input 0 (arg 0 of 'identity'): string tensors are not supported
// EXTERNAL: external.pb, --input 0 (arg 0 of 'identity'): the data is stored in an external file, which is not supported; save the tensor with its data inside
// I16: i16.pb, --input 0 (arg 0 of 'identity'): ONNX INT16 has no hidet dtype (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT32, INT64, INT8 or BOOL, or UINT8, UINT16, UINT32 or UINT64 as bits)
// U8: u8.pb, --input 0 (arg 0 of 'identity'): expected f32 2, got u8 2 (UINT8)
// COUNT: count.pb, --input 0 (arg 0 of 'identity'): float_data holds 2 values for 3 elements
// RAW: raw.pb, --input 0 (arg 0 of 'identity'): raw_data holds 2 bytes; 2 FLOAT elements take 8
// RANGE: range.pb, --input 6 (arg 6 of 'identity'): int32_data[1] = 300 is out of range for INT8
// TRUNCATED: truncated.pb, --input 0 (arg 0 of 'identity'): not an ONNX TensorProto (protobuf parsing failed)
// DTYPE: f16.pb, --input 0 (arg 0 of 'identity'): expected f32 2, got f16 2 (FLOAT16)

// Unsigned integers are bits of their width: UINT8 fills the i8 arg, UINT16
// the bf16 one (ONNX's test data stores bfloat16 tensors as UINT16).
// RUN: echo 'dims: 2 data_type: 4 int32_data: [16256, 49152]' | %encode_tensor_proto > %t.d/u16.pb
// RUN: hidet-run %t.so --input=@%t.d/f32.pb --input=@%t.d/f16.pb --input=@%t.d/u16.pb --input=@%t.d/f64.pb --input=@%t.d/i32.pb --input=@%t.d/i64.pb --input=@%t.d/u8.pb --expected-output=@%t.d/f32.pb --expected-output=@%t.d/f16.pb --expected-output=@%t.d/bf16.pb --expected-output=@%t.d/f64.pb --expected-output=@%t.d/i32.pb --expected-output=@%t.d/i64.pb --expected-output=@%t.d/u8.pb --rtol 0 --atol 0 --reps 0 | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED: hidet-run: identity PASS expected_max_abs=0 (device: cpu)
// UNSIGNED: output 11 (bf16 2) vs {{.*}}bf16.pb: max_abs=0 mismatches=0 ok
// UNSIGNED: output 15 (i8 2) vs {{.*}}u8.pb: max_abs=0 mismatches=0 ok

func.func @identity(%f32: tensor<2xf32>, %f16: tensor<2xf16>, %bf16: tensor<2xbf16>,
                    %f64: tensor<2xf64>, %i32: tensor<2xi32>, %i64: tensor<2xi64>,
                    %i8: tensor<2xi8>, %i1: tensor<2xi1>, %scalar: tensor<f32>)
    -> (tensor<2xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<2xf64>, tensor<2xi32>,
        tensor<2xi64>, tensor<2xi8>, tensor<2xi1>, tensor<f32>) {
  return %f32, %f16, %bf16, %f64, %i32, %i64, %i8, %i1, %scalar
      : tensor<2xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<2xf64>, tensor<2xi32>,
        tensor<2xi64>, tensor<2xi8>, tensor<2xi1>, tensor<f32>
}
