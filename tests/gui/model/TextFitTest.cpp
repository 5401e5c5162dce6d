//===- TextFitTest.cpp - names fitted to a narrow column ------------------===//
#include "StudioModel/TextFit.h"

#include <gtest/gtest.h>

using namespace executor_studio::gui;

TEST(TextFit, ANameThatFitsIsWhole) {
  EXPECT_EQ(elideMiddle("compute/asm", 11), "compute/asm");
  EXPECT_EQ(elideMiddle("compute/asm", 40), "compute/asm");
  EXPECT_EQ(elideMiddle("", 0), "");
}

TEST(TextFit, ALongNameKeepsItsStartAndItsEnd) {
  std::string cut = elideMiddle("compute/convert-func-to-llvm", 20);
  EXPECT_EQ(characterCount(cut), 20u);
  EXPECT_EQ(cut, "comp...-func-to-llvm");
  // Neighbours stay apart where their ends differ.
  EXPECT_NE(elideMiddle("compute/convert-cf-to-llvm", 20), cut);
  // Too narrow for "...": the end.
  EXPECT_EQ(elideMiddle("compute/asm", 4), "/asm");
  EXPECT_EQ(elideMiddle("compute/asm", 0), "");
}

TEST(TextFit, CharactersAreNotCutInHalf) {
  // Two-byte characters count once and are kept whole.
  std::string name = "\xc3\xa9t\xc3\xa9-\xc3\xa9t\xc3\xa9-\xc3\xa9t\xc3\xa9"; // été-été-été
  EXPECT_EQ(characterCount(name), 11u);
  std::string cut = elideMiddle(name, 9);
  EXPECT_EQ(characterCount(cut), 9u);
  EXPECT_EQ(cut, "\xc3\xa9...\xc3\xa9-\xc3\xa9t\xc3\xa9");
}

TEST(TextFit, ALabelGivesUpItsDetailThenItsMiddleThenItsMarks) {
  StepLabel label{"  ", "compute/convert-func-to-llvm", "  (@square)", "  [edited]"};
  EXPECT_EQ(label.fit(60), "  compute/convert-func-to-llvm  (@square)  [edited]");
  EXPECT_EQ(label.fit(40), "  compute/convert-func-to-llvm  [edited]");
  // Then the name is cut in its middle.
  EXPECT_EQ(label.fit(30), "  com...func-to-llvm  [edited]");
  // Room for under ten characters of the name: the marks go.
  std::string narrow = label.fit(16);
  EXPECT_EQ(characterCount(narrow), 16u);
  EXPECT_EQ(narrow.find("[edited]"), std::string::npos) << narrow;
  EXPECT_NE(narrow.find("to-llvm"), std::string::npos) << narrow;
  // A fold mark stays as it is.
  StepLabel parent{"[-] ", "cross-compile-targets", "", ""};
  EXPECT_EQ(parent.fit(20), "[-] cro...le-targets");
}
