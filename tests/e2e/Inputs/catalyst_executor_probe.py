#!/usr/bin/env python3
"""Starts catalyst-executor as Catalyst's launcher does, without Catalyst
(catalyst-executor.test):

    catalyst_executor_probe.py CATALYST_EXECUTOR [ARGS...]

Runs CATALYST_EXECUTOR ARGS with standard output and error merged into one
pipe (the launcher's subprocess.Popen(stdout=PIPE, stderr=STDOUT)) and
reads it line by line while the process runs, so the readiness line must
come flushed, not at exit. Prints for FileCheck:
 - the readiness line, with the port replaced by PORT, and whether it
   matches the launcher's pattern (r"Listening on \\S+:\\d+", case-sensitive);
 - what a client that proves nothing meets there (plain ORC, as Catalyst's
   runtime speaks): ORC's Setup first, and which bootstrap symbols it
   publishes;
 - the exit status after SIGTERM (the launcher's teardown).
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # nothing left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from catalyst_launcher import orc_setup  # noqa: E402

READY = re.compile(r"Listening on \S+:\d+")  # the launcher's pattern


def main():
    proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1)
    ready = threading.Event()
    lines = []

    def watch():
        for raw in proc.stdout:
            lines.append(raw.rstrip("\n"))
            if READY.search(raw):
                ready.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    if not ready.wait(20):
        proc.kill()
        print("no readiness line within 20 s; the executor said:\n" + "\n".join(lines))
        return 1
    line = next(l for l in lines if READY.search(l))
    address = READY.search(line).group(0).split(" ", 2)[2]
    print("readiness: " + re.sub(r":\d+$", ":PORT", line), flush=True)
    print(f"while running: {'yes' if proc.poll() is None else 'no'}", flush=True)
    opcode, payload = orc_setup(address)
    print(f"first message: ORC opcode {opcode} ({'Setup' if opcode == 0 else 'not Setup'})",
          flush=True)
    for symbol in [b"catalyst_remote_alloc", b"catalyst_remote_invoke",
                   b"catalyst_remote_store_asset", b"__executor_studio_launch"]:
        print(f"bootstrap symbol {symbol.decode()}: "
              f"{'published' if symbol in payload else 'absent'}", flush=True)
    proc.send_signal(signal.SIGTERM)
    try:
        status = proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        status = "none within 15 s"
    watcher.join(5)
    print(f"exit status after SIGTERM: {status}", flush=True)
    with open(os.environ.get("PROBE_LOG", os.devnull), "w") as log:
        log.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
