//===- BacktraceTest.cpp - crash report frames: parsed and printed --------===//
#include "ExecutorRuntime/Backtrace.h"
#include "ExecutorRuntime/Errors.h"

#include <gtest/gtest.h>

#include <csignal>

using namespace executor_studio::runtime;

TEST(Backtrace, FramesAreParsedFromTheReport) {
  std::vector<CrashFrame> frames = parseCrashFrames(
      "kernel oob crashed with signal 11 (Segmentation fault)\n"
      "#0 0x7f0000001234\n"
      "#1 0x5555000012ab in /usr/bin/executor-server+0x12ab\n"
      "#2 0x7fee00029d90 in /lib/x86_64-linux-gnu/libc.so.6+0x29d90");
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_EQ(frames[0].address, 0x7f0000001234u);
  EXPECT_EQ(frames[0].module, "");
  EXPECT_EQ(frames[1].module, "/usr/bin/executor-server");
  EXPECT_EQ(frames[1].offset, 0x12abu);
  EXPECT_EQ(frames[2].address, 0x7fee00029d90u);
  EXPECT_EQ(frames[2].offset, 0x29d90u);
  // The first line still says which kernel and signal.
  std::string kernel;
  int signal = 0;
  EXPECT_TRUE(parseCrashReport("kernel oob crashed with signal 11 (Segmentation "
                               "fault)\n#0 0x1",
                               kernel, signal));
  EXPECT_EQ(kernel, "oob");
  EXPECT_EQ(signal, 11);
}

TEST(Backtrace, MalformedFrameLinesAreLeftOut) {
  std::vector<CrashFrame> frames = parseCrashFrames(
      "kernel k crashed with signal 6 (Aborted)\n"
      "#0 1234\n"                      // not hex
      "#x 0x10\n"                      // no index
      "#1 0x10 in lib.so\n"            // no offset
      "#2 0x10 in lib.so+0xzz\n"       // a bad offset
      "#3 0x10 trailing\n"             // neither " in " nor the end
      "#4 0x20\n"
      "0x30\n");
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].address, 0x20u);
}

TEST(Backtrace, AtMost64FramesAreTaken) {
  std::string report = "kernel k crashed with signal 11 (Segmentation fault)";
  for (int i = 0; i < 200; ++i)
    report += "\n#" + std::to_string(i) + " 0x10";
  EXPECT_EQ(parseCrashFrames(report).size(), 64u);
}

TEST(Backtrace, FramesAreDescribedByWhatIsKnown) {
  CrashFrame lined;
  lined.inKernel = true;
  lined.function = "square";
  lined.module = "/ws/compute/compute.o";
  lined.file = "/src/prog.mlir";
  lined.line = 12;
  lined.column = 7;
  EXPECT_EQ(lined.describe(), "square at /src/prog.mlir:12:7");
  CrashFrame kernel = lined;
  kernel.line = 0;
  kernel.offset = 0x1c;
  EXPECT_EQ(kernel.describe(), "square+0x1c in /ws/compute/compute.o");
  CrashFrame library;
  library.function = "memcpy";
  library.module = "/lib/x86_64-linux-gnu/libc.so.6";
  EXPECT_EQ(library.describe(), "memcpy in libc.so.6");
  CrashFrame raw;
  raw.address = 0x7f00;
  raw.module = "/lib/x86_64-linux-gnu/libc.so.6";
  raw.offset = 0x29d90;
  EXPECT_EQ(raw.describe(), "0x0000000000007f00 in libc.so.6+0x29d90");
  CrashFrame nowhere;
  nowhere.address = 0x10;
  EXPECT_EQ(nowhere.describe(),
            "0x0000000000000010 (not in a loaded library or a kernel object)");

  std::string text = formatBacktrace({lined, kernel, raw});
  EXPECT_EQ(text, "\n  #0 square at /src/prog.mlir:12:7"
                  "\n  #1 square+0x1c in /ws/compute/compute.o"
                  "\n  #2 0x0000000000007f00 in libc.so.6+0x29d90"
                  "\n  (the kernel has no debug info: rebuild with -g for lines)");
  EXPECT_EQ(formatBacktrace({lined}), "\n  #0 square at /src/prog.mlir:12:7");
  EXPECT_EQ(formatBacktrace({}), "");
  // Issue 38: a kernel LLVM folded. A trap in it (SIGILL) says what most
  // likely leads there; a first frame in no code says the kernel ran past
  // its end. Both say to rebuild with -g -O0.
  EXPECT_EQ(formatBacktrace({kernel}, SIGILL),
            "\n  #0 square+0x1c in /ws/compute/compute.o"
            "\n  (a trap where LLVM proved the kernel's code unreachable: an "
            "undefined operation such as a store to a null pointer leads "
            "there; rebuild with -g -O0 to keep that code and see its line)");
  EXPECT_EQ(formatBacktrace({nowhere}, SIGSEGV),
            "\n  #0 0x0000000000000010 (not in a loaded library or a kernel "
            "object)"
            "\n  (the address is in no code: a kernel ran past its end, where "
            "LLVM removed code it proved unreachable, such as after a store "
            "to a null pointer; rebuild it with -g -O0 to keep that code and "
            "see its line)");
}
