//===- ExecutorClient.cpp - one session with an executor ------------------===//
#include "ExecutorRuntime/ExecutorClient.h"
#include "ClientSession.h"
#include "EmbeddedObjects.h"
#include "LaunchProtocol.h"
#include "ObjectArchitecture.h"
#include "ExecutorRuntime/Connect.h"
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/StreamTransport.h"
#include "ExecutorRuntime/UnixSocket.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/ExecutionEngine/Orc/EPCDynamicLibrarySearchGenerator.h"
#include "llvm/ExecutionEngine/Orc/ObjectFileInterface.h"
#include "llvm/ExecutionEngine/Orc/SimpleRemoteEPC.h"
#include "llvm/ExecutionEngine/Orc/TaskDispatch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {

std::string pyfaceName(const std::string &entry) {
  static const std::string prefix = "_catalyst_pyface_";
  if (entry.compare(0, prefix.size(), prefix) == 0)
    return entry;
  return prefix + entry;
}

ExecutorClient::ExecutorClient(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}

ExecutorClient::~ExecutorClient() { consumeError(close()); }

const std::string &ExecutorClient::address() const { return impl->address; }
const std::string &ExecutorClient::connectedAddress() const {
  return impl->connected;
}

std::string ExecutorClient::executorTriple() const {
  return impl->es ? impl->es->getExecutorProcessControl().getTargetTriple().str()
                  : std::string();
}
int64_t ExecutorClient::sessionPid() const {
  if (impl->child)
    return impl->childPid;
  if (!impl->es)
    return 0;
  const StringMap<ExecutorAddr> &published =
      impl->es->getExecutorProcessControl().getBootstrapSymbolsMap();
  auto it = published.find(kSessionPidSymbol);
  uint64_t pid = it == published.end() ? impl->pidRead : it->second.getValue();
  // (A PID is positive and below 2^22 on Linux; anything else is ignored.)
  if (pid == 0 || pid > (1u << 22))
    return 0;
  return static_cast<int64_t>(pid);
}
bool ExecutorClient::isOpen() const { return impl->open; }
ExecutorKind ExecutorClient::executorKind() const { return impl->kind; }
std::string ExecutorClient::tlsDescription() const {
  return impl->transport ? impl->transport->tlsDescription() : "";
}

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::open(const std::string &address, ClientOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->address = address;
  std::string why, unmatched;
  if (!mapAddress(address, impl->connected, why, &unmatched))
    return impl->error(why);
  bool mapped = impl->connected != address;
  // A map that is set but maps nothing here: its entries, and why not.
  std::string mapNote = unmatched.empty() ? "" : "; " + unmatched;
  std::string host, port;
  if (!mapped && !isUnixAddress(address) && !isSshAddress(address) &&
      !isSlurmAddress(address) &&
      !splitAddress(address, host, port, why))
    return impl->error(
        "no EXECUTOR_ADDRESS_MAP entry maps this address, and it is not an "
        "address to connect to (" + why + "); run the program with "
        "EXECUTOR_ADDRESS_MAP='" + address + "=HOST:PORT' (several entries "
        "separated by ',')" + mapNote);
  // The launch time limit first: a setting that cannot be used is the
  // error, not what the executor says without it.
  int64_t launchSeconds = 0;
  if (!options.launchTimeout.count() &&
      !secondsFromEnvironment("EXECUTOR_LAUNCH_TIMEOUT", 0, launchSeconds,
                              why))
    return impl->error(why);
  impl->launchTimeout = options.launchTimeout.count()
                            ? options.launchTimeout
                            : std::chrono::seconds(launchSeconds);
  // A reply that stops half-way is not waited for longer than the liveness
  // time-out (the transport's stallTimeout).
  int64_t livenessSeconds = 30;
  if (!options.livenessTimeout.count() &&
      !secondsFromEnvironment("EXECUTOR_LIVENESS_TIMEOUT", 30, livenessSeconds,
                              why))
    return impl->error(why);
  impl->liveness = options.livenessTimeout.count()
                       ? std::chrono::milliseconds(options.livenessTimeout)
                       : std::chrono::seconds(livenessSeconds);
  // The one place that knows what carries the session (Connect.h).
  auto stream = connectTransport(impl->connected, options);
  if (!stream) {
    why = toString(stream.takeError());
    if (!mapNote.empty())
      why += mapNote;
    else if (!mapped && why.rfind("cannot resolve", 0) == 0)
      why += "; if it stands for an executor, map it with "
             "EXECUTOR_ADDRESS_MAP='" + address + "=HOST:PORT'";
    return impl->error(why);
  }
  bool sameHost =
      isUnixAddress(impl->connected) || isLoopbackHost(impl->connected);
  return startSession(std::move(impl), std::move(*stream), sameHost);
}

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::startSession(std::unique_ptr<Impl> impl,
                             std::unique_ptr<Stream> stream, bool sameHost) {
  StreamTransport::Options transportOptions;
  transportOptions.stallTimeout = impl->liveness;
  auto epc = SimpleRemoteEPC::Create<StreamTransport>(
      std::make_unique<DynamicThreadPoolTaskDispatcher>(std::nullopt),
      SimpleRemoteEPC::Setup(), std::move(stream), &impl->transport,
      std::move(transportOptions));
  if (!epc) { // the transport owned the socket and closed it
    impl->transport = nullptr;
    return impl->error("ORC handshake failed: " + toString(epc.takeError()));
  }
  impl->es = std::make_unique<ExecutionSession>(std::move(*epc));
  impl->es->setErrorReporter([](Error err) { consumeError(std::move(err)); });
  impl->memory = LinkedObjects::debugSafeMemory(
      impl->es->getExecutorProcessControl().getMemMgr(),
      [transport = impl->transport] { transport->disconnect(); });
  impl->linker = std::make_unique<ObjectLinkingLayer>(*impl->es, *impl->memory);
  impl->linkedObjects = LinkedObjects::addTo(*impl->es, *impl->linker,
                                             impl->memory.get());
  impl->sameHost = sameHost;
  // A session whose Setup executor-server sent before the session existed
  // (issue 40) publishes where its PID is. Its first call may find the
  // server refused it (it could not start one, it is busy): its Hangup
  // says why.
  ExecutorProcessControl &control = impl->es->getExecutorProcessControl();
  auto pidAt = control.getBootstrapSymbolsMap().find(kSessionPidAddressSymbol);
  bool setupAhead = pidAt != control.getBootstrapSymbolsMap().end();
  auto failedOpening = [&](const std::string &why, const std::string &what) {
    ExecutorClient client(std::move(impl));
    StreamTransport *transport = client.impl->transport;
    std::string hangup = transport ? transport->hangupMessage() : "";
    if (setupAhead && transport && transport->hungUpByPeer() &&
        hangup != kShuttingDownMessage && transport->malformedMessage().empty())
      return client.impl->error("refused the session: " + hangup);
    // Lost, or a lie the transport caught: as any call of open.
    if (transport && transport->ended())
      return client.impl->lost("open", why);
    return client.impl->error(what + why);
  };
  // The launch protocol, once, from the bootstrap symbols (LaunchProtocol.h).
  impl->protocol = chooseLaunchProtocol(*impl, control.getBootstrapSymbolsMap());
  impl->kind = impl->protocol->kind();
  impl->process = &impl->es->createBareJITDylib("<executor process>");
  auto generator = EPCDynamicLibrarySearchGenerator::GetForTargetProcess(*impl->es);
  if (!generator)
    return failedOpening(toString(generator.takeError()),
                         "cannot search the executor process: ");
  if (setupAhead) {
    auto read = control.getMemoryAccess().readUInt64s({pidAt->second});
    if (!read)
      return failedOpening(toString(read.takeError()),
                           "the session ended at its start: ");
    if (read->size() != 1) {
      ExecutorClient client(std::move(impl));
      return client.impl->malformed(
          "open", "the session's PID came as " + Twine(read->size()) +
                      " values, not 1");
    }
    impl->pidRead = (*read)[0];
  }
  impl->process->addGenerator(std::move(*generator));
  impl->open = true;
  if (Error err = impl->protocol->attach()) {
    ExecutorClient client(std::move(impl));
    return std::move(err);
  }
  return std::unique_ptr<ExecutorClient>(new ExecutorClient(std::move(impl)));
}

Expected<std::unique_ptr<ExecutorClient>>
ExecutorClient::spawn(const std::string &executor,
                      const std::vector<std::string> &extraArgs) {
  auto impl = std::make_unique<Impl>();
  impl->address = impl->connected = executor;
  if (!llvm::sys::fs::can_execute(executor))
    return impl->error("cannot start it: no executable file there");
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return impl->error(std::string("cannot make a socket pair: ") +
                       ::strerror(errno));
  // ORC's executors take the session's descriptors as `filedescs=IN,OUT`:
  // the child's standard input and output are its end of the pair.
  std::vector<std::string> args = {executor};
  llvm::append_range(args, extraArgs);
  args.push_back("filedescs=0,1");
  executor_studio::SubprocessOptions options;
  options.in = executor_studio::Redirect::descriptor(fds[1]);
  options.out = executor_studio::Redirect::descriptor(fds[1]);
  options.newProcessGroup = true;
  impl->child = std::make_unique<executor_studio::Subprocess>();
  llvm::Error started = impl->child->start(args, options);
  ::close(fds[1]);
  if (started) {
    ::close(fds[0]);
    return impl->error("cannot start it: " + toString(std::move(started)));
  }
  impl->childPid = impl->child->processId();
  int64_t livenessSeconds = 30;
  std::string unused;
  if (secondsFromEnvironment("EXECUTOR_LIVENESS_TIMEOUT", 30, livenessSeconds,
                             unused))
    impl->liveness = std::chrono::seconds(livenessSeconds);
  return startSession(std::move(impl), socketStream(fds[0]),
                      /*sameHost=*/true);
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
  // A file the program embedded (executor-compile) ships from memory.
  std::optional<ArrayRef<char>> bytes = findEmbeddedFile(path);
  std::unique_ptr<MemoryBuffer> file;
  if (!bytes) {
    auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false);
    // This program's own read (it does not embed the file): not the
    // executor's fault, so not an ExecutorError naming it.
    if (!buffer)
      return createStringError(
          buffer.getError(),
          std::string("cannot read ") + (format == 0 ? "object " : "asset ") +
              path + ": " + buffer.getError().message() +
              " (this program does not embed it, so it reads the file when "
              "it runs)");
    file = std::move(*buffer);
    bytes = ArrayRef<char>(file->getBufferStart(), file->getBufferSize());
  }
  if (format == 1)
    return storeAsset(sys::path::filename(path).str(), *bytes);
  return sendBinary(path, *bytes, format);
}

Error ExecutorClient::sendBinary(const std::string &name, ArrayRef<char> bytes,
                                 int format) {
  if (!impl->open)
    return impl->closed();
  if (format == 1)
    return storeAsset(name, bytes);
  if (format != 0)
    return impl->error(toString(unknownFormat(name, format)));
  std::lock_guard<std::mutex> lock(impl->mutex);
  if (impl->objects.count(name))
    return Error::success();
  // A session that has ended (its executor stopping, say) links nothing:
  // its hangup says why, before the linker asks it for memory (and LLVM's
  // debug-object plugin crashes on the failed link).
  if (impl->transport && !impl->transport->hangupMessage().empty())
    return impl->lost("sending object " + name, "");
  auto buffer = MemoryBuffer::getMemBufferCopy(
      StringRef(bytes.data(), bytes.size()), name);
  // An object for another architecture would be linked and jumped into.
  if (Error err = checkObjectArchitecture(
          buffer->getMemBufferRef(),
          impl->es->getExecutorProcessControl().getTargetTriple(),
          impl->address == impl->connected
              ? impl->address
              : impl->address + " (" + impl->connected + ")"))
    return err;
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
  // An executor lost or lying while the object went is the session's end,
  // not the object's fault (in the words of the check above: which of the
  // two sees a session that ends meanwhile is a matter of timing).
  auto failed = [&](const std::string &doing, std::string message) {
    consumeError(impl->es->removeJITDylib(jd));
    if (impl->transport->ended()) {
      impl->open = false;
      return impl->lost("sending object " + name, message);
    }
    return impl->error("cannot " + doing + " object " + name + ": " + message);
  };
  if (Error err = impl->linker->add(jd, std::move(buffer)))
    return failed("load", toString(std::move(err)));
  // Link now, so that a broken object fails here and not at its first launch.
  auto linked = impl->es->lookup(makeJITDylibSearchOrder(&jd), symbols);
  if (!linked)
    return failed("link", toString(linked.takeError()));
  impl->objects[name] = &jd;
  impl->protocol->note("object loaded: " + name + " (" +
                           std::to_string(bytes.size()) + " bytes, " +
                           std::to_string(symbols.size()) + " symbols)",
                       /*wait=*/true);
  return Error::success();
}

Error ExecutorClient::storeAsset(const std::string &name,
                                 ArrayRef<char> bytes) {
  return impl->protocol->storeAsset(name, bytes);
}

Expected<std::vector<HostMemRef>>
ExecutorClient::launch(const std::string &entryName, const std::string &object,
                       const std::vector<HostMemRef> &inputs,
                       const std::vector<ResultSpec> &results) {
  // The entry this thread launched last, on which session: the same kernel
  // again is found with two string compares (no lookup, no lock, no name
  // built). A session's entries never change once found (findEntry).
  struct LastEntry {
    uint64_t session = 0;
    std::string name, object, kernel;
    ExecutorAddr address;
  };
  static thread_local LastEntry last;
  if (last.session != impl->id || last.name != entryName ||
      last.object != object) {
    std::string entry = pyfaceName(entryName);
    auto address = impl->findEntry(entry, object);
    if (!address)
      return address.takeError();
    last.session = impl->id;
    last.name = entryName;
    last.object = object;
    last.kernel = kernelName(entry);
    last.address = *address;
  }
  // The wrapper's name, for messages only.
  auto entry = [&] { return pyfaceName(entryName); };
  const std::string &kernel = last.kernel;
  ExecutorAddr address = last.address;
  for (const HostMemRef &in : inputs)
    if (static_cast<int64_t>(in.bytes.size()) != in.numElements() * in.elementSize)
      return impl->error("input of " + entry() + " has " +
                         std::to_string(in.bytes.size()) +
                         " bytes, not the " +
                         std::to_string(in.numElements() * in.elementSize) +
                         " its shape needs");
  // Descriptors over the host data, for any launch protocol (a scalar's is
  // of rank 0).
  // (One block of descriptor words, sized first: the views point into it.)
  size_t wordCount = 0;
  for (const HostMemRef &in : inputs)
    wordCount += 3 + 2 * in.sizes.size();
  SmallVector<int64_t, 32> words(wordCount, 0);
  SmallVector<DescriptorView, 8> views;
  SmallVector<int64_t, 8> inSizes, outRanks, outSizes;
  SmallVector<bool, 8> scalarIn, scalarOut;
  size_t wordsAt = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].scalar && !inputs[i].sizes.empty())
      return impl->error("scalar input " + std::to_string(i) + " of " + entry() +
                         " has a shape");
    int64_t rank = static_cast<int64_t>(inputs[i].sizes.size());
    DescriptorView view{words.data() + wordsAt, rank};
    wordsAt += 3 + 2 * rank;
    view.setDense(const_cast<char *>(inputs[i].bytes.data()),
                  inputs[i].sizes.data());
    views.push_back(view);
    inSizes.push_back(inputs[i].elementSize);
    scalarIn.push_back(inputs[i].scalar);
  }
  for (const ResultSpec &spec : results) {
    int64_t size = spec.elementSize;
    if (spec.scalar && (size <= 0 || size > 8 || (size & (size - 1))))
      return impl->error("a scalar result of " + entry() + " of " +
                         std::to_string(size) + " bytes (1, 2, 4 or 8)");
    outRanks.push_back(spec.scalar ? 0 : spec.rank);
    outSizes.push_back(size);
    scalarOut.push_back(spec.scalar);
  }
  if (!impl->open)
    return impl->closed();
  return impl->protocol->launch(
      {address, kernel, views, inSizes, outRanks, outSizes, scalarIn, scalarOut});
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
  return launchDescriptorsAt(address->getValue(), entry, inputs,
                             inputElementSizes, outputs, outputElementSizes);
}

Expected<uint64_t> ExecutorClient::symbolAddress(const std::string &symbol,
                                                 const std::string &object) {
  if (!impl->open)
    return impl->closed();
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
                                          ArrayRef<int64_t> outputElementSizes,
                                          ArrayRef<bool> scalarInputs,
                                          ArrayRef<bool> scalarOutputs) {
  if (!impl->open)
    return impl->closed();
  SmallVector<int64_t, 8> outputRanks;
  for (size_t i = 0; i < outputs.size(); ++i) {
    bool scalar = i < scalarOutputs.size() && scalarOutputs[i];
    if (scalar && !isScalarSize(outputElementSizes[i]))
      return impl->error("a scalar result of " + entry + " of " +
                         std::to_string(outputElementSizes[i]) +
                         " bytes (1, 2, 4 or 8)");
    outputRanks.push_back(scalar ? 0 : outputs[i].rank);
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (i < scalarInputs.size() && scalarInputs[i] &&
        (inputs[i].rank != 0 || !isScalarSize(inputElementSizes[i])))
      return impl->error("scalar input " + std::to_string(i) + " of " + entry +
                         " of " + std::to_string(inputElementSizes[i]) +
                         " bytes (1, 2, 4 or 8)");
  std::string kernel = kernelName(entry);
  return impl->protocol->launchDescriptors(
      {ExecutorAddr(entryAddress), kernel, inputs, inputElementSizes,
       outputRanks, outputElementSizes, scalarInputs, scalarOutputs},
      outputs);
}

Expected<uint64_t> ExecutorClient::launchAsync(const std::string &entryName,
                                               const std::string &object) {
  std::string entry = pyfaceName(entryName);
  auto address = impl->findEntry(entry, object);
  if (!address)
    return address.takeError();
  return launchAsyncAt(address->getValue(), entry);
}

Expected<uint64_t> ExecutorClient::launchAsyncAt(uint64_t entryAddress,
                                                 const std::string &entry) {
  if (!impl->open)
    return impl->closed();
  return impl->protocol->launchAsync(ExecutorAddr(entryAddress),
                                     kernelName(entry));
}

Error ExecutorClient::await(uint64_t token) {
  return impl->protocol->await(token);
}

Expected<std::vector<char>> ExecutorClient::call(const std::string &symbol,
                                                 ArrayRef<char> input) {
  if (!impl->open)
    return impl->closed();
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
  auto reply = callAddress(found->getAddress().getValue(), input);
  // One line in the executor's log, as a launch has (not waited for: it
  // costs the call no round trip).
  impl->protocol->note("call " + symbol + ": " +
                           std::to_string(input.size()) + " bytes in, " +
                           (reply ? std::to_string(reply->size()) +
                                        " bytes back"
                                  : std::string("failed")),
                       /*wait=*/false);
  return reply;
}

Expected<std::vector<char>> ExecutorClient::callAddress(uint64_t address,
                                                        ArrayRef<char> input) {
  auto reply = impl->callRemote(ExecutorAddr(address), input, "a call");
  if (!reply)
    return reply.takeError();
  return std::vector<char>(reply->data(), reply->data() + reply->size());
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
  // StreamTransport shuts the socket down on disconnect, so this returns even
  // when the server is gone.
  Error err = impl->es->endSession();
  impl->linker.reset();
  impl->es.reset();
  impl->transport = nullptr; // the EPC owned it
  consumeError(std::move(err)); // the peer is gone by design
  return Error::success();
}

void ExecutorClient::interrupt() {
  // The transport's disconnect is made for any thread: it shuts the stream
  // down, and the reader and every waiting call see the end.
  if (!impl || !impl->transport)
    return;
  impl->open = false;
  impl->transport->disconnect();
}

} // namespace executor_studio::runtime
