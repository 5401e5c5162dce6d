# Cross-compiles for aarch64-linux-gnu (arm64) on any host with clang-22 and
# lld-22, against a Debian arm64 sysroot (scripts/cross/aarch64-sysroot.sh).
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DEXECUTOR_STUDIO_AARCH64_SYSROOT=/path/to/sysroot ...
#
# scripts/cross/build-aarch64.sh does this for the executor parts.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT EXECUTOR_STUDIO_AARCH64_SYSROOT)
  set(EXECUTOR_STUDIO_AARCH64_SYSROOT "$ENV{EXECUTOR_STUDIO_AARCH64_SYSROOT}")
endif()
if(NOT EXECUTOR_STUDIO_AARCH64_SYSROOT OR
   NOT EXISTS "${EXECUTOR_STUDIO_AARCH64_SYSROOT}/usr/include/aarch64-linux-gnu")
  message(FATAL_ERROR "aarch64-linux-gnu.cmake: no arm64 sysroot at "
    "'${EXECUTOR_STUDIO_AARCH64_SYSROOT}': set EXECUTOR_STUDIO_AARCH64_SYSROOT "
    "to the path scripts/cross/aarch64-sysroot.sh prints")
endif()
# try_compile projects see the variable too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EXECUTOR_STUDIO_AARCH64_SYSROOT)

set(CMAKE_SYSROOT "${EXECUTOR_STUDIO_AARCH64_SYSROOT}")
set(CMAKE_C_COMPILER clang-22)
set(CMAKE_CXX_COMPILER clang++-22)
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_ASM_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-fuse-ld=lld")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-fuse-ld=lld")

# Libraries, headers and packages from the sysroot only; programs from the host.
set(CMAKE_FIND_ROOT_PATH "${EXECUTOR_STUDIO_AARCH64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config (libseccomp) reads the sysroot's .pc files only.
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${EXECUTOR_STUDIO_AARCH64_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
    "${EXECUTOR_STUDIO_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${EXECUTOR_STUDIO_AARCH64_SYSROOT}/usr/share/pkgconfig")

# Whatever runs a target binary at configure or test time.
find_program(EXECUTOR_STUDIO_QEMU_AARCH64 qemu-aarch64-static)
if(EXECUTOR_STUDIO_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR
      "${EXECUTOR_STUDIO_QEMU_AARCH64};-L;${EXECUTOR_STUDIO_AARCH64_SYSROOT}")
endif()

# Binutils that know arm64 (CPack strips the package's files with CMAKE_STRIP).
foreach(tool ar ranlib strip objcopy objdump readelf nm)
  string(TOUPPER "${tool}" TOOL)
  find_program(CMAKE_${TOOL} llvm-${tool}-22 REQUIRED)
endforeach()
