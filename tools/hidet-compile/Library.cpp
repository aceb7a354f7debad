//===- Library.cpp - A compiled module as a native shared library --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Library.h"

#include "hidet/Manifest.h"
#include "hidet/Weights.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using llvm::SmallVector;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The names of the functions that `manifest` declares, in order.
static SmallVector<StringRef> getManifestFuncNames(StringRef manifest) {
  SmallVector<StringRef> names;
  SmallVector<StringRef> lines;
  manifest.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    SmallVector<StringRef> tokens;
    line.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (tokens.size() == 4 && tokens[0] == "func")
      names.push_back(tokens[1]);
  }
  return names;
}

/// Adds `void _hidet_packed_<name>(void **args)`, which loads args[i] for
/// each parameter of `_mlir_ciface_<name>` and calls it. A runner calls
/// functions of any arity through it: C can call a function pointer only
/// through a type of fixed arity. Where the C interface is missing or does
/// not take pointers only, nothing is added and the runner reports the
/// missing entry point.
static void addPackedEntry(llvm::Module &module, StringRef name) {
  llvm::Function *ciface = module.getFunction(("_mlir_ciface_" + name).str());
  if (!ciface || !ciface->getReturnType()->isVoidTy() ||
      !llvm::all_of(ciface->getFunctionType()->params(),
                    [](llvm::Type *t) { return t->isPointerTy(); })) {
    llvm::errs() << "hidet-compile: warning: no C interface of pointers "
                    "for '"
                 << name << "'; the library has no _hidet_packed_" << name
                 << "\n";
    return;
  }
  llvm::LLVMContext &ctx = module.getContext();
  llvm::PointerType *ptrType = llvm::PointerType::getUnqual(ctx);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrType},
                                       /*isVarArg=*/false);
  llvm::Function *packed =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             "_hidet_packed_" + name, module);
  llvm::Argument *args = packed->getArg(0);
  args->setName("args");
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(ctx, "entry", packed));
  SmallVector<llvm::Value *> operands;
  for (unsigned i = 0, e = ciface->arg_size(); i < e; ++i) {
    llvm::Value *slot = builder.CreateConstInBoundsGEP1_64(ptrType, args, i);
    operands.push_back(builder.CreateLoad(ptrType, slot));
  }
  builder.CreateCall(ciface, operands);
  builder.CreateRetVoid();
}

namespace hidet::compile {

/// Adds `hidet_manifest` as an exported NUL-terminated string, the packed
/// entry point of each function it declares, and the weights image
/// `hidet_weights` when there is one.
void addManifest(llvm::Module &module, StringRef manifest,
                 StringRef weightsImage) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Constant *data = llvm::ConstantDataArray::getString(ctx, manifest);
  new llvm::GlobalVariable(module, data->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, data,
                           HIDET_MANIFEST_SYMBOL);
  if (!weightsImage.empty()) {
    llvm::Constant *image = llvm::ConstantDataArray::getRaw(
        weightsImage, weightsImage.size(), llvm::Type::getInt8Ty(ctx));
    auto *global = new llvm::GlobalVariable(
        module, image->getType(), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage, image, HIDET_WEIGHTS_SYMBOL);
    global->setAlignment(llvm::Align(HIDET_WEIGHTS_ALIGN));
  }
  for (StringRef name : getManifestFuncNames(manifest))
    addPackedEntry(module, name);
}

llvm::Error emitObject(llvm::Module &module, StringRef path,
                       StringRef shownAs) {
  std::string triple = llvm::sys::getProcessTriple();
  std::string error;
  const llvm::Target *t =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
  if (!t)
    return makeError(error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      llvm::Triple(triple), "generic", "", options, llvm::Reloc::PIC_));
  module.setDataLayout(tm->createDataLayout());
  module.setTargetTriple(llvm::Triple(triple));
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write " + shownAs + ": " + ec.message());
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out.os(), nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return makeError("the host target cannot emit object files");
  pm.run(module);
  out.keep();
  return llvm::Error::success();
}

/// The driver named `linker`; when none is named, `cc`, else the fallback
/// the build configured (HIDET_FALLBACK_LINKER).
static llvm::Expected<std::string> findLinker(StringRef linker) {
  if (!linker.empty()) {
    if (llvm::ErrorOr<std::string> driver =
            llvm::sys::findProgramByName(linker))
      return *driver;
    return makeError("cannot find the linker driver '" + linker + "'");
  }
  if (llvm::ErrorOr<std::string> driver = llvm::sys::findProgramByName("cc"))
    return *driver;
#ifdef HIDET_FALLBACK_LINKER
  if (llvm::sys::fs::can_execute(HIDET_FALLBACK_LINKER))
    return std::string(HIDET_FALLBACK_LINKER);
  return makeError("cannot find a linker driver: no 'cc' on PATH and no "
                   "'" HIDET_FALLBACK_LINKER "'; name one with --linker");
#else
  return makeError("cannot find a linker driver: no 'cc' on PATH; name one "
                   "with --linker");
#endif
}

llvm::Error linkSharedLibrary(StringRef object, StringRef output,
                              StringRef linker, StringRef runtimeDir) {
  llvm::Expected<std::string> driver = findLinker(linker);
  if (!driver)
    return driver.takeError();
  SmallVector<std::string> args = {*driver, "-shared", "-o", output.str(),
                                   object.str()};
  if (!runtimeDir.empty()) {
    args.push_back(("-L" + runtimeDir).str());
    args.push_back("-lhidet_runtime");
    args.push_back("-Wl,-rpath,$ORIGIN");
  }
  args.push_back("-lm");
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*driver, argRefs, std::nullopt, {}, 0, 0,
                                     &error);
  if (rc != 0)
    return makeError("linking failed (" + llvm::Twine(rc) + ") " + error);
  return llvm::Error::success();
}

} // namespace hidet::compile
