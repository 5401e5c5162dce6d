//===- CatalystServices.h - Catalyst's executor services --------*- C++ -*-===//
//
// The four services Catalyst's executor runtime (rt_executor) looks up at
// open, under Catalyst's names and with its SPS encodings, so that a
// program linked against Catalyst's runtime runs its kernels on
// executor-server unchanged:
//
//   catalyst_remote_alloc        SPSExecutorAddr(uint64_t size)
//                                zeroed memory; 0 when it cannot
//   catalyst_remote_free         void(SPSExecutorAddr)
//   catalyst_remote_invoke       void(SPSExecutorAddr entry,
//                                     SPSSequence<SPSExecutorAddr> {results,
//                                                                   arguments})
//                                calls entry(results, arguments)
//   catalyst_remote_store_asset  int32_t(SPSSequence<char> bytes,
//                                        SPSString name)
//                                0, or -1 when the asset is refused
//
// Catalyst's client also uses ORC's generic memory access and memory
// manager, which every session publishes anyway.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_CATALYSTSERVICES_H
#define EXECUTORSERVER_CATALYSTSERVICES_H

#include "Service.h"

namespace executor_studio::runtime {

/// The four services, under Catalyst's names.
std::unique_ptr<Service> makeCatalystServices();

/// Calls `__catalyst__rt__initialize(nullptr)` / `__catalyst__rt__finalize()`
/// when a plugin defines them, as catalyst-executor does for every session
/// (kernels compiled by Catalyst may use its runtime's context).
void startCatalystRuntime();
void stopCatalystRuntime();

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_CATALYSTSERVICES_H
