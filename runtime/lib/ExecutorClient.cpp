//===- ExecutorClient.cpp - one session with an executor ------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/TcpTransport.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/EPCDynamicLibrarySearchGenerator.h"
#include "llvm/ExecutionEngine/Orc/ObjectFileInterface.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"
#include "llvm/ExecutionEngine/Orc/SimpleRemoteEPC.h"
#include "llvm/ExecutionEngine/Orc/TaskDispatch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <malloc.h>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace executor_runtime {

std::string pyfaceName(const std::string &entry) {
  static const std::string prefix = "_catalyst_pyface_";
  if (entry.compare(0, prefix.size(), prefix) == 0)
    return entry;
  return prefix + entry;
}

namespace {
std::string defaultToken() {
  if (const char *token = std::getenv("EXECUTOR_TOKEN"))
    return token;
  if (const char *file = std::getenv("EXECUTOR_TOKEN_FILE")) {
    std::ifstream in(file);
    std::string token;
    std::getline(in, token);
    return token;
  }
  return "";
}
} // namespace

struct ExecutorClient::Impl {
  std::string address;
  std::string connected;
  bool open = false;
  std::unique_ptr<ExecutionSession> es;
  std::unique_ptr<ObjectLinkingLayer> linker;
  JITDylib *process = nullptr;
  ExecutorAddr launchWrapper, noteWrapper, launchAsyncWrapper, awaitWrapper,
      storeAssetWrapper;

  mutable std::mutex mutex;
  std::map<std::string, JITDylib *> objects;
  std::map<std::pair<std::string, std::string>, ExecutorAddr> entries;

  Error error(const Twine &message) const {
    return createStringError(inconvertibleErrorCode(),
                             "executor " + address + ": " + message);
  }

  /// The address of `entry` in `object` (empty: in any loaded object,
  /// then the executor process), looked up once.
  Expected<ExecutorAddr> findEntry(const std::string &entry,
                                   const std::string &object);
  /// Every loaded object, then the executor process.
  JITDylibSearchOrder everything() const {
    JITDylibSearchOrder order;
    for (auto &[name, jd] : objects)
      order.push_back({jd, JITDylibLookupFlags::MatchExportedSymbolsOnly});
    order.push_back({process, JITDylibLookupFlags::MatchExportedSymbolsOnly});
    return order;
  }
  /// One wrapper call, waited for on this thread. The reply usually comes
  /// back within tens of microseconds: spinning briefly before sleeping
  /// saves the wake-up of a blocked thread (a futex round trip) per launch.
  shared::WrapperFunctionBuffer callAndWait(ExecutorAddr function,
                                            ArrayRef<char> request) {
    struct Slot {
      std::atomic<bool> done{false};
      std::mutex mutex;
      std::condition_variable ready;
      shared::WrapperFunctionBuffer reply;
    };
    auto slot = std::make_shared<Slot>();
    es->getExecutorProcessControl().callWrapperAsync(
        ExecutorProcessControl::RunInPlace(), function,
        [slot](shared::WrapperFunctionBuffer reply) {
          std::lock_guard<std::mutex> lock(slot->mutex);
          slot->reply = std::move(reply);
          slot->done.store(true, std::memory_order_release);
          slot->ready.notify_one();
        },
        request);
    // 100 us covers a small launch on loopback; a long one sleeps after it.
    auto spinUntil =
        std::chrono::steady_clock::now() + std::chrono::microseconds(100);
    while (!slot->done.load(std::memory_order_acquire) &&
           std::chrono::steady_clock::now() < spinUntil)
      __builtin_ia32_pause();
    std::unique_lock<std::mutex> lock(slot->mutex);
    slot->ready.wait(lock, [&] { return slot->done.load(); });
    return std::move(slot->reply);
  }

  /// Calls one of the server's wrapper functions; returns the reply (whose
  /// status says ok) or the error it reports, naming `what`.
  Expected<shared::WrapperFunctionBuffer>
  callExecutor(ExecutorAddr function, ArrayRef<char> request,
               const std::string &what);
  void note(const std::string &message) {
    consumeError(callExecutor(noteWrapper,
                              ArrayRef<char>(message.data(), message.size()),
                              "note")
                     .takeError());
  }
};

ExecutorClient::ExecutorClient(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}

ExecutorClient::~ExecutorClient() { consumeError(close()); }

const std::string &ExecutorClient::address() const { return impl->address; }
const std::string &ExecutorClient::connectedAddress() const {
  return impl->connected;
}
bool ExecutorClient::isOpen() const { return impl->open; }

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::open(const std::string &address, ClientOptions options) {
  // The ORC transport writes with write(2): a peer that has gone must be an
  // error, not SIGPIPE killing the program.
  static bool ignoredSigpipe = [] {
    struct sigaction current{};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 &&
        current.sa_handler == SIG_DFL)
      std::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)ignoredSigpipe;
  // Launches move large memrefs through buffers that live for one call (the
  // request, the transport's reply). glibc would map and unmap each one and
  // fault every page in again; keeping them in the heap for reuse makes big
  // transfers several times faster. EXECUTOR_KEEP_MALLOC=1 leaves malloc's
  // settings alone.
  static bool tunedMalloc = [] {
    if (!std::getenv("EXECUTOR_KEEP_MALLOC")) {
      mallopt(M_MMAP_THRESHOLD, 1 << 30);
      mallopt(M_TRIM_THRESHOLD, 1 << 30);
      mallopt(M_ARENA_MAX, 1); // thread arenas cap out at 64 MiB and mmap the rest
    }
    return true;
  }();
  (void)tunedMalloc;
  auto impl = std::make_unique<Impl>();
  impl->address = address;
  impl->connected = mapAddress(address);
  std::string why;
  int fd = connectTo(impl->connected, options.connectTimeout, why);
  if (fd < 0)
    return impl->error(why);
  std::string token = options.token.empty() ? defaultToken() : options.token;
  if (!token.empty()) {
    std::string hello = "EXECUTOR-TOKEN " + token + "\n";
    std::string reply;
    if (!writeAll(fd, hello.data(), hello.size()) ||
        !readLine(fd, reply, options.connectTimeout) || reply != "OK") {
      ::close(fd);
      return impl->error("refused the session: wrong or missing token");
    }
  }
  // A peer that accepts but never speaks ORC would block the handshake for
  // ever: the server sends its setup message at once, so wait for it.
  pollfd ready{fd, POLLIN, 0};
  if (poll(&ready, 1, static_cast<int>(options.handshakeTimeout.count())) <= 0) {
    ::close(fd);
    return impl->error("did not start an ORC session within " +
                       std::to_string(options.handshakeTimeout.count()) +
                       " ms (is it an executor-server?)");
  }
  auto epc = SimpleRemoteEPC::Create<TcpTransport>(
      std::make_unique<DynamicThreadPoolTaskDispatcher>(std::nullopt),
      SimpleRemoteEPC::Setup(), fd);
  if (!epc) // the transport owned the socket and closed it
    return impl->error("ORC handshake failed: " + toString(epc.takeError()));
  impl->es = std::make_unique<ExecutionSession>(std::move(*epc));
  impl->es->setErrorReporter([](Error err) { consumeError(std::move(err)); });
  impl->linker = std::make_unique<ObjectLinkingLayer>(*impl->es);
  if (Error err = impl->es->getExecutorProcessControl().getBootstrapSymbols(
          {{impl->launchWrapper, kLaunchWrapperName},
           {impl->noteWrapper, kNoteWrapperName},
           {impl->launchAsyncWrapper, kLaunchAsyncWrapperName},
           {impl->awaitWrapper, kAwaitWrapperName},
           {impl->storeAssetWrapper, kStoreAssetWrapperName}})) {
    std::string message = toString(std::move(err));
    ExecutorClient client(std::move(impl));
    return client.impl->error("is not an executor-server (" + message + ")");
  }
  impl->process = &impl->es->createBareJITDylib("<executor process>");
  auto generator = EPCDynamicLibrarySearchGenerator::GetForTargetProcess(*impl->es);
  if (!generator) {
    std::string message = toString(generator.takeError());
    ExecutorClient client(std::move(impl));
    return client.impl->error("cannot search the executor process: " + message);
  }
  impl->process->addGenerator(std::move(*generator));
  impl->open = true;
  return std::unique_ptr<ExecutorClient>(new ExecutorClient(std::move(impl)));
}

bool ExecutorClient::hasObject(const std::string &name) const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->objects.count(name) != 0;
}

namespace {
Error unknownFormat(const std::string &name, int format) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot send " + name + ": unknown binary format " +
                               std::to_string(format) +
                               " (0 is a relocatable object, 1 an asset)");
}
} // namespace

Error ExecutorClient::sendBinary(const std::string &path, int format) {
  if (format != 0 && format != 1)
    return impl->error(toString(unknownFormat(path, format)));
  if (format == 0 && hasObject(path))
    return Error::success();
  const char *kind = format == 0 ? "object" : "asset";
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    return impl->error(std::string("cannot read ") + kind + " " + path + ": " +
                       buffer.getError().message());
  ArrayRef<char> bytes((*buffer)->getBufferStart(), (*buffer)->getBufferSize());
  if (format == 1)
    return storeAsset(sys::path::filename(path).str(), bytes);
  return sendBinary(path, bytes, format);
}

Error ExecutorClient::sendBinary(const std::string &name, ArrayRef<char> bytes,
                                 int format) {
  if (!impl->open)
    return impl->error("the session is closed");
  if (format == 1)
    return storeAsset(name, bytes);
  if (format != 0)
    return impl->error(toString(unknownFormat(name, format)));
  std::lock_guard<std::mutex> lock(impl->mutex);
  if (impl->objects.count(name))
    return Error::success();
  auto buffer = MemoryBuffer::getMemBufferCopy(
      StringRef(bytes.data(), bytes.size()), name);
  auto interface = getObjectFileInterface(*impl->es, buffer->getMemBufferRef());
  if (!interface)
    return impl->error("object " + name + " is not a loadable object file: " +
                       toString(interface.takeError()));
  SymbolLookupSet symbols;
  for (auto &[symbol, flags] : interface->SymbolFlags)
    if (flags.isExported())
      symbols.add(symbol);
  JITDylib &jd = impl->es->createBareJITDylib(name);
  jd.addToLinkOrder(*impl->process);
  if (Error err = impl->linker->add(jd, std::move(buffer))) {
    consumeError(impl->es->removeJITDylib(jd));
    return impl->error("cannot load object " + name + ": " +
                       toString(std::move(err)));
  }
  // Link now, so that a broken object fails here and not at its first launch.
  auto linked = impl->es->lookup(makeJITDylibSearchOrder(&jd), symbols);
  if (!linked) {
    std::string message = toString(linked.takeError());
    consumeError(impl->es->removeJITDylib(jd));
    return impl->error("cannot link object " + name + ": " + message);
  }
  impl->objects[name] = &jd;
  impl->note("object loaded: " + name + " (" + std::to_string(bytes.size()) +
             " bytes, " + std::to_string(symbols.size()) + " symbols)");
  return Error::success();
}

Expected<ExecutorAddr>
ExecutorClient::Impl::findEntry(const std::string &entry,
                                const std::string &object) {
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(object, entry);
  auto it = entries.find(key);
  if (it != entries.end())
    return it->second;
  JITDylibSearchOrder order;
  if (object.empty()) {
    order = everything();
  } else {
    auto jd = objects.find(object);
    if (jd == objects.end())
      return error("object " + object +
                   " was not sent on this session; send_binary it first");
    order = makeJITDylibSearchOrder(
        jd->second, JITDylibLookupFlags::MatchExportedSymbolsOnly);
  }
  auto symbol = es->lookup(order, es->intern(entry));
  if (!symbol) {
    consumeError(symbol.takeError());
    if (object.empty())
      return error("no shipped object or plugin defines the entry " + entry);
    return error("object " + object + " has no entry " + entry +
                 " (is the kernel named in a launch_kernel of the host?)");
  }
  entries[key] = symbol->getAddress();
  return symbol->getAddress();
}

Expected<shared::WrapperFunctionBuffer>
ExecutorClient::Impl::callExecutor(ExecutorAddr function, ArrayRef<char> request,
                                   const std::string &what) {
  if (!open)
    return error("the session is closed");
  shared::WrapperFunctionBuffer reply = callAndWait(function, request);
  if (const char *message = reply.getOutOfBandError()) {
    // Only the client side makes these: the session is gone.
    return error("lost the session during " + what + ": " + message +
                 " (the kernel crashed or the server stopped)");
  }
  uint64_t status = kReplyError;
  if (reply.size() < sizeof(status))
    return error(what + ": malformed reply from the executor");
  std::memcpy(&status, reply.data(), sizeof(status));
  if (status != kReplyOk)
    return error(what + " failed: " +
                 std::string(reply.data() + sizeof(status),
                             reply.size() - sizeof(status)));
  return std::move(reply);
}

namespace {
/// A message built in two passes: `fill(w)` runs once counting and once
/// writing into memory allocated to the exact size.
struct Message {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  ArrayRef<char> bytes() const { return ArrayRef<char>(data.get(), size); }
};
template <typename FillFn> Message buildMessage(FillFn fill) {
  Writer counter;
  fill(counter);
  Message m;
  m.size = counter.size();
  m.data.reset(new char[m.size]);
  Writer writer(m.data.get());
  fill(writer);
  return m;
}

void writeRequestHeader(Writer &w, ExecutorAddr entry, uint32_t nin,
                        uint32_t nout) {
  writeLaunchHeader(w, {entry.getValue(), nin, nout});
}

/// Reads one reply memref; calls `place(rank, eltSize, sizes, data, bytes)`.
template <typename PlaceFn>
bool readReplyMemRef(Reader &r, PlaceFn place) {
  uint32_t rank = 0, eltSize = 0;
  if (!r.get(rank) || !r.get(eltSize) || rank > 64)
    return false;
  std::vector<int64_t> sizes(rank);
  for (auto &s : sizes)
    if (!r.get(s))
      return false;
  uint64_t bytes = 0;
  if (!r.get(bytes) || !r.align(kDataAlignment))
    return false;
  const char *data = r.take(bytes);
  if (!data)
    return false;
  place(rank, eltSize, sizes, data, bytes);
  return true;
}
} // namespace

Error ExecutorClient::storeAsset(const std::string &name,
                                 ArrayRef<char> bytes) {
  Message request = buildMessage([&](Writer &w) {
    w.put<uint32_t>(name.size());
    if (char *dst = w.reserve(name.size()))
      std::memcpy(dst, name.data(), name.size());
    if (char *dst = w.reserve(bytes.size()))
      std::memcpy(dst, bytes.data(), bytes.size());
  });
  auto reply = impl->callExecutor(impl->storeAssetWrapper, request.bytes(),
                                  "storing asset '" + name + "'");
  return reply ? Error::success() : reply.takeError();
}

Expected<std::vector<HostMemRef>>
ExecutorClient::launch(const std::string &entryName, const std::string &object,
                       const std::vector<HostMemRef> &inputs,
                       const std::vector<ResultSpec> &results) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  for (const HostMemRef &in : inputs)
    if (static_cast<int64_t>(in.bytes.size()) != in.numElements() * in.elementSize)
      return impl->error("input of " + entry + " has " +
                         std::to_string(in.bytes.size()) +
                         " bytes, not the " +
                         std::to_string(in.numElements() * in.elementSize) +
                         " its shape needs");
  Message request = buildMessage([&](Writer &w) {
    writeRequestHeader(w, *address, inputs.size(), results.size());
    for (const HostMemRef &in : inputs) {
      w.put<uint32_t>(in.sizes.size());
      w.put<uint32_t>(in.elementSize);
      for (int64_t s : in.sizes)
        w.put<int64_t>(s);
      w.put<uint64_t>(in.bytes.size());
      w.align(kDataAlignment);
      if (char *dst = w.reserve(in.bytes.size()))
        std::memcpy(dst, in.bytes.data(), in.bytes.size());
    }
    for (const ResultSpec &spec : results) {
      w.put<uint32_t>(spec.rank);
      w.put<uint32_t>(spec.elementSize);
    }
  });
  auto reply = impl->callExecutor(impl->launchWrapper, request.bytes(),
                                  "launch of " + entry + " of " + object);
  if (!reply)
    return reply.takeError();
  std::vector<HostMemRef> outputs;
  Reader r(reply->data(), reply->size());
  uint64_t status;
  r.get(status);
  for (size_t i = 0; i < results.size(); ++i) {
    HostMemRef out;
    bool ok = readReplyMemRef(r, [&](uint32_t, uint32_t eltSize,
                                     std::vector<int64_t> &sizes,
                                     const char *data, uint64_t bytes) {
      out.sizes = sizes;
      out.elementSize = eltSize;
      out.bytes.assign(data, data + bytes);
    });
    if (!ok)
      return impl->error("malformed reply from " + entry);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

Error ExecutorClient::launchDescriptors(const std::string &entryName,
                                        const std::string &object,
                                        ArrayRef<DescriptorView> inputs,
                                        ArrayRef<int64_t> inputElementSizes,
                                        ArrayRef<DescriptorView> outputs,
                                        ArrayRef<int64_t> outputElementSizes) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  return launchDescriptorsAt(address->getValue(), entry + " of " + object,
                             inputs, inputElementSizes, outputs,
                             outputElementSizes);
}

Expected<uint64_t> ExecutorClient::symbolAddress(const std::string &symbol,
                                                 const std::string &object) {
  if (!impl->open)
    return impl->error("the session is closed");
  auto address = impl->findEntry(symbol, object);
  if (!address)
    return address.takeError();
  return address->getValue();
}

Error ExecutorClient::launchDescriptorsAt(uint64_t entryAddress,
                                          const std::string &entry,
                                          ArrayRef<DescriptorView> inputs,
                                          ArrayRef<int64_t> inputElementSizes,
                                          ArrayRef<DescriptorView> outputs,
                                          ArrayRef<int64_t> outputElementSizes) {
  ExecutorAddr address(entryAddress);
  Message request = buildMessage([&](Writer &w) {
    writeRequestHeader(w, address, inputs.size(), outputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      w.put<uint32_t>(inputs[i].rank);
      w.put<uint32_t>(inputElementSizes[i]);
      for (int64_t d = 0; d < inputs[i].rank; ++d)
        w.put<int64_t>(inputs[i].size(d));
      w.putData(inputs[i], inputElementSizes[i]);
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      w.put<uint32_t>(outputs[i].rank);
      w.put<uint32_t>(outputElementSizes[i]);
    }
  });
  auto reply = impl->callExecutor(impl->launchWrapper, request.bytes(),
                                  "launch of " + entry);
  if (!reply)
    return reply.takeError();
  // The largest output takes over the reply buffer itself (malloc'ed by the
  // transport; its data is 16-byte aligned in it), so the program frees it
  // with the descriptor's allocated pointer and the bulk of the data is not
  // copied again. The other outputs are copied out.
  Reader r(reply->data(), reply->size());
  uint64_t status;
  r.get(status);
  struct Placed {
    const char *data;
    uint64_t bytes;
    std::vector<int64_t> sizes;
  };
  std::vector<Placed> placed(outputs.size());
  size_t largest = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    bool ok = readReplyMemRef(r, [&](uint32_t, uint32_t,
                                     std::vector<int64_t> &sizes,
                                     const char *data, uint64_t bytes) {
      placed[i] = {data, bytes, sizes};
    });
    if (!ok)
      return impl->error("malformed reply from " + entry);
    if (placed[i].bytes > placed[largest].bytes)
      largest = i;
  }
  bool adopt = !outputs.empty() &&
               reply->size() > sizeof(shared::CWrapperFunctionBuffer{}.Data);
  for (size_t i = 0; i < outputs.size(); ++i) {
    DescriptorView out = outputs[i];
    if (adopt && i == largest)
      continue;
    void *memory = std::malloc(placed[i].bytes ? placed[i].bytes : 1);
    std::memcpy(memory, placed[i].data, placed[i].bytes);
    out.setDense(memory, placed[i].sizes.data());
  }
  if (adopt) {
    DescriptorView out = outputs[largest];
    size_t offset = placed[largest].data - reply->data();
    char *block = reply->release().Data.ValuePtr;
    char *data = block + offset;
    out.setDense(data, placed[largest].sizes.data());
    static_cast<void **>(out.base)[0] = block; // what free() gets
  }
  return Error::success();
}

Expected<uint64_t> ExecutorClient::launchAsync(const std::string &entryName,
                                               const std::string &object) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  return launchAsyncAt(address->getValue(), entry + " of " + object);
}

Expected<uint64_t> ExecutorClient::launchAsyncAt(uint64_t entryAddress,
                                                 const std::string &entry) {
  if (!impl->open)
    return impl->error("the session is closed");
  // The executor starts the kernel on a thread of its own and answers with a
  // ticket at once; await asks for the ticket's end.
  Message request = buildMessage([&](Writer &w) {
    writeRequestHeader(w, ExecutorAddr(entryAddress), 0, 0);
  });
  auto reply = impl->callExecutor(impl->launchAsyncWrapper, request.bytes(),
                                  "launch_async of " + entry);
  if (!reply)
    return reply.takeError();
  Reader r(reply->data(), reply->size());
  uint64_t status, ticket = 0;
  if (!r.get(status) || !r.get(ticket))
    return impl->error("malformed launch_async reply");
  return ticket;
}

Error ExecutorClient::await(uint64_t token) {
  auto reply = impl->callExecutor(
      impl->awaitWrapper,
      ArrayRef<char>(reinterpret_cast<const char *>(&token), sizeof(token)),
      "await of launch token " + std::to_string(token));
  return reply ? Error::success() : reply.takeError();
}

Expected<std::vector<char>> ExecutorClient::call(const std::string &symbol,
                                                 ArrayRef<char> input) {
  if (!impl->open)
    return impl->error("the session is closed");
  JITDylibSearchOrder order;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    order = impl->everything();
  }
  auto found = impl->es->lookup(order, impl->es->intern(symbol));
  if (!found) {
    consumeError(found.takeError());
    return impl->error("unknown symbol " + symbol +
                       ": no loaded object or plugin defines it");
  }
  return callAddress(found->getAddress().getValue(), input);
}

Expected<std::vector<char>> ExecutorClient::callAddress(uint64_t address,
                                                        ArrayRef<char> input) {
  if (!impl->open)
    return impl->error("the session is closed");
  shared::WrapperFunctionBuffer reply =
      impl->callAndWait(ExecutorAddr(address), input);
  if (const char *message = reply.getOutOfBandError())
    return impl->error("call failed: " + std::string(message));
  return std::vector<char>(reply.data(), reply.data() + reply.size());
}

ExecutorProcessControl &ExecutorClient::processControl() {
  return impl->es->getExecutorProcessControl();
}

Expected<uint64_t> ExecutorClient::bootstrapSymbol(const std::string &name) {
  ExecutorAddr address;
  if (Error err = processControl().getBootstrapSymbols({{address, name}}))
    return impl->error(toString(std::move(err)));
  return address.getValue();
}

Expected<uint64_t> ExecutorClient::entryAddress(const std::string &entry,
                                                const std::string &object) {
  auto address = impl->findEntry(pyfaceName(entry), object);
  if (!address)
    return address.takeError();
  return address->getValue();
}

Error ExecutorClient::close() {
  if (!impl || !impl->es)
    return Error::success();
  impl->open = false;
  // TcpTransport shuts the socket down on disconnect, so this returns even
  // when the server is gone.
  Error err = impl->es->endSession();
  impl->linker.reset();
  impl->es.reset();
  consumeError(std::move(err)); // the peer is gone by design
  return Error::success();
}

} // namespace executor_runtime
