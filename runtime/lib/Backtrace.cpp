//===- Backtrace.cpp - a crashed kernel's frames, named -------------------===//
#include "ExecutorRuntime/Backtrace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

namespace executor_studio::runtime {

namespace {
constexpr size_t kMaxFrames = 64;

bool parseHex(llvm::StringRef text, uint64_t &value) {
  return text.consume_front("0x") && !text.empty() &&
         !text.getAsInteger(16, value);
}
} // namespace

std::string CrashFrame::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!function.empty()) {
    os << function;
    if (line)
      os << " at " << file << ":" << line << ":" << column;
    else if (offset)
      os << "+" << llvm::format_hex(offset, 1);
    if (!line || !inKernel)
      os << " in " << (inKernel ? module : llvm::sys::path::filename(module));
    if (inlined)
      os << " (inlined)";
    return text;
  }
  os << llvm::format_hex(address, 18);
  if (!module.empty())
    os << " in " << llvm::sys::path::filename(module) << "+"
       << llvm::format_hex(offset, 1);
  else
    os << " (not in a loaded library or a kernel object)";
  return text;
}

std::vector<CrashFrame> parseCrashFrames(llvm::StringRef report) {
  std::vector<CrashFrame> frames;
  llvm::SmallVector<llvm::StringRef> lines;
  report.split(lines, '\n');
  for (llvm::StringRef line : llvm::drop_begin(lines)) {
    if (frames.size() == kMaxFrames)
      break;
    // "#N 0xADDRESS[ in PATH+0xOFFSET]"
    if (!line.consume_front("#"))
      continue;
    llvm::StringRef index = line.take_while(llvm::isDigit);
    line = line.drop_front(index.size());
    if (index.empty() || !line.consume_front(" "))
      continue;
    CrashFrame frame;
    llvm::StringRef address = line.take_until([](char c) { return c == ' '; });
    line = line.drop_front(address.size());
    if (!parseHex(address, frame.address))
      continue;
    if (line.consume_front(" in ")) {
      size_t plus = line.rfind("+0x");
      if (plus == llvm::StringRef::npos ||
          !parseHex(line.drop_front(plus + 1), frame.offset))
        continue;
      frame.module = line.take_front(plus).str();
    } else if (!line.empty()) {
      continue;
    }
    frames.push_back(std::move(frame));
  }
  return frames;
}

std::string formatBacktrace(llvm::ArrayRef<CrashFrame> frames, int signal) {
  std::string text;
  bool unlined = false;
  for (size_t i = 0; i < frames.size(); ++i) {
    text += "\n  #" + std::to_string(i) + " " + frames[i].describe();
    unlined |= frames[i].inKernel && !frames[i].line;
  }
  if (frames.empty())
    return text;
  const CrashFrame &first = frames.front();
  if (signal == SIGILL && first.inKernel)
    text += "\n  (a trap where LLVM proved the kernel's code unreachable: "
            "an undefined operation such as a store to a null pointer "
            "leads there; rebuild with -g -O0 to keep that code and see "
            "its line)";
  else if (!first.inKernel && first.module.empty() && first.function.empty())
    text += "\n  (the address is in no code: a kernel ran past its end, "
            "where LLVM removed code it proved unreachable, such as after a "
            "store to a null pointer; rebuild it with -g -O0 to keep that "
            "code and see its line)";
  else if (unlined)
    text += "\n  (the kernel has no debug info: rebuild with -g for lines)";
  return text;
}

} // namespace executor_studio::runtime
