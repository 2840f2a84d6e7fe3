//===- ExoAMAttrs.h - exoam attributes and enums ----------------*- C++ -*-===//
//
// Part of ExoGPU. Visibility levels, qualitative-timeline sets, accesses and
// thread mappings of AMIR statements (seeds/002 Fig. 4, Def. 5.2).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOAM_IR_EXOAMATTRS_H
#define EXOGPU_DIALECT_EXOAM_IR_EXOAMATTRS_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMEnums.h.inc"

namespace mlir::exoam {

/// The kind of one coordinate of an AccessAttr (Fig. 6 W-POINT, W-RANGE).
enum class AccessCoordKind : int32_t {
  Point = 0, ///< `c`: one index
  Range = 1, ///< `c1 to c2`: the inclusive interval
};

/// A set of qualitative timelines as a bit mask: bit `i` is the timeline
/// whose exogpu::QualTimeline value is `i`.
using QualMask = uint32_t;

/// The mask of one timeline.
inline QualMask getQualBit(exogpu::QualTimeline timeline) {
  return QualMask(1) << static_cast<uint32_t>(timeline);
}

/// The mask of every timeline of Fig. 15.
QualMask getAllQualTimelines();

} // namespace mlir::exoam

#define GET_ATTRDEF_CLASSES
#include "ExoGPU/Dialect/ExoAM/IR/ExoAMAttrs.h.inc"

#endif // EXOGPU_DIALECT_EXOAM_IR_EXOAMATTRS_H
