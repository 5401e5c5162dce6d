//===- LaunchProtocol.cpp - choosing a session's launch protocol ----------===//
#include "LaunchProtocol.h"

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

LaunchProtocol::~LaunchProtocol() = default;

std::unique_ptr<LaunchProtocol>
chooseLaunchProtocol(ExecutorClient::Impl &session,
                     const StringMap<ExecutorAddr> &published) {
  if (auto protocol = makeOneTripProtocol(session, published))
    return protocol;
  if (auto protocol = makeCatalystServicesProtocol(session, published))
    return protocol;
  return makeOrcGenericProtocol(session);
}

const char *executorKindName(ExecutorKind kind) {
  switch (kind) {
  case ExecutorKind::ExecutorServer:
    return "executor-server";
  case ExecutorKind::CatalystExecutor:
    return "catalyst-executor";
  case ExecutorKind::OrcExecutor:
    return "ORC executor";
  }
  return "?";
}

const char *executorKindSummary(ExecutorKind kind) {
  switch (kind) {
  case ExecutorKind::ExecutorServer:
    return "executor-server: a launch is one round trip (inputs and results "
           "travel in the request and the reply)";
  case ExecutorKind::CatalystExecutor:
    return "catalyst-executor: Catalyst's services, a launch is five round "
           "trips (alloc, write, invoke, read the results' descriptors, "
           "read their data)";
  case ExecutorKind::OrcExecutor:
    return "ORC executor: ORC's memory access and wrapper calls, a launch is "
           "five round trips; no assets";
  }
  return "?";
}

} // namespace executor_studio::runtime
