//===- Outputs.h - The files hidet-compile writes, all or none --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Every file a run of hidet-compile writes (the library, the object or IR
// it emits instead, an external weights file, a tuning plan's directory) is
// written first under a temporary name beside its final path. When the run
// succeeds, commit() renames them into place; otherwise they are removed. A
// failed run leaves nothing behind, and nothing half-written that a runner
// would then reject or misread.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TOOLS_HIDET_COMPILE_OUTPUTS_H
#define HIDET_TOOLS_HIDET_COMPILE_OUTPUTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace hidet::compile {

class PendingOutputs {
public:
  PendingOutputs() = default;
  PendingOutputs(const PendingOutputs &) = delete;
  PendingOutputs &operator=(const PendingOutputs &) = delete;
  /// Removes the temporaries that were not committed.
  ~PendingOutputs();

  /// A temporary path beside `path` to write the file that commit() renames
  /// to `path`; `path` itself when it exists and is not a regular file (a
  /// device such as /dev/null, a pipe), which is written in place.
  std::string addFile(llvm::StringRef path);
  /// A temporary directory path beside `dir` (not created) whose files
  /// commit() moves into `dir`, which it creates if needed.
  std::string addDirectory(llvm::StringRef dir);
  /// A temporary path beside `path` for a file that is removed in any case
  /// (the object a library is linked from).
  std::string addScratch(llvm::StringRef path);

  /// Puts every file in place, in the order they were added. On failure
  /// the error names the file; what was not put in place is removed.
  llvm::Error commit();

private:
  struct Entry {
    std::string temp, path;
    bool directory = false;
    bool committed = false;
  };
  std::vector<Entry> entries;
  std::vector<std::string> scratch;
};

} // namespace hidet::compile

#endif // HIDET_TOOLS_HIDET_COMPILE_OUTPUTS_H
