//===- SetupAhead.h - ORC's Setup from the listener, before a session -*- C++ -*-===//
//
// A connection that needs no authentication (a Unix socket; TCP without TLS
// or token) hears ORC's Setup message first: the executor speaks first, and
// Catalyst's client expects nothing else. A session forked at accept for
// each such connection let idle sockets fill --max-sessions and lock every
// client out (issue 40). Instead the listener makes one SimpleRemoteEPCServer
// at start whose transport is a SetupAhead: it keeps the Setup frame, which
// the listener sends to each such connection; the connection then waits,
// pending, with no process, until the client's first bytes (its first ORC
// message). The session forked then inherits that server at the same
// addresses the Setup's bootstrap symbols name, attaches its real transport
// (StreamTransport with setupSent) and serves.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_SETUPAHEAD_H
#define EXECUTORSERVER_SETUPAHEAD_H

#include "llvm/ExecutionEngine/Orc/Shared/SimpleRemoteEPCUtils.h"

#include <memory>
#include <string>

namespace executor_studio::runtime {

class SetupAhead final : public llvm::orc::SimpleRemoteEPCTransport {
public:
  static llvm::Expected<std::unique_ptr<SetupAhead>>
  Create(llvm::orc::SimpleRemoteEPCTransportClient &client,
         SetupAhead **created);
  llvm::Error start() override { return llvm::Error::success(); }
  /// Before attach: keeps the Setup frame (anything else is an error).
  /// After: the attached transport's.
  llvm::Error sendMessage(llvm::orc::SimpleRemoteEPCOpcode opcode,
                          uint64_t seqNo, llvm::orc::ExecutorAddr tagAddr,
                          llvm::ArrayRef<char> argBytes) override;
  void disconnect() override;
  /// The Setup message as it goes on the wire (header and body).
  const std::string &setupFrame() const { return frame; }
  /// The server this transport serves (the real transport's client).
  llvm::orc::SimpleRemoteEPCTransportClient &client() { return owner; }
  /// In the session: every message goes through `transport` from now on.
  void attach(std::unique_ptr<llvm::orc::SimpleRemoteEPCTransport> transport);

private:
  explicit SetupAhead(llvm::orc::SimpleRemoteEPCTransportClient &owner)
      : owner(owner) {}
  llvm::orc::SimpleRemoteEPCTransportClient &owner;
  std::string frame;
  std::unique_ptr<llvm::orc::SimpleRemoteEPCTransport> real;
};

/// ORC's Hangup frame carrying the error `why`: what a connection that has
/// had the Setup hears when it is refused (an EXECUTOR-REFUSED line would
/// read as an ORC header there). The client reports it as the reason.
std::string orcHangupFrame(const std::string &why);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_SETUPAHEAD_H
