//===- ExecutorClient.h - one session with an executor ----------*- C++ -*-===//
//
// The C++ client the C ABI (__catalyst__executor__*) and executor-studio
// share. One ExecutorClient is one ORC SimpleRemoteEPC session over TCP,
// TLS, or a Unix socket for `unix:PATH` addresses (connectTransport,
// Connect.h), with an executor: objects are linked with JITLink into the
// executor's memory, one JITDylib per object. At open the client reads the executor's
// bootstrap symbols and picks how it launches, once: a launch protocol
// (runtime/lib/LaunchProtocol.h; executorKind() says which):
//  - executor-server: this project's services, a launch is one round trip,
//    sent as a direct call of the transport (StreamTransport.h) that the
//    calling thread answers itself; on a Unix socket large buffers cross in
//    shared memory (the kernels' large allocations live there);
//  - catalyst-executor: Catalyst's catalyst_remote_* services and ORC's
//    memory access (alloc, write, invoke, read back, free);
//  - any other ORC executor (llvm-jitlink-executor): the same, with the
//    alloc/free/invoke services in a small object the client compiles for
//    the executor's triple and links into it. It has no asset storage.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_EXECUTORCLIENT_H
#define EXECUTORRUNTIME_EXECUTORCLIENT_H

#include "ExecutorRuntime/Wire.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm::orc {
class ExecutorProcessControl;
class ExecutorAddr;
} // namespace llvm::orc

namespace executor_studio::runtime {
class Stream;

/// A dense row-major memref on the host: shape, element size and bytes.
struct HostMemRef {
  std::vector<int64_t> sizes;
  int64_t elementSize = 8;
  std::vector<char> bytes;
  /// A scalar (`f64`, `i32`, `index`; no sizes, one element): the kernel's
  /// wrapper takes it by pointer, not as a memref descriptor.
  bool scalar = false;

  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t s : sizes)
      n *= s;
    return n;
  }
  template <typename T> static HostMemRef of(std::vector<int64_t> sizes,
                                             const std::vector<T> &values) {
    HostMemRef m;
    m.sizes = std::move(sizes);
    m.elementSize = sizeof(T);
    m.bytes.resize(values.size() * sizeof(T));
    std::memcpy(m.bytes.data(), values.data(), m.bytes.size());
    return m;
  }
  template <typename T> std::vector<T> as() const {
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }
};

/// What a launch returns for one result: its rank and element size (the
/// shape comes back with the data).
struct ResultSpec {
  int64_t rank = 1;
  int64_t elementSize = 8;
  /// A scalar result (rank ignored; an element size of 1, 2, 4 or 8).
  bool scalar = false;
};

struct ClientOptions {
  std::chrono::milliseconds connectTimeout{5000};
  /// How long an accepted connection may take to start the ORC session (a
  /// peer that accepts and never answers is not waited for longer).
  std::chrono::milliseconds handshakeTimeout{5000};
  /// Presented before the ORC handshake when the executor asks for it.
  /// Defaults to $EXECUTOR_TOKEN, else the contents of $EXECUTOR_TOKEN_FILE.
  std::string token;
  /// The CA certificates (a PEM file) to trust; when set, the session must
  /// run over TLS and the executor's certificate must name the host
  /// connected to. Defaults to $EXECUTOR_TLS_CA.
  std::string tlsCA;
  /// How long one call (a launch, an await) may take before it fails and
  /// the session is closed (which stops the kernel on executor-server);
  /// 0: no limit. Defaults to $EXECUTOR_LAUNCH_TIMEOUT (seconds).
  std::chrono::milliseconds launchTimeout{0};
  /// A connection whose peer stops answering (a cut link) breaks after
  /// about this long. Defaults to $EXECUTOR_LIVENESS_TIMEOUT (seconds), else
  /// 30 s.
  std::chrono::seconds livenessTimeout{0};
};

/// The executor at the other end of a session, as negotiated at open.
enum class ExecutorKind {
  /// executor-server (publishes __executor_studio_launch).
  ExecutorServer,
  /// Catalyst's catalyst-executor, or any executor that publishes Catalyst's
  /// catalyst_remote_* services and not ours.
  CatalystExecutor,
  /// Any other ORC executor, e.g. LLVM's llvm-jitlink-executor.
  OrcExecutor,
};
/// "executor-server", "catalyst-executor" or "ORC executor".
const char *executorKindName(ExecutorKind kind);
/// One line on what a launch costs on `kind`, for the studio and the logs.
const char *executorKindSummary(ExecutorKind kind);

class ExecutorClient {
public:
  /// Connects to `address` (after EXECUTOR_ADDRESS_MAP) and starts a
  /// session. Errors name the address.
  static llvm::Expected<std::unique_ptr<ExecutorClient>>
  open(const std::string &address, ClientOptions options = {});
  /// Starts the ORC executor `executor` (a program that takes the
  /// session's descriptors as `filedescs=IN,OUT`, such as LLVM's
  /// llvm-jitlink-executor; `args` go before that) as a child of this
  /// process, over a socket pair, and starts a session with it. Being its
  /// parent, the client learns how it ended when the session is lost: a
  /// kernel that kills it with a signal is a KernelCrashed naming the
  /// kernel and the signal (such executors report no backtrace), and the
  /// executor is stopped when the session closes. sessionPid() is its PID.
  static llvm::Expected<std::unique_ptr<ExecutorClient>>
  spawn(const std::string &executor, const std::vector<std::string> &args = {});
  ~ExecutorClient();

  /// The address as written by the caller, and as connected to.
  const std::string &address() const;
  const std::string &connectedAddress() const;
  /// For a session over TLS: its cipher suite and which directions kernel
  /// TLS carries ("TLS_AES_256_GCM_SHA384, kernel TLS: none"); "" otherwise.
  std::string tlsDescription() const;
  /// Which executor this session talks to.
  ExecutorKind executorKind() const;
  /// The executor's target triple, from ORC's setup message: objects must
  /// be compiled for it (sendBinary refuses one of another architecture).
  std::string executorTriple() const;
  /// The session process's PID on the executor's host (`gdb -p PID` there
  /// attaches to it), when the executor says it (executor-server); 0
  /// otherwise.
  int64_t sessionPid() const;

  /// Ships the file at `path` (from memory when the program embedded a
  /// file of that path: executor-compile). Format 0: a relocatable object,
  /// linked into the executor under the name `path` (loading a name twice
  /// does nothing). Format 1: an asset, stored under the file name of
  /// `path` (storeAsset). Any other format is an error.
  llvm::Error sendBinary(const std::string &path, int format = 0);
  /// The same for `bytes`; `name` is the object's name, or the asset's.
  llvm::Error sendBinary(const std::string &name, llvm::ArrayRef<char> bytes,
                         int format = 0);
  bool hasObject(const std::string &name) const;
  /// Stores `bytes` as the file `name` in the session's asset directory on
  /// the executor (replacing an asset of that name), where kernels find it
  /// (Plugin.h). `name` must be a plain file name: not empty, `.` or `..`,
  /// without `/` or NUL, at most 255 bytes. Not on an ORC executor, which
  /// has no file service.
  llvm::Error storeAsset(const std::string &name, llvm::ArrayRef<char> bytes);

  /// Runs `entry` (`_catalyst_pyface_<entry>`, the prefix is added when
  /// missing) of `object` with `inputs`; returns its results.
  llvm::Expected<std::vector<HostMemRef>>
  launch(const std::string &entry, const std::string &object,
         const std::vector<HostMemRef> &inputs,
         const std::vector<ResultSpec> &results);

  /// The same on MLIR memref descriptors (the C ABI's path): inputs are
  /// read through their descriptors, each output descriptor is filled with
  /// fresh malloc'ed memory the caller owns.
  llvm::Error launchDescriptors(const std::string &entry,
                                const std::string &object,
                                llvm::ArrayRef<DescriptorView> inputs,
                                llvm::ArrayRef<int64_t> inputElementSizes,
                                llvm::ArrayRef<DescriptorView> outputs,
                                llvm::ArrayRef<int64_t> outputElementSizes);

  /// The executor address of `symbol`, spelled as written, in `object`;
  /// an empty `object` searches every loaded object, then the executor
  /// process (plugins). Looked up once per (object, symbol).
  llvm::Expected<uint64_t> symbolAddress(const std::string &symbol,
                                         const std::string &object);
  /// launchDescriptors for the entry at `entry` (from symbolAddress); `what`
  /// names it in errors. Where `scalarInputs` says so, an input is a scalar:
  /// a view of rank 0 whose aligned pointer points at its value; where
  /// `scalarOutputs` says so, an output is a scalar (of 1, 2, 4 or 8 bytes)
  /// whose value is stored at the view's `base`. Empty lists: no scalars.
  llvm::Error launchDescriptorsAt(uint64_t entry, const std::string &what,
                                  llvm::ArrayRef<DescriptorView> inputs,
                                  llvm::ArrayRef<int64_t> inputElementSizes,
                                  llvm::ArrayRef<DescriptorView> outputs,
                                  llvm::ArrayRef<int64_t> outputElementSizes,
                                  llvm::ArrayRef<bool> scalarInputs = {},
                                  llvm::ArrayRef<bool> scalarOutputs = {});

  /// Starts a `() -> ()` entry and returns at once; other launches on the
  /// session keep running while it does. On an executor other than
  /// executor-server the ticket is the client's own (the executor runs the
  /// invoke call on a thread of its own).
  llvm::Expected<uint64_t> launchAsync(const std::string &entry,
                                       const std::string &object);
  llvm::Expected<uint64_t> launchAsyncAt(uint64_t entry,
                                         const std::string &what);
  /// Waits for the launch `token` came from.
  llvm::Error await(uint64_t token);

  /// Calls `symbol` (an ORC wrapper function
  /// `CWrapperFunctionBuffer(const char *, size_t)` in a loaded object or a
  /// plugin) with `input`; returns its reply. The same on every kind of
  /// executor: an ORC wrapper call.
  llvm::Expected<std::vector<char>> call(const std::string &symbol,
                                         llvm::ArrayRef<char> input);
  /// The same for a wrapper function at an executor address (a bootstrap
  /// symbol, or one found with entryAddress).
  llvm::Expected<std::vector<char>> callAddress(uint64_t address,
                                                llvm::ArrayRef<char> input);

  /// Ends the session; later calls fail. Called by the destructor. It frees
  /// what calls use: only the client's owner calls it, when no other thread
  /// is in a call (a thread that shares the client calls interrupt()).
  llvm::Error close();
  /// Ends the session's connection, from any thread, while other threads
  /// may be in a call: those calls fail (the session is closed) and the
  /// executor ends the session, and with it a kernel that runs or waits for
  /// a debugger. Nothing is freed: close() or the destructor does that.
  void interrupt();
  bool isOpen() const;

  /// For tools that drive ORC directly (the benchmarks' multi-round-trip
  /// launch): the session's process control, a bootstrap symbol's address,
  /// and the address of `entry` in `object`.
  llvm::orc::ExecutorProcessControl &processControl();
  llvm::Expected<uint64_t> bootstrapSymbol(const std::string &name);
  llvm::Expected<uint64_t> entryAddress(const std::string &entry,
                                        const std::string &object);

  struct Impl;

private:
  explicit ExecutorClient(std::unique_ptr<Impl> impl);
  /// The ORC session over `stream` (open and spawn connect it).
  static llvm::Expected<std::unique_ptr<ExecutorClient>>
  startSession(std::unique_ptr<Impl> impl, std::unique_ptr<Stream> stream,
               bool sameHost);
  std::unique_ptr<Impl> impl;
};

/// `_catalyst_pyface_<entry>` unless `entry` has the prefix already.
std::string pyfaceName(const std::string &entry);

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_EXECUTORCLIENT_H
