# lit tests of executor-lsp-server: JSON-RPC scripts in the style of
# mlir/test/mlir-lsp-server, run by the real binary (`-lit-test`) or by
# executor-lsp-client (which waits for each answer), checked with FileCheck.
import os

import lit.formats

config.name = "ExecutorStudio-lsp"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.excludes = ["Inputs", "tools", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.executor_studio_obj_root, "tests", "lsp")

tools = config.executor_studio_tools_dir
llvm = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join(
    [tools, llvm, config.environment.get("PATH", os.environ.get("PATH", ""))])
# HOME, TMPDIR, and the sanitizers' options (scripts/test.sh --sanitize=...).
for name in ["HOME", "TMPDIR", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS",
             "TSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH", "TSAN_SYMBOLIZER_PATH",
             "UBSAN_SYMBOLIZER_PATH"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

config.substitutions.append(("%samples", os.path.join(config.executor_studio_src_root, "samples")))

# Neovim's built-in LSP client (Debian's neovim) drives the server in
# neovim-client.test.
import shutil
if shutil.which("nvim"):
    config.available_features.add("nvim")
config.substitutions.append(("%executor_studio_tools", tools))
