//===- Retarget.h - a document with a target compiled for another triple -*- C++ -*-===//
//
// The executor panel knows the connected executor's triple (ORC's setup
// message); a kernel whose target module is compiled for another
// architecture would be refused there. These say so, and give the document
// with that target's catalyst.target.triple set, which the studio re-runs
// (and saves as a reproducer).
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_RETARGET_H
#define STUDIOMODEL_RETARGET_H

#include "StudioModel/Kernels.h"

#include <string>
#include <string_view>

namespace executor_studio::gui {

/// Why `kernel` cannot run on an executor of `executorTriple` ("compiled for
/// x86_64-pc-linux-gnu, the executor runs aarch64-unknown-linux-gnu"), or
/// "" when it can (or the triple is not known yet).
std::string otherTripleNote(const Kernel &kernel, std::string_view executorTriple);

/// `source` (named `bufferName`) with `catalyst.target.triple` of the target
/// module @`module` set to `triple`, the rest of the text as it was. False
/// with `error` when the source does not parse or has no such target.
bool setTargetTriple(std::string_view source, std::string_view bufferName,
                     std::string_view module, std::string_view triple,
                     std::string &result, std::string &error);

} // namespace executor_studio::gui

#endif // STUDIOMODEL_RETARGET_H
