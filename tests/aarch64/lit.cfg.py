# The executor parts cross-built for aarch64 (scripts/cross/build-aarch64.sh,
# which scripts/test.sh runs), tested under emulation: kernels compiled here
# by executor-compile for aarch64-unknown-linux-gnu run on the aarch64
# executor-server (and Debian's arm64 llvm-jitlink-executor) under
# qemu-aarch64-static -L SYSROOT. Skipped, saying why, where any of these is
# missing.
import os
import re
import shutil
import subprocess

lit_config.load_config(config, os.path.join(config.executor_studio_src_root, "tests/lit/lit.cfg.py"))
config.name = "ExecutorStudio-aarch64"
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.executor_studio_obj_root, "tests", "aarch64")
config.suffixes = [".test"]
here = os.path.dirname(__file__)
config.environment["PATH"] = os.pathsep.join([here, os.path.join(config.executor_studio_src_root, "tests", "e2e"),
                                              config.environment["PATH"]])


def skip(reason):
    lit_config.note("the aarch64 tests are skipped: " + reason)
    config.unsupported = True


build = config.aarch64_build_dir
server = os.path.join(build, "bin", "executor-server")
qemu = shutil.which("qemu-aarch64-static")
sysroot = None
try:
    with open(os.path.join(build, "CMakeCache.txt")) as cache:
        for line in cache:
            m = re.match(r"EXECUTOR_STUDIO_AARCH64_SYSROOT:\w+=(.*)", line.strip())
            if m:
                sysroot = m.group(1)
except OSError:
    pass

if qemu is None:
    skip("qemu-aarch64-static is not installed (scripts/setup.sh installs qemu-user-static)")
elif not os.path.exists(server) or sysroot is None:
    skip("there is no aarch64 build in %s (scripts/cross/build-aarch64.sh makes it; "
         "scripts/test.sh runs it, and says why when it cannot)" % build)
elif not os.path.exists(os.path.join(sysroot, "lib", "ld-linux-aarch64.so.1")):
    skip("the arm64 sysroot %s is gone (scripts/cross/aarch64-sysroot.sh makes it)" % sysroot)
else:
    # qemu-user must be able to run a program of the sysroot here (it cannot
    # where the kernel forbids it or the emulator is broken).
    probe = subprocess.run([qemu, "-L", sysroot, server, "--version"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    if probe.returncode != 0:
        skip("qemu-aarch64-static cannot run %s here: %s" % (server, probe.stdout.decode(errors="replace").strip()))

# The benchmarks are not built everywhere (-DEXECUTOR_STUDIO_ENABLE_BENCH=OFF,
# as in the sanitizer builds): runtime-bench.test REQUIRES them.
if os.path.exists(os.path.join(config.executor_studio_tools_dir, "executor-runtime-bench")):
    config.available_features.add("runtime-bench")

config.environment["EXECUTOR_AARCH64_QEMU"] = qemu or ""
config.environment["EXECUTOR_AARCH64_SYSROOT"] = sysroot or ""
config.environment["EXECUTOR_AARCH64_SERVER"] = server
config.substitutions.append(("%aarch64_build", build))
config.substitutions.append(("%aarch64_sysroot", sysroot or ""))
config.substitutions.append(("%libdir", os.path.join(config.executor_studio_obj_root, "lib")))
config.substitutions.append(("%qemu", "%s -L %s" % (qemu, sysroot)))

# ssh-executor.test starts Debian's sshd (tests/e2e/with-sshd): root, sshd,
# ssh and ssh-keygen.
if subprocess.call([os.path.join(config.executor_studio_src_root, "tests", "e2e", "with-sshd"), "--check"]) == 0:
    config.available_features.add("sshd")
else:
    lit_config.note("ssh-executor.test is skipped: it needs root, /usr/sbin/sshd, ssh and ssh-keygen (openssh-server, openssh-client)")

# A kernel that runs aarch64 programs through qemu (binfmt_misc) runs the
# aarch64 copy deploy.test expects to fail with "Exec format error".
if os.path.exists("/proc/sys/fs/binfmt_misc/qemu-aarch64"):
    config.available_features.add("binfmt-aarch64")
