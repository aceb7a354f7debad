//===- ConstantsToWeights.cpp - Large constants as weight arguments -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-constants-to-weights`: the large constants of
// a public function become inputs marked `hidet.weight`, so that a runtime
// uploads them to the device once instead of on every call.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Runtime/ManifestTypes.h"
#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace hidet {
#define GEN_PASS_DEF_CONSTANTSTOWEIGHTS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// A manifest token made from `key`: other characters become `_`.
std::string sanitize(StringRef key) {
  std::string name;
  for (char c : key)
    name += llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_';
  return name;
}

/// Whether `value` can be a weight: a type of the manifest, its bytes
/// available (i1 a byte per element, written by hidet-compile), not a
/// splat.
bool isWeightValue(ElementsAttr value, int64_t maxInlineElements) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getNumElements() <= maxInlineElements ||
      hidet::manifestDTypeName(type.getElementType()).empty())
    return false;
  if (type.getElementType().isInteger(1))
    return isa<DenseElementsAttr>(value) &&
           !cast<DenseElementsAttr>(value).isSplat();
  return hidet::constantBytes(value).has_value();
}

struct ConstantsToWeightsPass
    : hidet::impl::ConstantsToWeightsBase<ConstantsToWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxInlineElements < 0) {
      getOperation()->emitError("hidet-constants-to-weights: "
                                "max-inline-elements must be at least 0, got ")
          << static_cast<int64_t>(maxInlineElements);
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() &&
          llvm::all_of(func.getArgumentTypes(),
                       [](Type t) { return isa<RankedTensorType>(t); }))
        convert(func);
  }

  void convert(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    llvm::StringSet<> names;
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (auto name = func.getArgAttrOfType<StringAttr>(i, "hidet.weight"))
        names.insert(name.getValue());
    llvm::DenseMap<Attribute, Value> arguments;
    SmallVector<arith::ConstantOp> constants;
    func.walk([&](arith::ConstantOp op) {
      auto value = dyn_cast<ElementsAttr>(op.getValue());
      if (value && !op->use_empty() && isWeightValue(value, maxInlineElements))
        constants.push_back(op);
    });
    unsigned count = 0;
    for (arith::ConstantOp op : constants) {
      Attribute value = op.getValue();
      Value &arg = arguments[value];
      if (!arg) {
        // Named after the resource, else the constant's name (an ONNX
        // initializer's, as the importer locates it), else its rank.
        auto resource = dyn_cast<DenseResourceElementsAttr>(value);
        auto nameLoc = dyn_cast<NameLoc>(op.getLoc());
        std::string base =
            resource  ? sanitize(resource.getRawHandle().getKey())
            : nameLoc ? sanitize(nameLoc.getName().getValue())
                      : "weight" + std::to_string(count++);
        std::string name = base;
        for (int n = 1; names.contains(name); ++n)
          name = base + "_" + std::to_string(n);
        names.insert(name);
        unsigned index = func.getNumArguments();
        NamedAttribute attrs[] = {
            NamedAttribute(StringAttr::get(ctx, "hidet.weight"),
                           StringAttr::get(ctx, name)),
            NamedAttribute(StringAttr::get(ctx, "hidet.weight_value"), value)};
        if (failed(func.insertArgument(index, op.getType(),
                                       DictionaryAttr::get(ctx, attrs),
                                       op.getLoc())))
          return signalPassFailure();
        arg = func.getArgument(index);
      }
      op.getResult().replaceAllUsesWith(arg);
      op->erase();
    }
  }
};

} // namespace
