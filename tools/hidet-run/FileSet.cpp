//===- FileSet.cpp - Output files written all or nothing ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "FileSet.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace hidet::run;

namespace {

/// Writes all `size` bytes of `data` to `fd`.
bool writeAll(int fd, const void *data, size_t size) {
  auto *bytes = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    bytes += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

/// The permissions a newly created file gets: 0666 less the umask.
mode_t getCreationMode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

} // namespace

OutputFileSet::~OutputFileSet() {
  for (const Staged &file : staged)
    std::remove(file.temp.c_str());
}

bool OutputFileSet::stage(const std::string &path, const std::string &header,
                          const void *data, size_t size, std::string &error) {
  // In the same directory, so that rename() replaces the file atomically;
  // hidden, so that a listing does not show it as an output.
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "." + name + ".hidet-run-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    error = std::string("cannot create a temporary file in its directory: ") +
            std::strerror(errno);
    return false;
  }
  staged.push_back({path, temp});
  // mkstemp creates the file readable by its owner only.
  bool ok = ::fchmod(fd, getCreationMode()) == 0 &&
            writeAll(fd, header.data(), header.size()) &&
            writeAll(fd, data, size) && ::fsync(fd) == 0;
  int savedErrno = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    error = std::string("cannot write: ") + std::strerror(savedErrno);
    std::remove(temp.c_str());
    staged.pop_back();
  }
  return ok;
}

bool OutputFileSet::commit(std::string &error) {
  for (size_t i = 0; i < staged.size(); ++i) {
    if (std::rename(staged[i].temp.c_str(), staged[i].path.c_str()) == 0)
      continue;
    error = staged[i].path + ": cannot rename the temporary file into place: " +
            std::strerror(errno);
    for (size_t j = 0; j < i; ++j)
      std::remove(staged[j].path.c_str());
    return false; // The destructor removes the temporary files left.
  }
  for (const Staged &file : staged)
    committed.push_back(file.path);
  staged.clear();
  return true;
}

void OutputFileSet::removeCommitted() {
  for (const std::string &path : committed)
    std::remove(path.c_str());
  committed.clear();
}
