#!/usr/bin/env bash
# Installs, only when missing, every Debian package Executor Studio needs to
# build, test and demo. Safe to run repeatedly: a second run installs nothing.
set -euo pipefail

PACKAGES=(
  # toolchain
  cmake ninja-build ccache g++ git pkg-config
  # LLVM / MLIR 22
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  # sanitizers and libFuzzer (scripts/test.sh --sanitize=..., scripts/fuzz.sh)
  libclang-rt-22-dev
  libzstd-dev zlib1g-dev
  # TLS on the executor wire
  libssl-dev openssl libseccomp-dev
  # tests and benchmarks (iproute2: the two-host test's network namespaces;
  # neovim: its LSP client drives the language server in a test)
  iproute2 googletest libgtest-dev libgmock-dev libbenchmark-dev
  neovim
  # ssh:// addresses: the client runs ssh; tests/e2e/SshAddressTest.cpp
  # starts a real sshd
  openssh-client openssh-server
  # slurm: addresses: the client runs srun; tests/e2e/SlurmAddressTest.cpp
  # starts a one-node cluster (munged, slurmctld, slurmd)
  slurm-client slurmctld slurmd munge
  # a debugger attached to a live session (tests/e2e/gdb-session.test;
  # lldb-22's lldb-dap: tests/e2e/lldb-dap-session.test and the VS Code
  # extension's executor-kernel debugger)
  gdb lldb-22
  # the executor-server cross-built for aarch64 runs under emulation in the
  # tests (qemu-aarch64-static -L SYSROOT; no binfmt registration needed)
  qemu-user-static
  # GUI
  libglfw3-dev libimgui-dev libstb-dev nlohmann-json3-dev
  # the graph of the IR: Graphviz's layout (libgvc, libcgraph, the dot plugin)
  libgraphviz-dev
  libgl1-mesa-dev libgl1-mesa-dri libglx-mesa0 xvfb xauth fonts-dejavu-core
  # VS Code extension
  nodejs
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
# npm: NodeSource's nodejs ships it, Debian's own nodejs needs the npm package
# (which conflicts with NodeSource's): add it only when there is no npm.
if ! command -v npm >/dev/null 2>&1; then
  missing+=(npm)
fi

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
