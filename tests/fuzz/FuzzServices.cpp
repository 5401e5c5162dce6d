//===- FuzzServices.cpp - executor-server's ORC services' requests --------===//
//
// The wrapper functions executor-server publishes as bootstrap symbols get
// their arguments as ORC SPS bytes from the client. The input's first byte
// picks a service, the rest is its argument buffer:
//   ours:      __executor_studio_store_asset, _note, _await, _alloc (+ _free
//              of what it returned)
//   Catalyst's (FUZZ_CATALYST): catalyst_remote_alloc (+ _free),
//              catalyst_remote_store_asset
// The services that call or free an address the client gives
// (_invoke, _launch, catalyst_remote_invoke) run what the client says by
// design: their decoding is fuzzed through the launch request target.
//
//===----------------------------------------------------------------------===//
#include "AssetService.h"
#include "CatalystServices.h"
#include "LaunchService.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/Shared/SimplePackedSerialization.h"
#include "llvm/ExecutionEngine/Orc/Shared/WrapperFunctionUtils.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace executor_studio::runtime;
using namespace llvm::orc::shared;

namespace {
std::string directory;

/// Calls `service` on the argument bytes and frees its reply.
WrapperFunctionBuffer call(CWrapperFunctionBuffer (*service)(const char *,
                                                             size_t),
                           const uint8_t *data, size_t size) {
  return WrapperFunctionBuffer(
      service(reinterpret_cast<const char *>(data), size));
}

/// Frees what an alloc service returned, with its free service, as the
/// client would. Our alloc's reply is a status word, then (when it is
/// kReplyOk) the address; an error reply's message is no address (freeing
/// its bytes as one was a wild free, tests/fuzz/open-crashes before).
/// Catalyst's is the address alone (an error is out of band).
void freeReturned(const WrapperFunctionBuffer &reply, bool withStatus,
                  CWrapperFunctionBuffer (*service)(const char *, size_t)) {
  size_t at = withStatus ? sizeof(uint64_t) : 0;
  uint64_t status = kReplyOk, address = 0;
  if (reply.getOutOfBandError() || reply.size() != at + sizeof(address))
    return;
  if (withStatus)
    std::memcpy(&status, reply.data(), sizeof(status));
  if (status != kReplyOk)
    return;
  std::memcpy(&address, reply.data() + at, sizeof(address));
  WrapperFunctionBuffer freed(service(
      reinterpret_cast<const char *>(&address), sizeof(address)));
  if (freed.getOutOfBandError() ||
      (withStatus && (freed.size() != sizeof(status) ||
                      std::memcmp(freed.data(), &kReplyOk, sizeof(status)))))
    std::abort(); // what alloc returned must free
}

/// Whether an alloc request asks for more than the harness lets it have
/// (the client may ask any size; the fuzzer's memory is limited).
bool tooLarge(const uint8_t *data, size_t size) {
  uint64_t bytes = 0;
  std::memcpy(&bytes, data, std::min(size, sizeof(bytes)));
  return bytes > (1u << 20);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // A session's asset directory, entered as executor-server's sessions do.
  std::string error;
  directory = makeAssetDirectory(
      std::filesystem::temp_directory_path().string(), error);
  enterAssetDirectory(directory, error);
  logLaunches = false;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  uint8_t which = data[0];
  ++data;
  --size;
#ifndef FUZZ_CATALYST
  switch (which % 4) {
  case 0:
    call(executorStudioStoreAsset, data, size);
    break;
  case 1:
    call(executorStudioNote, data, size);
    break;
  case 2:
    call(executorStudioAwait, data, size);
    break;
  case 3:
    if (!tooLarge(data, size))
      freeReturned(call(executorStudioAlloc, data, size), true,
                   executorStudioFree);
    break;
  }
#else
  switch (which % 2) {
  case 0:
    if (!tooLarge(data, size))
      freeReturned(call(catalystRemoteAlloc, data, size), false,
                   catalystRemoteFree);
    break;
  case 1:
    call(catalystRemoteStoreAsset, data, size);
    break;
  }
#endif
  // Keep the directory small: the assets go after each input.
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(directory, ec))
    std::filesystem::remove_all(entry.path(), ec);
  return 0;
}
