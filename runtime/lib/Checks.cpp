//===- Checks.cpp - The run-time checks of a compiled function ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"

#include "hidet/Model.h"

#include <cstdio>
#include <cstring>

using namespace hidet::run;
using namespace hidet::runtime;

RunChecks::~RunChecks() {
  if (device)
    hidetFree(device);
}

bool RunChecks::allocate(const FuncSpec &spec, bool onGpu) {
  func = &spec;
  gpu = onGpu;
  host.assign(spec.checks.size(), 0);
  if (!gpu || host.empty())
    return true;
  device = hidetMalloc(host.size() * sizeof(int64_t));
  return device != nullptr;
}

void *RunChecks::getStatus(size_t i) {
  return gpu ? static_cast<char *>(device) + i * sizeof(int64_t)
             : static_cast<void *>(&host[i]);
}

/// "[0, 5]": the row-major index of element `position` of `shape`.
static std::string formatIndex(const std::vector<int64_t> &shape,
                               int64_t position) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = position % shape[d];
    position /= shape[d];
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d)
    text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

std::string RunChecks::readValue(const ArgSpec &arg, const void *buffer,
                                 int64_t position) const {
  size_t bytes = getDTypeSize(arg.dtype);
  if (!buffer || position < 0 || position >= arg.getNumElements())
    return "";
  unsigned char element[8] = {};
  const char *at = static_cast<const char *>(buffer) + position * bytes;
  if (gpu) {
    if (hidetMemcpyDtoH(element, at, bytes) != HIDET_RUNTIME_OK) {
      hidetRuntimeClearError();
      return "";
    }
  } else {
    std::memcpy(element, at, bytes);
  }
  auto load = [&](auto value) {
    std::memcpy(&value, element, sizeof(value));
    return value;
  };
  switch (arg.dtype) {
  case DType::I64:
    return std::to_string(load(int64_t()));
  case DType::I32:
    return std::to_string(load(int32_t()));
  case DType::I8:
    return std::to_string(load(int8_t()));
  case DType::I1:
    return std::to_string(load(uint8_t()));
  case DType::F32:
  case DType::F64: {
    char text[32];
    std::snprintf(text, sizeof(text), "%g",
                  arg.dtype == DType::F32 ? load(float()) : load(double()));
    return text;
  }
  default:
    return "";
  }
}

int RunChecks::read(const std::vector<void *> &arguments,
                    std::string &message) {
  if (host.empty())
    return HIDET_RUNTIME_OK;
  if (gpu) {
    int status =
        hidetMemcpyDtoH(host.data(), device, host.size() * sizeof(int64_t));
    if (status != HIDET_RUNTIME_OK) {
      message = "reading the statuses of its index checks";
      return status;
    }
  }
  for (size_t i = 0; i < host.size(); ++i) {
    if (host[i] == 0)
      continue;
    const CheckSpec &check = func->checks[i];
    int64_t position = ~host[i];
    message = "'" + func->name + "': ";
    if (check.input >= 0) {
      const ArgSpec &arg = func->args[check.input];
      // The input's number as callers count them: weights left out.
      int number = 0;
      for (int64_t a = 0; a < check.input; ++a)
        number += func->args[a].weight.empty() ? 1 : 0;
      message += arg.name.empty() ? "input " + std::to_string(number)
                                  : "input '" + arg.name + "' (input " +
                                        std::to_string(number) + ")";
      std::string value = readValue(arg, arguments[check.input], position);
      message += (value.empty() ? " has" : " holds " + value) + " at " +
                 formatIndex(arg.shape, position) + ", an index";
    } else {
      message += "at iteration " + std::to_string(position) +
                 " of its reads, an index computed from data is";
    }
    message += " out of range for the dimension ";
    if (check.extent > 0)
      message += "of " + std::to_string(check.extent) + " ";
    message += "it reads";
    if (!check.node.empty())
      message += " (node '" + check.node + "')";
    return HIDET_RUNTIME_ERROR_CHECK;
  }
  return HIDET_RUNTIME_OK;
}
