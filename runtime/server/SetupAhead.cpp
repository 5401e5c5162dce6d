//===- SetupAhead.cpp - ORC's Setup from the listener ---------------------===//
#include "SetupAhead.h"

#include "llvm/Support/Endian.h"

namespace executor_studio::runtime {
using namespace llvm;
using namespace llvm::orc;

namespace {
constexpr size_t kHeaderSize = 32;

std::string frameOf(SimpleRemoteEPCOpcode opcode, uint64_t seqNo,
                    ExecutorAddr tagAddr, ArrayRef<char> body) {
  std::string out(kHeaderSize, '\0');
  support::endian::write64le(out.data(), kHeaderSize + body.size());
  support::endian::write64le(out.data() + 8, static_cast<uint64_t>(opcode));
  support::endian::write64le(out.data() + 16, seqNo);
  support::endian::write64le(out.data() + 24, tagAddr.getValue());
  out.append(body.data(), body.size());
  return out;
}
} // namespace

Expected<std::unique_ptr<SetupAhead>>
SetupAhead::Create(SimpleRemoteEPCTransportClient &client,
                   SetupAhead **created) {
  std::unique_ptr<SetupAhead> transport(new SetupAhead(client));
  if (created)
    *created = transport.get();
  return std::move(transport);
}

Error SetupAhead::sendMessage(SimpleRemoteEPCOpcode opcode, uint64_t seqNo,
                              ExecutorAddr tagAddr, ArrayRef<char> argBytes) {
  if (real)
    return real->sendMessage(opcode, seqNo, tagAddr, argBytes);
  if (opcode != SimpleRemoteEPCOpcode::Setup || !frame.empty())
    return make_error<StringError>("a message before the session's transport",
                                   inconvertibleErrorCode());
  frame = frameOf(opcode, seqNo, tagAddr, argBytes);
  return Error::success();
}

void SetupAhead::disconnect() {
  if (real)
    real->disconnect();
}

void SetupAhead::attach(std::unique_ptr<SimpleRemoteEPCTransport> transport) {
  real = std::move(transport);
}

std::string orcHangupFrame(const std::string &why) {
  // The body is an SPSError: u8 has-error (1), u64 length, the bytes.
  std::string body(9, '\0');
  body[0] = 1;
  support::endian::write64le(body.data() + 1, why.size());
  body += why;
  return frameOf(SimpleRemoteEPCOpcode::Hangup, 0, ExecutorAddr(),
                 ArrayRef<char>(body.data(), body.size()));
}

} // namespace executor_studio::runtime
