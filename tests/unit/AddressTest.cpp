//===- AddressTest.cpp - executor address validation ----------------------===//
#include "Executor/IR/ExecutorOps.h"

#include <gtest/gtest.h>

using catalyst::executor::validateAddress;

TEST(Address, AcceptsHostPort) {
  EXPECT_EQ(validateAddress("127.0.0.1:4711"), "");
  EXPECT_EQ(validateAddress("localhost:0"), "");
  EXPECT_EQ(validateAddress("[::1]:65535"), "");
  EXPECT_EQ(validateAddress("ADDR:PORT"), "");
}

TEST(Address, RejectsMalformed) {
  EXPECT_NE(validateAddress(""), "");
  EXPECT_NE(validateAddress("localhost"), "");
  EXPECT_NE(validateAddress(":4711"), "");
  EXPECT_NE(validateAddress("host:"), "");
  EXPECT_NE(validateAddress("host:65536"), "");
  EXPECT_NE(validateAddress("::1:4711"), "");
  EXPECT_NE(validateAddress("[::1:4711"), "");
  EXPECT_NE(validateAddress("[::1]4711"), "");
  EXPECT_NE(validateAddress("host:12ab"), "");
  EXPECT_NE(validateAddress("my host:1"), "");
}

TEST(Address, MessagesSayHowToFix) {
  EXPECT_NE(validateAddress("localhost").find("host:port"), std::string::npos);
  EXPECT_NE(validateAddress("::1:4711").find("[host]:port"), std::string::npos);
  EXPECT_NE(validateAddress("h:70000").find("outside [0, 65535]"),
            std::string::npos);
}
