//===- ExoAMAttrs.cpp - exoam attributes ---------------------------------===//
//
// Part of ExoGPU. Visibility levels, qualitative-timeline sets, accesses and
// thread mappings (seeds/002 Fig. 4, Def. 4.2, Def. 5.2; seeds/001).
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.h"
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMDialect.h"
#include "ExoGPU/Dialect/ExoAM/IR/SyncTimelines.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::exoam;

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.cpp.inc"

void ExoAMDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.cpp.inc"
      >();
}

/// The largest cluster a thread mapping may describe: far above CUDA's
/// limits (16 CTAs of 1024 threads), low enough that thread arithmetic never
/// overflows.
static constexpr int64_t kMaxClusterSize = int64_t(1) << 24;

QualMask mlir::exoam::getAllQualTimelines() {
  return (QualMask(1) << (exogpu::getMaxEnumValForQualTimeline() + 1)) - 1;
}

//===----------------------------------------------------------------------===//
// QualTimelineSetAttr
//===----------------------------------------------------------------------===//

LogicalResult
QualTimelineSetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            uint32_t bits) {
  if (bits & ~getAllQualTimelines())
    return emitError() << "qualitative timeline set has bits outside the "
                          "timelines of Fig. 15";
  return success();
}

bool QualTimelineSetAttr::contains(exogpu::QualTimeline timeline) const {
  return getBits() & getQualBit(timeline);
}

SmallVector<exogpu::QualTimeline> QualTimelineSetAttr::getTimelines() const {
  SmallVector<exogpu::QualTimeline> timelines;
  for (uint32_t i = 0; i <= exogpu::getMaxEnumValForQualTimeline(); ++i)
    if (std::optional<exogpu::QualTimeline> q =
            exogpu::symbolizeQualTimeline(i);
        q && contains(*q))
      timelines.push_back(*q);
  return timelines;
}

void QualTimelineSetAttr::printBody(AsmPrinter &printer) const {
  printer << '[';
  llvm::interleaveComma(getTimelines(), printer, [&](exogpu::QualTimeline q) {
    printer << exogpu::stringifyQualTimeline(q);
  });
  printer << ']';
}

/// Parses `qfull(tl)` or `qtmp(tl)` after `keyword`.
static FailureOr<QualMask> parseSyncTimelineSet(AsmParser &parser,
                                                StringRef keyword) {
  StringRef name;
  SMLoc loc;
  if (parser.parseLParen() ||
      (loc = parser.getCurrentLocation(), parser.parseKeyword(&name)) ||
      parser.parseRParen())
    return failure();
  std::optional<exogpu::SyncTimeline> timeline =
      exogpu::symbolizeSyncTimeline(name);
  if (!timeline)
    return parser.emitError(loc) << "unknown sync timeline '" << name << "'";
  return keyword == "qfull" ? getFullTimelines(*timeline)
                            : getTemporalTimelines(*timeline);
}

QualTimelineSetAttr QualTimelineSetAttr::parseBody(AsmParser &parser) {
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword, {"qfull", "qtmp"}))) {
    FailureOr<QualMask> bits = parseSyncTimelineSet(parser, keyword);
    if (failed(bits))
      return {};
    return get(parser.getContext(), *bits);
  }
  QualMask bits = 0;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc nameLoc = parser.getCurrentLocation();
            StringRef name;
            if (parser.parseKeyword(&name))
              return failure();
            std::optional<exogpu::QualTimeline> q =
                exogpu::symbolizeQualTimeline(name);
            if (!q)
              return parser.emitError(nameLoc)
                     << "unknown qualitative timeline '" << name << "'";
            bits |= getQualBit(*q);
            return success();
          }))
    return {};
  return get(parser.getContext(), bits);
}

Attribute QualTimelineSetAttr::parse(AsmParser &parser, Type) {
  QualTimelineSetAttr attr;
  if (parser.parseLess() || !(attr = parseBody(parser)) ||
      parser.parseGreater())
    return {};
  return attr;
}

void QualTimelineSetAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// AccessAttr
//===----------------------------------------------------------------------===//

LogicalResult AccessAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr var, ArrayRef<int32_t> kinds,
                                 AffineMap coords) {
  if (!var || var.getValue().empty())
    return emitError() << "an access must name a variable";
  unsigned exprs = 0;
  for (int32_t kind : kinds) {
    if (kind != static_cast<int32_t>(AccessCoordKind::Point) &&
        kind != static_cast<int32_t>(AccessCoordKind::Range))
      return emitError() << "unknown coordinate kind " << kind
                         << " (0 is a point, 1 a range)";
    exprs += kind == static_cast<int32_t>(AccessCoordKind::Range) ? 2 : 1;
  }
  if (!coords || coords.getNumResults() != exprs)
    return emitError() << "access of @" << var.getValue() << " needs " << exprs
                       << " coordinate expressions";
  if (coords.getNumSymbols() != 0)
    return emitError() << "coordinate expressions have no symbols";
  return success();
}

Attribute AccessAttr::parse(AsmParser &parser, Type) {
  std::string var;
  SmallVector<int32_t> kinds;
  AffineMap coords;
  if (parser.parseLess() || parser.parseString(&var) || parser.parseComma() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       return parser.parseInteger(
                                           kinds.emplace_back());
                                     }) ||
      parser.parseComma() || parser.parseAffineMap(coords) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(),
                    StringAttr::get(parser.getContext(), var),
                    ArrayRef<int32_t>(kinds), coords);
}

void AccessAttr::print(AsmPrinter &printer) const {
  printer << "<\"";
  llvm::printEscapedString(getVar().getValue(), printer.getStream());
  printer << "\", [";
  llvm::interleaveComma(getKinds(), printer);
  printer << "], " << getCoords() << '>';
}

//===----------------------------------------------------------------------===//
// Thread mappings
//===----------------------------------------------------------------------===//

LogicalResult TilingOpAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   std::optional<int64_t> iter,
                                   int64_t linearBox, int64_t linearOffset) {
  if (iter && *iter < 0)
    return emitError() << "tiling operator iterator index must be >= 0";
  if (linearBox <= 0 || linearBox > kMaxClusterSize)
    return emitError() << "tiling operator box must be in [1, "
                       << kMaxClusterSize << "]";
  if (linearOffset < 0 || linearOffset > kMaxClusterSize)
    return emitError() << "tiling operator offset must be in [0, "
                       << kMaxClusterSize << "]";
  return success();
}

LogicalResult
TilingDimAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t extent, ArrayRef<TilingOpAttr> ops) {
  if (extent <= 0 || extent > kMaxClusterSize)
    return emitError() << "tiling dimension extent must be in [1, "
                       << kMaxClusterSize << "]";
  return success();
}

LogicalResult
ThreadMappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ExecScope scope, ArrayRef<TilingDimAttr> dims) {
  if (scope == ExecScope::cpu) {
    if (!dims.empty())
      return emitError() << "a cpu thread mapping has no tiling (Def. 5.2: "
                            "CPU statements run on all threads)";
    return success();
  }
  if (dims.empty())
    return emitError() << "a gpu thread mapping needs at least one tiling "
                          "dimension";
  int64_t size = 1;
  for (TilingDimAttr dim : dims) {
    if (dim.getExtent() > kMaxClusterSize / size)
      return emitError() << "the tiling describes more than " << kMaxClusterSize
                         << " threads";
    size *= dim.getExtent();
  }
  return success();
}

int64_t ThreadMappingAttr::getClusterSize() const {
  int64_t size = 1;
  for (TilingDimAttr dim : getDims())
    size *= dim.getExtent();
  return size;
}
