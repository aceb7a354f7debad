//===- Outputs.cpp - The files hidet-compile writes, all or none ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Outputs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace hidet::compile;

/// A path that names nothing yet, beside `path` (same directory, so that
/// the rename is atomic).
static std::string uniqueBeside(llvm::StringRef path, llvm::StringRef suffix) {
  llvm::SmallString<256> unique;
  llvm::sys::fs::createUniquePath(path + "-%%%%%%%%" + suffix, unique,
                                  /*MakeAbsolute=*/false);
  return std::string(unique);
}

PendingOutputs::~PendingOutputs() {
  for (const Entry &entry : entries) {
    if (entry.committed)
      continue;
    if (entry.directory)
      llvm::sys::fs::remove_directories(entry.temp);
    else
      llvm::sys::fs::remove(entry.temp);
  }
  for (const std::string &path : scratch)
    llvm::sys::fs::remove(path);
}

std::string PendingOutputs::addFile(llvm::StringRef path) {
  // A device or a pipe (/dev/null) is written as it is, never replaced.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) && llvm::sys::fs::exists(status) &&
      !llvm::sys::fs::is_regular_file(status))
    return path.str();
  entries.push_back({uniqueBeside(path, ".tmp"), path.str()});
  return entries.back().temp;
}

std::string PendingOutputs::addDirectory(llvm::StringRef dir) {
  llvm::StringRef trimmed = dir.rtrim('/');
  if (trimmed.empty())
    trimmed = dir;
  entries.push_back({uniqueBeside(trimmed, ".tmp"), dir.str(), true});
  return entries.back().temp;
}

std::string PendingOutputs::addScratch(llvm::StringRef path) {
  scratch.push_back(uniqueBeside(path, ".o"));
  return scratch.back();
}

/// Moves the files of directory `from` into `to` (created if needed) and
/// removes `from`.
static std::error_code moveDirectory(llvm::StringRef from, llvm::StringRef to,
                                     std::string &failed) {
  failed = to.str();
  if (std::error_code ec = llvm::sys::fs::create_directories(to))
    return ec;
  if (!llvm::sys::fs::is_directory(to))
    return std::make_error_code(std::errc::not_a_directory);
  if (!llvm::sys::fs::exists(from))
    return {};
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(from, ec), end; !ec && it != end;
       it.increment(ec)) {
    llvm::SmallString<256> target(to);
    llvm::sys::path::append(target, llvm::sys::path::filename(it->path()));
    failed = std::string(target);
    if (std::error_code moved = llvm::sys::fs::rename(it->path(), target))
      return moved;
  }
  if (ec)
    return ec;
  return llvm::sys::fs::remove(from);
}

llvm::Error PendingOutputs::commit() {
  for (Entry &entry : entries) {
    std::string failed = entry.path;
    std::error_code ec = entry.directory
                             ? moveDirectory(entry.temp, entry.path, failed)
                             : llvm::sys::fs::rename(entry.temp, entry.path);
    if (ec)
      return llvm::createStringError(ec, "cannot write %s: %s", failed.c_str(),
                                     ec.message().c_str());
    entry.committed = true;
  }
  return llvm::Error::success();
}
