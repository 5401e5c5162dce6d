//===- Service.cpp - one service of executor-server's sessions ------------===//
#include "Service.h"

namespace executor_studio::runtime {

void Service::addBootstrapSymbols(
    llvm::StringMap<llvm::orc::ExecutorAddr> &bootstrapSymbols) {
  for (const Symbol &symbol : symbols)
    bootstrapSymbols[symbol.name] = symbol.address;
}

ServiceFunction Service::wrapper(llvm::StringRef name) const {
  for (const Symbol &symbol : symbols)
    if (symbol.wrapper && name == symbol.name)
      return symbol.wrapper;
  return nullptr;
}

} // namespace executor_studio::runtime
