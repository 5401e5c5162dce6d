//===- TlsStreamTest.cpp - TlsStream against OpenSSL's TLS ----------------===//
//
// TlsStream is OpenSSL's TLS (handshake and records) on a socket a reader
// and a writer share. These tests hold it to the protocol with a separate
// OpenSSL connection as the peer (SSL_read/SSL_write on the other end of a
// socket pair): every TLS 1.3 cipher suite, both roles, data both ways in
// many records, a message in as few records as TLS allows, key updates asked
// for by the peer, the peer's close_notify, records that were tampered
// with, forged or cut off (refused by OpenSSL's record layer, by name), and
// a peer that has gone (an error, not SIGPIPE).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/Socket.h"
#include "RunTool.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <csignal>
#include <sys/stat.h>
#include <cstdlib>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace executor_studio::runtime;

namespace {

std::string certDir;

class TlsStreamTest : public ::testing::TestWithParam<const char *> {
protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/tls-stream-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    certDir = dir;
    ASSERT_TRUE(executor_test::makeExecutorCerts(certDir, {"127.0.0.1"}));
  }
  static void TearDownTestSuite() {
    llvm::sys::fs::remove_directories(certDir);
  }

  void SetUp() override {
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  }
  void TearDown() override {
    if (peer)
      SSL_free(peer);
    if (fds[1] >= 0)
      close(fds[1]);
    if (!stream && fds[0] >= 0)
      close(fds[0]);
  }

  /// OpenSSL's client on fds[1] (offering only the suite of the test),
  /// TlsStream's server on fds[0].
  void startWithOpenSslClient() {
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
    ASSERT_EQ(SSL_CTX_set_ciphersuites(ctx, GetParam()), 1);
    ASSERT_EQ(SSL_CTX_load_verify_locations(
                  ctx, (certDir + "/ca.pem").c_str(), nullptr),
              1);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
    peer = SSL_new(ctx);
    SSL_CTX_free(ctx);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(peer), "127.0.0.1");
    SSL_set_fd(peer, fds[1]);
    std::string error;
    auto context = TlsServerContext::load(certDir + "/server.pem",
                                          certDir + "/server.key", error);
    ASSERT_TRUE(context) << error;
    int connected = 0;
    std::thread client([&] { connected = SSL_connect(peer); });
    stream = TlsStream::accept(*context, fds[0], deadline(), error);
    client.join();
    ASSERT_TRUE(stream) << error;
    ASSERT_EQ(connected, 1);
    EXPECT_STREQ(SSL_CIPHER_standard_name(SSL_get_current_cipher(peer)),
                 GetParam());
  }

  /// OpenSSL's server on fds[1] (with only the suite of the test),
  /// TlsStream's client on fds[0].
  void startWithOpenSslServer() {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
    ASSERT_EQ(SSL_CTX_set_ciphersuites(ctx, GetParam()), 1);
    ASSERT_EQ(SSL_CTX_use_certificate_chain_file(
                  ctx, (certDir + "/server.pem").c_str()),
              1);
    ASSERT_EQ(SSL_CTX_use_PrivateKey_file(
                  ctx, (certDir + "/server.key").c_str(), SSL_FILETYPE_PEM),
              1);
    peer = SSL_new(ctx);
    SSL_CTX_free(ctx);
    SSL_set_fd(peer, fds[1]);
    int accepted = 0;
    std::thread server([&] { accepted = SSL_accept(peer); });
    std::string error;
    stream = TlsStream::connect(certDir + "/ca.pem", "127.0.0.1", fds[0],
                                deadline(), error);
    server.join();
    ASSERT_TRUE(stream) << error;
    ASSERT_EQ(accepted, 1);
  }

  static TlsStream::Clock::time_point deadline() {
    return TlsStream::Clock::now() + std::chrono::seconds(10);
  }

  /// Reads exactly `size` bytes from the stream (false at its end or an
  /// error).
  bool readExactly(char *into, size_t size) {
    while (size > 0) {
      ssize_t got = stream->read(into, size);
      if (got <= 0)
        return false;
      into += got;
      size -= static_cast<size_t>(got);
    }
    return true;
  }

  static std::vector<char> pattern(size_t size, unsigned seed) {
    std::vector<char> bytes(size);
    for (size_t i = 0; i < size; ++i)
      bytes[i] = static_cast<char>((i * 31 + seed) ^ (i >> 9));
    return bytes;
  }

  /// Data both ways: the peer's 1 MiB and 3 bytes to the stream, the
  /// stream's 1 MiB (as gathered parts) and 3 bytes to the peer.
  void exchange() {
    std::vector<char> toStream = pattern(1 << 20, 1);
    std::thread writer([&] {
      size_t done = 0;
      while (done < toStream.size()) {
        int n = SSL_write(peer, toStream.data() + done,
                          static_cast<int>(toStream.size() - done));
        ASSERT_GT(n, 0);
        done += static_cast<size_t>(n);
      }
      ASSERT_EQ(SSL_write(peer, "end", 3), 3);
    });
    std::vector<char> got(toStream.size());
    EXPECT_TRUE(readExactly(got.data(), got.size())) << stream->lastError();
    EXPECT_EQ(got, toStream);
    char end[3];
    EXPECT_TRUE(readExactly(end, 3));
    EXPECT_EQ(std::string(end, 3), "end");
    writer.join();

    std::vector<char> toPeer = pattern(1 << 20, 7);
    std::vector<char> received(toPeer.size() + 3);
    std::thread reader = peerReadsAll(received);
    // Small parts gathered, a large one from where it lies, then a tail.
    iovec parts[4] = {{toPeer.data(), 10},
                      {toPeer.data() + 10, 100},
                      {toPeer.data() + 110, toPeer.size() - 110},
                      {const_cast<char *>("fin"), 3}};
    EXPECT_TRUE(stream->writeParts(parts, 4)) << stream->lastError();
    reader.join();
    EXPECT_TRUE(std::equal(toPeer.begin(), toPeer.end(), received.begin()));
    EXPECT_EQ(std::string(received.end() - 3, received.end()), "fin");
  }

  /// The stream's next read fails with `code` in errno (whatever errno was
  /// before: a stale EAGAIN must not read as "nothing yet"), its error says
  /// `words`, and the reads after it fail too.
  void expectReadFails(const std::string &words, int code = EPROTO) {
    char got[8];
    errno = EAGAIN;
    EXPECT_EQ(stream->read(got, sizeof(got), /*dontWait=*/true), -1);
    EXPECT_EQ(errno, code);
    EXPECT_NE(stream->lastError().find(words), std::string::npos)
        << stream->lastError();
    errno = EAGAIN;
    EXPECT_EQ(stream->read(got, sizeof(got), /*dontWait=*/true), -1);
    EXPECT_EQ(errno, EPROTO);
  }

  /// The record OpenSSL's peer sends for `text`, taken off before it
  /// reaches the stream (the peer writes to another socket from now on).
  std::string capturePeerRecord(const std::string &text) {
    int relay[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, relay) != 0)
      return "";
    SSL_set0_wbio(peer, BIO_new_socket(relay[1], BIO_CLOSE));
    SSL_write(peer, text.data(), static_cast<int>(text.size()));
    char record[256];
    ssize_t size = read(relay[0], record, sizeof(record));
    close(relay[0]);
    return size > 0 ? std::string(record, static_cast<size_t>(size)) : "";
  }

  /// Reads `into.size()` bytes on OpenSSL's side, in a thread of its own.
  std::thread peerReadsAll(std::vector<char> &into) {
    return std::thread([this, &into] {
      size_t done = 0;
      while (done < into.size()) {
        int n = SSL_read(peer, into.data() + done,
                         static_cast<int>(into.size() - done));
        ASSERT_GT(n, 0);
        done += static_cast<size_t>(n);
      }
    });
  }

  /// Writes raw bytes to the stream's socket, past OpenSSL: what someone on
  /// the path could put there.
  void inject(const std::string &bytes) {
    ASSERT_EQ(write(fds[1], bytes.data(), bytes.size()),
              static_cast<ssize_t>(bytes.size()));
  }

  int fds[2] = {-1, -1};
  SSL *peer = nullptr;
  std::unique_ptr<TlsStream> stream;
};

TEST_P(TlsStreamTest, ServerExchangesDataWithOpenSslClient) {
  startWithOpenSslClient();
  exchange();
}

TEST_P(TlsStreamTest, ClientExchangesDataWithOpenSslServer) {
  startWithOpenSslServer();
  exchange();
}

TEST_P(TlsStreamTest, AnswersKeyUpdatesAndReadsUnderTheNewKeys) {
  startWithOpenSslClient();
  for (int round = 0; round < 3; ++round) {
    // The peer changes its keys and asks the stream to change its own.
    ASSERT_EQ(SSL_key_update(peer, SSL_KEY_UPDATE_REQUESTED), 1);
    std::string text = "after update " + std::to_string(round);
    ASSERT_EQ(SSL_write(peer, text.data(), static_cast<int>(text.size())),
              static_cast<int>(text.size()));
    std::vector<char> got(text.size());
    ASSERT_TRUE(readExactly(got.data(), got.size())) << stream->lastError();
    EXPECT_EQ(std::string(got.begin(), got.end()), text);
    // The stream's reply comes under its next keys; the peer reads it.
    std::string reply = "reply " + std::to_string(round);
    ASSERT_TRUE(stream->writeAll(reply.data(), reply.size()));
    char buffer[64];
    int n = SSL_read(peer, buffer, sizeof(buffer));
    ASSERT_EQ(n, static_cast<int>(reply.size()));
    EXPECT_EQ(std::string(buffer, n), reply);
  }
}

/// The sizes of the TLS records in `wire` (each header's length).
std::vector<size_t> recordSizes(const std::string &wire) {
  std::vector<size_t> sizes;
  for (size_t at = 0; at + 5 <= wire.size();) {
    size_t length = (size_t(uint8_t(wire[at + 3])) << 8) | uint8_t(wire[at + 4]);
    sizes.push_back(length);
    at += 5 + length;
  }
  return sizes;
}

TEST_P(TlsStreamTest, AMessageIsAsFewRecordsAsTlsAllows) {
  startWithOpenSslServer();
  // A message of small parts (a header and two arguments) is one record;
  // 40,000 bytes of parts are three (16 KiB, 16 KiB, the rest). Each
  // record: the bytes, their type and the 16-byte tag.
  std::vector<char> data = pattern(40000, 5);
  iovec small[3] = {{data.data(), 32}, {data.data() + 32, 8}, {data.data() + 40, 60}};
  iovec large[3] = {{data.data(), 32}, {data.data() + 32, 30000},
                    {data.data() + 30032, 9968}};
  ASSERT_TRUE(stream->writeParts(small, 3)) << stream->lastError();
  std::string wire(5 + 100 + 17, '\0');
  ASSERT_EQ(read(fds[1], &wire[0], wire.size()),
            static_cast<ssize_t>(wire.size()));
  EXPECT_EQ(recordSizes(wire), std::vector<size_t>({117}));
  ASSERT_TRUE(stream->writeParts(large, 3)) << stream->lastError();
  wire.assign(3 * 22 + 40000, '\0');
  for (size_t done = 0; done < wire.size();) {
    pollfd ready{fds[1], POLLIN, 0};
    ASSERT_EQ(poll(&ready, 1, 5000), 1);
    ssize_t got = read(fds[1], &wire[done], wire.size() - done);
    ASSERT_GT(got, 0);
    done += static_cast<size_t>(got);
  }
  EXPECT_EQ(recordSizes(wire),
            std::vector<size_t>({16384 + 17, 16384 + 17, 40000 - 32768 + 17}));
}

TEST_P(TlsStreamTest, KernelTlsIsUsedWhereTheKernelHasIt) {
  // Kernel TLS runs on TCP sockets: a loopback connection instead of the
  // socket pair.
  close(fds[0]);
  close(fds[1]);
  std::string address, error;
  int listener = bindLoopback(/*listen=*/true, address);
  ASSERT_GE(listener, 0);
  fds[0] = connectTo(address, std::chrono::seconds(5), error);
  ASSERT_GE(fds[0], 0) << error;
  fds[1] = ::accept(listener, nullptr, nullptr);
  close(listener);
  ASSERT_GE(fds[1], 0);
  startWithOpenSslServer();
  // SSL_OP_ENABLE_KTLS is asked for; the kernel's `tls` module decides
  // (OpenSSL loads it where it may). Without it, OpenSSL's records.
  struct stat module;
  bool kernelHasTls = stat("/sys/module/tls", &module) == 0;
  if (kernelHasTls)
    EXPECT_EQ(stream->kernelTls(), "send and receive");
  else
    EXPECT_EQ(stream->kernelTls(), "none");
  EXPECT_EQ(stream->cipherName(), GetParam());
}

TEST_P(TlsStreamTest, WritingToAPeerThatHasGoneIsAnErrorNotSigpipe) {
  startWithOpenSslServer();
  // SIGPIPE's default ends the process: the test would die with it.
  struct sigaction pipeDefault{}, saved{};
  pipeDefault.sa_handler = SIG_DFL;
  ASSERT_EQ(sigaction(SIGPIPE, &pipeDefault, &saved), 0);
  SSL_free(peer);
  peer = nullptr;
  close(fds[1]);
  fds[1] = -1;
  std::vector<char> data = pattern(1 << 20, 9);
  bool written = stream->writeAll(data.data(), data.size());
  sigaction(SIGPIPE, &saved, nullptr);
  EXPECT_FALSE(written);
  EXPECT_FALSE(stream->lastError().empty());
}

TEST_P(TlsStreamTest, ThePeersCloseNotifyEndsTheStream) {
  startWithOpenSslServer();
  ASSERT_EQ(SSL_write(peer, "last", 4), 4);
  SSL_shutdown(peer);
  char got[4];
  ASSERT_TRUE(readExactly(got, 4));
  char more;
  EXPECT_EQ(stream->read(&more, 1), 0);
  EXPECT_EQ(stream->read(&more, 1), 0);
}

TEST_P(TlsStreamTest, ATamperedRecordFailsAuthentication) {
  startWithOpenSslClient();
  // A real record of the peer's with one bit changed on the way.
  std::string record = capturePeerRecord("launch k");
  ASSERT_GT(record.size(), 10u);
  record[10] ^= 1;
  inject(record);
  expectReadFails("decryption failed or bad record mac");
}

TEST_P(TlsStreamTest, AForgedRecordFailsAuthentication) {
  startWithOpenSslClient();
  inject(std::string("\x17\x03\x03\x00\x20", 5) + std::string(32, 'x'));
  expectReadFails("decryption failed or bad record mac");
}

TEST_P(TlsStreamTest, RecordsThatAreNotTls13AreRefusedByName) {
  startWithOpenSslClient();
  // A record longer than TLS 1.3 allows (2^14 + 256 bytes).
  inject(std::string("\x17\x03\x03\xff\xff", 5));
  expectReadFails("packet length too long");
}

TEST_P(TlsStreamTest, APlaintextAlertAfterTheHandshakeIsRefused) {
  startWithOpenSslClient();
  // TLS 1.3 encrypts everything after the handshake: an alert in the clear
  // is someone else's.
  inject(std::string("\x15\x03\x03\x00\x02\x02\x28", 7));
  expectReadFails("bad record type");
}

TEST_P(TlsStreamTest, ACutInsideARecordIsAnErrorNotTheEnd) {
  startWithOpenSslClient();
  inject(std::string("\x17\x03\x03\x00\x40" "abc", 8));
  shutdown(fds[1], SHUT_WR);
  expectReadFails("closed inside a TLS record", ECONNRESET);
}

TEST_P(TlsStreamTest, AFloodOfRecordsWithoutDataNeitherStallsNorBreaksTheStream) {
  startWithOpenSslClient();
  // Key updates carry no data: a reader that asks without waiting hears
  // "nothing yet", not an error, and the data after them comes through
  // under the peer's 41st keys.
  for (int i = 0; i < 40; ++i) {
    ASSERT_EQ(SSL_key_update(peer, SSL_KEY_UPDATE_NOT_REQUESTED), 1);
    ASSERT_EQ(SSL_do_handshake(peer), 1);
  }
  char got[8];
  EXPECT_EQ(stream->read(got, sizeof(got), /*dontWait=*/true), -1);
  EXPECT_EQ(errno, EAGAIN);
  ASSERT_EQ(SSL_write(peer, "data", 4), 4);
  ASSERT_TRUE(readExactly(got, 4)) << stream->lastError();
  EXPECT_EQ(std::string(got, 4), "data");
}

TEST_P(TlsStreamTest, AClientWithoutAServerNameDoesNotConnect) {
  std::string error;
  stream = TlsStream::connect(certDir + "/ca.pem", "", fds[0], deadline(),
                              error);
  EXPECT_FALSE(stream);
  EXPECT_NE(error.find("cannot check the server's certificate against the "
                       "name ''"),
            std::string::npos)
      << error;
}

TEST_P(TlsStreamTest, ReadingWithoutWaitingSaysAgainAndKeepsAPartialRecord) {
  startWithOpenSslServer();
  char got[16];
  errno = 0;
  EXPECT_EQ(stream->read(got, sizeof(got), /*dontWait=*/true), -1);
  EXPECT_EQ(errno, EAGAIN);
  EXPECT_FALSE(stream->hasPending());
  // Half a record: still nothing to read, and nothing lost.
  std::string record = capturePeerRecord("hello");
  ASSERT_GT(record.size(), 8u);
  inject(record.substr(0, 8));
  EXPECT_EQ(stream->read(got, sizeof(got), /*dontWait=*/true), -1);
  EXPECT_EQ(errno, EAGAIN);
  EXPECT_FALSE(stream->hasPending());
  inject(record.substr(8));
  ASSERT_EQ(stream->read(got, sizeof(got)), 5) << stream->lastError();
  EXPECT_EQ(std::string(got, 5), "hello");
}

INSTANTIATE_TEST_SUITE_P(Suites, TlsStreamTest,
                         ::testing::Values("TLS_AES_128_GCM_SHA256",
                                           "TLS_AES_256_GCM_SHA384",
                                           "TLS_CHACHA20_POLY1305_SHA256"),
                         [](const auto &info) {
                           std::string name = info.param;
                           if (name == "TLS_AES_128_GCM_SHA256")
                             return std::string("Aes128Gcm");
                           if (name == "TLS_AES_256_GCM_SHA384")
                             return std::string("Aes256Gcm");
                           return std::string("ChaCha20Poly1305");
                         });

} // namespace
