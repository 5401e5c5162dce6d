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
# What a program linked against a sanitizer build's runtime needs (empty
# otherwise; cmake/Sanitizers.cmake).
config.substitutions.append(("%sanitize_flags", config.sanitize_flags))
# A sanitizer build's executor-server (what lldb steps through there is ASan's
# runtime, not the product's).
if config.sanitize_flags:
    config.available_features.add("sanitizers")

# The two-host test makes network namespaces: root and `ip netns` needed.
import subprocess
if subprocess.call([os.path.join(os.path.dirname(__file__), "two-hosts"), "--check"]) == 0:
    config.available_features.add("netns")
else:
    lit_config.note("two-hosts.test is skipped: it needs root and ip netns (network namespaces) to make two hosts")

# ssh-dispatch.test starts Debian's sshd: root, sshd, ssh and ssh-keygen.
if subprocess.call([os.path.join(os.path.dirname(__file__), "with-sshd"), "--check"]) == 0:
    config.available_features.add("sshd")
else:
    lit_config.note("ssh-dispatch.test is skipped: it needs root, /usr/sbin/sshd, ssh and ssh-keygen (openssh-server, openssh-client)")

# gdb-session.test attaches gdb to a session: gdb installed, and ptrace
# allowed in this container (checked by attaching to a sleeping process).
import shutil
def gdb_can_attach():
    if not shutil.which("gdb"):
        return "gdb is not installed (scripts/setup.sh installs it)"
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        probe = subprocess.run(["timeout", "60", "gdb", "-nx", "-batch", "-p", str(sleeper.pid)],
                               capture_output=True, text=True)
        said = (probe.stdout + probe.stderr).strip()
        if "ptrace: Operation not permitted" in said:
            return "this container refuses ptrace (gdb: ptrace: Operation not permitted)"
        if probe.returncode != 0:
            return "gdb could not attach to a process: " + (said.splitlines()[-1] if said else "no output")
        return ""
    finally:
        sleeper.kill()
        sleeper.wait()
why_no_gdb = gdb_can_attach()
if not why_no_gdb:
    config.available_features.add("gdb")
else:
    lit_config.note("gdb-session.test is skipped: " + why_no_gdb)

# lldb-dap-session.test drives LLVM's lldb-dap (Debian's lldb-22) over the
# Debug Adapter Protocol, as VS Code does: lldb-dap installed, and ptrace
# allowed (the gdb probe above).
def find_lldb_dap():
    for candidate in ["lldb-dap-22", "lldb-dap"]:
        found = shutil.which(candidate)
        if found:
            return found
    for candidate in ["/usr/lib/llvm-22/bin/lldb-dap", os.path.join(config.llvm_tools_dir, "lldb-dap")]:
        if os.access(candidate, os.X_OK):
            return candidate
    return None
lldb_dap = find_lldb_dap()
if not lldb_dap:
    lit_config.note("lldb-dap-session.test is skipped: lldb-dap is not installed (scripts/setup.sh installs lldb-22)")
elif why_no_gdb and "ptrace" in why_no_gdb:
    lit_config.note("lldb-dap-session.test is skipped: " + why_no_gdb)
else:
    config.available_features.add("lldb-dap")
    config.substitutions.append(("%lldb_dap", lldb_dap))

# catalyst-launcher.test runs Catalyst's own launcher (catalyst.executor,
# pure Python) from a Catalyst checkout named by CATALYST_SOURCE_DIR (a
# directory holding frontend/catalyst/executor/*.py; nothing of Catalyst's
# is in this repository). Its modules use typing.Self: Python 3.11.
import sys
catalyst_source = os.environ.get("CATALYST_SOURCE_DIR", "")
catalyst_launcher = os.path.join(catalyst_source, "frontend", "catalyst", "executor", "manager.py")
if not catalyst_source:
    lit_config.note("catalyst-launcher.test is skipped: set CATALYST_SOURCE_DIR to a Catalyst checkout "
                    "(a directory holding frontend/catalyst/executor/*.py) to run Catalyst's launcher")
elif not os.path.isfile(catalyst_launcher):
    lit_config.note("catalyst-launcher.test is skipped: CATALYST_SOURCE_DIR=" + catalyst_source +
                    " has no frontend/catalyst/executor/manager.py")
elif sys.version_info < (3, 11):
    lit_config.note("catalyst-launcher.test is skipped: Catalyst's launcher needs Python 3.11 (typing.Self)")
else:
    config.available_features.add("catalyst-source")
    config.substitutions.append(("%catalyst_source", os.path.abspath(catalyst_source)))

# catalyst-launcher-ssh.test: Catalyst's launcher with host=, on sshd in a
# network namespace of its own (tests/e2e/with-remote-sshd).
if subprocess.call([os.path.join(os.path.dirname(__file__), "with-remote-sshd"), "--check"]) == 0:
    config.available_features.add("remote-sshd")
else:
    lit_config.note("catalyst-launcher-ssh.test is skipped: it needs root, ip netns, /usr/sbin/sshd, ssh and ssh-keygen")
