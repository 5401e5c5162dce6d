//===- CAPI.cpp - the __catalyst__executor__* runtime ABI -----------------===//
//
// A thin layer over ExecutorClient with the behaviour of Catalyst's
// rt_executor: sessions are handles from 1 up, never reused; `open` is
// idempotent per address; `send_binary` ships a path once per session;
// tokens count from 1 across sessions; `close` waits for the session's
// unfinished asynchronous launches; every open session is closed at exit.
// A failure stops the program with a message that names the address, the
// object and the entry.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/CAPI.h"
#include "ExecutorRuntime/ExecutorClient.h"

#include "ExecutorStudio/Support/Targets.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

using namespace executor_studio::runtime;

namespace {
struct Session {
  std::unique_ptr<ExecutorClient> client;
  std::mutex mutex; // guards `sent`
  std::set<std::string> sent;
};

struct Registry {
  std::mutex mutex;
  int64_t nextHandle = 1;
  int64_t nextToken = 1;
  std::map<int64_t, std::shared_ptr<Session>> byHandle;
  std::map<std::string, int64_t> byAddress;
  struct Pending {
    int64_t session;
    uint64_t ticket;
  };
  std::map<int64_t, Pending> tokens;

  ~Registry() {
    for (auto &[handle, session] : byHandle)
      llvm::consumeError(session->client->close());
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

std::shared_ptr<Session> session(int64_t handle, const char *what) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byHandle.find(handle);
  if (it == r.byHandle.end())
    die(std::string(what) + ": invalid or closed session handle " +
        std::to_string(handle) + " (open it with __catalyst__executor__open)");
  return it->second;
}

std::string text(const char *s) { return s ? s : ""; }
} // namespace

// The .mlir place (FILE:LINE:COL) of the launch or await being made: the
// code convert-executor-to-llvm generates stores it before each (a weak
// definition of the program's); programs built otherwise have none.
extern "C" __attribute__((weak)) const char *__executor_studio_call_site;

namespace {
/// " at FILE:LINE:COL" for the call being made, or "".
std::string atCallSite() {
  const char *const *site = &__executor_studio_call_site;
  if (!site || !*site || !**site)
    return "";
  return std::string(" at ") + *site;
}
} // namespace

extern "C" int64_t __catalyst__executor__open(const char *address) {
  // A compiled program enters the library here (every other entry takes the
  // handle this returns) and has no main of ours: LLVM's targets, which an
  // ORC executor's services are compiled with (OrcGenericProtocol), are
  // registered here, once (Targets.h). Library code below never does.
  executor_studio::initializeTargets();
  if (!address || !*address)
    die("cannot open a session: the executor address is empty");
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byAddress.find(address);
  if (it != r.byAddress.end())
    return it->second;
  auto client = ExecutorClient::open(address);
  if (!client)
    die("cannot open a session: " + llvm::toString(client.takeError()));
  auto entry = std::make_shared<Session>();
  entry->client = std::move(*client);
  int64_t handle = r.nextHandle++;
  r.byHandle[handle] = std::move(entry);
  r.byAddress[address] = handle;
  return handle;
}

extern "C" int64_t __catalyst__executor__send_binary(int64_t handle,
                                                     const char *path,
                                                     uint32_t format) {
  std::shared_ptr<Session> s = session(handle, "send_binary");
  if (!path || !*path)
    return 0;
  std::lock_guard<std::mutex> lock(s->mutex);
  if (!s->sent.insert(path).second)
    return 0;
  if (format > 1)
    die(std::string("send_binary of ") + path + ": unknown binary format " +
        std::to_string(format) + " (0 is a relocatable object, 1 an asset)");
  // (A file the program embedded ships from memory: ExecutorClient.)
  check(s->client->sendBinary(path, static_cast<int>(format)),
        std::string("send_binary of ") + path);
  return 0;
}

extern "C" void __catalyst__executor__launch(
    int64_t handle, const char *entry, const char *object, size_t numInputs,
    void *const *inputs, const size_t *inputRanks,
    const size_t *inputElementSizes, size_t numOutputs, void *const *outputs,
    const size_t *outputRanks, const size_t *outputElementSizes) {
  std::shared_ptr<Session> s = session(handle, "launch");
  std::string what = "launch of " + kernelName(text(entry)) + atCallSite() +
                     (object && *object ? " from " + text(object) : "");
  auto address = s->client->symbolAddress(text(entry), text(object));
  if (!address)
    die(what + ": " + llvm::toString(address.takeError()));
  std::vector<DescriptorView> in, out;
  std::vector<int64_t> inSizes, outSizes;
  // A scalar input is a rank-0 descriptor over its value (three words per
  // input, sized first: the views point into them).
  std::vector<int64_t> scalarWords(3 * numInputs, 0);
  llvm::SmallVector<bool, 8> scalarIn, scalarOut;
  // A scalar is 1, 2, 4 or 8 bytes, as the executor checks too.
  auto checkScalar = [&](const char *kind, size_t i, size_t size) {
    if (size != 1 && size != 2 && size != 4 && size != 8)
      die(what + ": scalar " + kind + " " + std::to_string(i) + " has " +
          std::to_string(size) + " bytes (a scalar has 1, 2, 4 or 8)");
  };
  for (size_t i = 0; i < numInputs; ++i) {
    bool scalar = inputRanks[i] == EXECUTOR_SCALAR_RANK;
    scalarIn.push_back(scalar);
    inSizes.push_back(static_cast<int64_t>(inputElementSizes[i]));
    if (!scalar) {
      in.push_back({inputs[i], static_cast<int64_t>(inputRanks[i])});
      continue;
    }
    checkScalar("input", i, inputElementSizes[i]);
    void **words = reinterpret_cast<void **>(scalarWords.data() + 3 * i);
    words[0] = words[1] = inputs[i]; // allocated, aligned; offset 0
    in.push_back({words, 0});
  }
  for (size_t i = 0; i < numOutputs; ++i) {
    bool scalar = outputRanks[i] == EXECUTOR_SCALAR_RANK;
    if (scalar)
      checkScalar("output", i, outputElementSizes[i]);
    scalarOut.push_back(scalar);
    out.push_back({outputs[i], scalar ? 0 : static_cast<int64_t>(outputRanks[i])});
    outSizes.push_back(static_cast<int64_t>(outputElementSizes[i]));
  }
  check(s->client->launchDescriptorsAt(*address, text(entry), in, inSizes, out,
                                       outSizes, scalarIn, scalarOut),
        what);
}

extern "C" int64_t __catalyst__executor__launch_async(int64_t handle,
                                                      const char *entry,
                                                      const char *object) {
  std::shared_ptr<Session> s = session(handle, "launch_async");
  std::string what = "launch_async of " + kernelName(text(entry)) +
                     (object && *object ? " from " + text(object) : "");
  auto address = s->client->symbolAddress(text(entry), text(object));
  if (!address)
    die(what + ": " + llvm::toString(address.takeError()));
  auto ticket = s->client->launchAsyncAt(*address, text(entry));
  if (!ticket)
    die(what + ": " + llvm::toString(ticket.takeError()));
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  int64_t token = r.nextToken++;
  r.tokens[token] = {handle, *ticket};
  return token;
}

extern "C" void __catalyst__executor__await(int64_t token) {
  Registry &r = registry();
  Registry::Pending pending;
  std::shared_ptr<Session> s;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.tokens.find(token);
    if (it == r.tokens.end())
      return; // already awaited, or its session closed (which waited for it)
    pending = it->second;
    r.tokens.erase(it);
    auto found = r.byHandle.find(pending.session);
    if (found == r.byHandle.end())
      return;
    s = found->second;
  }
  check(s->client->await(pending.ticket),
        "await of launch_async token " + std::to_string(token) +
            atCallSite());
}

extern "C" int32_t
__catalyst__executor__call_wrapper(int64_t handle, const char *symbol,
                                   const char *args, size_t argsSize,
                                   void **out, size_t *outSize) {
  if (out)
    *out = nullptr;
  if (outSize)
    *outSize = 0;
  std::shared_ptr<Session> s = session(handle, "call_wrapper");
  if (!symbol || !*symbol)
    die("call_wrapper: the symbol is empty");
  auto result =
      s->client->call(symbol, llvm::ArrayRef<char>(args, args ? argsSize : 0));
  if (!result)
    die(std::string("call of ") + symbol + ": " +
        llvm::toString(result.takeError()));
  size_t size = result->size();
  if (out && size > 0) {
    void *buffer = std::malloc(size);
    if (!buffer)
      die(std::string("call of ") + symbol + ": cannot allocate " +
          std::to_string(size) + " bytes for the reply");
    std::memcpy(buffer, result->data(), size);
    *out = buffer;
  }
  if (outSize)
    *outSize = size;
  return 0;
}

extern "C" void __catalyst__executor__free_result(void *out) { std::free(out); }

extern "C" int64_t __catalyst__executor__close(int64_t handle) {
  Registry &r = registry();
  std::shared_ptr<Session> s;
  std::vector<uint64_t> unfinished;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.byHandle.find(handle);
    if (it == r.byHandle.end())
      return 0; // closing twice is harmless
    s = std::move(it->second);
    r.byHandle.erase(it);
    r.byAddress.erase(s->client->address());
    for (auto token = r.tokens.begin(); token != r.tokens.end();) {
      if (token->second.session != handle) {
        ++token;
        continue;
      }
      unfinished.push_back(token->second.ticket);
      token = r.tokens.erase(token);
    }
  }
  // As Catalyst's close: the session's kernels finish first; their errors
  // went unclaimed by an await.
  for (uint64_t ticket : unfinished)
    llvm::consumeError(s->client->await(ticket));
  check(s->client->close(), "close");
  return 0;
}
