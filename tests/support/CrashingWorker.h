//===- CrashingWorker.h - recording workers that crash, for tests -*- C++ -*-===//
//
// While a CrashingWorker lives, the test binary's recording workers die of
// SIGSEGV as a crashing pass makes them (RecordWorkerTestMain.cpp), and the
// cache of finished recordings is off, so that every recording starts one.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_CRASHINGWORKER_H
#define TESTS_SUPPORT_CRASHINGWORKER_H

#include "ExecutorStudio/Pipeline/RecordingWorker.h"

#include <cstdlib>

namespace executor_test {

class CrashingWorker {
public:
  CrashingWorker()
      : cacheLimit(executor_studio::getRecordingCacheStatistics().limit) {
    executor_studio::setRecordingCacheLimit(0);
    ::setenv("EXECUTOR_RECORD_WORKER_TEST_CRASH", "1", 1);
  }
  ~CrashingWorker() {
    ::unsetenv("EXECUTOR_RECORD_WORKER_TEST_CRASH");
    executor_studio::setRecordingCacheLimit(cacheLimit);
  }
  CrashingWorker(const CrashingWorker &) = delete;
  CrashingWorker &operator=(const CrashingWorker &) = delete;

private:
  size_t cacheLimit;
};

} // namespace executor_test

#endif // TESTS_SUPPORT_CRASHINGWORKER_H
