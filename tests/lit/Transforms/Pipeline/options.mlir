// executor-default-pipeline forwards its options to cross-compile-targets:
// a workspace that needs quoting (a space) and save-ir-after-each.
//
// RUN: rm -rf %t
// RUN: executor-opt %samples/cross-compile-dispatch.mlir \
// RUN:   --pass-pipeline='builtin.module(executor-default-pipeline{workspace="%t/with space" save-ir-after-each=pipeline})' \
// RUN:   | FileCheck %s
// RUN: ls "%t/with space/compute/ir" | FileCheck %s --check-prefix=IR
// RUN: ls "%t/with space/local/ir" | FileCheck %s --check-prefix=IR
// RUN: cat "%t/with space/host.objects" | FileCheck %s --check-prefix=MANIFEST

// CHECK: module @host attributes {catalyst.object_files = ["{{.*}}/with space/local/local.o"]}
// CHECK: llvm.mlir.global private constant @{{.+}}("{{.*}}/with space/compute/compute.o\00")

// IR: 00_input.mlir
// IR-NEXT: {{^[0-9]+}}_reconcile-unrealized-casts.mlir
// IR-NOT: {{.}}

// MANIFEST: /with space/local/local.o{{$}}

// Without a workspace the pipeline stops at the targets.
// RUN: not executor-opt %samples/cross-compile-dispatch.mlir \
// RUN:   --pass-pipeline='builtin.module(executor-default-pipeline)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-WORKSPACE
// NO-WORKSPACE: error: Missing `workspace` option for target cross-compilation: target @compute needs a directory for its object; pass cross-compile-targets{workspace=DIR}
