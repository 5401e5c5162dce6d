//===- FuzzServices.cpp - executor-server's ORC services' requests --------===//
//
// The wrapper functions executor-server publishes as bootstrap symbols get
// their arguments as ORC SPS bytes from the client. The input's first byte
// picks a service, the rest is its argument buffer:
//   ours:      __executor_studio_store_asset, _note, _await
//   Catalyst's (FUZZ_CATALYST): catalyst_remote_alloc (+ _free),
//              catalyst_remote_store_asset
// The services that call or free an address the client gives
// (_launch, catalyst_remote_invoke) run what the client says by
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
/// The services as a session has them (Service.h).
std::unique_ptr<Service> launches, assets, catalyst;

/// Calls the wrapper function `name` of `service` on the argument bytes
/// and frees its reply.
WrapperFunctionBuffer call(const Service &service, const char *name,
                           const uint8_t *data, size_t size) {
  ServiceFunction function = service.wrapper(name);
  if (!function)
    std::abort(); // the harness names a service that is not there
  return WrapperFunctionBuffer(
      function(reinterpret_cast<const char *>(data), size));
}

#ifdef FUZZ_CATALYST
/// Frees what catalyst_remote_alloc returned, with catalyst_remote_free,
/// as the client would: its reply is the address alone (an error is out of
/// band, never an address: freeing an error's bytes as one was a wild free,
/// tests/fuzz/open-crashes before).
void freeReturned(const WrapperFunctionBuffer &reply) {
  uint64_t address = 0;
  if (reply.getOutOfBandError() || reply.size() != sizeof(address))
    return;
  std::memcpy(&address, reply.data(), sizeof(address));
  WrapperFunctionBuffer freed =
      call(*catalyst, "catalyst_remote_free",
           reinterpret_cast<const uint8_t *>(&address), sizeof(address));
  if (freed.getOutOfBandError())
    std::abort(); // what alloc returned must free
}

/// Whether an alloc request asks for more than the harness lets it have
/// (the client may ask any size; the fuzzer's memory is limited).
bool tooLarge(const uint8_t *data, size_t size) {
  uint64_t bytes = 0;
  std::memcpy(&bytes, data, std::min(size, sizeof(bytes)));
  return bytes > (1u << 20);
}
#endif
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // A session's asset directory, entered as executor-server's sessions do.
  std::string error;
  directory = makeAssetDirectory(
      std::filesystem::temp_directory_path().string(), error);
  enterAssetDirectory(directory, error);
  logLaunches = false;
  launches = makeLaunchService();
  assets = makeAssetService();
  catalyst = makeCatalystServices();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  uint8_t which = data[0];
  ++data;
  --size;
#ifndef FUZZ_CATALYST
  switch (which % 3) {
  case 0:
    call(*assets, kStoreAssetWrapperName, data, size);
    break;
  case 1:
    call(*launches, kNoteWrapperName, data, size);
    break;
  case 2:
    call(*launches, kAwaitWrapperName, data, size);
    break;
  }
#else
  switch (which % 2) {
  case 0:
    if (!tooLarge(data, size))
      freeReturned(call(*catalyst, "catalyst_remote_alloc", data, size));
    break;
  case 1:
    call(*catalyst, "catalyst_remote_store_asset", data, size);
    break;
  }
#endif
  // Keep the directory small: the assets go after each input.
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(directory, ec))
    std::filesystem::remove_all(entry.path(), ec);
  return 0;
}
