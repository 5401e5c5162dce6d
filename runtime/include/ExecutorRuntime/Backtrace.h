//===- Backtrace.h - a crashed kernel's frames, named -----------*- C++ -*-===//
//
// executor-server's crash report carries the crashed thread's return
// addresses, captured in the session's signal handler ("#N 0xADDRESS", and
// " in LIBRARY+0xOFFSET" for frames in the executor's own libraries). The
// client names them against the objects it linked into that session:
// kernel frames get their function and, with debug info (executor-compile
// -g), the .mlir file, line and column; other frames their library and, when
// the library is on this host too, its symbol.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_BACKTRACE_H
#define EXECUTORRUNTIME_BACKTRACE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace executor_studio::runtime {

/// One frame of a crash report.
struct CrashFrame {
  /// Where it is in the session process.
  uint64_t address = 0;
  /// In an object this client linked into the session (a kernel's code).
  bool inKernel = false;
  /// Inlined into the next frame (which has the same address).
  bool inlined = false;
  /// The function, when known.
  std::string function;
  /// The kernel object's name as it was sent, or the executor's library.
  std::string module;
  /// From the start of `module` (libraries) or of `function` (kernels).
  uint64_t offset = 0;
  /// The source position (the .mlir file's, for kernels built with -g);
  /// line 0 when there is no debug info.
  std::string file;
  unsigned line = 0, column = 0;

  /// "square at crash.mlir:12:10" (" (inlined)" when it is),
  /// "square+0x1c in square.o",
  /// "memcpy+0x40 in /usr/lib/.../libc.so.6" or "0x7f00... in libc.so.6+0x1234".
  std::string describe() const;
};

/// The frames of a crash report as the executor sent them (address, and
/// module and offset for frames in its libraries); malformed lines and
/// lines past the 64th frame are left out.
std::vector<CrashFrame> parseCrashFrames(llvm::StringRef report);

/// "\n  #0 ..." a frame, and a last line saying "rebuild with -g for lines"
/// when a kernel frame has no line; "" for no frames. With the crash's
/// `signal`, what a trap in a kernel (SIGILL: code LLVM proved unreachable)
/// or a first frame in no code (a kernel that ran past its end) most likely
/// means, and to rebuild with -g -O0.
std::string formatBacktrace(llvm::ArrayRef<CrashFrame> frames,
                            int signal = 0);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_BACKTRACE_H
