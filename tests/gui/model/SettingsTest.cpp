//===- SettingsTest.cpp - the JSON settings file --------------------------===//
#include "StudioModel/Document.h"
#include "StudioModel/Settings.h"

#include <fstream>
#include <gtest/gtest.h>
#include <thread>

using namespace executor_studio::gui;

TEST(Settings, RoundTripsThroughAFile) {
  std::string path = ::testing::TempDir() + "/studio-settings/nested/settings.json";
  Settings s;
  s.windowWidth = 1234;
  s.passListWidth = 222;
  s.executorFolded = 0;
  s.viewMode = "unified";
  s.normaliseSsaNames = true;
  s.lastFile = "/tmp/x.mlir";
  s.executorAddress = "127.0.0.1:4000";
  std::string error;
  ASSERT_TRUE(s.save(path, &error)) << error;
  Settings back = Settings::load(path, &error);
  EXPECT_EQ(back.windowWidth, 1234);
  EXPECT_EQ(back.passListWidth, 222);
  EXPECT_EQ(back.executorFolded, 0);
  EXPECT_EQ(back.viewMode, "unified");
  EXPECT_TRUE(back.normaliseSsaNames);
  EXPECT_EQ(back.lastFile, "/tmp/x.mlir");
  EXPECT_EQ(back.executorAddress, "127.0.0.1:4000");
}

TEST(Settings, BadFilesGiveDefaults) {
  std::string error;
  Settings missing = Settings::load("/no/such/settings.json", &error);
  EXPECT_EQ(missing.windowWidth, Settings().windowWidth);
  Settings bad = Settings::fromJson("{not json", &error);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(bad.viewMode, "side-by-side");
  Settings wrongTypes = Settings::fromJson(
      R"({"window": {"width": "wide", "height": 10}, "view": {"mode": 3}})");
  EXPECT_EQ(wrongTypes.windowWidth, Settings().windowWidth);
  EXPECT_EQ(wrongTypes.windowHeight, 240); // clamped to a usable size
  EXPECT_EQ(wrongTypes.viewMode, "side-by-side");
}

TEST(Document, OpensReloadsAndNoticesChanges) {
  std::string path = ::testing::TempDir() + "/studio-document.mlir";
  std::ofstream(path) << "module {}\n";
  Document doc;
  std::string error;
  ASSERT_TRUE(doc.open(path, error)) << error;
  EXPECT_EQ(doc.text(), "module {}\n");
  EXPECT_FALSE(doc.changedOnDisk());
  uint64_t generation = doc.generation();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(path) << "module {\n}\n";
  EXPECT_TRUE(doc.changedOnDisk());
  ASSERT_TRUE(doc.reload(error)) << error;
  EXPECT_EQ(doc.text(), "module {\n}\n");
  EXPECT_GT(doc.generation(), generation);
  EXPECT_FALSE(doc.open("/no/such/file.mlir", error));
  EXPECT_NE(error.find("/no/such/file.mlir"), std::string::npos);
  EXPECT_EQ(doc.text(), "module {\n}\n"); // the old document stays
  EXPECT_FALSE(doc.open(::testing::TempDir(), error));
}

TEST(Settings, WidthsSavedAtTheEarlierDefaultsTakeTodays) {
  // Every exit saved the layout: 300 and 440, then 450 and 410, are what a
  // pass list and an executor panel nobody dragged were saved as; today's
  // default is the automatic width (0: as wide as the names need).
  EXPECT_EQ(Settings().passListWidth, 0);
  EXPECT_EQ(Settings().executorWidth, 0);
  for (const char *old : {R"({"layout": {"passListWidth": 300, "executorWidth": 440, "diagnosticsHeight": 90}})",
                          R"({"layout": {"passListWidth": 450, "executorWidth": 410, "diagnosticsHeight": 90}})"}) {
    Settings earlier = Settings::fromJson(old);
    EXPECT_EQ(earlier.passListWidth, 0) << old;
    EXPECT_EQ(earlier.executorWidth, 0) << old;
    EXPECT_EQ(earlier.diagnosticsHeight, 90) << old;
  }
  // Dragged ones stay.
  Settings dragged = Settings::fromJson(
      R"({"layout": {"passListWidth": 301.5, "executorWidth": 420}})");
  EXPECT_EQ(dragged.passListWidth, 301.5f);
  EXPECT_EQ(dragged.executorWidth, 420);
}

TEST(Settings, TheExecutorColumnIsFoldedAutomaticallyUnlessTheUserChose) {
  EXPECT_EQ(Settings().executorFolded, -1);
  EXPECT_EQ(Settings::fromJson(R"({"layout": {"executorFolded": 1}})").executorFolded, 1);
  // Out of range or of the wrong type: the automatic choice.
  for (const char *bad : {R"({"layout": {"executorFolded": 7}})",
                          R"({"layout": {"executorFolded": "yes"}})"})
    EXPECT_EQ(Settings::fromJson(bad).executorFolded, -1) << bad;
}
