//===- FuzzOrcClient.cpp - what an executor sends a client's ORC ----------===//
//
// The client's side of StreamTransport under LLVM's SimpleRemoteEPC, opened as
// ExecutorClient opens a session: the input is everything the executor
// sends (its Setup message, then results, Hangups, anything), and the client
// makes the calls an open makes first (the dylib manager's open, a lookup
// through it, a memory read). A lying executor crashed the client in ORC's
// own handling of such messages (a second Setup, a length of 2^62, a result
// to a call never made: issue 41); the transport checks each before ORC sees
// it, and a reply that stops or never comes ends the session after the
// liveness time-out (20 ms here).
//
// Seeds (tests/fuzz/corpus/fuzz-orc-client): what executor-server sent a
// real client during open (captured through a recording proxy), and that
// Setup followed by each lie.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Socket.h"
#include "ExecutorRuntime/StreamTransport.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/EPCDynamicLibrarySearchGenerator.h"
#include "llvm/ExecutionEngine/Orc/SimpleRemoteEPC.h"
#include "llvm/ExecutionEngine/Orc/TaskDispatch.h"

#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace executor_studio::runtime;
using namespace llvm;
using namespace llvm::orc;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  StreamTransport::setMaxMessageSize(1 << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return 0;
  // The executor: the input, then the end; what the client sends is read
  // and dropped.
  std::thread executor([&] {
    for (size_t at = 0; at < size;) {
      ssize_t n = ::send(sv[1], data + at, size - at, MSG_NOSIGNAL);
      if (n <= 0)
        break;
      at += static_cast<size_t>(n);
    }
    ::shutdown(sv[1], SHUT_WR);
    char sink[4096];
    while (::read(sv[1], sink, sizeof(sink)) > 0)
      ;
  });
  StreamTransport::Options options;
  options.stallTimeout = std::chrono::milliseconds(20);
  StreamTransport *transport = nullptr;
  auto epc = SimpleRemoteEPC::Create<StreamTransport>(
      std::make_unique<DynamicThreadPoolTaskDispatcher>(std::nullopt),
      SimpleRemoteEPC::Setup(), socketStream(sv[0]), &transport,
      std::move(options));
  if (epc) {
    ExecutionSession es(std::move(*epc));
    es.setErrorReporter([](Error err) { consumeError(std::move(err)); });
    ExecutorProcessControl &control = es.getExecutorProcessControl();
    auto generator = EPCDynamicLibrarySearchGenerator::GetForTargetProcess(es);
    if (generator) {
      JITDylib &process = es.createBareJITDylib("<executor process>");
      process.addGenerator(std::move(*generator));
      auto found = es.lookup({&process}, es.intern("malloc"));
      if (!found)
        consumeError(found.takeError());
    } else {
      consumeError(generator.takeError());
    }
    if (!control.getBootstrapSymbolsMap().empty()) {
      auto read = control.getMemoryAccess().readUInt64s(
          {control.getBootstrapSymbolsMap().begin()->second});
      if (!read)
        consumeError(read.takeError());
    }
    consumeError(es.endSession());
  } else {
    consumeError(epc.takeError());
  }
  executor.join();
  ::close(sv[1]);
  return 0;
}
