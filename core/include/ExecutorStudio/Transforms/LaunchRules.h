//===- LaunchRules.h - what a launch into a dispatched target carries -*- C++ -*-===//
//
// One rule for every front end that decides whether a kernel can run on an
// executor: dispatch-executor-targets refuses a launch with this message,
// and the studio refuses to launch the same kernel with the same one.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_TRANSFORMS_LAUNCHRULES_H
#define EXECUTORSTUDIO_TRANSFORMS_LAUNCHRULES_H

#include <optional>
#include <string>

namespace mlir {
class Type;
} // namespace mlir

namespace catalyst {

/// Why a launch into a dispatched target cannot carry a value of `type` as
/// an operand (or a result, `isResult`), in dispatch-executor-targets' words
/// (`operand of type 'complex<f64>' cannot be sent to an executor: ...`);
/// nullopt when it can. Launches carry memrefs and scalars (i1, i8, i16,
/// i32, i64, index, f16, bf16, f32, f64: executor::isLaunchScalar);
/// `beforeBufferization` lets ranked tensors through, which bufferization
/// turns into memrefs.
std::optional<std::string> dispatchedLaunchProblem(mlir::Type type, bool isResult,
                                                   bool beforeBufferization = false);

} // namespace catalyst

#endif // EXECUTORSTUDIO_TRANSFORMS_LAUNCHRULES_H
