//===- SupportTest.cpp - the MLIR lexer and Subprocess ---------------------===//
#include "ExecutorStudio/Support/MlirLexer.h"
#include "ExecutorStudio/Support/Subprocess.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace executor_studio;
using Kind = ScannedToken::Kind;

namespace {
std::vector<ScannedToken> lex(llvm::StringRef text) {
  std::vector<ScannedToken> tokens;
  scanTokens(text, [&](const ScannedToken &token) { tokens.push_back(token); });
  return tokens;
}

std::string readAll(int fd) {
  std::string out;
  char buffer[256];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof(buffer))) > 0)
    out.append(buffer, static_cast<size_t>(n));
  return out;
}

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "/support-test-" + std::to_string(::getpid()) +
         "-" + name;
}
} // namespace

TEST(MlirLexer, SplitsTextIntoTheTokensOfMlir) {
  std::vector<ScannedToken> tokens =
      lex("%r#1 = \"t.op\"(%a) {x = -1.5e3 : f32} : (!t.t) -> ()\n"
          "  ^bb0 @\"q s\" #map // c");
  std::vector<std::pair<Kind, std::string>> expected = {
      {Kind::ValueId, "%r#1"},     {Kind::Punctuation, "="},
      {Kind::String, "\"t.op\""},  {Kind::Open, "("},
      {Kind::ValueId, "%a"},       {Kind::Close, ")"},
      {Kind::Open, "{"},           {Kind::BareWord, "x"},
      {Kind::Punctuation, "="},    {Kind::Number, "-1.5e3"},
      {Kind::Punctuation, ":"},    {Kind::BareWord, "f32"},
      {Kind::Close, "}"},          {Kind::Punctuation, ":"},
      {Kind::Open, "("},           {Kind::TypeAlias, "!t.t"},
      {Kind::Close, ")"},          {Kind::Punctuation, "->"},
      {Kind::Open, "("},           {Kind::Close, ")"},
      {Kind::BlockId, "^bb0"},     {Kind::SymbolRef, "@\"q s\""},
      {Kind::AttributeAlias, "#map"}, {Kind::Comment, "// c"},
  };
  ASSERT_EQ(tokens.size(), expected.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    EXPECT_EQ(tokens[i].kind, expected[i].first) << i << ": " << tokens[i].text.str();
    EXPECT_EQ(tokens[i].text, expected[i].second) << i;
  }
  EXPECT_EQ(tokens[20].line, 1u);
  EXPECT_EQ(tokens[20].column, 2u);
}

TEST(MlirLexer, NeverFailsOnBrokenText) {
  // An unterminated string ends with its line; a lone sigil is punctuation.
  std::vector<ScannedToken> tokens = lex("\"open\n% ^");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].kind, Kind::String);
  EXPECT_EQ(tokens[0].text, "\"open");
  EXPECT_EQ(tokens[1].kind, Kind::Punctuation);
  EXPECT_EQ(tokens[2].kind, Kind::Punctuation);
  EXPECT_EQ(skipString("\"a\\\"b\" c", 0), 6u);
  EXPECT_EQ(skipString("\"a\nb\"", 0), 2u);
  EXPECT_TRUE(isIdentifierChar('-'));
  EXPECT_TRUE(isIdentifierChar('$'));
  EXPECT_FALSE(isIdentifierChar('%'));
  EXPECT_FALSE(isIdentifierChar(':'));
}

TEST(Subprocess, RunsAProgramWithItsStreamsRedirected) {
  int out[2];
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  std::string errPath = tempPath("stderr.txt");
  SubprocessOptions options;
  options.out = Redirect::descriptor(out[1]);
  options.err = Redirect::file(errPath);
  options.searchPath = true;
  Subprocess process;
  llvm::Error error =
      process.start({"sh", "-c", "echo out; echo err >&2; exit 3"}, options);
  ::close(out[1]);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  EXPECT_TRUE(process.running());
  EXPECT_EQ(readAll(out[0]), "out\n");
  ::close(out[0]);
  ASSERT_TRUE(process.waitFor(std::chrono::seconds(30)));
  EXPECT_FALSE(process.running());
  EXPECT_EQ(process.exitCode(), 3);
  EXPECT_EQ(process.exitDescription(), "exit code 3");
  std::ifstream err(errPath);
  std::stringstream text;
  text << err.rdbuf();
  EXPECT_EQ(text.str(), "err\n");
  ::unlink(errPath.c_str());
}

TEST(Subprocess, SaysWhyAProgramDoesNotStart) {
  Subprocess process;
  llvm::Error missing = process.start({"/no/such/program"});
  ASSERT_TRUE(static_cast<bool>(missing));
  EXPECT_EQ(llvm::toString(std::move(missing)),
            "cannot start /no/such/program: No such file or directory");
  SubprocessOptions search;
  search.searchPath = true;
  llvm::Error notInPath = process.start({"no-such-program-anywhere"}, search);
  ASSERT_TRUE(static_cast<bool>(notInPath));
  EXPECT_EQ(llvm::toString(std::move(notInPath)),
            "cannot find no-such-program-anywhere in PATH");
  EXPECT_FALSE(process.running());
}

TEST(Subprocess, StopsAProgramAndItsGroup) {
  int ready[2];
  ASSERT_EQ(::pipe2(ready, O_CLOEXEC), 0);
  SubprocessOptions options;
  options.out = Redirect::descriptor(ready[1]);
  options.searchPath = true;
  options.newProcessGroup = true;
  Subprocess process;
  // It ignores SIGTERM: terminate() kills it after the grace period.
  llvm::Error error = process.start(
      {"sh", "-c", "trap '' TERM; echo ready; sleep 60 & wait"}, options);
  ::close(ready[1]);
  ASSERT_FALSE(error) << llvm::toString(std::move(error));
  pid_t pid = process.processId();
  EXPECT_EQ(::getpgid(pid), pid);
  char line[6] = {};
  ASSERT_EQ(::read(ready[0], line, sizeof(line)), 6);
  ::close(ready[0]);
  EXPECT_FALSE(process.poll());
  auto start = std::chrono::steady_clock::now();
  process.terminate(std::chrono::milliseconds(200));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(200));
  EXPECT_FALSE(process.running());
  EXPECT_EQ(process.exitCode(), -2);
  EXPECT_EQ(process.exitDescription(), std::string("killed by signal ") + ::strsignal(SIGKILL));

  // The pipe is closed now: the second program writes nowhere (with a
  // redirect to the closed descriptor it could fail to start, exit 127,
  // before the signal reaches it).
  options.out = Redirect::null();
  ASSERT_FALSE(static_cast<bool>(process.start({"sleep", "60"}, options)));
  process.signal(SIGKILL);
  EXPECT_TRUE(process.waitFor(std::chrono::seconds(30)));
  EXPECT_EQ(process.exitCode(), -2);
}
