//===- TargetTripleEditTest.cpp - catalyst.target.triple set in the text --===//
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"
#include "ExecutorStudio/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
class TargetTripleEditTest : public ::testing::Test {
protected:
  TargetTripleEditTest() {
    DialectRegistry registry;
    executor_studio::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  /// `source` with @`name`'s triple set to `triple`, parsed again.
  std::string setTriple(const std::string &source, const std::string &name,
                        const std::string &triple) {
    OwningOpRef<ModuleOp> root = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(root);
    if (!root)
      return "";
    ModuleOp target = root->lookupSymbol<ModuleOp>(name);
    EXPECT_TRUE(target);
    if (!target)
      return "";
    auto edit = catalyst::getSetTargetTripleEdit(source, target, triple);
    EXPECT_TRUE(static_cast<bool>(edit)) << llvm::toString(edit.takeError());
    if (!edit)
      return "";
    std::string result = source;
    result.replace(edit->offset, edit->length, edit->text);
    OwningOpRef<ModuleOp> again = parseSourceString<ModuleOp>(result, &context);
    EXPECT_TRUE(again) << result;
    if (again) {
      ModuleOp changed = again->lookupSymbol<ModuleOp>(name);
      EXPECT_EQ(catalyst::getEffectiveTargetTriple(changed), triple);
    }
    return result;
  }
  MLIRContext context;
};
} // namespace

TEST_F(TargetTripleEditTest, AnEmptyTargetGetsTheTriple) {
  std::string source = "module {\n"
                       "  // the kernels\n"
                       "  module @compute attributes {catalyst.target = {}, "
                       "catalyst.dispatch = {address = \"ADDR:PORT\"}} {\n"
                       "  }\n"
                       "}\n";
  EXPECT_EQ(setTriple(source, "compute", "aarch64-unknown-linux-gnu"),
            "module {\n"
            "  // the kernels\n"
            "  module @compute attributes {catalyst.target = {triple = "
            "\"aarch64-unknown-linux-gnu\"}, catalyst.dispatch = {address = "
            "\"ADDR:PORT\"}} {\n"
            "  }\n"
            "}\n");
}

TEST_F(TargetTripleEditTest, AnotherTripleIsReplacedAndThePipelineKept) {
  std::string source =
      "module {\n"
      "  module @arm attributes {\n"
      "      catalyst.dispatch = {address = \"a:1\"},\n"
      "      catalyst.target = {pipeline = \"builtin.module(cse)\", triple = "
      "\"x86_64-unknown-linux-gnu\"}\n"
      "  } {\n"
      "  }\n"
      "  module @other attributes {catalyst.target = {}} {\n"
      "  }\n"
      "}\n";
  std::string result = setTriple(source, "arm", "aarch64-unknown-linux-gnu");
  EXPECT_NE(result.find("catalyst.target = {pipeline = \"builtin.module(cse)\", "
                        "triple = \"aarch64-unknown-linux-gnu\"}\n  } {"),
            std::string::npos)
      << result;
  // The other target is untouched.
  EXPECT_NE(result.find("module @other attributes {catalyst.target = {}}"),
            std::string::npos)
      << result;
}

TEST_F(TargetTripleEditTest, AUnitTargetGetsAValue) {
  std::string source = "module {\n  module @t attributes {catalyst.target} {\n  }\n}\n";
  EXPECT_EQ(setTriple(source, "t", "aarch64-unknown-linux-gnu"),
            "module {\n  module @t attributes {catalyst.target = {triple = "
            "\"aarch64-unknown-linux-gnu\"}} {\n  }\n}\n");
}

TEST_F(TargetTripleEditTest, AModuleThatIsNoTargetIsRefused) {
  std::string source = "module {\n  module @plain {\n  }\n}\n";
  OwningOpRef<ModuleOp> root = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(root);
  auto edit = catalyst::getSetTargetTripleEdit(
      source, root->lookupSymbol<ModuleOp>("plain"), "aarch64-unknown-linux-gnu");
  ASSERT_FALSE(static_cast<bool>(edit));
  EXPECT_EQ(llvm::toString(edit.takeError()),
            "module @plain is not a catalyst.target module");
}

TEST_F(TargetTripleEditTest, OtherArchitectures) {
  EXPECT_TRUE(catalyst::isOtherArchitecture("x86_64-unknown-linux-gnu",
                                            "aarch64-unknown-linux-gnu"));
  EXPECT_FALSE(catalyst::isOtherArchitecture("x86_64-pc-linux-gnu",
                                             "x86_64-unknown-linux-gnu"));
  EXPECT_FALSE(catalyst::isOtherArchitecture(llvm::sys::getProcessTriple(),
                                             llvm::sys::getProcessTriple()));
}
