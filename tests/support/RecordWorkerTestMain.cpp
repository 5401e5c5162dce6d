//===- RecordWorkerTestMain.cpp - GoogleTest's main, a recording worker too ===//
//
// The studio records in a worker process, by default the running program
// (RecordingWorker.h): a test binary that makes a Studio is that worker
// when started as `TEST --record-worker REQUEST RESULT`.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"

#include <gtest/gtest.h>

int main(int argc, char **argv) {
  if (std::optional<int> worker = executor_studio::runRecordWorkerIfAsked(argc, argv))
    return *worker;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
