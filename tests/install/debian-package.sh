#!/usr/bin/env bash
# Builds the Debian package with CPack and checks its control fields, its
# file list and its systemd unit (systemd-analyze verify, where available).
#   debian-package.sh BUILD_DIR [self-contained|shared]
# (shared: the build links executor-server against shared libraries, as a
# sanitizer build does; its package is not checked for needing only glibc)
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

# The executor-only package of the same build (its `executor` component):
# executor-server, catalyst-executor, executor-deploy, the runtime library,
# the plugin headers, the CMake package and the unit; no compiler, language
# server or studio, and no dependency on MLIR, clang or GLFW. Its
# executor-server needs only glibc (the self-contained link), and runs.
mkdir -p "$work/executor"
(cd "$work/executor" && cpack -G DEB --config "$build/CPackExecutorConfig.cmake" -B "$work/executor" >/dev/null)
deb=$(ls "$work"/executor/executor-studio-executor_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no executor-studio-executor .deb"
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"
[ "$(dpkg-deb -f "$deb" Package)" = executor-studio-executor ] || fail "executor Package"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$(dpkg --print-architecture)" ] || fail "executor Architecture"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for dep in libmlir-22 clang-22 lld-22 libglfw3 libgl1; do
  echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -qx "$dep" && fail "the executor package depends on $dep"
done
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/executor-files"
for f in /usr/bin/executor-server /usr/bin/catalyst-executor /usr/bin/executor-deploy \
         /usr/lib/libExecutorRuntime.so /usr/lib/librt_executor.so \
         /usr/include/ExecutorRuntime/CAPI.h /usr/include/ExecutorRuntime/Plugin.h \
         /usr/lib/cmake/ExecutorStudio/ExecutorStudioConfig.cmake \
         /usr/lib/systemd/system/executor-server.service; do
  grep -qx "$f" "$work/executor-files" || fail "$f is not in the executor package"
done
for f in /usr/bin/executor-opt /usr/bin/executor-compile /usr/bin/executor-lsp-server /usr/bin/executor-studio; do
  grep -qx "$f" "$work/executor-files" && fail "$f is in the executor package"
done
grep -v -e '^/usr/' -e '^/$' "$work/executor-files" && fail "executor package: files outside /usr"
dpkg-deb -x "$deb" "$work/executor-root"
needed=$(readelf -d "$work/executor-root/usr/bin/executor-server" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "executor-server NEEDED: $needed"
if [ "${2:-self-contained}" = self-contained ]; then
  for lib in $needed; do
    case "$lib" in libgcc_s.so.1|libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*) ;;
      *) fail "the packaged executor-server needs $lib (not glibc's)" ;;
    esac
  done
else
  echo "executor-server is linked against shared libraries in this build (a sanitizer's): not checked for needing only glibc"
fi
"$work/executor-root/usr/bin/executor-server" --version | grep -q "^Executor Studio " || fail "the packaged executor-server does not run"
echo "$(wc -l <"$work/executor-files") entries in the executor package"
echo "debian-package: PASS"
