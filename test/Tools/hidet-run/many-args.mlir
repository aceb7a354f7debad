// No fixed arity: a function of 100 inputs and 3 outputs, compiled for the
// CPU, runs through its packed entry point. Input i holds [i, i] (i32); the
// outputs show that each descriptor reached its parameter: all inputs in
// order (0, 0, 1, 1, ..., 99, 99), x0 + x99 (= x99), and x50.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2,),   }\n" > %t.d/header
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<i4', 'fortran_order': False, 'shape': (200,), }\n" > %t.d/all.npy
// RUN: for i in $(seq 0 99); do e=$(printf '\\x%%02x\\0\\0\\0' $i); cat %t.d/header > %t.d/x$i.npy; printf "$e$e" | tee -a %t.d/x$i.npy >> %t.d/all.npy; done
// RUN: hidet-run %t.so $(for i in $(seq 0 99); do echo --input=@%t.d/x$i.npy; done) --expected-output=@%t.d/all.npy --expected-output=@%t.d/x99.npy --expected-output=@%t.d/x50.npy --ref %t.so --reps 2 | FileCheck %s
// CHECK: hidet-run: wide PASS rel_l2=0 max_abs=0 expected_max_abs=0 median_ms={{.*}} (device: cpu)
// CHECK-NEXT: output 100 (i32 200): rel_l2=0
// CHECK-NEXT: output 100 (i32 200) vs {{.*}}all.npy: max_abs=0 mismatches=0 ok
// CHECK-NEXT: output 101 (i32 2): rel_l2=0
// CHECK-NEXT: output 101 (i32 2) vs {{.*}}x99.npy: max_abs=0 mismatches=0 ok
// CHECK-NEXT: output 102 (i32 2): rel_l2=0
// CHECK-NEXT: output 102 (i32 2) vs {{.*}}x50.npy: max_abs=0 mismatches=0 ok

func.func @wide(%x0: tensor<2xi32>, %x1: tensor<2xi32>, %x2: tensor<2xi32>, %x3: tensor<2xi32>, %x4: tensor<2xi32>, %x5: tensor<2xi32>,
                 %x6: tensor<2xi32>, %x7: tensor<2xi32>, %x8: tensor<2xi32>, %x9: tensor<2xi32>, %x10: tensor<2xi32>, %x11: tensor<2xi32>,
                 %x12: tensor<2xi32>, %x13: tensor<2xi32>, %x14: tensor<2xi32>, %x15: tensor<2xi32>, %x16: tensor<2xi32>, %x17: tensor<2xi32>,
                 %x18: tensor<2xi32>, %x19: tensor<2xi32>, %x20: tensor<2xi32>, %x21: tensor<2xi32>, %x22: tensor<2xi32>, %x23: tensor<2xi32>,
                 %x24: tensor<2xi32>, %x25: tensor<2xi32>, %x26: tensor<2xi32>, %x27: tensor<2xi32>, %x28: tensor<2xi32>, %x29: tensor<2xi32>,
                 %x30: tensor<2xi32>, %x31: tensor<2xi32>, %x32: tensor<2xi32>, %x33: tensor<2xi32>, %x34: tensor<2xi32>, %x35: tensor<2xi32>,
                 %x36: tensor<2xi32>, %x37: tensor<2xi32>, %x38: tensor<2xi32>, %x39: tensor<2xi32>, %x40: tensor<2xi32>, %x41: tensor<2xi32>,
                 %x42: tensor<2xi32>, %x43: tensor<2xi32>, %x44: tensor<2xi32>, %x45: tensor<2xi32>, %x46: tensor<2xi32>, %x47: tensor<2xi32>,
                 %x48: tensor<2xi32>, %x49: tensor<2xi32>, %x50: tensor<2xi32>, %x51: tensor<2xi32>, %x52: tensor<2xi32>, %x53: tensor<2xi32>,
                 %x54: tensor<2xi32>, %x55: tensor<2xi32>, %x56: tensor<2xi32>, %x57: tensor<2xi32>, %x58: tensor<2xi32>, %x59: tensor<2xi32>,
                 %x60: tensor<2xi32>, %x61: tensor<2xi32>, %x62: tensor<2xi32>, %x63: tensor<2xi32>, %x64: tensor<2xi32>, %x65: tensor<2xi32>,
                 %x66: tensor<2xi32>, %x67: tensor<2xi32>, %x68: tensor<2xi32>, %x69: tensor<2xi32>, %x70: tensor<2xi32>, %x71: tensor<2xi32>,
                 %x72: tensor<2xi32>, %x73: tensor<2xi32>, %x74: tensor<2xi32>, %x75: tensor<2xi32>, %x76: tensor<2xi32>, %x77: tensor<2xi32>,
                 %x78: tensor<2xi32>, %x79: tensor<2xi32>, %x80: tensor<2xi32>, %x81: tensor<2xi32>, %x82: tensor<2xi32>, %x83: tensor<2xi32>,
                 %x84: tensor<2xi32>, %x85: tensor<2xi32>, %x86: tensor<2xi32>, %x87: tensor<2xi32>, %x88: tensor<2xi32>, %x89: tensor<2xi32>,
                 %x90: tensor<2xi32>, %x91: tensor<2xi32>, %x92: tensor<2xi32>, %x93: tensor<2xi32>, %x94: tensor<2xi32>, %x95: tensor<2xi32>,
                 %x96: tensor<2xi32>, %x97: tensor<2xi32>, %x98: tensor<2xi32>, %x99: tensor<2xi32>)
    -> (tensor<200xi32>, tensor<2xi32>, tensor<2xi32>) {
  %all = tensor.concat dim(0)
      %x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7, %x8, %x9, %x10, %x11,
      %x12, %x13, %x14, %x15, %x16, %x17, %x18, %x19, %x20, %x21, %x22, %x23,
      %x24, %x25, %x26, %x27, %x28, %x29, %x30, %x31, %x32, %x33, %x34, %x35,
      %x36, %x37, %x38, %x39, %x40, %x41, %x42, %x43, %x44, %x45, %x46, %x47,
      %x48, %x49, %x50, %x51, %x52, %x53, %x54, %x55, %x56, %x57, %x58, %x59,
      %x60, %x61, %x62, %x63, %x64, %x65, %x66, %x67, %x68, %x69, %x70, %x71,
      %x72, %x73, %x74, %x75, %x76, %x77, %x78, %x79, %x80, %x81, %x82, %x83,
      %x84, %x85, %x86, %x87, %x88, %x89, %x90, %x91, %x92, %x93, %x94, %x95,
      %x96, %x97, %x98, %x99
    : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>,
       tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
    -> tensor<200xi32>
  %e = tensor.empty() : tensor<2xi32>
  %ends = linalg.add ins(%x0, %x99 : tensor<2xi32>, tensor<2xi32>)
                     outs(%e : tensor<2xi32>) -> tensor<2xi32>
  return %all, %ends, %x50 : tensor<200xi32>, tensor<2xi32>, tensor<2xi32>
}
