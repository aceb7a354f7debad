// Files that do not fit are errors (exit status 2) with a message naming
// the file, the option and its index, the arg, and what was expected and
// found; no output file is left behind.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/a.npy
// RUN: head -c 24 /dev/zero >> %t.d/a.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/f64.npy
// RUN: head -c 48 /dev/zero >> %t.d/f64.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }\n" > %t.d/3x2.npy
// RUN: head -c 24 /dev/zero >> %t.d/3x2.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/big.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': True , 'shape': (2, 3), }\n" > %t.d/fortran.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<u4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/u32.npy
// RUN: head -c 24 /dev/zero >> %t.d/u32.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<c8', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/c64.npy
// RUN: printf "\x93NUMPY\x04\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/v4.npy
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }\n" > %t.d/list.npy
// RUN: head -c 90 %t.d/a.npy > %t.d/short-data.npy
// RUN: head -c 40 %t.d/a.npy > %t.d/short-header.npy
// RUN: printf 'PK\x03\x04 not numpy' > %t.d/magic.npy
// RUN: cat %t.d/a.npy > %t.d/long.npy && printf 'x' >> %t.d/long.npy

// RUN: (hidet-run %t.so --input=@%t.d/f64.npy --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: test ! -e %t.d/out.npy
// DTYPE: hidet-run: {{.*}}f64.npy, --input 0 (arg 0 of 'add'): expected f32 2x3, got f64 2x3 ('<f8')

// RUN: (hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/3x2.npy --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: test ! -e %t.d/out.npy
// SHAPE: hidet-run: {{.*}}3x2.npy, --input 1 (arg 1 of 'add'): expected f32 2x3, got f32 3x2 ('<f4')

// RUN: (hidet-run %t.so --expected-output=@%t.d/3x2.npy --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=EXPECTED
// RUN: test ! -e %t.d/out.npy
// EXPECTED: hidet-run: {{.*}}3x2.npy, --expected-output 0 (arg 2 of 'add'): expected f32 2x3, got f32 3x2 ('<f4')

// RUN: (hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/missing.npy --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: test ! -e %t.d/out.npy
// MISSING: hidet-run: {{.*}}missing.npy, --input 1 (arg 1 of 'add'): cannot open: No such file or directory

// RUN: (hidet-run %t.so --input=@%t.d/short-data.npy --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=SHORTDATA
// RUN: test ! -e %t.d/out.npy
// SHORTDATA: hidet-run: {{.*}}short-data.npy, --input 0 (arg 0 of 'add'): truncated .npy file: 6 elements of '<f4' take 24 bytes but 20 follow the header

// RUN: (hidet-run %t.so --input=@%t.d/short-header.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=SHORTHEADER
// SHORTHEADER: short-header.npy, --input 0 (arg 0 of 'add'): truncated .npy file: the header takes 60 bytes but only 30 follow

// RUN: (hidet-run %t.so --input=@%t.d/long.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: long.npy, --input 0 (arg 0 of 'add'): malformed .npy file: 6 elements of '<f4' take 24 bytes but 25 follow the header

// RUN: (hidet-run %t.so --input=@%t.d/magic.npy --output=@%t.d/out.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: test ! -e %t.d/out.npy
// MAGIC: magic.npy, --input 0 (arg 0 of 'add'): not a .npy file: it does not start with \x93NUMPY

// RUN: (hidet-run %t.so --input=@%t.d/big.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: (hidet-run %t.so --input=@%t.d/fortran.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: (hidet-run %t.so --input=@%t.d/u32.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=U32
// RUN: (hidet-run %t.so --input=@%t.d/c64.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=C64
// RUN: (hidet-run %t.so --input=@%t.d/v4.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=V4
// RUN: (hidet-run %t.so --input=@%t.d/list.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=LIST
// BIG: big.npy, --input 0 (arg 0 of 'add'): big-endian data ('>f4') is not supported; save it little-endian
// FORTRAN: fortran.npy, --input 0 (arg 0 of 'add'): Fortran-order data is not supported; save a C-order array (numpy.ascontiguousarray)
// C64: c64.npy, --input 0 (arg 0 of 'add'): element type '<c8' is none of hidet's (f32 '<f4', f16 '<f2', bf16 '<V2', f64 '<f8', i32 '<i4', i64 '<i8', i8 '|i1', i1 '|b1') nor an unsigned integer ('|u1', '<u2', '<u4', '<u8')
// U32: u32.npy, --input 0 (arg 0 of 'add'): expected f32 2x3, got u32 2x3 ('<u4')
// V4: v4.npy, --input 0 (arg 0 of 'add'): unsupported .npy format version 4.0 (versions 1 to 3 are read)
// LIST: list.npy, --input 0 (arg 0 of 'add'): malformed header: 'shape' is not a tuple

// More files than args.
// RUN: (hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --input=@%t.d/a.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: (hidet-run %t.so --output=@%t.d/out.npy --output=@%t.d/out2.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// RUN: test ! -e %t.d/out.npy
// INPUTS: hidet-run: 3 --input files given, but 'add' has 2 inputs
// OUTPUTS: hidet-run: 2 --output files given, but 'add' has 1 output{{$}}

// An output that cannot be written: an error, and nothing is left.
// RUN: (hidet-run %t.so --output=@%t.d/no/such/dir/out.npy --reps 0; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: hidet-run: {{.*}}out.npy, --output 0 (arg 2 of 'add'): cannot create a temporary file in its directory: No such file or directory
// RUN: ls -a %t.d | FileCheck %s --check-prefix=NOTEMP
// NOTEMP-NOT: hidet-run-

// Files are for one function: a library with several needs --func.
// RUN: (hidet-run %fixtures/libfixture_cpu.so --input=@%t.d/a.npy; test $? -eq 2) 2>&1 | FileCheck %s --check-prefix=FUNCS
// RUN: hidet-run %fixtures/libfixture_cpu.so --func neg --output=@%t.d/neg.npy --reps 0
// RUN: od -An -tx1 -j8 -N2 %t.d/neg.npy | FileCheck %s --check-prefix=NEG
// FUNCS: hidet-run: --input, --expected-output, --output and --weights are for one function, but {{.*}}libfixture_cpu.so has several (add, neg): choose one with --func
// NEG: 76 00

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
                  outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
