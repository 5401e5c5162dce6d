# lit configuration for Executor Studio: IR tests (FileCheck) for the
# dialects, passes, samples and tools.
import os

import lit.formats

config.name = "ExecutorStudio"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.executor_studio_obj_root, "tests", "lit")

tools = config.executor_studio_tools_dir
llvm = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join([tools, llvm, config.environment.get("PATH", os.environ.get("PATH", ""))])
# HOME, TMPDIR, and the sanitizers' options (scripts/test.sh --sanitize=...).
for name in ["HOME", "TMPDIR", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS",
             "TSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH", "TSAN_SYMBOLIZER_PATH",
             "UBSAN_SYMBOLIZER_PATH"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

config.substitutions.append(("%samples", os.path.join(config.executor_studio_src_root, "samples")))
config.substitutions.append(("%host_triple", config.host_triple))
