//===- Service.h - one service of executor-server's sessions ----*- C++ -*-===//
//
// Each service a session offers (the launch service, assets, the kernel
// heap, Catalyst's services, debug support) is one of ORC's bootstrap
// services (ExecutorBootstrapService, as ORC's own memory manager is): it
// publishes its own bootstrap symbols, which SimpleRemoteEPCServer asks
// every service for once, at the session's start. A service here is the
// table of what it publishes; main() only chooses which services a session
// has.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_SERVICE_H
#define EXECUTORSERVER_SERVICE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ExecutionEngine/Orc/Shared/ExecutorAddress.h"
#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/ExecutorBootstrapService.h"

#include <memory>
#include <vector>

namespace executor_studio::runtime {

/// A wrapper function as ORC calls it (its C ABI): the argument bytes in,
/// the reply out.
using ServiceFunction = llvm::orc::shared::CWrapperFunctionBuffer (*)(
    const char *data, size_t size);

class Service final : public llvm::orc::ExecutorBootstrapService {
public:
  /// One symbol the service publishes: a wrapper function, or any other
  /// address (`wrapper` null then).
  struct Symbol {
    const char *name;
    llvm::orc::ExecutorAddr address;
    ServiceFunction wrapper = nullptr;
  };
  static Symbol wrapperSymbol(const char *name, ServiceFunction function) {
    return {name, llvm::orc::ExecutorAddr::fromPtr(function), function};
  }

  explicit Service(std::vector<Symbol> symbols) : symbols(std::move(symbols)) {}

  void addBootstrapSymbols(
      llvm::StringMap<llvm::orc::ExecutorAddr> &bootstrapSymbols) override;
  llvm::Error shutdown() override { return llvm::Error::success(); }

  /// The wrapper function it publishes as `name`, or null: for callers in
  /// this process (the fuzzers call a service as a client's request does).
  ServiceFunction wrapper(llvm::StringRef name) const;

private:
  std::vector<Symbol> symbols;
};

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_SERVICE_H
