//===- Errors.cpp - what can go wrong in a session, as types --------------===//
#include "ExecutorRuntime/Errors.h"

#include "llvm/Support/raw_ostream.h"

namespace executor_studio::runtime {

char ExecutorError::ID = 0;
char SessionLost::ID = 0;
char KernelCrashed::ID = 0;
char LaunchTimedOut::ID = 0;
char Refused::ID = 0;
char MalformedReply::ID = 0;
char ShuttingDown::ID = 0;

void ExecutorError::log(llvm::raw_ostream &os) const {
  os << "executor " << address << ": " << message;
}

void ShuttingDown::log(llvm::raw_ostream &os) const {
  os << "executor " << address << " is shutting down (" << message << ")";
}

bool endsSession(const llvm::Error &err) {
  return err.isA<SessionLost>() || err.isA<LaunchTimedOut>() ||
         err.isA<MalformedReply>();
}

bool parseCrashReport(llvm::StringRef report, std::string &kernel,
                      int &signal) {
  // The words of runtime/server/CrashReport.cpp's onFatalSignal.
  llvm::StringRef rest = report;
  if (rest.consume_front("kernel ")) {
    size_t crashed = rest.rfind(" crashed with signal ");
    if (crashed == llvm::StringRef::npos)
      return false;
    kernel = rest.take_front(crashed).str();
    rest = rest.drop_front(crashed + 21);
  } else if (rest.consume_front("the session crashed outside a kernel with "
                                "signal ")) {
    kernel.clear();
  } else {
    return false;
  }
  llvm::StringRef number = rest.take_while([](char c) { return c >= '0' && c <= '9'; });
  return !number.empty() && !number.getAsInteger(10, signal);
}

} // namespace executor_studio::runtime
