//===- TaskMappingAttrs.cpp - Task-mapping attributes ---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the mapping attributes: their syntax, verifiers and
// the bridge to the algebra (toAlgebra / getMappingAttr).
//
// Syntax:
//   #tm.spatial<[4, 8]>                 #tm.spatial<[4, 8], ranks = [1, 0]>
//   #tm.repeat<[2, 3]>                  #tm.repeat<[8, 8], unroll = [none, full]>
//   #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
//   #tm.project<spatial<[4, 8]>, dims = [1]>
//   #tm.auto_map<[8, 32], workers = 64>   (parses to a #tm.compose)
//
//===----------------------------------------------------------------------===//

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::tm;

#include "Hidet/Dialect/TaskMapping/IR/TaskMappingInterfaces.cpp.inc"
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingAttrs.cpp.inc"

void TaskMappingDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static algebra::Shape toShape(ArrayRef<int64_t> values) {
  return algebra::Shape(values.begin(), values.end());
}

/// Reports a non-empty message of the algebra's validators.
static LogicalResult
check(function_ref<InFlightDiagnostic()> emitError, const std::string &msg) {
  if (msg.empty())
    return success();
  return emitError() << msg;
}

/// Parses `[a, b, ...]`.
static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    int64_t v;
    if (parser.parseInteger(v))
      return failure();
    values.push_back(v);
    return success();
  });
}

static void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

static bool isRowMajor(ArrayRef<int64_t> ranks) {
  for (auto [i, r] : llvm::enumerate(ranks))
    if (r != static_cast<int64_t>(i))
      return false;
  return true;
}

static SmallVector<int64_t> rowMajor(size_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

// Unroll hints are stored as integers: 1 = none, 0 = full, k >= 2 = factor k.
static algebra::LoopHint decodeHint(int64_t v) {
  if (v == 0)
    return algebra::LoopHint::full();
  if (v == 1)
    return algebra::LoopHint::none();
  return algebra::LoopHint::unrollBy(v);
}

static int64_t encodeHint(const algebra::LoopHint &h) {
  switch (h.kind) {
  case algebra::LoopHint::Kind::None:
    return 1;
  case algebra::LoopHint::Kind::Full:
    return 0;
  case algebra::LoopHint::Kind::Factor:
    return h.factor;
  }
  return 1;
}

/// Parses the optional `, ranks = [...]` and `, unroll = [...]` tails;
/// `allowUnroll` is false for spatial mappings.
static ParseResult parseLeafOptions(AsmParser &parser, bool allowUnroll,
                                    SmallVectorImpl<int64_t> &ranks,
                                    bool &hasRanks,
                                    SmallVectorImpl<int64_t> &unroll,
                                    bool &hasUnroll) {
  hasRanks = false;
  hasUnroll = false;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "ranks") {
      if (hasRanks)
        return parser.emitError(keyLoc) << "duplicate key 'ranks'";
      hasRanks = true;
      if (parseIntList(parser, ranks))
        return failure();
      continue;
    }
    if (key == "unroll" && allowUnroll) {
      if (hasUnroll)
        return parser.emitError(keyLoc) << "duplicate key 'unroll'";
      hasUnroll = true;
      auto parseOne = [&]() -> ParseResult {
        int64_t factor;
        SMLoc factorLoc = parser.getCurrentLocation();
        OptionalParseResult intResult = parser.parseOptionalInteger(factor);
        if (intResult.has_value()) {
          if (failed(*intResult))
            return failure();
          // 0 and 1 are the encodings of `full` and `none`; spelled as
          // numbers they would be ambiguous.
          if (factor < 2)
            return parser.emitError(factorLoc)
                   << "unroll factor must be at least 2, got " << factor
                   << " (write 'none' or 'full')";
          unroll.push_back(factor);
          return success();
        }
        StringRef word;
        SMLoc wordLoc = parser.getCurrentLocation();
        if (parser.parseKeyword(&word))
          return failure();
        if (word == "none")
          unroll.push_back(1);
        else if (word == "full")
          unroll.push_back(0);
        else
          return parser.emitError(wordLoc)
                 << "expected 'none', 'full' or an unroll factor, got '"
                 << word << "'";
        return success();
      };
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                         parseOne))
        return failure();
      continue;
    }
    return parser.emitError(keyLoc) << "unknown key '" << key << "'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SpatialAttr
//===----------------------------------------------------------------------===//

LogicalResult SpatialAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> ranks) {
  if (failed(check(emitError, algebra::checkShape(toShape(shape)))))
    return failure();
  return check(emitError, algebra::checkRanks(toShape(ranks), shape.size()));
}

Attribute SpatialAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, ranks, unroll;
  bool hasRanks, hasUnroll;
  if (parser.parseLess() || parseIntList(parser, shape) ||
      parseLeafOptions(parser, /*allowUnroll=*/false, ranks, hasRanks, unroll,
                       hasUnroll) ||
      parser.parseGreater())
    return {};
  // An explicit `ranks = []` is an error of the verifier, not row-major.
  if (!hasRanks)
    ranks = rowMajor(shape.size());
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), shape, ranks);
}

void SpatialAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printIntList(printer, getShape());
  if (!isRowMajor(getRanks())) {
    printer << ", ranks = ";
    printIntList(printer, getRanks());
  }
  printer << ">";
}

algebra::TaskMapping SpatialAttr::toAlgebra() const {
  return algebra::TaskMapping::spatial(toShape(getShape()),
                                       toShape(getRanks()));
}

//===----------------------------------------------------------------------===//
// RepeatAttr
//===----------------------------------------------------------------------===//

LogicalResult RepeatAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> ranks,
                                 ArrayRef<int64_t> unroll) {
  if (failed(check(emitError, algebra::checkShape(toShape(shape)))) ||
      failed(check(emitError,
                   algebra::checkRanks(toShape(ranks), shape.size()))))
    return failure();
  if (unroll.size() != shape.size())
    return emitError() << "unroll has " << unroll.size()
                       << " entries but the task shape has rank "
                       << shape.size();
  for (auto [i, u] : llvm::enumerate(unroll))
    if (u < 0)
      return emitError() << "unroll hint of dimension " << i
                         << " must be 1 (none), 0 (full) or a factor >= 2, got "
                         << u;
  return success();
}

RepeatAttr RepeatAttr::get(MLIRContext *context,
                           const algebra::TaskMapping &mapping) {
  SmallVector<int64_t> unroll =
      llvm::map_to_vector(mapping.getHints(), encodeHint);
  return get(context, mapping.getShape(), mapping.getRanks(), unroll);
}

algebra::LoopHints RepeatAttr::getLoopHints() const {
  algebra::LoopHints hints;
  for (int64_t u : getUnroll())
    hints.push_back(decodeHint(u));
  return hints;
}

Attribute RepeatAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, ranks, unroll;
  bool hasRanks, hasUnroll;
  if (parser.parseLess() || parseIntList(parser, shape) ||
      parseLeafOptions(parser, /*allowUnroll=*/true, ranks, hasRanks, unroll,
                       hasUnroll) ||
      parser.parseGreater())
    return {};
  // An explicit `ranks = []` is an error of the verifier, not row-major.
  if (!hasRanks)
    ranks = rowMajor(shape.size());
  if (!hasUnroll)
    for (int64_t e : shape)
      unroll.push_back(encodeHint(algebra::LoopHint::defaultFor(e)));
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), shape, ranks, unroll);
}

void RepeatAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printIntList(printer, getShape());
  if (!isRowMajor(getRanks())) {
    printer << ", ranks = ";
    printIntList(printer, getRanks());
  }
  bool isDefault = llvm::all_of(llvm::zip(getShape(), getUnroll()), [](auto p) {
    return std::get<1>(p) ==
           encodeHint(algebra::LoopHint::defaultFor(std::get<0>(p)));
  });
  if (!isDefault) {
    printer << ", unroll = [";
    llvm::interleaveComma(getUnroll(), printer, [&](int64_t u) {
      if (u == 0)
        printer << "full";
      else if (u == 1)
        printer << "none";
      else
        printer << u;
    });
    printer << "]";
  }
  printer << ">";
}

algebra::TaskMapping RepeatAttr::toAlgebra() const {
  return algebra::TaskMapping::repeat(toShape(getShape()), toShape(getRanks()),
                                      getLoopHints());
}

//===----------------------------------------------------------------------===//
// ComposeAttr
//===----------------------------------------------------------------------===//

LogicalResult hidet::tm::verifyComposition(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<TaskMappingAttrInterface> factors) {
  if (factors.empty())
    return emitError() << "a composition needs at least one factor";
  size_t rank = factors.front().getTaskRank();
  // Bound the products of workers and tasks like checkShape bounds a leaf.
  int64_t workers = 1, tasks = 1;
  for (auto [i, f] : llvm::enumerate(factors)) {
    if (f.getTaskRank() != rank)
      return emitError() << "rank mismatch in composition: factor " << i
                         << " has rank " << f.getTaskRank()
                         << " but factor 0 has rank " << rank;
    algebra::TaskMapping m = f.toAlgebra();
    int64_t n = m.getNumWorkers(), t = algebra::product(m.getTaskShape());
    if (workers > algebra::kMaxTasks / n || tasks > algebra::kMaxTasks / t)
      return emitError() << "composition has more than 2^40 workers or tasks";
    workers *= n;
    tasks *= t;
  }
  return success();
}

LogicalResult
ComposeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                    ArrayRef<TaskMappingAttrInterface> factors) {
  return verifyComposition(emitError, factors);
}

/// Parses `auto_map<[shape], workers = N [, ranks = [...]]>` (after the
/// keyword) into the composition Hidet's auto_map builds.
static FailureOr<TaskMappingAttrInterface> parseAutoMap(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape, ranks;
  int64_t workers = 0;
  bool hasWorkers = false, hasRanks = false;
  if (parser.parseLess() || parseIntList(parser, shape))
    return failure();
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if ((key == "workers" && hasWorkers) || (key == "ranks" && hasRanks))
      return parser.emitError(keyLoc) << "duplicate key '" << key << "'";
    if (key == "workers") {
      if (parser.parseInteger(workers))
        return failure();
      hasWorkers = true;
    } else if (key == "ranks") {
      if (parseIntList(parser, ranks))
        return failure();
      hasRanks = true;
    } else {
      return parser.emitError(keyLoc) << "unknown key '" << key << "'";
    }
  }
  if (parser.parseGreater())
    return failure();
  if (!hasWorkers)
    return parser.emitError(loc, "auto_map needs 'workers = N'");
  // The algebra reads empty ranks as row-major; an explicit `[]` is wrong.
  if (hasRanks && ranks.empty())
    if (std::string msg = algebra::checkRanks({}, shape.size()); !msg.empty())
      return parser.emitError(loc) << msg;
  std::string error;
  std::optional<algebra::TaskMapping> m =
      algebra::TaskMapping::autoMap(toShape(shape), workers, toShape(ranks),
                                    &error);
  if (!m)
    return parser.emitError(loc) << error;
  return getMappingAttr(parser.getContext(), *m);
}

FailureOr<TaskMappingAttrInterface> hidet::tm::parseMappingFactor(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword))) {
    if (keyword == "auto_map")
      return parseAutoMap(parser);
    Attribute attr = llvm::StringSwitch<function_ref<Attribute()>>(keyword)
                         .Case("spatial", [&] {
                           return SpatialAttr::parse(parser, Type());
                         })
                         .Case("repeat", [&] {
                           return RepeatAttr::parse(parser, Type());
                         })
                         .Case("compose", [&] {
                           return ComposeAttr::parse(parser, Type());
                         })
                         .Case("project", [&] {
                           return ProjectAttr::parse(parser, Type());
                         })
                         .Default([&] {
                           parser.emitError(loc)
                               << "unknown task mapping '" << keyword
                               << "'; expected spatial, repeat, compose, "
                                  "project or auto_map";
                           return Attribute();
                         })();
    if (!attr)
      return failure();
    return cast<TaskMappingAttrInterface>(attr);
  }
  Attribute attr;
  if (parser.parseAttribute(attr))
    return failure();
  auto mapping = dyn_cast<TaskMappingAttrInterface>(attr);
  if (!mapping)
    return parser.emitError(loc) << "expected a task mapping, got " << attr;
  return mapping;
}

void hidet::tm::printMappingFactor(AsmPrinter &printer,
                            TaskMappingAttrInterface mapping) {
  llvm::TypeSwitch<Attribute>(mapping)
      .Case([&](SpatialAttr a) {
        printer << "spatial";
        a.print(printer);
      })
      .Case([&](RepeatAttr a) {
        printer << "repeat";
        a.print(printer);
      })
      .Case([&](ComposeAttr a) {
        printer << "compose";
        a.print(printer);
      })
      .Case([&](ProjectAttr a) {
        printer << "project";
        a.print(printer);
      })
      .Default([&](Attribute a) { printer.printAttribute(a); });
}

Attribute ComposeAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<TaskMappingAttrInterface> factors;
  if (parser.parseLess())
    return {};
  do {
    FailureOr<TaskMappingAttrInterface> f = parseMappingFactor(parser);
    if (failed(f))
      return {};
    factors.push_back(*f);
  } while (succeeded(parser.parseOptionalStar()));
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    factors);
}

void ComposeAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleave(
      getFactors(), printer,
      [&](TaskMappingAttrInterface f) { printMappingFactor(printer, f); },
      " * ");
  printer << ">";
}

algebra::TaskMapping ComposeAttr::toAlgebra() const {
  std::vector<algebra::TaskMapping> factors;
  for (TaskMappingAttrInterface f : getFactors())
    factors.push_back(f.toAlgebra());
  return algebra::TaskMapping::compose(std::move(factors));
}

//===----------------------------------------------------------------------===//
// ProjectAttr
//===----------------------------------------------------------------------===//

LogicalResult ProjectAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  TaskMappingAttrInterface base,
                                  ArrayRef<int64_t> dims) {
  if (!base)
    return emitError() << "projection needs a base mapping";
  if (dims.empty())
    return emitError() << "projection needs at least one dimension";
  int64_t rank = base.getTaskRank();
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitError() << "projected dimension " << d
                         << " is out of range for a task shape of rank "
                         << rank;
    if (!seen.insert(d).second)
      return emitError() << "projected dimension " << d << " appears twice";
  }
  return success();
}

Attribute ProjectAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> dims;
  if (parser.parseLess())
    return {};
  FailureOr<TaskMappingAttrInterface> base = parseMappingFactor(parser);
  if (failed(base) || parser.parseComma() || parser.parseKeyword("dims") ||
      parser.parseEqual() || parseIntList(parser, dims) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *base, dims);
}

void ProjectAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printMappingFactor(printer, getBase());
  printer << ", dims = ";
  printIntList(printer, getDims());
  printer << ">";
}

algebra::TaskMapping ProjectAttr::toAlgebra() const {
  return algebra::TaskMapping::project(
      getBase().toAlgebra(), std::vector<int64_t>(getDims().begin(),
                                                  getDims().end()));
}

//===----------------------------------------------------------------------===//
// Algebra -> attribute
//===----------------------------------------------------------------------===//

TaskMappingAttrInterface
hidet::tm::getMappingAttr(MLIRContext *context, const algebra::TaskMapping &mapping) {
  using Kind = algebra::TaskMapping::Kind;
  switch (mapping.getKind()) {
  case Kind::Spatial:
    return SpatialAttr::get(context, mapping.getShape(), mapping.getRanks());
  case Kind::Repeat:
    return RepeatAttr::get(context, mapping);
  case Kind::Compose: {
    SmallVector<TaskMappingAttrInterface> factors;
    for (const algebra::TaskMapping &f : mapping.getFactors())
      factors.push_back(getMappingAttr(context, f));
    return ComposeAttr::get(context, factors);
  }
  case Kind::Project:
    return ProjectAttr::get(context,
                            getMappingAttr(context, mapping.getFactors()[0]),
                            mapping.getProjectedDims());
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Dialect attribute hooks
//===----------------------------------------------------------------------===//

Attribute TaskMappingDialect::parseAttribute(DialectAsmParser &parser,
                                             Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Attribute attr;
  // auto_map is a spelling, not an attribute of its own: it parses to the
  // composition it denotes.
  if (succeeded(parser.parseOptionalKeyword("auto_map"))) {
    FailureOr<TaskMappingAttrInterface> m = parseAutoMap(parser);
    return succeeded(m) ? Attribute(*m) : Attribute();
  }
  OptionalParseResult result =
      generatedAttributeParser(parser, &mnemonic, type, attr);
  if (result.has_value())
    return attr;
  parser.emitError(loc) << "unknown attribute '#tm." << mnemonic << "'";
  return {};
}

void TaskMappingDialect::printAttribute(Attribute attr,
                                        DialectAsmPrinter &printer) const {
  (void)generatedAttributePrinter(attr, printer);
}
