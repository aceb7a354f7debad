//===- FusibleOpInterface.td - Post-scheduling fusion legality -*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_INTERFACES_FUSIBLEOPINTERFACE_TD
#define HIDET_INTERFACES_FUSIBLEOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Hidet_FusibleOpInterface : OpInterface<"FusibleOpInterface"> {
  let cppNamespace = "::hidet";
  let description = [{
    What post-scheduling fusion (`hidet-partition`) needs to know of an op
    on tensors. An op is *injective* when every element of its results is
    computed from at most one element of each of its inputs, without
    reductions: elementwise ops, casts, broadcasts, transposes, reshapes,
    pads and slices. Injective ops may be fused into a scheduled anchor
    kernel as a *prologue* (inlined where the kernel reads the result).
    An injective op is *bijective* with respect to one of its tensor
    operands when the operand's elements and the result's correspond one
    to one: it may then follow an anchor as an *epilogue*, applied to each
    value the kernel stores, at the result index given by the inverse
    index map. Every other op that implements the interface (contractions,
    convolutions, reductions) is an *anchor*.

    The project attaches this interface to every linalg structured op, to
    `linalg.softmax` (an anchor) and to `tensor.expand_shape`, `tensor.collapse_shape`, `tensor.pad` and
    `tensor.extract_slice` (`hidet::registerFusibleOpInterfaceExternalModels`);
    a compiler that embeds the passes makes its own ops fusible by
    implementing it.
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Whether every element of the results is computed from at most one
        element of each input, with no reduction.
      }],
      /*retTy=*/"bool", /*methodName=*/"isInjective", /*args=*/(ins)>,
    InterfaceMethod<
      /*desc=*/[{
        For an op of one result that is bijective with respect to `operand`
        (one of its tensor operands): the map from the operand's element
        indices to the index of the result element each produces. Failure
        when the op is not bijective with respect to it (a broadcast or
        reduced operand, a pad, a slice).
      }],
      /*retTy=*/"::mlir::FailureOr<::mlir::AffineMap>",
      /*methodName=*/"getInverseIndexMap",
      /*args=*/(ins "::mlir::OpOperand &":$operand)>,
  ];
}

#endif // HIDET_INTERFACES_FUSIBLEOPINTERFACE_TD
