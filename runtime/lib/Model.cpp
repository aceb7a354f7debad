//===- Model.cpp - Loading and running compiled models --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Implements the loading and the description of models (hidet/Model.h) over
// the manifest (ManifestParser.h) and the weights formats (WeightsFile.h);
// ModelRun.cpp runs them. A runtime built without cuda.h (NoCuda.cpp)
// compiles both with HIDET_RUNTIME_NO_CUDA: CPU models run as always, and
// the CUDA graph and profiling code, which only GPU models reach, is left
// out.
//
//===----------------------------------------------------------------------===//

#include "ModelState.h"

#include "Errors.h"
#include "WeightsFile.h"
#ifndef HIDET_RUNTIME_NO_CUDA
#include "Scope.h"
#endif

#include "hidet/Manifest.h"
#include "hidet/Weights.h"

#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace hidet::run;
using namespace hidet::runtime;

static_assert(static_cast<int>(DType::F32) == HIDET_DTYPE_F32 &&
                  static_cast<int>(DType::F16) == HIDET_DTYPE_F16 &&
                  static_cast<int>(DType::BF16) == HIDET_DTYPE_BF16 &&
                  static_cast<int>(DType::F64) == HIDET_DTYPE_F64 &&
                  static_cast<int>(DType::I32) == HIDET_DTYPE_I32 &&
                  static_cast<int>(DType::I64) == HIDET_DTYPE_I64 &&
                  static_cast<int>(DType::I8) == HIDET_DTYPE_I8 &&
                  static_cast<int>(DType::I1) == HIDET_DTYPE_I1,
              "HIDET_DTYPE_* follow the manifest's dtypes");

namespace hidet::runtime {

/// A row-major contiguous ranked memref descriptor for `shape`.
std::vector<int64_t> makeDescriptor(const std::vector<int64_t> &shape) {
  size_t rank = shape.size();
  std::vector<int64_t> words(3 + 2 * rank, 0);
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    words[3 + i] = shape[i];
    words[3 + rank + i] = stride;
    stride *= shape[i];
  }
  return words;
}

/// Points `descriptor` (its allocated and aligned pointers) at `pointer`.
void setPointer(std::vector<int64_t> &descriptor, const void *pointer) {
  int64_t word = static_cast<int64_t>(reinterpret_cast<intptr_t>(pointer));
  descriptor[0] = word; // allocated
  descriptor[1] = word; // aligned
}

/// Records `message`, followed by the error the runtime recorded last (the
/// cause) if any, as the error of this call.
int fail(int code, const std::string &message) {
  const char *cause = nullptr;
  int causeCode = hidetRuntimeLastError(&cause);
  std::string text = message;
  if (causeCode != HIDET_RUNTIME_OK && cause && *cause)
    text += ": " + std::string(cause);
  hidetRuntimeClearError();
  recordError(causeCode != HIDET_RUNTIME_OK && code == HIDET_RUNTIME_OK
                  ? causeCode
                  : code,
              "%s", text.c_str());
  return hidetRuntimeLastError(nullptr);
}

} // namespace hidet::runtime

namespace {

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

} // namespace

hidetModel_st::~hidetModel_st() {
  dropGraph();
  if (gpu) {
    if (weights || workspace || checks.size())
      hidetDeviceSynchronize();
    if (weights)
      hidetFree(weights);
    if (workspace)
      hidetFree(workspace);
  }
  if (handle)
    dlclose(handle);
}

void hidetModel_st::dropGraph() {
  if (!graph)
    return;
#ifndef HIDET_RUNTIME_NO_CUDA
  Scope scope("hidetModelUnload");
  if (scope)
    HIDET_CU(scope, cuGraphExecDestroy(graph));
#endif
  graph = nullptr;
}

int hidetModel_st::load(const char *function, const char *weightsPath) {
  // Without a slash dlopen would search the library path, not the file.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  if (access(file.c_str(), R_OK) != 0)
    return fail(HIDET_RUNTIME_ERROR_LOAD,
                "cannot open " + path + ": " + std::strerror(errno));
  dlerror();
  // RTLD_LOCAL keeps the symbols of different models apart.
  handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    return fail(HIDET_RUNTIME_ERROR_LOAD,
                "cannot load " + path + ": " +
                    (reason ? reason : "dlopen failed"));
  }
  auto *text = static_cast<const char *>(dlsym(handle, HIDET_MANIFEST_SYMBOL));
  if (!text)
    return fail(HIDET_RUNTIME_ERROR_LOAD, path + ": no '" HIDET_MANIFEST_SYMBOL
                                                 "' symbol; not a library "
                                                 "that hidet-compile wrote");
  std::string error;
  if (!parseManifest(std::string_view(text, strnlen(text, size_t(1) << 20)),
                     manifest, error))
    return fail(HIDET_RUNTIME_ERROR_LOAD,
                path + ": malformed manifest: " + error);
  gpu = manifest.target.value_or(Target::Gpu) == Target::Gpu;
  // A GPU library loads its kernels when it is opened.
  if (gpu && hidetRuntimeLastError(nullptr) != HIDET_RUNTIME_OK)
    return fail(HIDET_RUNTIME_OK, path + ": loading its GPU code");

  if (function) {
    func = manifest.lookup(function);
    if (!func)
      return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                  path + " has no function '" + function + "'");
  } else if (manifest.funcs.size() != 1) {
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                path + " has " + std::to_string(manifest.funcs.size()) +
                    " functions; name the one to load");
  } else {
    func = &manifest.funcs.front();
  }
  std::string symbol = HIDET_MANIFEST_PACKED_PREFIX + func->name;
  entry = dlsym(handle, symbol.c_str());
  if (!entry)
    return fail(HIDET_RUNTIME_ERROR_LOAD,
                path + ": the library does not export '" + symbol + "'");

  for (size_t i = 0; i < func->args.size(); ++i) {
    const ArgSpec &arg = func->args[i];
    descriptors.push_back(makeDescriptor(arg.shape));
    if (!arg.weight.empty())
      continue;
    hidetTensorInfo info;
    info.name = arg.name.c_str();
    info.dtype = static_cast<int>(arg.dtype);
    info.rank = static_cast<int>(arg.shape.size());
    info.shape = arg.shape.data();
    info.bytes = arg.getSizeBytes();
    (arg.isOutput ? outputs : inputs).push_back(i);
    (arg.isOutput ? outputInfos : inputInfos).push_back(info);
  }
  if (!checks.allocate(*func, gpu))
    return fail(HIDET_RUNTIME_OK, path + ": allocating the statuses of its "
                                         "index checks");
  for (size_t i = 0; i < checks.size(); ++i) {
    descriptors.push_back(makeDescriptor({}));
    setPointer(descriptors.back(), checks.getStatus(i));
  }
  if (int status = loadWeights(weightsPath))
    return status;
  if (func->hasWorkspace) {
    uint64_t bytes = func->workspaceBytes;
    if (gpu && bytes) {
      workspace = hidetMalloc(bytes);
      if (!workspace)
        return fail(HIDET_RUNTIME_OK, path + ": allocating the workspace (" +
                                          std::to_string(bytes) + " bytes)");
    } else if (bytes) {
      hostWorkspace.resize(bytes);
      workspace = hostWorkspace.data();
    }
    descriptors.push_back(makeDescriptor({static_cast<int64_t>(bytes)}));
    setPointer(descriptors.back(), workspace);
  }
  for (std::vector<int64_t> &d : descriptors)
    argPointers.push_back(d.data());
  return HIDET_RUNTIME_OK;
}

int hidetModel_st::loadWeights(const char *weightsPath) {
  bool needed = false;
  for (const ArgSpec &arg : func->args)
    needed |= !arg.weight.empty();
  if (!needed)
    return HIDET_RUNTIME_OK;
  WeightsFile source;
  std::string error, from;
  const char *image =
      static_cast<const char *>(dlsym(handle, HIDET_WEIGHTS_SYMBOL));
  bool ok;
  if (weightsPath || !manifest.weightsFile.empty() || !image) {
    if (weightsPath)
      from = weightsPath;
    else if (manifest.weightsFile.empty())
      return fail(HIDET_RUNTIME_ERROR_LOAD,
                  path + ": '" + func->name +
                      "' takes weights, but the "
                      "library holds none and names no weights file; give one");
    else if (manifest.weightsFile[0] == '/')
      from = manifest.weightsFile;
    else
      from = directoryOf(path) + "/" + manifest.weightsFile;
    ok = source.open(from, error);
  } else {
    from = path + " (its weights image)";
    ok = source.openImage(image, 0, from, error);
  }
  if (!ok)
    return fail(HIDET_RUNTIME_ERROR_LOAD, error);

  // One block for all weights, at their offsets in the file.
  uint64_t end = 0;
  std::vector<const WeightsFile::Entry *> entries;
  for (const ArgSpec &arg : func->args) {
    if (arg.weight.empty()) {
      entries.push_back(nullptr);
      continue;
    }
    const WeightsFile::Entry *e = source.lookup(arg.weight);
    if (!e)
      return fail(HIDET_RUNTIME_ERROR_LOAD, from + " has no weight '" +
                                                arg.weight + "' (" + path +
                                                " expects " + arg.str() + ")");
    if (e->dtype != arg.dtype || e->shape != arg.shape) {
      ArgSpec found;
      found.dtype = e->dtype;
      found.shape = e->shape;
      return fail(HIDET_RUNTIME_ERROR_LOAD,
                  from + ": weight '" + arg.weight + "' is " + found.str() +
                      " but " + path + " expects " + arg.str());
    }
    entries.push_back(e);
    end = std::max(end, e->offset + e->bytes);
  }
  weightBytes = end;
  if (!gpu && image && !weightsPath && manifest.weightsFile.empty()) {
    // A CPU model reads its image in place.
    for (size_t i = 0; i < entries.size(); ++i)
      if (entries[i])
        setPointer(descriptors[i], source.getImageData(*entries[i]));
    return HIDET_RUNTIME_OK;
  }
  if (gpu) {
    weights = hidetMalloc(end);
    if (!weights)
      return fail(HIDET_RUNTIME_OK, path + ": allocating its weights (" +
                                        std::to_string(end) + " bytes)");
  } else {
    hostWeights.resize(end);
    weights = hostWeights.data();
  }
  std::vector<unsigned char> staging;
  for (size_t i = 0; i < entries.size(); ++i) {
    const WeightsFile::Entry *e = entries[i];
    if (!e)
      continue;
    char *at = static_cast<char *>(weights) + e->offset;
    setPointer(descriptors[i], at);
    const unsigned char *bytes = source.getImageData(*e);
    if (!bytes) {
      if (!source.read(*e, staging, error))
        return fail(HIDET_RUNTIME_ERROR_LOAD, error);
      bytes = staging.data();
    }
    if (!gpu) {
      std::memcpy(at, bytes, e->bytes);
      continue;
    }
    if (hidetMemcpyHtoD(at, bytes, e->bytes) != HIDET_RUNTIME_OK)
      return fail(HIDET_RUNTIME_OK,
                  path + ": uploading weight '" + e->name + "'");
  }
  return HIDET_RUNTIME_OK;
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

extern "C" int hidetModelLoad(const char *libraryPath, const char *function,
                              const char *weightsPath, hidetModel_t *model) {
  hidetRuntimeClearError();
  if (!model)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelLoad: null result pointer");
  *model = nullptr;
  if (!libraryPath)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelLoad: null library path");
  auto loaded = std::make_unique<hidetModel_st>();
  loaded->path = libraryPath;
  if (int status = loaded->load(function, weightsPath))
    return status;
  *model = loaded.release();
  return HIDET_RUNTIME_OK;
}

extern "C" int hidetModelUnload(hidetModel_t model) {
  hidetRuntimeClearError();
  delete model;
  return hidetRuntimeLastError(nullptr);
}

extern "C" int hidetModelIsGpu(hidetModel_t model) {
  return model && model->gpu ? 1 : 0;
}

extern "C" int hidetModelNumInputs(hidetModel_t model) {
  return model ? static_cast<int>(model->inputs.size()) : 0;
}

extern "C" int hidetModelNumOutputs(hidetModel_t model) {
  return model ? static_cast<int>(model->outputs.size()) : 0;
}

static int getInfo(hidetModel_t model, int index, hidetTensorInfo *info,
                   bool output) {
  hidetRuntimeClearError();
  const char *what = output ? "hidetModelOutput" : "hidetModelInput";
  if (!model || !info)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": null model or result pointer");
  const std::vector<hidetTensorInfo> &infos =
      output ? model->outputInfos : model->inputInfos;
  if (index < 0 || static_cast<size_t>(index) >= infos.size())
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                std::string(what) + ": index " + std::to_string(index) +
                    " is out of range (the model has " +
                    std::to_string(infos.size()) + ")");
  *info = infos[index];
  return HIDET_RUNTIME_OK;
}

extern "C" int hidetModelInput(hidetModel_t model, int index,
                               hidetTensorInfo *info) {
  return getInfo(model, index, info, /*output=*/false);
}

extern "C" int hidetModelOutput(hidetModel_t model, int index,
                                hidetTensorInfo *info) {
  return getInfo(model, index, info, /*output=*/true);
}

extern "C" int hidetModelGetStats(hidetModel_t model, hidetModelStats *stats) {
  hidetRuntimeClearError();
  if (!model || !stats)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelGetStats: null model or result pointer");
  stats->weightBytes = model->weightBytes;
  stats->workspaceBytes = model->func->workspaceBytes;
  stats->intermediateBytes = model->func->intermediateBytes;
  stats->kernelLaunches = model->kernelLaunches;
  stats->cudaGraph = model->graph != nullptr;
  return HIDET_RUNTIME_OK;
}

extern "C" int hidetModelSetCudaGraph(hidetModel_t model, int enabled) {
  hidetRuntimeClearError();
  if (!model)
    return fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                "hidetModelSetCudaGraph: null model");
  model->useGraph = enabled != 0;
  if (!model->useGraph)
    model->dropGraph();
  return hidetRuntimeLastError(nullptr);
}
