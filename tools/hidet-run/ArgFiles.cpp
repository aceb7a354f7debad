//===- ArgFiles.cpp - The files given for a function's args ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "ArgFiles.h"

#include "FileSet.h"
#include "Npy.h"
#include "Options.h"
#include "Tensor.h"

using namespace hidet::run;

namespace {

/// "x.npy, --input 0 (arg 0 of 'add', f32 3x4x5)": how messages name a file.
std::string describe(const std::string &path, const char *option, size_t index,
                     const FuncSpec &func, size_t arg) {
  return path + ", " + option + " " + std::to_string(index) + " (arg " +
         std::to_string(arg) + " of '" + func.name + "')";
}

/// Checks that `count` files fit the `available` args.
bool checkCount(const char *option, size_t count, size_t available,
                const char *what, const FuncSpec &func, std::string &error) {
  if (count <= available)
    return true;
  error = std::to_string(count) + " " + option + " files given, but '" +
          func.name + "' has " + std::to_string(available) + " " + what +
          (available == 1 ? "" : "s");
  return false;
}

/// Reads the files of one option into the args `argIndices`, in order.
bool readFiles(const std::vector<std::string> &paths, const char *option,
               const FuncSpec &func, const std::vector<size_t> &argIndices,
               ArgFiles &files, std::string &error) {
  for (size_t i = 0; i < paths.size(); ++i) {
    size_t argIndex = argIndices[i];
    const ArgSpec &arg = func.args[argIndex];
    std::string name = describe(paths[i], option, i, func, argIndex);
    Tensor tensor;
    std::string problem;
    if (!readTensorFile(paths[i], tensor, problem)) {
      error = name + ": " + problem;
      return false;
    }
    if (!tensor.fits(arg)) {
      error = name + ": expected " + arg.str() + ", got " + tensor.str() +
              " (" + tensor.fileType + ")";
      return false;
    }
    files.paths[argIndex] = paths[i];
    files.data[argIndex] = std::move(tensor.data);
  }
  return true;
}

/// Fills the `weight` inputs of `func` from the weights file, by name.
} // namespace

bool hidet::run::readArgFiles(const FuncSpec &func, const Options &options,
                              ArgFiles &files, std::string &error) {
  std::vector<size_t> inputs, outputs;
  for (size_t i = 0; i < func.args.size(); ++i) {
    if (i >= func.numInputs)
      outputs.push_back(i);
    else if (func.args[i].weight.empty())
      inputs.push_back(i);
  }
  if (!checkCount("--input", options.inputs.size(), inputs.size(), "input",
                  func, error) ||
      !checkCount("--expected-output", options.expectedOutputs.size(),
                  func.numOutputs, "output", func, error) ||
      !checkCount("--output", options.outputs.size(), func.numOutputs, "output",
                  func, error))
    return false;
  files.paths.assign(func.args.size(), "");
  files.data.assign(func.args.size(), {});
  return readFiles(options.inputs, "--input", func, inputs, files, error) &&
         readFiles(options.expectedOutputs, "--expected-output", func, outputs,
                   files, error);
}

bool hidet::run::stageOutputs(
    const FuncSpec &func, const Options &options,
    const std::vector<std::vector<unsigned char>> &buffers, OutputFileSet &set,
    std::string &error) {
  for (size_t i = 0; i < options.outputs.size(); ++i) {
    size_t argIndex = func.numInputs + i;
    const ArgSpec &arg = func.args[argIndex];
    const std::vector<unsigned char> &data = buffers[argIndex];
    std::string problem;
    if (!set.stage(options.outputs[i], encodeNpyHeader(arg.dtype, arg.shape),
                   data.data(), data.size(), problem)) {
      error = describe(options.outputs[i], "--output", i, func, argIndex) +
              ": " + problem;
      return false;
    }
  }
  return true;
}
