//===- main.cpp - executor-studio -----------------------------------------===//
//
// The desktop GUI: steps through the pipeline recorded on a .mlir file, with
// a diff of what each pass changed, and launches its cross-compiled kernels
// on an executor-server. `--screenshot` renders headless (Xvfb + Mesa).
// `--record-worker REQUEST RESULT` (hidden) is the studio's own recording
// worker.
//
//===----------------------------------------------------------------------===//
#include "App.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Support/Targets.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  // LLVM's targets, for cross-compile-targets and launches on an ORC
  // executor, once (Targets.h); the recording worker too.
  executor_studio::initializeTargets();
  // The studio records in a worker process: itself (RecordingWorker.h).
  if (std::optional<int> worker = executor_studio::runRecordWorkerIfAsked(argc, argv))
    return *worker;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("%s\n", executor_studio::getVersionString());
      return 0;
    }
  executor_studio::gui::AppOptions options;
  std::string message;
  if (!executor_studio::gui::parseArguments(argc, argv, options, message)) {
    std::fprintf(stderr, "executor-studio: %s\n", message.c_str());
    return 2;
  }
  return executor_studio::gui::runApp(options);
}
