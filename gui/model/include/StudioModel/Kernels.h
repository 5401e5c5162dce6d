//===- Kernels.h - the kernels a document launches --------------*- C++ -*-===//
//
// The entries of `catalyst.target` modules that the host names in
// `catalyst.launch_kernel @module::@entry`: those are the ones
// cross-compile-targets exposes as `_catalyst_pyface_<entry>` in
// `{workspace}/{module}/{module}.o`, so the executor panel can launch them.
//
//===----------------------------------------------------------------------===//
#ifndef STUDIOMODEL_KERNELS_H
#define STUDIOMODEL_KERNELS_H

#include "ExecutorStudio/Launch/KernelArguments.h"

#include <string>
#include <string_view>
#include <vector>

namespace executor_studio::gui {

struct Kernel {
  std::string module; ///< the target module's name (`compute`; `unnamed`)
  std::string entry;  ///< the function (`square`)
  /// `{address = ...}` of `catalyst.dispatch`; empty for local targets.
  std::string dispatchAddress;
  /// `{workspace}/{module}/{module}.o`.
  std::string object;
  /// The triple its target is compiled for (catalyst.target.triple, else
  /// the host's).
  std::string triple;
  std::vector<ShapedArg> inputs, results;
  /// `(memref<4xf64>) -> memref<4xf64>`.
  std::string signature;
  /// The function's line in the document (0: unknown).
  unsigned line = 0;
  /// Whether every argument and result is a memref a launch can carry.
  bool launchable = false;
  std::string why;

  /// `@compute::@square`.
  std::string qualifiedName() const { return "@" + module + "::@" + entry; }
  /// Whether `name` names this kernel: `square`, `@square`,
  /// `compute::square` or `@compute::@square`.
  bool isNamed(std::string_view name) const;
};

/// Parses `source` (named `bufferName`) and lists its launched kernels, in
/// the order the host first launches them; objects under `workspace`.
/// Returns false with `error` when the source does not parse.
bool findKernels(std::string_view source, std::string_view bufferName,
                 std::string_view workspace, std::vector<Kernel> &kernels,
                 std::string &error);

} // namespace executor_studio::gui

#endif // STUDIOMODEL_KERNELS_H
