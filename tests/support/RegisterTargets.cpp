//===- RegisterTargets.cpp - LLVM's targets for GoogleTest's main ---------===//
//
// A test binary on GoogleTest's own main registers LLVM's targets as the
// tools' mains do (ExecutorStudio/Support/Targets.h), before its tests run:
// linked into it, this file adds the environment that does.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Support/Targets.h"

#include <gtest/gtest.h>

namespace {
struct RegisterTargets final : ::testing::Environment {
  void SetUp() override { executor_studio::initializeTargets(); }
};
[[maybe_unused]] ::testing::Environment *const environment =
    ::testing::AddGlobalTestEnvironment(new RegisterTargets);
} // namespace
