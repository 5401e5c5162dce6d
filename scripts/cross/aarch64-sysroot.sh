#!/usr/bin/env bash
# Assembles an arm64 (aarch64-linux-gnu) sysroot from Debian's arm64 packages,
# only when it is missing or incomplete, and prints its path as the last line.
#
#   scripts/cross/aarch64-sysroot.sh [SYSROOT]
#
# SYSROOT defaults to $EXECUTOR_STUDIO_AARCH64_SYSROOT or
# ~/.cache/executor-studio/aarch64-sysroot. The packages are fetched with
# `apt-get download PKG:arm64` (this adds the arm64 architecture to dpkg and
# runs apt-get update once, so that apt knows the arm64 indexes; nothing
# foreign is installed) and unpacked with `dpkg-deb -x`. The sysroot holds
# what the executor parts are built against (C and C++ libraries, OpenSSL,
# LLVM 22's static ORC libraries, headers and CMake package, libLLVM.so.22
# and its dependencies) and what runs under qemu-aarch64-static -L SYSROOT
# (the dynamic loader, and Debian's own llvm-jitlink-executor).
set -euo pipefail

sysroot=${1:-${EXECUTOR_STUDIO_AARCH64_SYSROOT:-$HOME/.cache/executor-studio/aarch64-sysroot}}
debs=${EXECUTOR_STUDIO_AARCH64_DEBS:-$HOME/.cache/executor-studio/aarch64-debs}

PACKAGES=(
  # C and C++: headers, crt files, libraries, the dynamic loader
  libc6 libc6-dev linux-libc-dev libgcc-s1 libgcc-12-dev gcc-12-base
  libstdc++6 libstdc++-12-dev libcrypt1 libcrypt-dev
  # TLS on the executor wire; the sessions' system call filter
  libssl3 libssl-dev libseccomp2 libseccomp-dev
  # LLVM 22: libLLVM.so.22, the static ORC libraries, headers, the CMake
  # package (whose exports name every tool, so the tool packages too), and
  # llvm-jitlink-executor (package llvm-22)
  libllvm22 llvm-22-dev llvm-22 llvm-22-tools llvm-22-runtime
  llvm-22-linker-tools libclang-cpp22
  # what libLLVM.so.22 and LLVMSupport need
  zlib1g zlib1g-dev libzstd1 libzstd-dev libffi8 libffi-dev libedit2
  libxml2 libxml2-dev libz3-4 libz3-dev libtinfo6 libncurses6 libncurses-dev
  libbsd0 libmd0 libicu72 liblzma5 libpfm4 libcurl4
)

stamp="$sysroot/.executor-studio-sysroot"
want=$(printf '%s\n' "${PACKAGES[@]}" | sort | tr '\n' ' ')
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "$sysroot"
  exit 0
fi

command -v dpkg-deb >/dev/null || { echo "aarch64-sysroot: dpkg-deb not found (not a Debian system?)" >&2; exit 1; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# apt needs the arm64 indexes to download arm64 packages: add the
# architecture (it installs nothing) and update once.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "aarch64-sysroot: adding the arm64 architecture to dpkg" >&2
  $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq
elif ! apt-cache show libc6:arm64 >/dev/null 2>&1; then
  $SUDO apt-get update -qq
fi

mkdir -p "$debs" "$sysroot"
start=$(date +%s)
# The candidate version of each package: its file as apt-get download
# names it (PKG_VERSION_arm64.deb, ':' as %3a).
files=()
missing=()
for p in "${PACKAGES[@]}"; do
  v=$(apt-cache policy "$p:arm64" | sed -n 's/^ *Candidate: //p')
  if [ -z "$v" ] || [ "$v" = "(none)" ]; then
    echo "aarch64-sysroot: Debian has no arm64 package $p for this release" >&2
    exit 1
  fi
  f="${p}_${v//:/%3a}_arm64.deb"
  files+=("$f")
  [ -f "$debs/$f" ] || missing+=("$p:arm64=$v")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "aarch64-sysroot: downloading ${#missing[@]} arm64 packages" >&2
  # (apt-get download runs as _apt when it can; the cache is ours)
  (cd "$debs" && apt-get download -qq -o APT::Sandbox::User=root "${missing[@]}" >&2)
fi

echo "aarch64-sysroot: unpacking into $sysroot" >&2
for f in "${files[@]}"; do
  dpkg-deb -x "$debs/$f" "$sysroot"
done

# Absolute symbolic links (libfoo.so -> /lib/aarch64-linux-gnu/libfoo.so.1)
# would point into the host: make them relative to the sysroot.
find "$sysroot" -type l -lname '/*' -print0 |
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    rel=$(realpath -m --relative-to="$(dirname "$link")" "$sysroot$target")
    ln -sfn "$rel" "$link"
  done

# LLVM's CMake exports name libz3 by its absolute path on the arm64 machine it
# was built for: make that path relative to the package's own location.
sed -i 's#"\(rt;dl;m;\)\?/usr/lib/aarch64-linux-gnu/#"\1${_IMPORT_PREFIX}/../aarch64-linux-gnu/#' \
  "$sysroot/usr/lib/llvm-22/lib/cmake/llvm/LLVMExports.cmake"
grep -q '"rt;dl;m;/usr/lib/aarch64' "$sysroot/usr/lib/llvm-22/lib/cmake/llvm/LLVMExports.cmake" &&
  { echo "aarch64-sysroot: could not relocate libz3 in LLVMExports.cmake" >&2; exit 1; }

echo "$want" > "$stamp"
echo "aarch64-sysroot: ready in $(( $(date +%s) - start )) s ($(du -sh "$sysroot" | cut -f1))" >&2
echo "$sysroot"
