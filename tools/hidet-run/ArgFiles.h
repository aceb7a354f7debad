//===- ArgFiles.h - The files given for a function's args -------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The --input, --expected-output and --output files of the one function
// they are given for: reading the first two, checked against the manifest,
// and saving the outputs all or nothing.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_ARGFILES_H
#define HIDET_RUN_ARGFILES_H

#include "ManifestParser.h"

#include <string>
#include <vector>

namespace hidet::run {

class OutputFileSet;
struct Options;

/// The elements read from files, by arg of the function: the inputs, then
/// the expected outputs. Both the paths and the elements are empty for args
/// without a file.
struct ArgFiles {
  std::vector<std::string> paths;
  std::vector<std::vector<unsigned char>> data;

  bool has(size_t arg) const {
    return arg < paths.size() && !paths[arg].empty();
  }
};

/// Reads the --input and --expected-output files of `options` for `func`,
/// each of which must hold its arg's dtype and shape. On failure returns
/// false with `error` naming the file, the option and its index, the arg,
/// and what was expected and found.
bool readArgFiles(const FuncSpec &func, const Options &options, ArgFiles &files,
                  std::string &error);

/// Stages output i of `func` (host buffers, by arg) in `files` as .npy for
/// the i-th --output file of `options`; OutputFileSet::commit() puts them in
/// place. On failure returns false with `error` naming the file.
bool stageOutputs(const FuncSpec &func, const Options &options,
                  const std::vector<std::vector<unsigned char>> &buffers,
                  OutputFileSet &files, std::string &error);

} // namespace hidet::run

#endif // HIDET_RUN_ARGFILES_H
