# End-to-end lit tests: compile samples with executor-compile and run them
# against a real executor-server (tests/e2e/with-executor).
import os

lit_config.load_config(config, os.path.join(config.executor_studio_src_root, "tests/lit/lit.cfg.py"))
config.name = "ExecutorStudio-e2e"
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.executor_studio_obj_root, "tests", "e2e")
config.suffixes = [".test"]
config.environment["PATH"] = os.pathsep.join([os.path.dirname(__file__), config.environment["PATH"]])
config.substitutions.append(("%libdir", os.path.join(config.executor_studio_obj_root, "lib")))
config.substitutions.append(("%objroot", config.executor_studio_obj_root))
