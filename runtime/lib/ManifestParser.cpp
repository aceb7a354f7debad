//===- ManifestParser.cpp - Parser for hidet_manifest text ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "ManifestParser.h"

#include "hidet/Manifest.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

using namespace hidet::run;

namespace {

struct DTypeInfo {
  DType dtype;
  const char *name;
  size_t size;
};

const DTypeInfo dtypeInfos[] = {
    {DType::F32, "f32", 4}, {DType::F16, "f16", 2}, {DType::BF16, "bf16", 2},
    {DType::F64, "f64", 8}, {DType::I32, "i32", 4}, {DType::I64, "i64", 8},
    {DType::I8, "i8", 1},   {DType::I1, "i1", 1},
};

const DTypeInfo &getInfo(DType dtype) {
  for (const DTypeInfo &info : dtypeInfos)
    if (info.dtype == dtype)
      return info;
  return dtypeInfos[0];
}

} // namespace

bool hidet::run::parseDType(std::string_view token, DType &dtype) {
  for (const DTypeInfo &info : dtypeInfos) {
    if (token == info.name) {
      dtype = info.dtype;
      return true;
    }
  }
  return false;
}

std::vector<std::string_view> hidet::run::splitTokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t pos = 0;
  while (pos < line.size()) {
    size_t start = line.find_first_not_of(" \t", pos);
    if (start == std::string_view::npos)
      break;
    size_t end = line.find_first_of(" \t", start);
    if (end == std::string_view::npos)
      end = line.size();
    tokens.push_back(line.substr(start, end - start));
    pos = end;
  }
  return tokens;
}

bool hidet::run::parseInt(std::string_view token, int64_t min, int64_t max,
                          int64_t &value) {
  if (token.empty() || token.size() > 19)
    return false;
  for (char c : token)
    if (c < '0' || c > '9')
      return false;
  std::string text(token);
  errno = 0;
  long long parsed = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0 || parsed < min || parsed > max)
    return false;
  value = parsed;
  return true;
}

bool isIdentifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9'))
    return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    if (!ok)
      return false;
  }
  return true;
}

bool hidet::run::parseShape(std::string_view token,
                            std::vector<int64_t> &shape) {
  shape.clear();
  if (token == "scalar")
    return true;
  // Keeps element counts (and byte sizes) far from overflow.
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t numElements = 1;
  size_t pos = 0;
  while (true) {
    size_t end = token.find('x', pos);
    std::string_view piece =
        token.substr(pos, end == std::string_view::npos ? std::string_view::npos
                                                        : end - pos);
    int64_t dim = 0;
    if (!parseInt(piece, 1, kMaxElements, dim))
      return false;
    numElements *= dim;
    if (numElements > kMaxElements)
      return false;
    shape.push_back(dim);
    if (end == std::string_view::npos)
      return true;
    pos = end + 1;
  }
}

namespace {

class Parser {
public:
  Parser(Manifest &manifest, std::string &error)
      : manifest(manifest), error(error) {}

  bool parse(std::string_view text) {
    size_t pos = 0;
    bool sawHeader = false;
    while (pos <= text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos)
        end = text.size();
      std::string_view line = text.substr(pos, end - pos);
      pos = end + 1;
      ++lineNumber;
      if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
      std::vector<std::string_view> tokens = splitTokens(line);
      if (tokens.empty() || tokens[0][0] == '#')
        continue;
      if (!sawHeader) {
        if (!parseHeader(tokens))
          return false;
        sawHeader = true;
        continue;
      }
      if (tokens[0] == "target") {
        if (!parseTarget(tokens))
          return false;
      } else if (tokens[0] == "func") {
        if (!finishFunc() || !parseFunc(tokens))
          return false;
      } else if (tokens[0] == "arg") {
        if (!parseArg(tokens))
          return false;
      } else if (tokens[0] == "weights") {
        if (!parseWeights(tokens))
          return false;
      } else if (tokens[0] == "workspace") {
        if (!parseWorkspace(tokens))
          return false;
      } else if (tokens[0] == "check") {
        if (!parseCheck(tokens))
          return false;
      } else {
        return fail("unknown statement '" + std::string(tokens[0]) +
                    "'; expected 'target', 'weights', 'func', 'workspace', "
                    "'arg' or 'check'");
      }
    }
    if (!sawHeader)
      return fail("empty manifest; expected '" HIDET_MANIFEST_MAGIC " 1'");
    if (!finishFunc())
      return false;
    if (manifest.funcs.empty())
      return fail("the manifest declares no 'func'");
    return true;
  }

private:
  bool fail(const std::string &message) {
    error = "line " + std::to_string(lineNumber) + ": " + message;
    return false;
  }

  bool parseHeader(const std::vector<std::string_view> &tokens) {
    if (tokens[0] != HIDET_MANIFEST_MAGIC)
      return fail("expected the header '" HIDET_MANIFEST_MAGIC " 1', found '" +
                  std::string(tokens[0]) + "'");
    int64_t version = 0;
    if (tokens.size() != 2 ||
        !parseInt(tokens[1], 0, std::numeric_limits<int32_t>::max(), version))
      return fail("expected '" HIDET_MANIFEST_MAGIC " <version>'");
    if (version != HIDET_MANIFEST_VERSION)
      return fail("manifest version " + std::to_string(version) +
                  " is not supported (this runtime reads version " +
                  std::to_string(HIDET_MANIFEST_VERSION) + ")");
    return true;
  }

  bool parseTarget(const std::vector<std::string_view> &tokens) {
    if (!manifest.funcs.empty())
      return fail("'target' must come before the first 'func'");
    if (manifest.target)
      return fail("'target' is given twice");
    if (tokens.size() == 2 && tokens[1] == "cpu")
      manifest.target = Target::Cpu;
    else if (tokens.size() == 2 && tokens[1] == "gpu")
      manifest.target = Target::Gpu;
    else
      return fail("expected 'target cpu' or 'target gpu'");
    return true;
  }

  bool parseWeights(const std::vector<std::string_view> &tokens) {
    if (!manifest.funcs.empty())
      return fail("'weights' must come before the first 'func'");
    if (!manifest.weightsFile.empty())
      return fail("'weights' is given twice");
    if (tokens.size() != 2)
      return fail("expected 'weights <file>'");
    manifest.weightsFile = std::string(tokens[1]);
    return true;
  }

  bool parseWorkspace(const std::vector<std::string_view> &tokens) {
    if (!inFunc)
      return fail("'workspace' before any 'func'");
    FuncSpec &func = manifest.funcs.back();
    if (func.hasWorkspace)
      return fail("'workspace' is given twice for '" + func.name + "'");
    int64_t bytes = 0, intermediates = 0;
    constexpr int64_t kMax = int64_t(1) << 50;
    if (tokens.size() != 3 || !parseInt(tokens[1], 0, kMax, bytes) ||
        !parseInt(tokens[2], 0, kMax, intermediates))
      return fail("expected 'workspace <bytes> <intermediate-bytes>'");
    func.hasWorkspace = true;
    func.workspaceBytes = static_cast<uint64_t>(bytes);
    func.intermediateBytes = static_cast<uint64_t>(intermediates);
    return true;
  }

  bool parseCheck(const std::vector<std::string_view> &tokens) {
    if (!inFunc)
      return fail("'check' before any 'func'");
    FuncSpec &func = manifest.funcs.back();
    if (func.args.size() != func.numInputs + func.numOutputs)
      return fail("'check' before the last 'arg' of '" + func.name + "'");
    if (tokens.size() != 3 && tokens.size() != 4)
      return fail("expected 'check <input>|- <extent>|- [<node>]'");
    CheckSpec check;
    if (tokens[1] != "-") {
      if (!parseInt(tokens[1], 0, std::numeric_limits<int32_t>::max(),
                    check.input) ||
          check.input >= static_cast<int64_t>(func.numInputs) ||
          !func.args[check.input].weight.empty())
        return fail("'check' names input '" + std::string(tokens[1]) +
                    "'; expected the index of an 'in' arg of '" + func.name +
                    "' or '-'");
    }
    if (tokens[2] != "-" &&
        !parseInt(tokens[2], 1, std::numeric_limits<int64_t>::max(),
                  check.extent))
      return fail("'check' extent '" + std::string(tokens[2]) +
                  "'; expected a positive integer or '-'");
    if (tokens.size() == 4)
      check.node = std::string(tokens[3]);
    func.checks.push_back(std::move(check));
    return true;
  }

  bool parseFunc(const std::vector<std::string_view> &tokens) {
    if (tokens.size() != 4)
      return fail("expected 'func <name> <num_inputs> <num_outputs>'");
    FuncSpec func;
    func.name = std::string(tokens[1]);
    if (!isIdentifier(func.name))
      return fail("function name '" + func.name + "' is not a C identifier");
    if (manifest.lookup(func.name))
      return fail("function '" + func.name + "' is declared twice");
    int64_t numInputs = 0, numOutputs = 0;
    constexpr int64_t kMaxArgs = 1 << 16;
    if (!parseInt(tokens[2], 0, kMaxArgs, numInputs) ||
        !parseInt(tokens[3], 0, kMaxArgs, numOutputs))
      return fail("expected argument counts after 'func " + func.name +
                  "', found '" + std::string(tokens[2]) + " " +
                  std::string(tokens[3]) + "'");
    func.numInputs = static_cast<unsigned>(numInputs);
    func.numOutputs = static_cast<unsigned>(numOutputs);
    manifest.funcs.push_back(std::move(func));
    inFunc = true;
    return true;
  }

  bool parseArg(const std::vector<std::string_view> &tokens) {
    if (!inFunc)
      return fail("'arg' before any 'func'");
    FuncSpec &func = manifest.funcs.back();
    bool weight = tokens.size() >= 3 && tokens[2] == "weight";
    if (weight ? tokens.size() != 6 : tokens.size() != 5 && tokens.size() != 6)
      return fail("expected 'arg <index> in|out <dtype> <shape> [<name>]' "
                  "or 'arg <index> weight <dtype> <shape> <name>'");
    size_t expected = func.args.size();
    int64_t index = 0;
    if (!parseInt(tokens[1], 0, std::numeric_limits<int32_t>::max(), index) ||
        static_cast<size_t>(index) != expected)
      return fail("expected 'arg " + std::to_string(expected) +
                  "' (args are numbered in order from 0), found 'arg " +
                  std::string(tokens[1]) + "'");
    if (expected >= func.numInputs + func.numOutputs)
      return fail("function '" + func.name + "' declares " +
                  std::to_string(func.numInputs + func.numOutputs) +
                  " args but has more");
    ArgSpec arg;
    if (weight) {
      arg.weight = std::string(tokens[5]);
    } else if (tokens[2] == "in" || tokens[2] == "out") {
      arg.isOutput = tokens[2] == "out";
      if (tokens.size() == 6)
        arg.name = std::string(tokens[5]);
    } else
      return fail("expected 'in', 'out' or 'weight', found '" +
                  std::string(tokens[2]) + "'");
    bool shouldBeOutput = expected >= func.numInputs;
    if (arg.isOutput != shouldBeOutput)
      return fail("arg " + std::to_string(expected) + " of '" + func.name +
                  "' must be '" + (shouldBeOutput ? "out" : "in") +
                  "': inputs come first (" + std::to_string(func.numInputs) +
                  "), then outputs");
    if (!parseDType(tokens[3], arg.dtype))
      return fail("unknown dtype '" + std::string(tokens[3]) +
                  "'; expected one of f32 f16 bf16 f64 i32 i64 i8 i1");
    if (!parseShape(tokens[4], arg.shape))
      return fail("bad shape '" + std::string(tokens[4]) +
                  "'; expected 'scalar' or positive extents like 128x64");
    func.args.push_back(std::move(arg));
    return true;
  }

  /// Checks that the open function got all its args.
  bool finishFunc() {
    if (!inFunc)
      return true;
    const FuncSpec &func = manifest.funcs.back();
    if (func.args.size() != func.numInputs + func.numOutputs)
      return fail("function '" + func.name + "' declares " +
                  std::to_string(func.numInputs + func.numOutputs) +
                  " args but lists " + std::to_string(func.args.size()));
    inFunc = false;
    return true;
  }

  Manifest &manifest;
  std::string &error;
  unsigned lineNumber = 0;
  bool inFunc = false;
};

} // namespace

const char *hidet::run::getTargetName(Target target) {
  return target == Target::Cpu ? "cpu" : "gpu";
}

const char *hidet::run::getDTypeName(DType dtype) {
  return getInfo(dtype).name;
}

size_t hidet::run::getDTypeSize(DType dtype) { return getInfo(dtype).size; }

bool hidet::run::isFloatDType(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F16 || dtype == DType::BF16 ||
         dtype == DType::F64;
}

int64_t ArgSpec::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

size_t ArgSpec::getSizeBytes() const {
  return static_cast<size_t>(getNumElements()) * getDTypeSize(dtype);
}

std::string ArgSpec::str() const {
  std::string text = getDTypeName(dtype);
  text += ' ';
  if (shape.empty())
    return text + "scalar";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      text += 'x';
    text += std::to_string(shape[i]);
  }
  return text;
}

bool ArgSpec::operator==(const ArgSpec &other) const {
  return isOutput == other.isOutput && dtype == other.dtype &&
         shape == other.shape && weight == other.weight;
  // Names describe; they do not change how a function is called.
}

std::vector<ArgSpec> FuncSpec::getVisibleArgs() const {
  std::vector<ArgSpec> visible;
  for (const ArgSpec &arg : args)
    if (arg.weight.empty())
      visible.push_back(arg);
  return visible;
}

std::string FuncSpec::signature() const {
  std::string text = "(";
  bool first = true, inOutputs = false;
  for (const ArgSpec &arg : args) {
    if (!arg.weight.empty())
      continue;
    if (arg.isOutput && !inOutputs) {
      text += ") -> (";
      inOutputs = first = true;
    }
    if (!first)
      text += ", ";
    first = false;
    text += arg.str();
  }
  if (!inOutputs)
    text += ") -> (";
  return text + ")";
}

const FuncSpec *Manifest::lookup(std::string_view name) const {
  for (const FuncSpec &func : funcs)
    if (func.name == name)
      return &func;
  return nullptr;
}

bool hidet::run::parseManifest(std::string_view text, Manifest &manifest,
                               std::string &error) {
  manifest = Manifest();
  return Parser(manifest, error).parse(text);
}
