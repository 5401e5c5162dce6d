//===- TestFiles.h - small file helpers the tests share ------*- C++ -*-===//
//
// What several test files need of files: their text, and the small
// programs the recorder's and the studio's tests record.
//
//===----------------------------------------------------------------------===//
#ifndef TESTS_SUPPORT_TESTFILES_H
#define TESTS_SUPPORT_TESTFILES_H

#include <fstream>
#include <sstream>
#include <string>

namespace executor_test {

/// The whole text of the file at `path`; empty when it cannot be read.
inline std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A function that cse and canonicalize change step by step: the two
/// `arith.addi` are one after cse, folded to `%a` by canonicalize.
constexpr const char *kFoldingProgram = R"mlir(func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %b = arith.addi %a, %c0 : i32
  %c = arith.addi %a, %c0 : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}
)mlir";

} // namespace executor_test

#endif // TESTS_SUPPORT_TESTFILES_H
