//===- RecordWorkerTestMain.cpp - GoogleTest's main, a recording worker too ===//
//
// The studio records in a worker process, by default the running program
// (RecordingWorker.h): a test binary that makes a Studio is that worker
// when started as `TEST --record-worker REQUEST RESULT`. The tests of what
// a front end does when a pass crashes set EXECUTOR_RECORD_WORKER_TEST_CRASH:
// the worker then dies of SIGSEGV, as a crashing pass makes it (and the
// tests turn the recording cache off meanwhile: setRecordingCacheLimit).
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Support/Targets.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>

int main(int argc, char **argv) {
  const char *crash = std::getenv("EXECUTOR_RECORD_WORKER_TEST_CRASH");
  if (crash && *crash && argc > 1 && std::strcmp(argv[1], "--record-worker") == 0) {
    // Dies of the signal, also where a sanitizer's handler would make it an
    // exit status.
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  // LLVM's targets, as the tools register them (Targets.h).
  executor_studio::initializeTargets();
  if (std::optional<int> worker = executor_studio::runRecordWorkerIfAsked(argc, argv))
    return *worker;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
