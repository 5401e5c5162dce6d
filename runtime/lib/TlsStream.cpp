//===- TlsStream.cpp - TLS 1.3 on the executor wire -----------------------===//
//
// The handshake is OpenSSL's; the records after it (RFC 8446, section 5)
// are sealed and opened here, with keys derived from the handshake's
// traffic secrets (section 7). TlsStream.h says why.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/TlsStream.h"
#include "ExecutorRuntime/Socket.h"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <algorithm>
#include <string>

namespace executor_runtime {

namespace {
/// The most plaintext one TLS record carries.
constexpr size_t kRecordSize = 16 * 1024;

/// OpenSSL's error queue of this thread as text (emptied), or `fallback`.
std::string sslErrors(const std::string &fallback) {
  std::string text;
  while (unsigned long code = ERR_get_error()) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof(buffer));
    const char *reason = ERR_reason_error_string(code);
    if (!text.empty())
      text += "; ";
    text += reason ? reason : buffer;
  }
  return text.empty() ? fallback : text;
}

/// Runs `step` (SSL_accept or SSL_connect) on the non-blocking `fd` until it
/// is done, fails, or `deadline` passes.
template <typename StepFn>
bool handshake(SSL *ssl, int fd, TlsStream::Clock::time_point deadline,
               StepFn step, std::string &error) {
  while (true) {
    ERR_clear_error();
    int rc = step(ssl);
    if (rc == 1)
      return true;
    int why = SSL_get_error(ssl, rc);
    short events = why == SSL_ERROR_WANT_READ    ? POLLIN
                   : why == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                 : 0;
    if (!events) {
      if (why == SSL_ERROR_SYSCALL || why == SSL_ERROR_ZERO_RETURN)
        error = sslErrors("the peer closed the connection during the TLS "
                          "handshake");
      else
        error = sslErrors("TLS handshake failed");
      long verify = SSL_get_verify_result(ssl);
      if (verify != X509_V_OK)
        error += " (certificate: " +
                 std::string(X509_verify_cert_error_string(verify)) + ")";
      return false;
    }
    pollfd p{fd, events, 0};
    int ready = poll(&p, 1, millisecondsUntil(deadline));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0) {
      error = "the TLS handshake did not finish in time";
      return false;
    }
  }
}

//===----------------------------------------------------------------------===//
// TLS 1.3 records (RFC 8446, section 5) and their keys (section 7)
//===----------------------------------------------------------------------===//

constexpr unsigned char kApplicationData = 23, kAlert = 21, kHandshake = 22;
constexpr unsigned char kKeyUpdate = 24, kNewSessionTicket = 4;
constexpr size_t kHeaderBytes = 5, kTagBytes = 16, kNonceBytes = 12;
/// The largest record's ciphertext: 2^14 bytes, their type and the tag.
constexpr size_t kMaxCiphertext = kRecordSize + 1 + kTagBytes;
/// Raw bytes read in one recv (a message's records, many at a time).
constexpr size_t kInboxSize = 64 * 1024;
/// Sealed records sent in one send.
constexpr size_t kOutboxSize = 64 * 1024;
constexpr size_t kMaxRecord = kHeaderBytes + kMaxCiphertext;
/// Records in a row that carry no data before the stream is ended.
constexpr unsigned kMaxRecordsWithoutData = 32;
/// AES-GCM keys are changed after this many records (RFC 8446, 5.5).
uint64_t recordsPerGcmKey = uint64_t(1) << 24;

/// The traffic secrets of one handshake, as the key log hands them out.
struct TrafficSecrets {
  unsigned char client[EVP_MAX_MD_SIZE], server[EVP_MAX_MD_SIZE];
  size_t clientSize = 0, serverSize = 0;
  ~TrafficSecrets() {
    OPENSSL_cleanse(client, sizeof(client));
    OPENSSL_cleanse(server, sizeof(server));
  }
};

/// Keeps the application traffic secrets of the SSL's handshake (its app
/// data is a TrafficSecrets): "LABEL CLIENT_RANDOM SECRET", hex.
void collectSecret(const SSL *ssl, const char *line) {
  auto *secrets = static_cast<TrafficSecrets *>(SSL_get_app_data(ssl));
  if (!secrets)
    return;
  const char *labels[] = {"CLIENT_TRAFFIC_SECRET_0 ", "SERVER_TRAFFIC_SECRET_0 "};
  for (int which = 0; which < 2; ++which) {
    size_t labelSize = std::strlen(labels[which]);
    if (std::strncmp(line, labels[which], labelSize) != 0)
      continue;
    const char *hex = std::strchr(line + labelSize, ' ');
    if (!hex)
      return;
    ++hex;
    unsigned char *into = which ? secrets->server : secrets->client;
    size_t &size = which ? secrets->serverSize : secrets->clientSize;
    size_t n = std::strlen(hex) / 2;
    if (n > EVP_MAX_MD_SIZE)
      return;
    for (size_t i = 0; i < n; ++i) {
      unsigned value;
      if (std::sscanf(hex + 2 * i, "%2x", &value) != 1)
        return;
      into[i] = static_cast<unsigned char>(value);
    }
    size = n;
  }
}

/// HKDF-Expand-Label(secret, label, "", length) for length <= the hash's
/// size (one HMAC block: every key, IV and next secret TLS 1.3 derives).
bool expandLabel(const EVP_MD *md, const unsigned char *secret,
                 size_t secretSize, const char *label, unsigned char *out,
                 size_t length) {
  unsigned char info[2 + 1 + 255 + 1 + 1];
  size_t labelSize = 6 + std::strlen(label);
  size_t n = 0;
  info[n++] = static_cast<unsigned char>(length >> 8);
  info[n++] = static_cast<unsigned char>(length);
  info[n++] = static_cast<unsigned char>(labelSize);
  std::memcpy(info + n, "tls13 ", 6);
  std::memcpy(info + n + 6, label, labelSize - 6);
  n += labelSize;
  info[n++] = 0; // empty context
  info[n++] = 1; // the first (only) block
  unsigned char block[EVP_MAX_MD_SIZE];
  unsigned blockSize = 0;
  if (length > static_cast<size_t>(EVP_MD_get_size(md)) ||
      !HMAC(md, secret, static_cast<int>(secretSize), info, n, block,
            &blockSize))
    return false;
  std::memcpy(out, block, length);
  OPENSSL_cleanse(block, sizeof(block));
  return true;
}

/// OpenSSL reads record by record (nothing past the handshake) and never
/// hands the socket to kernel TLS (whatever openssl.cnf says): the records
/// after the handshake are the stream's.
void keepRecordsToTheStream(SSL *ssl) {
  SSL_set_read_ahead(ssl, 0);
  SSL_clear_options(ssl, SSL_OP_ENABLE_KTLS);
}

void putHeader(unsigned char *out, size_t ciphertextSize) {
  out[0] = kApplicationData;
  out[1] = 3;
  out[2] = 3;
  out[3] = static_cast<unsigned char>(ciphertextSize >> 8);
  out[4] = static_cast<unsigned char>(ciphertextSize);
}

const char *alertName(unsigned char description) {
  switch (description) {
  case 10: return "unexpected_message";
  case 20: return "bad_record_mac";
  case 22: return "record_overflow";
  case 40: return "handshake_failure";
  case 42: return "bad_certificate";
  case 47: return "illegal_parameter";
  case 50: return "decode_error";
  case 51: return "decrypt_error";
  case 80: return "internal_error";
  case 90: return "user_canceled";
  default: return "alert";
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// TlsServerContext
//===----------------------------------------------------------------------===//

std::unique_ptr<TlsServerContext>
TlsServerContext::load(const std::string &certFile, const std::string &keyFile,
                       std::string &error) {
  auto context = std::unique_ptr<TlsServerContext>(new TlsServerContext);
  context->context = SSL_CTX_new(TLS_server_method());
  SSL_CTX *ctx = context->context;
  if (!ctx) {
    error = sslErrors("cannot create a TLS context");
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  // Sessions are one connection each: no tickets to resume them (and no
  // record after the server's Finished that is not the stream's own).
  SSL_CTX_set_num_tickets(ctx, 0);
  SSL_CTX_set_keylog_callback(ctx, collectSecret);
  if (SSL_CTX_use_certificate_chain_file(ctx, certFile.c_str()) != 1) {
    error = "cannot use the certificate " + certFile + ": " +
            sslErrors("not a PEM certificate");
    return nullptr;
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, keyFile.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "cannot use the private key " + keyFile + ": " +
            sslErrors("not a PEM private key");
    return nullptr;
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    error = "the private key " + keyFile + " does not belong to the "
            "certificate " + certFile;
    return nullptr;
  }
  return context;
}

TlsServerContext::~TlsServerContext() { SSL_CTX_free(context); }

//===----------------------------------------------------------------------===//
// TlsStream
//===----------------------------------------------------------------------===//

/// One direction's record protection: the AEAD cipher keyed from a traffic
/// secret, the static IV and the record sequence number.
struct TlsStream::Direction {
  EVP_CIPHER_CTX *context = nullptr;
  const EVP_MD *digest = nullptr;
  bool gcm = false;
  size_t keySize = 0, secretSize = 0;
  unsigned char secret[EVP_MAX_MD_SIZE];
  unsigned char iv[kNonceBytes];
  uint64_t sequence = 0;

  ~Direction() {
    EVP_CIPHER_CTX_free(context);
    OPENSSL_cleanse(secret, sizeof(secret));
    OPENSSL_cleanse(iv, sizeof(iv));
  }

  /// The direction of the TLS 1.3 suite `suite` (its IANA number) keyed from
  /// `trafficSecret`; null with `error` for a suite this stream cannot use.
  static std::unique_ptr<Direction> create(uint16_t suite, const EVP_MD *md,
                                           const unsigned char *trafficSecret,
                                           size_t size, bool encrypt,
                                           std::string &error) {
    const char *name = suite == 0x1301   ? "AES-128-GCM"
                       : suite == 0x1302 ? "AES-256-GCM"
                       : suite == 0x1303 ? "ChaCha20-Poly1305"
                                         : nullptr;
    if (!name) {
      char number[8];
      std::snprintf(number, sizeof(number), "0x%04x", suite);
      error = std::string("the TLS cipher suite ") + number +
              " is not one of TLS 1.3's AEAD suites";
      return nullptr;
    }
    auto d = std::make_unique<Direction>();
    d->digest = md;
    d->gcm = suite != 0x1303;
    d->keySize = suite == 0x1301 ? 16 : 32;
    d->secretSize = size;
    std::memcpy(d->secret, trafficSecret, size);
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(nullptr, name, nullptr);
    d->context = EVP_CIPHER_CTX_new();
    bool ok = cipher && d->context &&
              EVP_CipherInit_ex(d->context, cipher, nullptr, nullptr, nullptr,
                                encrypt ? 1 : 0) == 1 &&
              d->rekey();
    EVP_CIPHER_free(cipher); // the context keeps its own reference
    if (!ok) {
      error = sslErrors(std::string("cannot set up ") + name);
      return nullptr;
    }
    return d;
  }

  /// Derives the key and IV of `secret` (RFC 8446, 7.3).
  bool rekey() {
    unsigned char key[32];
    bool ok = expandLabel(digest, secret, secretSize, "key", key, keySize) &&
              expandLabel(digest, secret, secretSize, "iv", iv, kNonceBytes) &&
              EVP_CipherInit_ex(context, nullptr, nullptr, key, nullptr, -1) == 1;
    OPENSSL_cleanse(key, sizeof(key));
    sequence = 0;
    return ok;
  }

  /// The next generation of keys, after a KeyUpdate (RFC 8446, 7.2).
  bool update() {
    unsigned char next[EVP_MAX_MD_SIZE];
    if (!expandLabel(digest, secret, secretSize, "traffic upd", next,
                     secretSize))
      return false;
    std::memcpy(secret, next, secretSize);
    OPENSSL_cleanse(next, sizeof(next));
    return rekey();
  }

  /// Starts the record numbered `sequence`: its nonce, then `header` as the
  /// additional data.
  bool begin(const unsigned char *header) {
    unsigned char nonce[kNonceBytes];
    std::memcpy(nonce, iv, kNonceBytes);
    for (int i = 0; i < 8; ++i)
      nonce[kNonceBytes - 1 - i] ^= static_cast<unsigned char>(sequence >> (8 * i));
    int n;
    return EVP_CipherInit_ex(context, nullptr, nullptr, nullptr, nonce, -1) == 1 &&
           EVP_CipherUpdate(context, nullptr, &n, header, kHeaderBytes) == 1;
  }
};

TlsStream::TlsStream(int fd, std::unique_ptr<Direction> receiving,
                     std::unique_ptr<Direction> sending)
    : socket(fd), receiving(std::move(receiving)), sending(std::move(sending)),
      inbox(new unsigned char[kInboxSize]),
      outbox(new unsigned char[kOutboxSize]) {}

std::unique_ptr<TlsStream> TlsStream::finish(SSL *ssl, int fd, bool isServer,
                                             std::string &error) {
  // The stream's records start where OpenSSL stopped reading: it must hold
  // nothing read past the handshake, nor have handed the socket to kernel
  // TLS.
  if (SSL_has_pending(ssl) || BIO_get_ktls_send(SSL_get_wbio(ssl)) ||
      BIO_get_ktls_recv(SSL_get_rbio(ssl))) {
    error = "OpenSSL read past the TLS handshake (or started kernel TLS)";
    return nullptr;
  }
  auto *secrets = static_cast<TrafficSecrets *>(SSL_get_app_data(ssl));
  const SSL_CIPHER *cipher = SSL_get_current_cipher(ssl);
  const EVP_MD *md = cipher ? SSL_CIPHER_get_handshake_digest(cipher) : nullptr;
  if (!secrets || !secrets->clientSize || !secrets->serverSize || !md ||
      SSL_version(ssl) != TLS1_3_VERSION) {
    error = "the TLS 1.3 handshake gave no traffic secrets";
    return nullptr;
  }
  uint16_t suite = SSL_CIPHER_get_protocol_id(cipher);
  auto clientSide = Direction::create(suite, md, secrets->client,
                                      secrets->clientSize, !isServer, error);
  auto serverSide = Direction::create(suite, md, secrets->server,
                                      secrets->serverSize, isServer, error);
  if (!clientSide || !serverSide)
    return nullptr;
  // From here on the socket is a plain blocking one, as without TLS.
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  if (isServer)
    return std::unique_ptr<TlsStream>(
        new TlsStream(fd, std::move(clientSide), std::move(serverSide)));
  return std::unique_ptr<TlsStream>(
      new TlsStream(fd, std::move(serverSide), std::move(clientSide)));
}

std::unique_ptr<TlsStream>
TlsStream::accept(const TlsServerContext &context, int fd,
                  Clock::time_point deadline, std::string &error) {
  SSL *ssl = SSL_new(context.get());
  if (!ssl) {
    error = sslErrors("cannot start TLS");
    return nullptr;
  }
  TrafficSecrets secrets;
  SSL_set_app_data(ssl, &secrets);
  keepRecordsToTheStream(ssl);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL_set_fd(ssl, fd);
  std::unique_ptr<TlsStream> stream;
  if (handshake(ssl, fd, deadline, SSL_accept, error))
    stream = finish(ssl, fd, /*isServer=*/true, error);
  SSL_free(ssl); // the socket stays open: the stream (or the caller) has it
  return stream;
}

std::unique_ptr<TlsStream>
TlsStream::connect(const std::string &caFile, const std::string &host, int fd,
                   Clock::time_point deadline, std::string &error) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx) {
    error = sslErrors("cannot create a TLS context");
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  SSL_CTX_set_keylog_callback(ctx, collectSecret);
  if (SSL_CTX_load_verify_locations(ctx, caFile.c_str(), nullptr) != 1) {
    error = "cannot read the CA certificates in " + caFile +
            " (EXECUTOR_TLS_CA): " + sslErrors("not a PEM certificate");
    SSL_CTX_free(ctx);
    return nullptr;
  }
  SSL *ssl = SSL_new(ctx);
  SSL_CTX_free(ctx); // the SSL keeps a reference
  if (!ssl) {
    error = sslErrors("cannot start TLS");
    return nullptr;
  }
  TrafficSecrets secrets;
  SSL_set_app_data(ssl, &secrets);
  // The certificate must name what was connected to (an empty name would
  // turn the check off).
  X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
  unsigned char ip[16];
  bool isIp = inet_pton(AF_INET, host.c_str(), ip) == 1 ||
              inet_pton(AF_INET6, host.c_str(), ip) == 1;
  bool named = !host.empty() &&
               (isIp ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1
                     : X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0) == 1 &&
                           SSL_set_tlsext_host_name(ssl, host.c_str()) == 1);
  if (!named) {
    error = "cannot check the server's certificate against the name '" +
            host + "'";
    SSL_free(ssl);
    return nullptr;
  }
  keepRecordsToTheStream(ssl);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  SSL_set_fd(ssl, fd);
  std::unique_ptr<TlsStream> stream;
  if (handshake(ssl, fd, deadline, SSL_connect, error))
    stream = finish(ssl, fd, /*isServer=*/false, error);
  SSL_free(ssl);
  return stream;
}

TlsStream::~TlsStream() {
  // Opened records (the token among them) are not left in freed memory.
  OPENSSL_cleanse(inbox.get(), kInboxSize);
  ::close(socket);
}

void TlsStream::setRecordsPerGcmKeyForTesting(uint64_t records) {
  recordsPerGcmKey = records;
}

std::string TlsStream::lastError() const {
  std::lock_guard<std::mutex> lock(errorMutex);
  return error;
}

void TlsStream::setError(const std::string &text) {
  std::lock_guard<std::mutex> lock(errorMutex);
  error = text;
}

void TlsStream::shutdown() {
  if (closed.exchange(true))
    return;
  ::shutdown(socket, SHUT_RDWR);
}

bool TlsStream::waitReadable(int timeoutMs) {
  pollfd p{socket, POLLIN, 0};
  while (true) {
    int rc = poll(&p, 1, timeoutMs);
    if (rc < 0 && errno == EINTR)
      continue;
    return rc > 0;
  }
}

bool TlsStream::hasPending() { return readable.load(std::memory_order_acquire); }

void TlsStream::updateReadable() {
  size_t avail = inEnd - inBegin;
  bool whole = avail >= kHeaderBytes &&
               avail >= kHeaderBytes + ((size_t(inbox[inBegin + 3]) << 8) |
                                        inbox[inBegin + 4]);
  readable.store(plainBegin < plainEnd || whole, std::memory_order_release);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

ssize_t TlsStream::fillInbox(bool dontWait) {
  if (inBegin == inEnd) {
    inBegin = inEnd = 0;
  } else if (inBegin > 0 && kInboxSize - inEnd < kHeaderBytes + kMaxCiphertext) {
    std::memmove(inbox.get(), inbox.get() + inBegin, inEnd - inBegin);
    inEnd -= inBegin;
    inBegin = 0;
  }
  plainBegin = plainEnd = 0;
  while (true) {
    ssize_t got = ::recv(socket, inbox.get() + inEnd, kInboxSize - inEnd,
                         dontWait ? MSG_DONTWAIT : 0);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !dontWait) {
      if (closed)
        return 0;
      waitReadable(-1);
      continue;
    }
    if (got > 0) {
      inEnd += static_cast<size_t>(got);
    } else if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      int saved = errno;
      setError(std::strerror(saved));
      errno = saved;
    }
    return got;
  }
}

ssize_t TlsStream::openRecord(unsigned char *into, size_t room) {
  size_t avail = inEnd - inBegin;
  if (avail < kHeaderBytes)
    return -3;
  unsigned char *header = inbox.get() + inBegin;
  size_t length = (size_t(header[3]) << 8) | header[4];
  if (header[0] != kApplicationData) {
    if (header[0] == kAlert && length == 2 && avail >= kHeaderBytes + 2)
      setError("the peer sent the unencrypted TLS alert " +
               std::to_string(header[6]) + " (" + alertName(header[6]) + ")");
    else
      setError("a record of TLS content type " + std::to_string(header[0]) +
               " where TLS 1.3 sends only encrypted application data "
               "(is the peer speaking TLS?)");
    return -1;
  }
  if (header[1] != 3 || header[2] != 3) {
    setError("a TLS record of version " + std::to_string(header[1]) + "." +
             std::to_string(header[2]) + " (TLS 1.3 records say 3.3)");
    return -1;
  }
  // TLSInnerPlaintext is at most 2^14 + 1 bytes (RFC 8446, 5.4).
  if (length < kTagBytes + 1 || length > kMaxCiphertext) {
    setError("a TLS record of " + std::to_string(length) +
             " bytes (record_overflow: from 17 to " +
             std::to_string(kMaxCiphertext) + " bytes are allowed)");
    return -1;
  }
  if (avail < kHeaderBytes + length)
    return -3;
  Direction &d = *receiving;
  size_t sealed = length - kTagBytes;
  unsigned char *body = header + kHeaderBytes;
  // Straight into the reader's memory when it takes the whole record.
  unsigned char *out = into && room >= sealed ? into : body;
  int n = 0, last = 0;
  bool ok = d.begin(header) &&
            EVP_CipherUpdate(d.context, out, &n, body, static_cast<int>(sealed)) == 1 &&
            EVP_CIPHER_CTX_ctrl(d.context, EVP_CTRL_AEAD_SET_TAG, kTagBytes,
                                body + sealed) == 1 &&
            EVP_CipherFinal_ex(d.context, out + n, &last) == 1;
  if (!ok) {
    ERR_clear_error();
    setError("a TLS record failed authentication (bad_record_mac): it was "
             "changed on the way, or is not from the peer");
    return -1;
  }
  if (++d.sequence == 0) {
    setError("the TLS record sequence number wrapped around");
    return -1;
  }
  inBegin += kHeaderBytes + length;
  // TLSInnerPlaintext: content, its type, then zeros.
  size_t i = sealed;
  while (i > 0 && out[i - 1] == 0)
    --i;
  if (i == 0) {
    setError("a TLS record without a content type (unexpected_message)");
    return -1;
  }
  unsigned char type = out[i - 1];
  size_t content = i - 1;
  switch (type) {
  case kApplicationData:
    if (out == into)
      return static_cast<ssize_t>(content);
    plainBegin = static_cast<size_t>(body - inbox.get());
    plainEnd = plainBegin + content;
    return 0;
  case kAlert:
    if (content != 2) {
      setError("a malformed TLS alert (decode_error)");
      return -1;
    }
    if (out[1] == 0) // close_notify
      return -2;
    setError("the peer ended TLS with alert " + std::to_string(out[1]) + " (" +
             alertName(out[1]) + ")");
    return -1;
  case kHandshake:
    if (content == 0) { // RFC 8446, 5.1
      setError("an empty TLS handshake record (unexpected_message)");
      return -1;
    }
    return handleHandshakeMessages(out, content) ? 0 : -1;
  default:
    setError("a TLS record of unknown content type " + std::to_string(type) +
             " (unexpected_message)");
    return -1;
  }
}

bool TlsStream::handleHandshakeMessages(const unsigned char *data,
                                        size_t size) {
  while (size > 0) {
    size_t length = size >= 4 ? (size_t(data[1]) << 16) |
                                    (size_t(data[2]) << 8) | data[3]
                              : 0;
    if (size < 4 || size - 4 < length) {
      setError("a TLS handshake message split across records after the "
               "handshake (not supported)");
      return false;
    }
    if (data[0] == kKeyUpdate) {
      // A key change ends the record (RFC 8446, 5.1).
      if (length != 1 || size != 5) {
        setError("a malformed TLS KeyUpdate (decode_error)");
        return false;
      }
      if (data[4] > 1) {
        setError("a TLS KeyUpdate asking for update " +
                 std::to_string(data[4]) + " (illegal_parameter)");
        return false;
      }
      if (!receiving->update()) {
        setError(sslErrors("cannot derive the next TLS keys"));
        return false;
      }
      // Answered before our next record (RFC 8446, 4.6.3).
      if (data[4] == 1)
        owesKeyUpdate.store(true);
    } else if (data[0] != kNewSessionTicket) {
      // Tickets are never used (one session, one connection); anything
      // else has no place after the handshake.
      setError("an unexpected TLS handshake message (type " +
               std::to_string(data[0]) + ") after the handshake");
      return false;
    }
    data += 4 + length;
    size -= 4 + length;
  }
  return true;
}

ssize_t TlsStream::read(void *data, size_t size, bool dontWait) {
  auto *into = static_cast<unsigned char *>(data);
  // A broken stream stays broken (the inbox may be half opened), and every
  // failure says so in errno: callers tell it from EAGAIN.
  auto fail = [&](int code) -> ssize_t {
    readFailed = true;
    errno = code;
    return -1;
  };
  if (readFailed)
    return closed ? 0 : fail(EPROTO);
  while (true) {
    if (plainBegin < plainEnd) {
      size_t n = std::min(size, plainEnd - plainBegin);
      std::memcpy(into, inbox.get() + plainBegin, n);
      plainBegin += n;
      updateReadable();
      return static_cast<ssize_t>(n);
    }
    if (peerClosed || size == 0)
      return 0;
    ssize_t opened = openRecord(into, size);
    if (opened > 0) {
      recordsWithoutData = 0;
      updateReadable();
      return opened;
    }
    if (opened == 0) {
      // Records that carry nothing for the reader (key updates, tickets,
      // empty data) are few; a stream of them only keeps a reader busy.
      if (plainBegin == plainEnd && ++recordsWithoutData > kMaxRecordsWithoutData) {
        setError("the peer sent more than " +
                 std::to_string(kMaxRecordsWithoutData) +
                 " TLS records in a row without data (unexpected_message)");
        return closed ? 0 : fail(EPROTO);
      }
      if (plainBegin < plainEnd)
        recordsWithoutData = 0;
      continue;
    }
    if (opened == -2) {
      peerClosed = true;
      return 0;
    }
    if (opened == -1)
      return closed ? 0 : fail(EPROTO);
    // No whole record: more from the socket.
    if (closed)
      return 0;
    ssize_t got = fillInbox(dontWait);
    if (got > 0)
      continue;
    if (got == 0) {
      // A peer that closes without close_notify between records has simply
      // gone (ORC's framing catches a cut inside a message).
      if (inEnd > inBegin && !closed) {
        setError("the connection closed inside a TLS record");
        return fail(ECONNRESET);
      }
      return 0;
    }
    if (dontWait && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      updateReadable();
      errno = EAGAIN;
      return -1;
    }
    return closed ? 0 : fail(errno ? errno : EIO);
  }
}

bool TlsStream::readLine(std::string &line, Clock::time_point deadline,
                         size_t maxLength) {
  // One byte at a time: what follows the line stays for the next reader.
  line.clear();
  while (line.size() < maxLength) {
    char c;
    ssize_t got = read(&c, 1, /*dontWait=*/true);
    if (got == 1) {
      if (c == '\n')
        return true;
      line.push_back(c);
      continue;
    }
    if (got == 0 || errno != EAGAIN)
      return false;
    int left = millisecondsUntil(deadline);
    if (left <= 0 || !waitReadable(left))
      return false;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

size_t TlsStream::sealRecord(unsigned char *out, unsigned char innerType,
                             const iovec *&parts, size_t &used, size_t size) {
  Direction &d = *sending;
  putHeader(out, size + 1 + kTagBytes);
  if (d.sequence == UINT64_MAX || !d.begin(out))
    return 0;
  unsigned char *body = out + kHeaderBytes;
  size_t written = 0, taken = 0;
  int n;
  while (taken < size) {
    if (used == parts->iov_len) {
      ++parts;
      used = 0;
      continue;
    }
    size_t take = std::min(parts->iov_len - used, size - taken);
    if (EVP_CipherUpdate(d.context, body + written, &n,
                         static_cast<const unsigned char *>(parts->iov_base) + used,
                         static_cast<int>(take)) != 1)
      return 0;
    written += static_cast<size_t>(n);
    used += take;
    taken += take;
  }
  if (EVP_CipherUpdate(d.context, body + written, &n, &innerType, 1) != 1)
    return 0;
  written += static_cast<size_t>(n);
  if (EVP_CipherFinal_ex(d.context, body + written, &n) != 1)
    return 0;
  written += static_cast<size_t>(n);
  if (written != size + 1 ||
      EVP_CIPHER_CTX_ctrl(d.context, EVP_CTRL_AEAD_GET_TAG, kTagBytes,
                          body + written) != 1)
    return 0;
  ++d.sequence;
  return kHeaderBytes + written + kTagBytes;
}

bool TlsStream::queueKeyUpdate(bool requestPeerUpdate) {
  unsigned char message[5] = {kKeyUpdate, 0, 0, 1,
                              static_cast<unsigned char>(requestPeerUpdate)};
  iovec part{message, sizeof(message)};
  const iovec *parts = &part;
  size_t used = 0;
  size_t sealed = sealRecord(outbox.get() + outSize, kHandshake, parts, used,
                             sizeof(message));
  if (!sealed || !sending->update())
    return false;
  outSize += sealed;
  return true;
}

bool TlsStream::sendLocked(const unsigned char *data, size_t size,
                           int timeoutMs) {
  if (closed)
    return false;
  if (executor_runtime::writeAll(socket, data, size, timeoutMs))
    return true;
  if (timeoutMs < 0) // not from a signal handler: it may allocate
    setError(errno ? std::strerror(errno) : "the connection closed");
  return false;
}

bool TlsStream::flushOutbox() {
  bool ok = sendLocked(outbox.get(), outSize, -1);
  outSize = 0;
  return ok;
}

bool TlsStream::writeAll(const void *data, size_t size, const void *more,
                         size_t moreSize) {
  iovec parts[2] = {{const_cast<void *>(data), size},
                    {const_cast<void *>(more), moreSize}};
  return writeParts(parts, moreSize ? 2 : 1);
}

bool TlsStream::writeParts(const iovec *parts, size_t count) {
  std::lock_guard<std::mutex> lock(sendMutex);
  // After a failed write the records' sequence numbers are spent: the
  // stream cannot go on.
  if (closed || writeFailed)
    return false;
  auto fail = [&](const char *what) {
    writeFailed = true;
    outSize = 0;
    setError(sslErrors(what));
    return false;
  };
  size_t total = 0;
  for (size_t i = 0; i < count; ++i)
    total += parts[i].iov_len;
  if (owesKeyUpdate.exchange(false) &&
      !queueKeyUpdate(/*requestPeerUpdate=*/false))
    return fail("cannot change the TLS keys");
  size_t used = 0;
  while (total > 0) {
    if (outSize + 2 * kMaxRecord > kOutboxSize && !flushOutbox()) {
      writeFailed = true;
      return false;
    }
    // AES-GCM keys carry a bounded number of records (ChaCha20's never
    // run out in a session's life).
    if (sending->gcm && sending->sequence >= recordsPerGcmKey &&
        !queueKeyUpdate(/*requestPeerUpdate=*/false))
      return fail("cannot change the TLS keys");
    size_t n = std::min(total, kRecordSize);
    size_t sealed = sealRecord(outbox.get() + outSize, kApplicationData, parts,
                               used, n);
    if (!sealed)
      return fail("cannot encrypt a TLS record");
    outSize += sealed;
    total -= n;
  }
  if (!flushOutbox()) {
    writeFailed = true;
    return false;
  }
  return true;
}

void TlsStream::writeFromSignalHandler(const void *data, size_t size) {
  if (!tryLockFor(sendMutex, 2000)) // a loaded machine can need it
    return;
  // The lock stays taken: the process is about to end. Records go into
  // the outbox (no allocation) and out within about a second. A key update
  // the peer asked for stays unanswered: deriving keys allocates, and the
  // peer reads our records under the keys it has until we send one.
  if (writeFailed)
    return;
  outSize = 0;
  iovec part{const_cast<void *>(data), size};
  const iovec *parts = &part;
  size_t used = 0;
  while (size > 0) {
    if (outSize + 2 * kMaxRecord > kOutboxSize) {
      if (!sendLocked(outbox.get(), outSize, 1000))
        return;
      outSize = 0;
    }
    size_t n = std::min(size, kRecordSize);
    size_t sealed = sealRecord(outbox.get() + outSize, kApplicationData, parts,
                               used, n);
    if (!sealed)
      return;
    outSize += sealed;
    size -= n;
  }
  sendLocked(outbox.get(), outSize, 1000);
}

} // namespace executor_runtime
