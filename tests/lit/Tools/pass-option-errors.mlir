// A misspelled pass option names the pass, the nearest valid spelling and
// the options the pass takes (MLIR alone says "no such option").
//
// RUN: not executor-compile %s --pipeline='builtin.module(cross-compile-targets{workspce=/tmp save-ir-after-each=pass})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OURS
// RUN: not executor-compile %s --pipeline='builtin.module(func.func(canonicalize{max-iteration=3}),dispatch-executor-targets{x=1})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NESTED

// executor-opt, for a pass flag and a --pass-pipeline:
// RUN: not executor-opt %s --cross-compile-targets=workspce=/tmp 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not executor-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iteration=3}))' 2>&1 | FileCheck %s --check-prefix=OPT-PIPELINE
// RUN: executor-opt %s --cross-compile-targets=workspace=%t.ws --canonicalize=max-iterations=3 -o /dev/null

// OPT: executor-opt: error: cross-compile-targets has no option 'workspce' (did you mean 'workspace'?); its options are save-ir-after-each, workspace
// OPT-NOT: Pass-Options-Parser
// OPT-PIPELINE: executor-opt: error: canonicalize has no option 'max-iteration' (did you mean 'max-iterations'?)

// OURS: error: invalid pipeline "builtin.module(cross-compile-targets{workspce=/tmp save-ir-after-each=pass})": cross-compile-targets has no option 'workspce' (did you mean 'workspace'?); its options are save-ir-after-each, workspace
// OURS-NOT: Pass-Options-Parser

// NESTED: canonicalize has no option 'max-iteration' (did you mean 'max-iterations'?); its options are max-iterations, max-num-rewrites, region-simplify, test-convergence, top-down; dispatch-executor-targets has no option 'x'; it takes no options

module {
}
