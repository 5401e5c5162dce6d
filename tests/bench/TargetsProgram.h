//===- TargetsProgram.h - issue 39's program of N targets -------*- C++ -*-===//
//
// The program the pipeline bench (--targets) and the GUI bench (--targets)
// record: @main launches each of N catalyst.target modules once, each an
// 8-element f64 loop kernel.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSTUDIO_TESTS_BENCH_TARGETSPROGRAM_H
#define EXECUTORSTUDIO_TESTS_BENCH_TARGETSPROGRAM_H

#include <sstream>
#include <string>

namespace {
/// The host of issue 39's bench: @main launches each of `n` local targets
/// once; target `edit` scales by `editValue` instead of its index.
inline std::string generateTargets(int n, int edit = -1, int editValue = 0,
                                   int linesAbove = -1) {
  std::ostringstream os;
  os << "module @host {\n  func.func @main(%x: memref<8xf64>) {\n";
  for (int i = 0; i < n; ++i)
    os << "    %r" << i << " = catalyst.launch_kernel @k" << i << "::@kernel_"
       << i << "(%x) : (memref<8xf64>) -> memref<8xf64>\n";
  os << "    return\n  }\n";
  for (int i = 0; i < n; ++i) {
    int scale = i == edit ? editValue : i + 1;
    if (i == linesAbove)
      os << "  // a line inserted above this kernel and the ones below\n";
    os << "  module @k" << i << " attributes {catalyst.target = {}} {\n"
       << "    func.func @kernel_" << i
       << "(%x: memref<8xf64>) -> memref<8xf64> {\n"
       << "      %c0 = arith.constant 0 : index\n"
       << "      %c1 = arith.constant 1 : index\n"
       << "      %c8 = arith.constant 8 : index\n"
       << "      %s = arith.constant " << scale << ".0 : f64\n"
       << "      %y = memref.alloc() : memref<8xf64>\n"
       << "      scf.for %i = %c0 to %c8 step %c1 {\n"
       << "        %v = memref.load %x[%i] : memref<8xf64>\n"
       << "        %w = arith.mulf %v, %s : f64\n"
       << "        memref.store %w, %y[%i] : memref<8xf64>\n"
       << "      }\n"
       << "      return %y : memref<8xf64>\n    }\n  }\n";
  }
  os << "}\n";
  return os.str();
}

} // namespace

#endif // EXECUTORSTUDIO_TESTS_BENCH_TARGETSPROGRAM_H
