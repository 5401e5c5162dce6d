#!/usr/bin/env bash
# Builds the Debian package with CPack and checks its control fields, its
# file list and its systemd unit (systemd-analyze verify, where available).
#   debian-package.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/executor-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "debian-package: FAIL: $*" >&2; exit 1; }

(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >/dev/null)
deb=$(ls "$work"/executor-studio_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no .deb"
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

[ "$(dpkg-deb -f "$deb" Package)" = executor-studio ] || fail "Package"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for dep in libllvm22 libmlir-22 clang-22 lld-22 libglfw3 libgl1 libssl3 libstdc++6 libc6; do
  echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$dep" || fail "Depends lacks $dep"
done

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/files"
for f in /usr/bin/executor-opt /usr/bin/executor-compile /usr/bin/executor-server \
         /usr/bin/executor-lsp-server /usr/bin/executor-studio \
         /usr/lib/libExecutorRuntime.so /usr/lib/librt_executor.so \
         /usr/include/ExecutorRuntime/CAPI.h /usr/include/ExecutorRuntime/Plugin.h \
         /usr/lib/cmake/ExecutorStudio/ExecutorStudioConfig.cmake \
         /usr/lib/systemd/system/executor-server.service \
         /usr/share/doc/executor-studio/examples/executor-server.default; do
  grep -qx "$f" "$work/files" || fail "$f is not in the package"
done
# Everything under /usr, nothing from the build tree.
grep -v -e '^/usr/' -e '^/$' "$work/files" && fail "files outside /usr"
echo "$(wc -l <"$work/files") entries, all under /usr"

if command -v systemd-analyze >/dev/null 2>&1; then
  dpkg-deb -x "$deb" "$work/root"
  # verify needs ExecStart's binary: point it at the unpacked one.
  sed "s|/usr/bin/executor-server|$work/root/usr/bin/executor-server|" \
    "$work/root/usr/lib/systemd/system/executor-server.service" >"$work/executor-server.service"
  systemd-analyze verify "$work/executor-server.service" || fail "systemd-analyze verify"
  echo "systemd-analyze verify: the unit is valid"
else
  echo "systemd-analyze not found: unit not verified"
fi
echo "debian-package: PASS"
