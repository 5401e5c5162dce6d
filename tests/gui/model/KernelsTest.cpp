//===- KernelsTest.cpp - the kernels a document launches ------------------===//
#include "StudioModel/Kernels.h"
#include "TestFiles.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace executor_studio::gui;

using executor_test::readFile;

TEST(Kernels, FindsTheLaunchedEntriesOfTheTargets) {
  std::string sample = readFile(SAMPLES_DIR "/cross-compile-dispatch.mlir");
  ASSERT_FALSE(sample.empty());
  std::vector<Kernel> kernels;
  std::string error;
  ASSERT_TRUE(findKernels(sample, "cross-compile-dispatch.mlir", "/ws", kernels, error))
      << error;
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].qualifiedName(), "@compute::@square");
  EXPECT_EQ(kernels[1].qualifiedName(), "@compute::@scale");
  EXPECT_EQ(kernels[2].qualifiedName(), "@local::@sum");
  EXPECT_EQ(kernels[0].dispatchAddress, "ADDR:PORT");
  EXPECT_EQ(kernels[2].dispatchAddress, "");
  EXPECT_EQ(kernels[0].object, "/ws/compute/compute.o");
  EXPECT_EQ(kernels[2].object, "/ws/local/local.o");
  EXPECT_EQ(kernels[0].signature, "(memref<4xf64>) -> memref<4xf64>");
  EXPECT_EQ(kernels[2].signature, "(memref<4xf64>) -> memref<1xf64>");
  ASSERT_EQ(kernels[0].inputs.size(), 1u);
  EXPECT_EQ(kernels[0].inputs[0].shape, std::vector<int64_t>{4});
  EXPECT_EQ(kernels[0].inputs[0].element.name, "f64");
  EXPECT_TRUE(kernels[0].launchable);
  EXPECT_GT(kernels[0].line, 60u);
  EXPECT_TRUE(kernels[0].isNamed("square"));
  EXPECT_TRUE(kernels[0].isNamed("compute::square"));
  EXPECT_TRUE(kernels[0].isNamed("@compute::@square"));
  EXPECT_FALSE(kernels[0].isNamed("local::square"));
}

TEST(Kernels, ScalarArgumentsAndResultsAreLaunchable) {
  const char *text = R"mlir(
module {
  func.func @main(%x: f64, %m: memref<?x2xi32>, %v: vector<2xf32>) {
    %r = catalyst.launch_kernel @k::@f(%x) : (f64) -> f64
    %s = catalyst.launch_kernel @k::@g(%m) : (memref<?x2xi32>) -> memref<?x2xi32>
    %t = catalyst.launch_kernel @k::@h(%v) : (vector<2xf32>) -> vector<2xf32>
    return
  }
  module @k attributes {catalyst.target = {}} {
    func.func @f(%x: f64) -> f64 { return %x : f64 }
    func.func @g(%m: memref<?x2xi32>) -> memref<?x2xi32> { return %m : memref<?x2xi32> }
    func.func @h(%v: vector<2xf32>) -> vector<2xf32> { return %v : vector<2xf32> }
  }
}
)mlir";
  std::vector<Kernel> kernels;
  std::string error;
  ASSERT_TRUE(findKernels(text, "t.mlir", "/ws", kernels, error)) << error;
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_TRUE(kernels[0].launchable) << kernels[0].why;
  EXPECT_TRUE(kernels[0].inputs[0].scalar);
  EXPECT_TRUE(kernels[0].inputs[0].shape.empty());
  EXPECT_EQ(kernels[0].inputs[0].element.size, 8);
  EXPECT_TRUE(kernels[0].results[0].scalar);
  EXPECT_TRUE(kernels[1].launchable) << kernels[1].why;
  EXPECT_FALSE(kernels[1].inputs[0].scalar);
  EXPECT_EQ(kernels[1].inputs[0].shape, (std::vector<int64_t>{-1, 2}));
  EXPECT_EQ(kernels[1].inputs[0].element.size, 4);
  EXPECT_FALSE(kernels[2].launchable);
  EXPECT_NE(kernels[2].why.find("neither a memref nor a scalar"), std::string::npos)
      << kernels[2].why;
  EXPECT_EQ(parseInput(kernels[0].inputs[0], "2.5").data.numElements(), 1);
}

TEST(Kernels, ADispatchedKernelIsLaunchableWhenTheCompilerWouldDispatchIt) {
  // Scalars cross into a dispatched target as into a local one (issue 40);
  // what dispatch-executor-targets refuses (an i128) the studio refuses, in
  // its words.
  const char *text = R"mlir(
module {
  func.func @main(%x: f64, %t: tensor<4xf64>, %w: i128) {
    %r = catalyst.launch_kernel @remote::@f(%x) : (f64) -> f64
    %s = catalyst.launch_kernel @remote::@g(%t) : (tensor<4xf64>) -> tensor<4xf64>
    %u = catalyst.launch_kernel @here::@f(%x) : (f64) -> f64
    catalyst.launch_kernel @remote::@wide(%w) : (i128) -> ()
    return
  }
  module @remote attributes {catalyst.target = {}, catalyst.dispatch = {address = "h:1"}} {
    func.func @f(%x: f64) -> f64 { return %x : f64 }
    func.func @g(%t: tensor<4xf64>) -> tensor<4xf64> { return %t : tensor<4xf64> }
    func.func @wide(%w: i128) { return }
  }
  module @here attributes {catalyst.target = {}} {
    func.func @f(%x: f64) -> f64 { return %x : f64 }
  }
}
)mlir";
  std::vector<Kernel> kernels;
  std::string error;
  ASSERT_TRUE(findKernels(text, "t.mlir", "/ws", kernels, error)) << error;
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_TRUE(kernels[0].launchable) << kernels[0].why;
  EXPECT_TRUE(kernels[0].inputs[0].scalar);
  EXPECT_TRUE(kernels[0].results[0].scalar);
  EXPECT_TRUE(kernels[1].launchable) << kernels[1].why; // tensors bufferize into memrefs
  EXPECT_TRUE(kernels[2].launchable) << kernels[2].why;
  EXPECT_FALSE(kernels[3].launchable);
  EXPECT_EQ(kernels[3].why,
            "operand of type 'i128' cannot be sent to an executor: launches into a dispatched "
            "target take memrefs and scalars (i1, i8, i16, i32, i64, index, f16, bf16, f32, "
            "f64) only");
}

TEST(Kernels, ADocumentThatDoesNotParseSaysWhy) {
  std::vector<Kernel> kernels;
  std::string error;
  EXPECT_FALSE(findKernels("func.func @f( {", "bad.mlir", "/ws", kernels, error));
  EXPECT_FALSE(error.empty());
}

TEST(Kernels, ALaunchIntoASiblingModuleResolvesAsTheVerifierResolvesIt) {
  // The launch is inside @host; its target @gpu is @host's sibling, found
  // in the enclosing module (the verifier accepts it; the nearest symbol
  // table alone does not have it).
  const char *text = R"mlir(module {
  module @host {
    func.func @main(%x: memref<4xf64>) -> memref<4xf64> {
      %y = catalyst.launch_kernel @gpu::@double(%x) : (memref<4xf64>) -> memref<4xf64>
      return %y : memref<4xf64>
    }
  }
  module @gpu attributes {catalyst.target = {}, catalyst.dispatch = {address = "gpu:1"}} {
    func.func @double(%x: memref<4xf64>) -> memref<4xf64> {
      return %x : memref<4xf64>
    }
  }
}
)mlir";
  std::vector<Kernel> kernels;
  std::string error;
  ASSERT_TRUE(findKernels(text, "sibling.mlir", "/ws", kernels, error)) << error;
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].qualifiedName(), "@gpu::@double");
  EXPECT_EQ(kernels[0].dispatchAddress, "gpu:1");
  EXPECT_EQ(kernels[0].object, "/ws/gpu/gpu.o");
  EXPECT_EQ(kernels[0].signature, "(memref<4xf64>) -> memref<4xf64>");
  EXPECT_EQ(kernels[0].line, 9u) << "the line of the entry, not of the launch";
}
