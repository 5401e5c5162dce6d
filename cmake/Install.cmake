# Installation, the CMake package for plugin and host authors, and the Debian
# package (CPack). The installed tree is relocatable: binaries find the
# libraries through RPATH $ORIGIN/../lib, executor-compile finds the runtime
# and MLIR's runner utilities beside itself, and the package configuration
# computes its prefix from its own location.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Two components: `executor` (what an executor host needs: executor-server,
# catalyst-executor, executor-deploy, the runtime library, the plugin
# headers, the CMake package, the systemd unit, the docs) by default, and
# `tools` (the compiler, the language server, the studio, the samples they
# read). The executor-studio package has both; executor-studio-executor the
# first (CPackExecutorConfig.cmake below, or the executor-only build's).
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME executor)
set(EXECUTOR_STUDIO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ExecutorStudio)
set(EXECUTOR_STUDIO_DOC_DIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/executor-studio)

# Tools.
foreach(tool executor-opt executor-compile executor-server executor-deploy
             executor-lsp-server executor-studio)
  if(TARGET ${tool})
    set_target_properties(${tool} PROPERTIES
      INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
    # The graph of the IR: Graphviz's dot plugin, in Graphviz's directory.
    if(tool MATCHES "^executor-(lsp-server|studio)$")
      set_property(TARGET ${tool} APPEND PROPERTY
        INSTALL_RPATH "${EXECUTOR_STUDIO_GRAPHVIZ_PLUGIN_DIR}")
    endif()
    if(tool MATCHES "^executor-(server|deploy)$")
      install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    else()
      install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT tools)
    endif()
  endif()
endforeach()

# catalyst-executor beside executor-server: the build's link to it,
# installed as a link (relative, so the tree stays relocatable).
if(TARGET executor-server)
  install(FILES $<TARGET_FILE_DIR:executor-server>/catalyst-executor
    DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# The aarch64 build's executor-server (scripts/cross/build-aarch64.sh), for
# executor-deploy to copy to arm64 hosts, when it is there at install time.
if(NOT CMAKE_CROSSCOMPILING)
  install(PROGRAMS ${EXECUTOR_STUDIO_AARCH64_BUILD_DIR}/bin/executor-server
    DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/executor-studio/aarch64 OPTIONAL)
endif()

# The runtime library, also under the name Catalyst's programs link.
set_target_properties(ExecutorRuntime PROPERTIES
  INSTALL_RPATH "\$ORIGIN")
install(TARGETS ExecutorRuntime LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# (the build makes librt_executor.so a link to it; installed as a link)
install(FILES $<TARGET_FILE_DIR:ExecutorRuntime>/librt_executor.so
  DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The public headers: the C ABI, the plugin API and the C++ client.
install(FILES
  runtime/include/ExecutorRuntime/CAPI.h
  runtime/include/ExecutorRuntime/Embedded.h
  runtime/include/ExecutorRuntime/Plugin.h
  runtime/include/ExecutorRuntime/ExecutorClient.h
  runtime/include/ExecutorRuntime/LocalExecutor.h
  runtime/include/ExecutorRuntime/Wire.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ExecutorRuntime)

# find_package(ExecutorStudio CONFIG): ExecutorStudio::Plugin for a
# --plugin library, ExecutorStudio::Runtime for a host that calls the C ABI
# or the client API (which includes LLVM's ADT and Support headers).
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/ExecutorStudioConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/ExecutorStudioConfig.cmake
  INSTALL_DESTINATION ${EXECUTOR_STUDIO_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/ExecutorStudioConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/ExecutorStudioConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/ExecutorStudioConfigVersion.cmake
  DESTINATION ${EXECUTOR_STUDIO_CMAKE_DIR})

# The sample plugins' sources, to build against the installed package.
install(FILES
  samples/plugins/CMakeLists.txt
  samples/plugins/sample_histogram.c
  samples/plugins/sample_moments.c
  samples/plugins/sample_host.c
  DESTINATION ${CMAKE_INSTALL_DATADIR}/executor-studio/samples/plugins)
install(FILES
  samples/cross-compile-dispatch.mlir samples/runtime-call.mlir
  samples/custom-call.mlir samples/all-ops.mlir
  DESTINATION ${CMAKE_INSTALL_DATADIR}/executor-studio/samples COMPONENT tools)
# The README and the pages it links to (docs/, with their pictures and the
# first program), laid out as in the repository so that the links hold.
install(FILES README.md DESTINATION ${EXECUTOR_STUDIO_DOC_DIR})
install(DIRECTORY docs/ DESTINATION ${EXECUTOR_STUDIO_DOC_DIR}/docs
  FILES_MATCHING PATTERN "*.md" PATTERN "*.png" PATTERN "*.mlir")

# executor-server as a service: the unit (lib/systemd/system, so /usr/lib/...
# in the package) and an example of its settings file, which the operator
# copies to /etc/default/executor-server.
install(FILES packaging/systemd/executor-server.service
  DESTINATION lib/systemd/system)
install(FILES packaging/systemd/executor-server.default
  DESTINATION ${EXECUTOR_STUDIO_DOC_DIR}/examples)

# The Debian package: cpack -G DEB in the build directory.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME executor-studio)
set(EXECUTOR_STUDIO_EXECUTOR_SUMMARY
  "Executor Studio's executor-server and runtime library")
set(EXECUTOR_STUDIO_EXECUTOR_DESCRIPTION
  "Runs the kernels that executor-compile (or Catalyst) ships: executor-server (with a systemd unit), the runtime library (also as librt_executor.so), the plugin headers and the CMake package for plugin authors.")
set(EXECUTOR_STUDIO_EXECUTOR_DEPENDS
  "libc6, libstdc++6, libllvm22, zlib1g, libzstd1, libssl3")
set(CPACK_PACKAGE_VENDOR "Executor Studio")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Tools for the MLIR executor dialect: passes, executor-server, language server, GUI")
set(CPACK_PACKAGE_DESCRIPTION
  "Cross-compiles catalyst.target modules and dispatches them to executors: executor-opt, executor-compile, executor-server (with a systemd unit), executor-lsp-server and executor-studio, the runtime library (also as librt_executor.so) and the CMake package for plugin authors.")
set(CPACK_PACKAGE_CONTACT "Executor Studio developers <executor-studio@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
# libLLVM (the tools), clang and lld (executor-compile links programs),
# libmlir-22 (MLIR's runner utilities, which those programs link; the tools
# link MLIR statically), GLFW and OpenGL (executor-studio).
set(EXECUTOR_STUDIO_DEB_DEPENDS
  "libc6, libstdc++6, libllvm22, libmlir-22, clang-22, lld-22, zlib1g, libzstd1, libglfw3, libgl1")
# Graphviz (the graph of the IR, in the language server and the studio).
string(APPEND EXECUTOR_STUDIO_DEB_DEPENDS ", libgvc6, libcgraph6")
# OpenSSL (TLS on the executor wire, in the runtime and executor-server).
string(APPEND EXECUTOR_STUDIO_DEB_DEPENDS ", libssl3")
if(EXECUTOR_STUDIO_EXECUTOR_ONLY)
  # The executor parts alone, for a host that only runs kernels (in a cross
  # build, a package of the target's architecture).
  set(CPACK_PACKAGE_NAME executor-studio-executor)
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${EXECUTOR_STUDIO_EXECUTOR_SUMMARY}")
  set(CPACK_PACKAGE_DESCRIPTION "${EXECUTOR_STUDIO_EXECUTOR_DESCRIPTION}")
  set(EXECUTOR_STUDIO_DEB_DEPENDS "${EXECUTOR_STUDIO_EXECUTOR_DEPENDS}")
  if(CMAKE_CROSSCOMPILING)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
      set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64)$")
      set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
    else()
      message(FATAL_ERROR "No Debian architecture known for ${CMAKE_SYSTEM_PROCESSOR}: "
        "set CPACK_DEBIAN_PACKAGE_ARCHITECTURE")
    endif()
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${EXECUTOR_STUDIO_DEB_DEPENDS}")
include(CPack)
if(NOT EXECUTOR_STUDIO_EXECUTOR_ONLY)
  # The executor-only package of this build's architecture, from the same
  # build (its `executor` component): in the build directory,
  #   cpack --config CPackExecutorConfig.cmake
  file(WRITE ${PROJECT_BINARY_DIR}/CPackExecutorConfig.cmake
"# executor-studio-executor: the executor component of this build (Install.cmake).
include(\"${PROJECT_BINARY_DIR}/CPackConfig.cmake\")
set(CPACK_PACKAGE_NAME executor-studio-executor)
set(CPACK_PACKAGE_FILE_NAME executor-studio-executor-${PROJECT_VERSION}-Linux)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY \"${EXECUTOR_STUDIO_EXECUTOR_SUMMARY}\")
set(CPACK_PACKAGE_DESCRIPTION \"${EXECUTOR_STUDIO_EXECUTOR_DESCRIPTION}\")
set(CPACK_DEBIAN_PACKAGE_DEPENDS \"${EXECUTOR_STUDIO_EXECUTOR_DEPENDS}\")
set(CPACK_INSTALL_CMAKE_PROJECTS \"${PROJECT_BINARY_DIR};ExecutorStudio;executor;/\")
")
endif()
