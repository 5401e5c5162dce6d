//===- DebugSupport.h - kernels a debugger and a crash report can see -*- C++ -*-===//
//
// The ORC services that make JIT-linked kernels visible to tools in the
// session process: unwind tables (so a crash report walks through kernel
// frames) and the GDB JIT interface (so `gdb -p SESSION_PID` knows the
// kernels of objects built with debug info). Both are LLVM's own
// target-process actions; the client asks for them while linking.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_DEBUGSUPPORT_H
#define EXECUTORSERVER_DEBUGSUPPORT_H

#include "Service.h"

namespace executor_studio::runtime {

/// The unwind-table and GDB JIT registration actions as a service (under
/// the names ORC's EHFrameRegistrationPlugin and ELFDebugObjectPlugin look
/// for).
std::unique_ptr<Service> makeDebugSupportService();

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_DEBUGSUPPORT_H
