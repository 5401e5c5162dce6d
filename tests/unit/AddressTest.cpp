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

// One grammar (ExecutorStudio/Support/Address.h): the verifier takes the Unix
// socket addresses the runtime connects to.
TEST(Address, AcceptsUnixSockets) {
  EXPECT_EQ(validateAddress("unix:/run/user/1000/executor.sock"), "");
  EXPECT_EQ(validateAddress("unix:/run/x.sock"), "");
  EXPECT_NE(validateAddress("unix:").find("unix:PATH"), std::string::npos);
  EXPECT_NE(validateAddress("unix:/" + std::string(200, 'x')).find("at most 107"),
            std::string::npos);
}

// ssh://[user@]host[:port][/path]: the verifier takes what ssh may be
// given, and refuses, in IR already, what ssh or the remote shell would
// take for more than a host and a program (issue 43).
TEST(Address, AcceptsSshAndRefusesWhatSshOrAShellWouldInterpret) {
  EXPECT_EQ(validateAddress("ssh://lab"), "");
  EXPECT_EQ(validateAddress("ssh://me@lab-gpu.example.org:2222/opt/x/bin/"
                            "executor-server"),
            "");
  EXPECT_EQ(validateAddress("ssh://[::1]:22/usr/bin/executor-server"), "");
  EXPECT_EQ(validateAddress("ssh://-oProxyCommand=x"),
            "has a host that starts with '-' (ssh would take it for an "
            "option)");
  EXPECT_EQ(validateAddress("ssh://-l@lab"),
            "has a user that starts with '-' (ssh would take it for an "
            "option)");
  EXPECT_EQ(validateAddress("ssh://"),
            "has an empty host; write it as "
            "ssh://[user@]host[:port][/path/to/executor-server]");
  for (const char *hostile :
       {"ssh://lab/x;id", "ssh://lab/x y", "ssh://lab/$(id)", "ssh://lab/`id`",
        "ssh://lab/x|y", "ssh://lab/x&", "ssh://lab/x>y", "ssh://lab/~x",
        "ssh://lab/x'y", "ssh://lab/x\"y", "ssh://lab/x\ny"})
    EXPECT_NE(validateAddress(hostile).find("which the remote shell would "
                                            "interpret"),
              std::string::npos)
        << hostile;
  EXPECT_EQ(validateAddress("ssh://lab:0"),
            "has port '0', not a number in [1, 65535]");
}

// slurm:NAME=VALUE,...: only srun options that run nothing (issue 43).
TEST(Address, AcceptsSlurmOptionsThatRunNothing) {
  EXPECT_EQ(validateAddress("slurm:"), "");
  EXPECT_EQ(validateAddress("slurm:partition=gpu,gres=gpu:a100:1,time=30,"
                            "nodelist=n[1-3],server=/opt/x/executor-server"),
            "");
  for (const char *hostile :
       {"slurm:prolog=/x", "slurm:task-prolog=/x", "slurm:epilog=/x",
        "slurm:chdir=/x", "slurm:output=/x", "slurm:export=ALL",
        "slurm:bcast=/x"})
    EXPECT_NE(validateAddress(hostile).find("which a slurm: address may not "
                                            "give srun"),
              std::string::npos)
        << hostile;
  EXPECT_NE(validateAddress("slurm:partition=a b"), "");
  EXPECT_NE(validateAddress("slurm:server=relative/executor-server"), "");
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
