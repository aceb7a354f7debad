//===- Manifest.cpp - The manifest and weights of a compiled library ------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"

#include "Hidet/Runtime/ManifestTypes.h"
#include "Hidet/Runtime/WeightsImage.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <list>
#include <vector>

using namespace mlir;

/// Whether `name` can be a manifest token naming an argument.
static bool isManifestName(StringRef name) {
  return !name.empty() && name.size() <= 256 && llvm::all_of(name, [](char c) {
    return llvm::isPrint(c) && c != ' ' && c != '#';
  });
}

/// Whether `name` is a C identifier, as the manifest's function names are.
static bool isCIdentifier(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Writes the `check` statement of the status that result `index` of `func`
/// is (its `hidet.check` annotation says what it checks); false, with an
/// error, when the result is not a status.
static bool describeCheck(func::FuncOp func, unsigned index,
                          llvm::raw_ostream &os) {
  auto info = func.getResultAttrOfType<DictionaryAttr>(index, "hidet.check");
  auto type =
      dyn_cast<RankedTensorType>(func.getFunctionType().getResult(index));
  if (!info || !type || type.getRank() != 0 ||
      !type.getElementType().isInteger(64)) {
    func.emitError("hidet-compile: result ")
        << index << " is annotated 'hidet.check' but is not an i64 status "
        << "(a dictionary annotation on a tensor<i64>)";
    return false;
  }
  auto input = info.getAs<IntegerAttr>("input");
  auto extent = info.getAs<IntegerAttr>("extent");
  auto node = info.getAs<StringAttr>("node");
  unsigned numInputs = func.getNumArguments();
  bool inputOk = !input || (input.getInt() >= 0 &&
                            input.getInt() < static_cast<int64_t>(numInputs) &&
                            !func.getArgAttr(input.getInt(), "hidet.weight"));
  if (!inputOk || (extent && extent.getInt() < 1)) {
    func.emitError("hidet-compile: the 'hidet.check' annotation of result ")
        << index
        << " names no input of the function or no positive extent: " << info;
    return false;
  }
  os << "check ";
  if (input)
    os << input.getInt();
  else
    os << "-";
  os << " ";
  if (extent)
    os << extent.getInt();
  else
    os << "-";
  if (node && isManifestName(node.getValue()))
    os << " " << node.getValue();
  os << "\n";
  return true;
}

namespace hidet::compile {

/// Moves the values of the weight inputs that hidet-constants-to-weights
/// made (`hidet.weight_value`) into a weights image (hidet/Weights.h),
/// returned empty when there are none.
std::string takeWeightValues(ModuleOp module, bool always) {
  SmallVector<hidet::WeightRecord> records;
  SmallVector<std::string> dtypes;
  // The bytes of i1 values, a byte per element as the image stores them
  // (an attribute packs them in bits); stable while `records` is written.
  std::list<std::vector<char>> unpacked;
  module.walk([&](func::FuncOp func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto value = func.getArgAttrOfType<ElementsAttr>(i, "hidet.weight_value");
      auto name = func.getArgAttrOfType<StringAttr>(i, "hidet.weight");
      if (!value || !name)
        continue;
      auto type = cast<ShapedType>(value.getType());
      ArrayRef<char> data;
      if (type.getElementType().isInteger(1)) {
        std::vector<char> &bytes = unpacked.emplace_back();
        for (bool b : cast<DenseElementsAttr>(value).getValues<bool>())
          bytes.push_back(b ? 1 : 0);
        data = bytes;
      } else {
        // hidet-constants-to-weights made weights of these alone.
        data = *hidet::constantBytes(value);
      }
      records.push_back({name.getValue(),
                         hidet::manifestDTypeName(type.getElementType()),
                         type.getShape(), data});
      func.removeArgAttr(i, "hidet.weight_value");
    }
  });
  std::string image;
  if (records.empty() && !always)
    return image;
  llvm::raw_string_ostream os(image);
  hidet::writeWeightsImage(os, records);
  return image;
}

/// Adds `workspace <bytes> <intermediates>` after each `func` statement of
/// `manifest` whose function took a workspace (hidet-plan-device-memory),
/// as the lowered module's `hidet.workspace` attributes say.
std::string addWorkspaces(StringRef manifest, ModuleOp module) {
  llvm::StringMap<std::pair<int64_t, int64_t>> workspaces;
  module.walk([&](Operation *op) {
    auto info = op->getAttrOfType<DictionaryAttr>("hidet.workspace");
    auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!info || !name)
      return;
    auto size = info.getAs<IntegerAttr>("size");
    auto sum = info.getAs<IntegerAttr>("intermediates");
    if (size && sum)
      workspaces[name.getValue()] = {size.getInt(), sum.getInt()};
  });
  std::string text;
  SmallVector<StringRef> lines;
  manifest.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    text += line.str() + "\n";
    SmallVector<StringRef> tokens;
    line.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (tokens.size() != 4 || tokens[0] != "func")
      continue;
    auto it = workspaces.find(tokens[1]);
    if (it != workspaces.end())
      text += "workspace " + std::to_string(it->second.first) + " " +
              std::to_string(it->second.second) + "\n";
  }
  return text;
}

/// Describes the public functions of `module` and marks them for C
/// interface emission. Fails on signatures the libraries cannot expose. The
/// `target` statement lets a runner give the library host or device buffers
/// without being told.
FailureOr<std::string> buildManifest(ModuleOp module, StringRef target,
                                     StringRef weightsReference) {
  std::string text = "hidet-manifest 1\n";
  llvm::raw_string_ostream os(text);
  os << "target " << target << "\n";
  if (!weightsReference.empty())
    os << "weights " << weightsReference << "\n";
  bool ok = true;
  unsigned numFuncs = 0;
  module.walk([&](func::FuncOp func) {
    if (func.isPrivate() || func.isExternal())
      return;
    ++numFuncs;
    auto type = func.getFunctionType();
    // The statuses of run-time checks (hidet-check-indices) follow the
    // outputs.
    unsigned numOutputs = type.getNumResults();
    while (numOutputs > 0 && func.getResultAttr(numOutputs - 1, "hidet.check"))
      --numOutputs;
    for (unsigned i = 0; i < numOutputs; ++i) {
      if (func.getResultAttr(i, "hidet.check")) {
        func.emitError("hidet-compile: result ")
            << i << " is a check's status, but an output follows it";
        ok = false;
        return;
      }
    }
    if (!isCIdentifier(func.getSymName())) {
      func.emitError("hidet-compile: the entry point's name must be a C "
                     "identifier (letters, digits and '_'), got '")
          << func.getSymName() << "'";
      ok = false;
      return;
    }
    os << "func " << func.getSymName() << " " << type.getNumInputs() << " "
       << numOutputs << "\n";
    unsigned index = 0;
    llvm::StringSet<> weightNames;
    auto describe = [&](Type t, const char *dir) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      std::string dtype =
          tensor ? hidet::manifestDTypeName(tensor.getElementType()).str() : "";
      if (!tensor || !tensor.hasStaticShape() || dtype.empty()) {
        func.emitError("hidet-compile: entry points take and return "
                       "statically shaped tensors of f32, f16, bf16, f64, "
                       "i1, i8, i32 or i64; got ")
            << t;
        ok = false;
        return;
      }
      if (tensor.getNumElements() == 0) {
        // At the argument, or at the return of the result.
        bool input = index < type.getNumInputs();
        Location at = input ? func.getArgument(index).getLoc()
                            : func.getBody().back().getTerminator()->getLoc();
        emitError(at, "hidet-compile: entry points take and return tensors "
                      "of at least one element; ")
            << (input ? "argument " : "result ")
            << (input ? index : index - type.getNumInputs()) << " is " << t;
        ok = false;
        return;
      }
      // An input that holds a weight of an external weights file, named
      // by one manifest token, once per function.
      StringAttr weight;
      if (index < type.getNumInputs()) {
        if (Attribute a = func.getArgAttr(index, "hidet.weight")) {
          weight = dyn_cast<StringAttr>(a);
          if (!weight || weight.getValue().empty() ||
              !llvm::all_of(weight.getValue(), [](char c) {
                return llvm::isAlnum(c) || c == '_' || c == '.';
              })) {
            func.emitError("hidet-compile: hidet.weight of argument ")
                << index << " must be a name of letters, digits, '_' and "
                << "'.'; got " << a;
            ok = false;
            return;
          }
          if (!weightNames.insert(weight.getValue()).second) {
            func.emitError("hidet-compile: two arguments are the weight '")
                << weight.getValue() << "'";
            ok = false;
            return;
          }
        }
      }
      os << "arg " << index++ << " " << (weight ? "weight" : dir) << " "
         << dtype << " ";
      if (tensor.getRank() == 0)
        os << "scalar";
      else
        llvm::interleave(tensor.getShape(), os, "x");
      if (weight) {
        os << " " << weight.getValue();
      } else {
        // The tensor's name (ONNX graph inputs and outputs), where it is one
        // manifest token.
        auto name = dyn_cast_or_null<StringAttr>(
            index <= type.getNumInputs()
                ? func.getArgAttr(index - 1, "hidet.name")
                : func.getResultAttr(index - 1 - type.getNumInputs(),
                                     "hidet.name"));
        if (name && isManifestName(name.getValue()))
          os << " " << name.getValue();
      }
      os << "\n";
    };
    for (Type t : type.getInputs())
      describe(t, "in");
    for (Type t : type.getResults().take_front(numOutputs))
      describe(t, "out");
    for (unsigned i = numOutputs; ok && i < type.getNumResults(); ++i)
      ok = describeCheck(func, i, os);
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(func.getContext()));
  });
  if (ok && numFuncs == 0) {
    module.emitError("hidet-compile: the module has no public function, so "
                     "the library would have no entry point");
    ok = false;
  }
  if (!ok)
    return failure();
  return text;
}

/// Removes the project's argument and result annotations (hidet.name,
/// hidet.weight, hidet.workspace) from the LLVM functions: the manifest
/// holds what they said, and the translation to LLVM IR would warn about
/// each as an unknown parameter attribute.
void dropArgumentAnnotations(ModuleOp module) {
  auto isOurs = [](NamedAttribute a) {
    return a.getName().getValue().starts_with("hidet.");
  };
  module.walk([&](LLVM::LLVMFuncOp op) {
    auto func = cast<FunctionOpInterface>(op.getOperation());
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      for (NamedAttribute a : llvm::to_vector(func.getArgAttrs(i)))
        if (isOurs(a))
          func.removeArgAttr(i, a.getName());
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      for (NamedAttribute a : llvm::to_vector(func.getResultAttrs(i)))
        if (isOurs(a))
          func.removeResultAttr(i, a.getName());
  });
}

} // namespace hidet::compile
