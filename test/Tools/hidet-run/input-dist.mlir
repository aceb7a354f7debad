// --input-dist draws the random float inputs from one of five
// distributions, the same values for a seed every time; integer inputs are
// in [-8, 8] without 0 whatever the distribution. The functions return their
// input, which --output saves (128 bytes of header, then the elements).
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d

// The elements are read back as bits (od -tx4: f32 words, -tx2: f16
// halves), sorted: positive values first, then negative ones.

// zeros-and-ones: 0, 1 and -1 only (0x00000000, 0x3f800000, 0xbf800000),
// each of them.
// RUN: hidet-run %t.so --func copy_f32 --input-dist=zeros-and-ones --reps 0 --output=@%t.d/zo.npy
// RUN: od -An -v -tx4 -j128 %t.d/zo.npy | tr -s ' ' '\n' | grep . | LC_ALL=C sort -u | FileCheck %s --check-prefix=ZO
// ZO:      {{^}}00000000{{$}}
// ZO-NEXT: {{^}}3f800000{{$}}
// ZO-NEXT: {{^}}bf800000{{$}}
// ZO-NOT:  {{.}}

// sparse: 3 of 4 elements are 0 (48 of these 64), the others in (-1, 1):
// below 0x3f800000 (1) and 0xbf800000 (-1).
// RUN: hidet-run %t.so --func copy_f32 --input-dist=sparse --reps 0 --output=@%t.d/sparse.npy
// RUN: od -An -v -tx4 -j128 %t.d/sparse.npy | tr -s ' ' '\n' | grep -cx 00000000 | FileCheck %s --check-prefix=SPARSE
// RUN: od -An -v -tx4 -j128 %t.d/sparse.npy | tr -s ' ' '\n' | grep . | LC_ALL=C sort | FileCheck %s --check-prefix=UNIT
// SPARSE: {{^}}48{{$}}
// UNIT-NOT: {{^(3f[89a-f]|[4-7]|bf[89a-f]|[c-f])}}

// wide: magnitudes from 2^-10 to 2^10 in f32 (0x3a800000 to 0x44800000,
// exclusive), the largest from 512 (0x44000000), the smallest below 2^-8
// (0x3b800000); up to 2^5 in f16.
// RUN: hidet-run %t.so --func copy_f32 --input-dist=wide --reps 0 --output=@%t.d/wide.npy --json %t.d/wide.json
// RUN: od -An -v -tx4 -j128 %t.d/wide.npy | tr -s ' ' '\n' | grep . | LC_ALL=C sort | FileCheck %s --check-prefix=WIDE
// RUN: FileCheck %s --check-prefix=WIDEJSON < %t.d/wide.json
// WIDE-NOT: {{^(3[0-9]|3a[0-7])}}
// WIDE:     {{^3[ab][0-9a-f]+$}}
// WIDE:     {{^44[0-7][0-9a-f]+$}}
// WIDE-NOT: {{^(4[5-9a-f]|[5-7]|b[0-9]|ba[0-7])}}
// WIDE:     {{^c4[0-7][0-9a-f]+$}}
// WIDE-NOT: {{^(c[5-9a-f]|[d-f])}}
// WIDEJSON: "input_dist": "wide",
// RUN: hidet-run %t.so --func copy_f16 --input-dist=wide --reps 0 --output=@%t.d/wide16.npy
// RUN: od -An -v -tx2 -j128 %t.d/wide16.npy | tr -s ' ' '\n' | grep . | LC_ALL=C sort | FileCheck %s --check-prefix=WIDE16
// In f16 the smallest magnitudes (0x28xx and 0x29xx) are from 2^-5, the
// largest (0x4cxx to 0x4fxx) from 16 to 32; none from 32 up (0x50xx), nor
// below 2^-5.
// WIDE16-NOT: {{^([01]|2[0-7])}}
// WIDE16:     {{^2[89][0-9a-f]+$}}
// WIDE16:     {{^4[c-f][0-9a-f]+$}}
// WIDE16-NOT: {{^[5-7]}}
// WIDE16:     {{^a[89][0-9a-f]+$}}
// WIDE16-NOT: {{^[d-f]}}

// A seed gives the same inputs; another seed others.
// RUN: hidet-run %t.so --func copy_f32 --input-dist=normal --seed 3 --reps 0 --output=@%t.d/n3.npy
// RUN: hidet-run %t.so --func copy_f32 --input-dist=normal --seed 3 --reps 0 --output=@%t.d/n3again.npy
// RUN: hidet-run %t.so --func copy_f32 --input-dist=normal --seed 4 --reps 0 --output=@%t.d/n4.npy
// RUN: cmp %t.d/n3.npy %t.d/n3again.npy
// RUN: cmp -s %t.d/n3.npy %t.d/n4.npy; test $? -eq 1

// Integers are the same for every distribution.
// RUN: hidet-run %t.so --func copy_i32 --reps 0 --output=@%t.d/i.npy
// RUN: hidet-run %t.so --func copy_i32 --input-dist=wide --reps 0 --output=@%t.d/iwide.npy
// RUN: hidet-run %t.so --func copy_i32 --input-dist=zeros-and-ones --reps 0 --output=@%t.d/izo.npy
// RUN: cmp %t.d/i.npy %t.d/iwide.npy
// RUN: cmp %t.d/i.npy %t.d/izo.npy

func.func @copy_f32(%a: tensor<64xf32>) -> tensor<64xf32> {
  return %a : tensor<64xf32>
}

func.func @copy_f16(%a: tensor<256xf16>) -> tensor<256xf16> {
  return %a : tensor<256xf16>
}

func.func @copy_i32(%a: tensor<64xi32>) -> tensor<64xi32> {
  return %a : tensor<64xi32>
}
