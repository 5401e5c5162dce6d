//===- AddressTest.cpp - executor address validation ----------------------===//
#include "ExecutorStudio/Executor/IR/ExecutorOps.h"
#include "ExecutorRuntime/Socket.h"

#include <gtest/gtest.h>

using catalyst::executor::validateAddress;

TEST(Address, AcceptsHostPort) {
  EXPECT_EQ(validateAddress("127.0.0.1:4711"), "");
  EXPECT_EQ(validateAddress("localhost:0"), "");
  EXPECT_EQ(validateAddress("[::1]:65535"), "");
  EXPECT_EQ(validateAddress("ADDR:PORT"), "");
}

// One grammar (ExecutorRuntime/Address.h): the verifier takes the Unix
// socket addresses the runtime connects to.
TEST(Address, AcceptsUnixSockets) {
  EXPECT_EQ(validateAddress("unix:/run/user/1000/executor.sock"), "");
  EXPECT_EQ(validateAddress("unix:/run/x.sock"), "");
  EXPECT_NE(validateAddress("unix:").find("unix:PATH"), std::string::npos);
  EXPECT_NE(validateAddress("unix:/" + std::string(200, 'x')).find("at most 107"),
            std::string::npos);
}

// The verifier and the runtime say the same about the same address.
TEST(Address, TheRuntimeReportsTheVerifiersWords) {
  for (const char *address : {"localhost", "::1:4711", "[::1:4711", ":4711",
                              "h:70000", "host:12ab", "my host:1"}) {
    std::string host, port, error;
    EXPECT_FALSE(executor_studio::runtime::splitAddress(address, host, port, error));
    EXPECT_EQ(error, std::string("address '") + address + "' " +
                         validateAddress(address));
  }
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

// A URL names a scheme the executor does not speak (issue 40), not an IPv6
// host without brackets.
TEST(Address, AURLNamesItsSchemeAndTheFormsAccepted) {
  EXPECT_EQ(validateAddress("http://127.0.0.1:7000"),
            "has the scheme 'http://', which is not one the executor speaks; "
            "write it as HOST:PORT, [IPv6]:PORT or unix:PATH, e.g. "
            "\"127.0.0.1:7000\"");
  EXPECT_EQ(validateAddress("grpc://"),
            "has the scheme 'grpc://', which is not one the executor speaks; "
            "write it as HOST:PORT, [IPv6]:PORT or unix:PATH");
  std::string host, port, error;
  EXPECT_FALSE(executor_studio::runtime::splitAddress("tcp://[::1]:7000/x", host,
                                                      port, error));
  EXPECT_EQ(error, "address 'tcp://[::1]:7000/x' has the scheme 'tcp://', which "
                   "is not one the executor speaks; write it as HOST:PORT, "
                   "[IPv6]:PORT or unix:PATH, e.g. \"[::1]:7000\"");
}

// executor-server --bind and the client's connect split addresses here;
// getaddrinfo would take 99999 and listen on its low 16 bits (34463).
TEST(Address, SplitRejectsPortsOutOfRange) {
  std::string host, port, error;
  EXPECT_TRUE(
      executor_studio::runtime::splitAddress("127.0.0.1:65535", host, port, error));
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, "65535");
  EXPECT_TRUE(executor_studio::runtime::splitAddress("[::1]:0", host, port, error));
  for (const char *address : {"127.0.0.1:99999", "127.0.0.1:65536",
                              "[::1]:70000", "h:100000000000000000000000"}) {
    error.clear();
    EXPECT_FALSE(executor_studio::runtime::splitAddress(address, host, port, error))
        << address;
    EXPECT_NE(error.find("outside [0, 65535]"), std::string::npos)
        << error;
    EXPECT_NE(error.find(address), std::string::npos) << error;
  }
}
