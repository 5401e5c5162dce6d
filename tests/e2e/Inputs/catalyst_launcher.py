#!/usr/bin/env python3
"""Drives Catalyst's own launcher, catalyst.executor.Executor, against this
project's catalyst-executor (catalyst-launcher.test).

    catalyst_launcher.py CATALYST_SOURCE_DIR CATALYST_EXECUTOR [PLUGIN] -- PROGRAM [ARGS...]
    catalyst_launcher.py --remote HOST CATALYST_SOURCE_DIR CATALYST_EXECUTOR [PLUGIN] -- PROGRAM [ARGS...]

CATALYST_SOURCE_DIR holds a Catalyst checkout (at least
frontend/catalyst/executor/*.py). Those modules are loaded as they are, with
the standard library only; the one name they import from the rest of
Catalyst, catalyst.utils.runtime_environment.get_lib_path (where Catalyst's
packaged binaries are), is stubbed to answer the directory CATALYST_EXECUTOR
is in. Nothing of Catalyst's is copied here.

It then, printing one line per fact for FileCheck:
 1. launches Executor(executor_bin=CATALYST_EXECUTOR, plugins=[PLUGIN])
    locally: the launcher picks a random port, starts the executor with
    `--bind=127.0.0.1:PORT --plugin=PLUGIN`, and waits for its readiness line;
 2. connects to the address it reports as Catalyst's runtime would (plain
    ORC, no token): the first thing the executor says is ORC's Setup, whose
    bootstrap symbols are Catalyst's services and not ours;
 3. runs PROGRAM with EXECUTOR_ADDRESS_MAP=ADDR:PORT=<that address>;
 4. stops it: the executor process is gone and the port refuses;
 5. pins a port that is taken: the launcher reads the executor's "Address
    already in use", retries on another port and gets there, with the
    executor found where Catalyst's packaging would have it (no
    executor_bin, the stubbed lib directory).

With --remote HOST (an ssh Host that reaches a machine sharing this file
system, as root: tests/e2e/with-remote-sshd), the same over ssh:
Executor(host=HOST, executor_bin=CATALYST_EXECUTOR) makes a workspace there,
starts the executor through `ssh -tt -L PORT:localhost:PORT`, detects the
triple with `uname -sm`; the program runs through the tunnel; stop() closes
ssh (the executor gets SIGHUP), pkills, and removes the workspace. Then
Executor(host=HOST, deploy=[CATALYST_EXECUTOR]): scp copies the binary into
the workspace, which runs it as ./catalyst-executor.
"""
import glob
import importlib.util
import os
import pwd
import socket
import struct
import subprocess
import sys
import time
import types


def load_launcher(source_dir, lib_dir):
    package_dir = os.path.join(source_dir, "frontend", "catalyst", "executor")
    if not os.path.isfile(os.path.join(package_dir, "manager.py")):
        sys.exit(f"catalyst_launcher.py: no {package_dir}/manager.py: "
                 "CATALYST_SOURCE_DIR is not a Catalyst checkout")
    catalyst = types.ModuleType("catalyst")
    catalyst.__path__ = []
    utils = types.ModuleType("catalyst.utils")
    utils.__path__ = []
    runtime_environment = types.ModuleType("catalyst.utils.runtime_environment")

    def get_lib_path(project, env_var):
        # Catalyst's answer is its installed runtime directory (or $env_var).
        return os.environ.get(env_var, lib_dir)

    runtime_environment.get_lib_path = get_lib_path
    sys.modules.update({
        "catalyst": catalyst,
        "catalyst.utils": utils,
        "catalyst.utils.runtime_environment": runtime_environment,
    })
    spec = importlib.util.spec_from_file_location(
        "catalyst.executor", os.path.join(package_dir, "__init__.py"),
        submodule_search_locations=[package_dir])
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalyst.executor"] = module
    spec.loader.exec_module(module)
    return module


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise RuntimeError(f"the executor closed the connection after {len(data)} bytes")
        data += chunk
    return data


def orc_setup(address):
    """Connects as ORC's FD transport does and returns the first message's
    (opcode, payload). ORC's header: size (header included), opcode,
    sequence number, tag address, each a little-endian uint64."""
    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.settimeout(10)
        size, opcode, _, _ = struct.unpack("<QQQQ", read_exactly(sock, 32))
        return opcode, read_exactly(sock, size - 32)


def bind_pids(address):
    """PIDs whose command line has --bind=ADDRESS (what Catalyst's remote
    teardown pkills by)."""
    needle = f"--bind={address}".encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if needle in args:
            pids.append(int(entry))
    return pids


def refuses(address):
    host, port = address.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=2).close()
        return False
    except OSError:
        return True


def wait_gone(address):
    deadline = time.monotonic() + 15
    while bind_pids(address) and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(bind_pids(address))


def remote(Executor, host, executor_bin, plugins, program):
    # The remote user's home (the file system is shared): where the
    # launcher's workspaces go.
    home = pwd.getpwnam("root").pw_dir
    workspaces = lambda: set(glob.glob(os.path.join(home, "catalyst-exec-*")))
    before = workspaces()
    ex = Executor(host=host, user="root", executor_bin=executor_bin, plugins=plugins,
                  ready_timeout=60)
    ex.launch()
    address = ex.address
    host_part = address.rsplit(":", 1)[0]
    print(f"launched over ssh: ready at {host_part}:PORT (the tunnel's end)", flush=True)
    print(f"triple: {ex.triple}", flush=True)
    made = workspaces() - before
    print(f"a workspace was made: {'yes' if len(made) == 1 else 'no'}", flush=True)
    print(f"an executor runs with --bind=127.0.0.1:PORT: {'yes' if bind_pids(address) else 'no'}",
          flush=True)
    opcode, payload = orc_setup(address)
    print(f"through the tunnel: ORC opcode {opcode} "
          f"({'Setup' if opcode == 0 else 'not Setup'}), catalyst_remote_invoke "
          f"{'published' if b'catalyst_remote_invoke' in payload else 'absent'}", flush=True)
    env = dict(os.environ, EXECUTOR_ADDRESS_MAP=f"ADDR:PORT={address}")
    run = subprocess.run(program, env=env, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(run.stdout)
    print(f"program exit status: {run.returncode}", flush=True)
    ex.stop()
    print(f"stopped: executor processes left: {wait_gone(address)}, "
          f"tunnel refuses: {'yes' if refuses(address) else 'no'}, "
          f"workspace removed: {'yes' if not (workspaces() & made) else 'no'}", flush=True)

    # The binary deployed into the workspace (scp), run there by its name.
    before = workspaces()
    with Executor(host=host, user="root", deploy=[executor_bin], ready_timeout=60) as deployed:
        made = workspaces() - before
        copied = [os.path.join(w, "catalyst-executor") for w in made]
        print(f"deployed: ./catalyst-executor in the workspace, a file of its own: "
              f"{'yes' if copied and all(os.path.isfile(c) and not os.path.islink(c) for c in copied) else 'no'}",
              flush=True)
        opcode, _ = orc_setup(deployed.address)
        print(f"deployed: ORC opcode {opcode}", flush=True)
        deployed_address = deployed.address
    print(f"deployed, stopped: executor processes left: {wait_gone(deployed_address)}, "
          f"workspace removed: {'yes' if not (workspaces() & made) else 'no'}", flush=True)
    return 0 if run.returncode == 0 else 1


def main():
    if "--" not in sys.argv:
        sys.exit(__doc__)
    split = sys.argv.index("--")
    ours, program = sys.argv[1:split], sys.argv[split + 1:]
    host = None
    if ours[:1] == ["--remote"]:
        host, ours = ours[1], ours[2:]
    source_dir, executor_bin = ours[0], os.path.abspath(ours[1])
    plugins = ours[2:]
    launcher = load_launcher(source_dir, os.path.dirname(executor_bin))
    Executor = launcher.Executor
    if host:
        return remote(Executor, host, executor_bin, plugins, program)

    # 1. Launch, locally, on a port the launcher picks.
    ex = Executor(executor_bin=executor_bin, plugins=plugins, ready_timeout=30)
    t0 = time.monotonic()
    ex.launch()
    address = ex.address
    host, port = address.rsplit(":", 1)
    print(f"launched: ready at {host}:PORT in under 30 s "
          f"({'yes' if time.monotonic() - t0 < 30 else 'no'})", flush=True)
    print(f"triple: {ex.triple}", flush=True)
    pids = bind_pids(address)
    print(f"an executor runs with --bind={host}:PORT: {'yes' if pids else 'no'}", flush=True)

    # 2. What Catalyst's runtime meets: ORC's Setup first, no token asked.
    opcode, payload = orc_setup(address)
    print(f"first message: ORC opcode {opcode} ({'Setup' if opcode == 0 else 'not Setup'})", flush=True)
    for symbol in [b"catalyst_remote_alloc", b"catalyst_remote_free",
                   b"catalyst_remote_invoke", b"catalyst_remote_store_asset",
                   b"__executor_studio_launch"]:
        print(f"bootstrap symbol {symbol.decode()}: "
              f"{'published' if symbol in payload else 'absent'}", flush=True)

    # 3. A program whose executor address is ADDR:PORT, mapped to it.
    env = dict(os.environ, EXECUTOR_ADDRESS_MAP=f"ADDR:PORT={address}")
    run = subprocess.run(program, env=env, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(run.stdout)
    print(f"program exit status: {run.returncode}", flush=True)

    # 4. Teardown.
    ex.stop()
    print(f"stopped: executor processes left: {wait_gone(address)}, "
          f"port refuses: {'yes' if refuses(address) else 'no'}", flush=True)

    # 5. A pinned port that is taken: the launcher moves to another.
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    busy_port = busy.getsockname()[1]
    with Executor(port=busy_port, ready_timeout=30) as moved:
        moved_port = int(moved.address.rsplit(":", 1)[1])
        print(f"pinned a taken port: moved to another ({'yes' if moved_port != busy_port else 'no'})",
              flush=True)
        opcode, _ = orc_setup(moved.address)
        print(f"there: ORC opcode {opcode}", flush=True)
        moved_address = moved.address
    busy.close()
    print(f"stopped again: port refuses: {'yes' if refuses(moved_address) else 'no'}", flush=True)
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
