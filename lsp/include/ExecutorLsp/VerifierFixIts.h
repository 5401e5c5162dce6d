//===- VerifierFixIts.h - fixes for what the verifiers report ---*- C++ -*-===//
//
// The verifiers of the executor and catalyst dialects (and the passes) say
// how to fix many of their errors. Each fix here belongs to one such check:
// it looks at the op that a diagnostic is attached to, checks the same
// condition on the IR that the verifier checks (never the message's text),
// and when it fails, offers text edits that make it hold.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORLSP_VERIFIERFIXITS_H
#define EXECUTORLSP_VERIFIERFIXITS_H

#include "ExecutorLsp/Forward.h"

#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace executor_studio {
namespace lsp {

struct FixIt {
  std::string title;
  std::vector<llvm::lsp::TextEdit> edits;
  /// Whether it is the fix (VS Code's "auto fix").
  bool preferred = false;
};

/// The fixes for the errors that the verifier of `op`, or a pass on it,
/// reports: a launch's result types that differ from its callee's, a target
/// module that is neither `catalyst.target` nor dispatched, a dispatched
/// module without an object, an address without a port (or with blanks, or
/// an unbracketed IPv6 host) in `executor.open` or `catalyst.dispatch`, and
/// an `executor.call` whose `num_input_args` is missing or wrong.
void getVerifierFixIts(const ParsedChunk &chunk, mlir::Operation *op,
                       std::vector<FixIt> &fixes);

} // namespace lsp
} // namespace executor_studio

#endif // EXECUTORLSP_VERIFIERFIXITS_H
