//===- CAPI.cpp - the __catalyst__executor__* runtime ABI -----------------===//
//
// A thin layer over ExecutorClient: sessions are small integer handles,
// `open` is idempotent per address, every open session is closed at exit,
// and a failure stops the program with a message that names the address,
// the object and the entry.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/CAPI.h"
#include "ExecutorRuntime/ExecutorClient.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using namespace executor_runtime;

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<ExecutorClient>> sessions; // handle = index + 1
  std::map<std::string, int64_t> byAddress;
  std::map<int64_t, int64_t> tokenSession; // token -> session handle

  ~Registry() {
    for (auto &session : sessions)
      if (session)
        llvm::consumeError(session->close());
  }
};

Registry &registry() {
  static Registry *r = [] {
    static Registry instance;
    return &instance;
  }();
  return *r;
}

[[noreturn]] void die(const std::string &message) {
  std::fflush(stdout);
  std::fprintf(stderr, "executor runtime error: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

void check(llvm::Error err, const std::string &context) {
  if (err)
    die(context + ": " + llvm::toString(std::move(err)));
}

ExecutorClient &session(int64_t handle, const char *what) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (handle < 1 || handle > static_cast<int64_t>(r.sessions.size()) ||
      !r.sessions[handle - 1])
    die(std::string(what) + ": invalid or closed session handle " +
        std::to_string(handle));
  return *r.sessions[handle - 1];
}
} // namespace

extern "C" int64_t __catalyst__executor__open(const char *address) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byAddress.find(address);
  if (it != r.byAddress.end())
    return it->second;
  auto client = ExecutorClient::open(address);
  if (!client)
    die("cannot open a session: " + llvm::toString(client.takeError()));
  r.sessions.push_back(std::move(*client));
  int64_t handle = r.sessions.size();
  r.byAddress[address] = handle;
  return handle;
}

extern "C" void __catalyst__executor__send_binary(int64_t handle,
                                                  const char *path,
                                                  int32_t format) {
  ExecutorClient &client = session(handle, "send_binary");
  check(client.sendBinary(path, format), std::string("send_binary of ") + path);
}

extern "C" void __catalyst__executor__launch(
    int64_t handle, const char *entry, const char *object, int64_t numInputs,
    void **inputs, const int64_t *inputRanks, const int64_t *inputElementSizes,
    int64_t numOutputs, void **outputs, const int64_t *outputRanks,
    const int64_t *outputElementSizes) {
  ExecutorClient &client = session(handle, "launch");
  std::vector<DescriptorView> in, out;
  for (int64_t i = 0; i < numInputs; ++i)
    in.push_back({inputs[i], inputRanks[i]});
  for (int64_t i = 0; i < numOutputs; ++i)
    out.push_back({outputs[i], outputRanks[i]});
  check(client.launchDescriptors(
            entry, object, in,
            llvm::ArrayRef<int64_t>(inputElementSizes, numInputs), out,
            llvm::ArrayRef<int64_t>(outputElementSizes, numOutputs)),
        std::string("launch of ") + entry + " from " + object);
}

extern "C" int64_t __catalyst__executor__launch_async(int64_t handle,
                                                      const char *entry,
                                                      const char *object) {
  ExecutorClient &client = session(handle, "launch_async");
  auto token = client.launchAsync(entry, object);
  if (!token)
    die(std::string("launch_async of ") + entry + " from " + object + ": " +
        llvm::toString(token.takeError()));
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  // Tokens are per session; make them global by pairing with the handle.
  int64_t global = (handle << 40) | static_cast<int64_t>(*token);
  r.tokenSession[global] = handle;
  return global;
}

extern "C" void __catalyst__executor__await(int64_t token) {
  int64_t handle = token >> 40;
  ExecutorClient &client = session(handle, "await");
  check(client.await(static_cast<uint64_t>(token & ((int64_t(1) << 40) - 1))),
        "await");
}

extern "C" void __catalyst__executor__call_wrapper(
    int64_t handle, const char *symbol, const void *input, int64_t inputSize,
    void **reply, int64_t expectedReplySize) {
  ExecutorClient &client = session(handle, "call");
  auto result = client.call(
      symbol, llvm::ArrayRef<char>(static_cast<const char *>(input),
                                   static_cast<size_t>(inputSize)));
  if (!result)
    die(std::string("call of ") + symbol + ": " +
        llvm::toString(result.takeError()));
  if (static_cast<int64_t>(result->size()) < expectedReplySize)
    die(std::string("call of ") + symbol + " on " + client.address() +
        ": the reply has " + std::to_string(result->size()) +
        " bytes but the outputs need " + std::to_string(expectedReplySize));
  void *buffer = std::malloc(result->size() ? result->size() : 1);
  std::memcpy(buffer, result->data(), result->size());
  *reply = buffer;
}

extern "C" void __catalyst__executor__free_result(void *reply) {
  std::free(reply);
}

extern "C" void __catalyst__executor__close(int64_t handle) {
  Registry &r = registry();
  std::unique_ptr<ExecutorClient> client;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    if (handle < 1 || handle > static_cast<int64_t>(r.sessions.size()) ||
        !r.sessions[handle - 1])
      return; // closing twice is harmless
    client = std::move(r.sessions[handle - 1]);
    r.byAddress.erase(client->address());
  }
  check(client->close(), "close");
}
