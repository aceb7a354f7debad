//===- FileSet.h - Output files written all or nothing ----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// hidet-run never leaves a partial output file: each file is first written
// to a temporary file in the same directory (so that renaming it is atomic)
// and renamed into place only once every file of the set was written.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_FILESET_H
#define HIDET_RUN_FILESET_H

#include <cstddef>
#include <string>
#include <vector>

namespace hidet::run {

class OutputFileSet {
public:
  OutputFileSet() = default;
  OutputFileSet(const OutputFileSet &) = delete;
  OutputFileSet &operator=(const OutputFileSet &) = delete;
  /// Removes the temporary files of a set that was not committed.
  ~OutputFileSet();

  /// Writes `header` then `size` bytes of `data` to a temporary file that
  /// becomes `path` on commit(). On failure returns false with `error`
  /// saying why (without the path).
  bool stage(const std::string &path, const std::string &header,
             const void *data, size_t size, std::string &error);

  /// Renames every staged file into place. If a rename fails, removes the
  /// files already renamed and the temporary ones, and returns false with
  /// `error` naming the file.
  bool commit(std::string &error);

  /// Removes the files that commit() put in place, for an error that comes
  /// after it.
  void removeCommitted();

private:
  struct Staged {
    std::string path;
    std::string temp;
  };
  std::vector<Staged> staged;
  std::vector<std::string> committed;
};

} // namespace hidet::run

#endif // HIDET_RUN_FILESET_H
