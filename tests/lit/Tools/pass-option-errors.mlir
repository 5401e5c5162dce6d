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

// A misspelled pass or pipeline name, and a pipeline's option, get the same
// suggestion in every place a pass is named (issue 26, item 4):
// RUN: not executor-opt %s --pass-pipeline='builtin.module(executor-default-pipeline{worksp=/tmp})' 2>&1 | FileCheck %s --check-prefix=PIPELINE-OPTION
// RUN: not executor-opt %s --executor-default-pipeline=worksp=/tmp 2>&1 | FileCheck %s --check-prefix=PIPELINE-OPTION
// RUN: not executor-compile %s --pipeline='builtin.module(executor-default-pipeline{worksp=/tmp})' 2>&1 | FileCheck %s --check-prefix=PIPELINE-OPTION
// PIPELINE-OPTION: error: {{.*}}executor-default-pipeline has no option 'worksp' (did you mean 'workspace'?); its options are debug, executor-triple, opt-level, save-ir-after-each, workspace
// RUN: not executor-opt %s --pass-pipeline='builtin.module(executor-default-pipelin)' 2>&1 | FileCheck %s --check-prefix=PASS-NAME
// RUN: not executor-compile %s --pipeline='builtin.module(executor-default-pipelin)' 2>&1 | FileCheck %s --check-prefix=PASS-NAME
// RUN: not executor-opt %s --executor-default-pipelin 2>&1 | FileCheck %s --check-prefix=PASS-FLAG
// PASS-NAME: error: {{.*}}'executor-default-pipelin' is not a registered pass or pass pipeline (did you mean 'executor-default-pipeline'?)
// PASS-FLAG: Did you mean '--executor-default-pipeline'?
// RUN: not executor-opt %s --pass-pipeline='builtin.module(func.func(canonicalze))' 2>&1 | FileCheck %s --check-prefix=NESTED-NAME
// NESTED-NAME: executor-opt: error: 'canonicalze' is not a registered pass or pass pipeline (did you mean 'canonicalize'?)

// OPT: executor-opt: error: cross-compile-targets has no option 'workspce' (did you mean 'workspace'?); its options are cache, debug, executor-triple, jobs, opt-level, save-ir-after-each, workspace
// OPT-NOT: Pass-Options-Parser
// OPT-PIPELINE: executor-opt: error: canonicalize has no option 'max-iteration' (did you mean 'max-iterations'?)

// OURS: error: invalid pipeline "builtin.module(cross-compile-targets{workspce=/tmp save-ir-after-each=pass})": cross-compile-targets has no option 'workspce' (did you mean 'workspace'?); its options are cache, debug, executor-triple, jobs, opt-level, save-ir-after-each, workspace
// OURS-NOT: Pass-Options-Parser

// NESTED: canonicalize has no option 'max-iteration' (did you mean 'max-iterations'?); its options are max-iterations, max-num-rewrites, region-simplify, test-convergence, top-down; dispatch-executor-targets has no option 'x'; it takes no options

module {
}
