//===- Wire.h - the launch request and reply ---------------------*- C++ -*-===//
//
// A launch is one ORC wrapper call: the request carries the pyface address
// and every input memref (shape and dense data), the reply every output
// memref. Shared by the client (ExecutorClient) and executor-server.
//
//   request: u64 magic, u64 pyface, u32 nin, u32 nout,
//            u32 name length, the kernel's name (for logs and crash reports),
//            nin  x { u32 rank, u32 eltSize, i64 sizes[rank], u64 bytes,
//                     pad to 16, data }
//            nout x { u32 rank, u32 eltSize }
//   reply:   u64 status (kReplyOk), then
//            nout x { u32 rank, u32 eltSize, i64 sizes[rank], u64 bytes,
//                     pad to 16, data }
//   On a Unix socket a direct call may carry bulk data in shared memory:
//   then `bytes` has kSharedData set and a u64 offset into the sender's
//   arena replaces the padding and the data.
//
// Every reply of the executor's wrapper functions starts with a u64 status:
// kReplyOk, or kReplyError followed by the message (ORC's out-of-band
// errors do not cross the wire).
//
// All integers are little-endian host order (the executor runs on a machine
// of the same byte order as the objects it loads).
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_WIRE_H
#define EXECUTORRUNTIME_WIRE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <sys/uio.h>

namespace executor_studio::runtime {

inline constexpr uint64_t kReplyOk = 0;
inline constexpr uint64_t kReplyError = 1;
/// What a session that stops with its server (SIGTERM) says: as the error
/// of a launch it refuses, and in the Hangup it ends the session with.
inline constexpr const char *kShuttingDownMessage =
    "the executor is shutting down";
/// The largest crash report (the Hangup a crashing session sends: the
/// kernel, the signal and a line per frame) in bytes.
inline constexpr size_t kMaxCrashReportSize = 4096;
inline constexpr uint64_t kLaunchMagic = 0x45584543'4c4e4348ULL; // "EXECLNCH"

/// Bootstrap symbol names the server publishes.
/// The session process's PID (as the server's host sees it), as the
/// symbol's value: what a debugger attaches to.
inline constexpr const char *kSessionPidSymbol = "__executor_studio_session_pid";
/// Instead, where the server sent ORC's Setup before the session process
/// existed (a connection without authentication, issue 40): the address of
/// a uint64_t in the session that holds that PID (the client reads it).
inline constexpr const char *kSessionPidAddressSymbol =
    "__executor_studio_session_pid_at";
inline constexpr const char *kLaunchWrapperName = "__executor_studio_launch";
/// Published by executor-server's launch service when it serves launches
/// (and any wrapper call) as the transport's direct calls
/// (StreamTransport::callDirect) instead of through ORC's message layer.
inline constexpr const char *kDirectCallsSymbol =
    "__executor_studio_direct_calls";
inline constexpr const char *kNoteWrapperName = "__executor_studio_note";
/// Asynchronous launches: start (the launch request of a `() -> ()` entry)
/// -> u64 ticket; await: u64 ticket -> () once the kernel has finished.
inline constexpr const char *kLaunchAsyncWrapperName =
    "__executor_studio_launch_async";
inline constexpr const char *kAwaitWrapperName = "__executor_studio_await";
/// Assets (send_binary format 1): u32 name length, the name, then the
/// bytes (the rest of the request) -> (). The executor stores them as the
/// file `name` in the session's asset directory (assetNameProblem says
/// which names it takes).
inline constexpr const char *kStoreAssetWrapperName =
    "__executor_studio_store_asset";
/// On a Unix-socket session, the client links kernels' allocation
/// functions (first) against the executor's (second), whose large blocks
/// are in shared memory it maps: results then cross without a copy.
inline constexpr const char *kKernelAllocators[][2] = {
    {"malloc", "__executor_studio_malloc"},
    {"free", "__executor_studio_free_block"},
    {"calloc", "__executor_studio_calloc"},
    {"realloc", "__executor_studio_realloc"},
    {"aligned_alloc", "__executor_studio_aligned_alloc"},
    {"posix_memalign", "__executor_studio_posix_memalign"},
};

/// The longest asset name (NAME_MAX on Linux).
inline constexpr size_t kMaxAssetNameLength = 255;

/// Why `name` cannot name an asset, or "" when it can: a plain file name,
/// not empty, `.` or `..`, without `/` or NUL, at most kMaxAssetNameLength
/// bytes; so the file is always directly inside the asset directory.
inline std::string assetNameProblem(const std::string &name) {
  if (name.empty())
    return "the name is empty";
  if (name == "." || name == "..")
    return "'" + name + "' is not a file name";
  if (name.find('/') != std::string::npos)
    return "it contains '/' (send a plain file name)";
  if (name.find('\0') != std::string::npos)
    return "it contains a NUL byte";
  if (name.size() > kMaxAssetNameLength)
    return "it is " + std::to_string(name.size()) + " bytes long (at most " +
           std::to_string(kMaxAssetNameLength) + ")";
  return "";
}

/// A strided memref descriptor as MLIR lays it out for rank `rank`:
/// {ptr allocated, ptr aligned, i64 offset, i64 sizes[rank], i64 strides[rank]}.
struct DescriptorView {
  void *base;
  int64_t rank;
  void *allocated() const { return static_cast<void **>(base)[0]; }
  char *aligned() const { return static_cast<char **>(base)[1]; }
  int64_t offset() const { return static_cast<int64_t *>(base)[2]; }
  int64_t size(int64_t d) const { return static_cast<int64_t *>(base)[3 + d]; }
  int64_t stride(int64_t d) const {
    return static_cast<int64_t *>(base)[3 + rank + d];
  }
  static size_t bytesFor(int64_t rank) { return 8 * (3 + 2 * rank); }
  /// Fills a dense row-major descriptor over `data`.
  void setDense(void *data, const int64_t *sizes) {
    auto *words = static_cast<int64_t *>(base);
    static_cast<void **>(base)[0] = data;
    static_cast<void **>(base)[1] = data;
    words[2] = 0;
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      words[3 + d] = sizes[d];
      words[3 + rank + d] = stride;
      stride *= sizes[d];
    }
  }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d = 0; d < rank; ++d)
      n *= size(d);
    return n;
  }
  bool isDense() const {
    int64_t expected = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (size(d) != 1 && stride(d) != expected)
        return false;
      expected *= size(d);
    }
    return true;
  }
};

/// Writes into a byte buffer it does not own. Built without a buffer it
/// only counts, so that a message is sized first and then written once into
/// memory allocated for it (no zero-filling, no reallocation, no copy).
class Writer {
public:
  Writer() = default;
  explicit Writer(char *buffer) : base(buffer) {}
  template <typename T> void put(T value) {
    if (base)
      std::memcpy(base + at, &value, sizeof(T));
    at += sizeof(T);
  }
  /// Skips to a multiple of `alignment` (bulk data starts 16-byte aligned,
  /// so the executor can hand it to kernels in place).
  void align(size_t alignment) {
    size_t padded = (at + alignment - 1) / alignment * alignment;
    if (base)
      std::memset(base + at, 0, padded - at);
    at = padded;
  }
  /// Returns where the next `bytes` go (null when counting).
  char *reserve(size_t bytes) {
    char *p = base ? base + at : nullptr;
    at += bytes;
    return p;
  }
  /// Appends the size and, aligned, the elements of `view` densely
  /// (gathering strided data).
  void putData(const DescriptorView &view, int64_t eltSize);
  size_t size() const { return at; }

private:
  char *base = nullptr;
  size_t at = 0;
};

class Reader {
public:
  Reader(const char *data, size_t size) : start(data), at(data), end(data + size) {}
  template <typename T> bool get(T &value) {
    if (static_cast<size_t>(end - at) < sizeof(T))
      return false;
    std::memcpy(&value, at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  bool align(size_t alignment) {
    size_t offset = at - start;
    size_t padded = (offset + alignment - 1) / alignment * alignment;
    if (padded > static_cast<size_t>(end - start))
      return false;
    at = start + padded;
    return true;
  }
  const char *take(size_t bytes) {
    if (static_cast<size_t>(end - at) < bytes)
      return nullptr;
    const char *p = at;
    at += bytes;
    return p;
  }
  bool done() const { return at == end; }
  size_t remaining() const { return static_cast<size_t>(end - at); }

private:
  const char *start;
  const char *at;
  const char *end;
};

/// Set in the rank word of a launch request's input or result (and echoed
/// in the reply): a scalar (rank 0, one element of 1, 2, 4 or 8 bytes),
/// which the kernel's wrapper takes by pointer to its value and returns by
/// value in its results struct, not as a memref descriptor.
inline constexpr uint32_t kScalarRank = 1u << 31;
inline bool isScalarSize(uint64_t bytes) {
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
}
/// How messages name the kind of an input or a result.
inline std::string describeRank(uint32_t rank, uint64_t eltSize) {
  if (rank & kScalarRank)
    return "a scalar of " + std::to_string(eltSize) + " bytes";
  return "rank " + std::to_string(rank) + " and " + std::to_string(eltSize) +
         "-byte elements";
}

/// Bulk data is preceded by its byte count and starts at this alignment.
inline constexpr size_t kDataAlignment = 16;
/// Set in a byte count when the data is not inline but in the sender's
/// shared arena (direct calls over a Unix socket): a u64 offset follows
/// instead of the padding and the bytes.
inline constexpr uint64_t kSharedData = 1ull << 63;

/// Reads one bulk data field (the byte count, then the data inline or its
/// offset in `arena`, the sender's shared arena of `arenaSize` bytes, null
/// when there is none). Null when it is malformed or out of range.
inline const char *readData(Reader &r, uint64_t &bytes, const char *arena,
                            size_t arenaSize) {
  if (!r.get(bytes))
    return nullptr;
  if (!(bytes & kSharedData))
    return r.align(kDataAlignment) ? r.take(bytes) : nullptr;
  bytes &= ~kSharedData;
  uint64_t offset = 0;
  if (!r.get(offset) || !arena || offset > arenaSize ||
      bytes > arenaSize - offset)
    return nullptr;
  return arena + offset;
}

/// Copies the elements of `view` (whose first element is at `first`) in
/// row-major order to `dst`.
inline void gatherDense(const DescriptorView &view, int64_t eltSize,
                        const char *first, char *dst) {
  int64_t n = view.numElements();
  if (n == 0)
    return;
  if (view.isDense()) {
    std::memcpy(dst, first, static_cast<size_t>(n * eltSize));
    return;
  }
  std::vector<int64_t> index(static_cast<size_t>(view.rank), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t d = 0; d < view.rank; ++d)
      offset += index[d] * view.stride(d);
    std::memcpy(dst + i * eltSize, first + offset * eltSize,
                static_cast<size_t>(eltSize));
    for (int64_t d = view.rank - 1; d >= 0; --d) {
      if (++index[d] < view.size(d))
        break;
      index[d] = 0;
    }
  }
}

inline void Writer::putData(const DescriptorView &view, int64_t eltSize) {
  int64_t n = view.numElements();
  put<uint64_t>(static_cast<uint64_t>(n * eltSize));
  align(kDataAlignment);
  char *dst = reserve(static_cast<size_t>(n * eltSize));
  if (dst && n)
    gatherDense(view, eltSize, view.aligned() + view.offset() * eltSize, dst);
}

/// The longest kernel name a launch request carries (longer ones are cut).
inline constexpr size_t kMaxKernelNameLength = 200;

/// The fixed part of a launch request. `name` is the kernel as the user
/// knows it (`square`, not `_catalyst_pyface_square`).
struct LaunchHeader {
  uint64_t pyface = 0;
  uint32_t numInputs = 0;
  uint32_t numOutputs = 0;
  std::string name;
};

inline void writeLaunchHeader(Writer &w, uint64_t pyface, uint32_t numInputs,
                              uint32_t numOutputs, llvm::StringRef name) {
  w.put<uint64_t>(kLaunchMagic);
  w.put<uint64_t>(pyface);
  w.put<uint32_t>(numInputs);
  w.put<uint32_t>(numOutputs);
  size_t length = std::min(name.size(), kMaxKernelNameLength);
  w.put<uint32_t>(static_cast<uint32_t>(length));
  if (char *dst = w.reserve(length))
    std::memcpy(dst, name.data(), length);
}
inline void writeLaunchHeader(Writer &w, const LaunchHeader &header) {
  writeLaunchHeader(w, header.pyface, header.numInputs, header.numOutputs,
                    header.name);
}

/// False when the request does not start with a launch header.
inline bool readLaunchHeader(Reader &r, LaunchHeader &header) {
  uint64_t magic = 0;
  uint32_t length = 0;
  const char *name = nullptr;
  if (!(r.get(magic) && magic == kLaunchMagic && r.get(header.pyface) &&
        r.get(header.numInputs) && r.get(header.numOutputs) &&
        header.pyface != 0 && r.get(length) &&
        length <= kMaxKernelNameLength && (name = r.take(length))))
    return false;
  header.name.assign(name, length);
  return true;
}

/// The bytes a dense memref of shape `sizes[0..rank)` with `eltSize`-byte
/// elements holds; false when a size is negative or the count overflows.
inline bool denseBytes(const int64_t *sizes, size_t rank, uint64_t eltSize,
                       uint64_t &bytes) {
  // The product of the sizes that are not 0 must fit an int64_t too:
  // DescriptorView multiplies them in any order (strides, element counts).
  uint64_t count = 1;
  bool empty = false;
  for (size_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0)
      return false;
    if (sizes[d] == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(sizes[d]), &count) ||
        count > uint64_t(INT64_MAX))
      return false;
  }
  if (empty)
    count = 0;
  return !__builtin_mul_overflow(count, eltSize, &bytes) &&
         bytes <= uint64_t(INT64_MAX);
}

/// A launch request as the executor reads it: a dense descriptor over each
/// input's data (which stays in the request, or in the client's shared
/// arena), and the rank and element size of each result.
/// (Small vectors and sets throughout: a launch of a few memrefs allocates
/// nothing for its request.)
struct LaunchRequest {
  LaunchHeader header;
  /// The inputs' descriptors, one after the other: input i's starts at
  /// inAt[i] and is of rank inRank[i] (a scalar's is of rank 0).
  llvm::SmallVector<int64_t, 48> inWords;
  llvm::SmallVector<size_t, 8> inAt;
  llvm::SmallVector<uint32_t, 8> inRank;
  /// The kernel's argument array: one descriptor per input (a scalar's
  /// value).
  llvm::SmallVector<void *, 8> args;
  llvm::SmallPtrSet<const void *, 8> inputData;
  llvm::SmallVector<uint32_t, 8> inElt, outElt;
  /// Ranks as the request has them (kScalarRank set for a scalar).
  llvm::SmallVector<uint32_t, 8> outRank;
  /// Where each result is in the kernel's results struct.
  llvm::SmallVector<size_t, 8> outAt;
  /// The bytes the results struct takes.
  size_t resultBytes = 0;

  /// Input i's dense descriptor over its data (a scalar's too).
  DescriptorView inputView(size_t i) {
    return {inWords.data() + inAt[i], inRank[i]};
  }
};

/// Reads a launch request (`arena`: the client's shared arena of
/// `arenaSize` bytes, null when there is none); "" or what is malformed.
/// Each input holds exactly the bytes its shape needs.
inline std::string parseLaunchRequest(const char *data, size_t size,
                                      const char *arena, size_t arenaSize,
                                      LaunchRequest &request) {
  Reader r(data, size);
  if (!readLaunchHeader(r, request.header))
    return "malformed launch request";
  uint32_t nin = request.header.numInputs, nout = request.header.numOutputs;
  llvm::SmallVector<const char *, 8> scalars;
  for (uint32_t i = 0; i < nin; ++i) {
    uint32_t rank = 0, eltSize = 0;
    if (!r.get(rank) || !r.get(eltSize))
      return "malformed launch request (input " + std::to_string(i) + ")";
    bool scalar = rank & kScalarRank;
    rank &= ~kScalarRank;
    if (rank > 64 || (scalar && (rank != 0 || !isScalarSize(eltSize))))
      return "malformed launch request (input " + std::to_string(i) + ")";
    int64_t sizes[64];
    for (uint32_t d = 0; d < rank; ++d)
      if (!r.get(sizes[d]))
        return "malformed launch request (input shape)";
    uint64_t bytes = 0, needed = 0;
    const char *payload = readData(r, bytes, arena, arenaSize);
    if (!payload)
      return "malformed launch request (input data)";
    if (!denseBytes(sizes, rank, eltSize, needed) || needed != bytes)
      return "malformed launch request (input " + std::to_string(i) +
             " has " + std::to_string(bytes) +
             " bytes of data, not what its shape needs)";
    size_t at = request.inWords.size();
    request.inWords.resize(at + DescriptorView::bytesFor(rank) / 8, 0);
    request.inAt.push_back(at);
    request.inRank.push_back(rank);
    request.inputView(i).setDense(const_cast<char *>(payload), sizes);
    request.inputData.insert(payload);
    request.inElt.push_back(eltSize);
    scalars.push_back(scalar ? payload : nullptr);
  }
  // (The descriptors are where they stay only now.)
  for (uint32_t i = 0; i < nin; ++i)
    request.args.push_back(scalars[i] ? const_cast<char *>(scalars[i])
                                      : request.inputView(i).base);
  // Each result takes 8 bytes of the request: a count beyond them is
  // malformed (and must not size what is allocated for them).
  if (nout > r.remaining() / 8)
    return "malformed launch request (" + std::to_string(nout) +
           " results in " + std::to_string(r.remaining()) + " bytes)";
  request.outRank.resize(nout);
  request.outElt.resize(nout);
  request.outAt.resize(nout);
  size_t at = 0;
  for (uint32_t i = 0; i < nout; ++i) {
    uint32_t &rank = request.outRank[i], &elt = request.outElt[i];
    if (!r.get(rank) || !r.get(elt))
      return "malformed launch request (result " + std::to_string(i) + ")";
    bool scalar = rank & kScalarRank;
    if ((rank & ~kScalarRank) > 64 ||
        (scalar && (rank != kScalarRank || !isScalarSize(elt))))
      return "malformed launch request (result " + std::to_string(i) + ")";
    // As the wrapper's results struct lays them out: a scalar at its own
    // alignment, a descriptor at 8.
    size_t size = scalar ? elt : DescriptorView::bytesFor(rank);
    size_t align = scalar ? elt : 8;
    at = (at + align - 1) / align * align;
    request.outAt[i] = at;
    at += size;
  }
  request.resultBytes = (at + 7) / 8 * 8;
  return "";
}

/// Where a result descriptor that the executor wrote (the launch protocols
/// that read results from the executor's memory: Catalyst's services, ORC's
/// memory access) lets the client read, checked before anything is sized or
/// read by it.
struct ResultReach {
  /// The executor address of the first element the view reaches.
  uint64_t start = 0;
  /// The bytes from there to the end of the last element it reaches: what
  /// must be read (and must come back) for it.
  uint64_t readBytes = 0;
  /// The bytes of its elements densely: what the client allocates for it.
  uint64_t denseBytes = 0;
};

/// Checks the descriptor `view` that the executor wrote for a result with
/// `eltSize`-byte elements (its rank is the one the caller expects: the
/// descriptor was laid out for it): sizes, strides and the offset must not be
/// negative, every count and address must fit without overflow, and its
/// elements must not overlap (a result no larger than the memory it reaches,
/// so a lying size cannot make the client allocate or write more than the
/// executor sends). "" or what is wrong.
inline std::string checkResultView(const DescriptorView &view,
                                   uint64_t eltSize, ResultReach &reach) {
  // (The compiler's overflow checks: one instruction each, on every launch.)
  auto mul = [](uint64_t a, uint64_t b, uint64_t &r) {
    return !__builtin_mul_overflow(a, b, &r);
  };
  auto add = [](uint64_t a, uint64_t b, uint64_t &r) {
    return !__builtin_add_overflow(a, b, &r);
  };
  uint64_t count = 1, last = 0;
  bool empty = false;
  for (int64_t d = 0; d < view.rank; ++d) {
    int64_t size = view.size(d), stride = view.stride(d);
    // Named only on an error (no allocation per dimension otherwise).
    auto which = [d] { return "dimension " + std::to_string(d); };
    if (size < 0)
      return which() + " has size " + std::to_string(size);
    if (stride < 0)
      return which() + " has stride " + std::to_string(stride);
    if (size == 0) {
      empty = true;
      continue;
    }
    uint64_t product = 0, step = 0, reached = 0;
    if (!mul(count, uint64_t(size), product) ||
        !mul(uint64_t(size - 1), uint64_t(stride), step) ||
        !add(last, step, reached) || product > uint64_t(INT64_MAX))
      return which() + " of size " + std::to_string(size) + " and stride " +
             std::to_string(stride) + " overflows the element count";
    count = product;
    last = reached;
  }
  if (view.offset() < 0)
    return "its offset is " + std::to_string(view.offset());
  reach = ResultReach();
  if (empty)
    return "";
  // The elements it reaches: the last one's index + 1.
  uint64_t extent = 0, dense = 0, read = 0, skip = 0, start = 0, end = 0;
  if (!add(last, 1, extent) || !mul(count, eltSize, dense) ||
      !mul(extent, eltSize, read) ||
      !mul(uint64_t(view.offset()), eltSize, skip) ||
      !add(reinterpret_cast<uint64_t>(view.aligned()), skip, start) ||
      dense > uint64_t(INT64_MAX) || read > uint64_t(INT64_MAX) ||
      !add(start, read, end))
    return "its " + std::to_string(count) + " elements of " +
           std::to_string(eltSize) + " bytes at offset " +
           std::to_string(view.offset()) + " overflow the address space";
  if (count > extent)
    return "its " + std::to_string(count) +
           " elements overlap (its strides reach only " +
           std::to_string(extent) + ")";
  reach.start = start;
  reach.readBytes = read;
  reach.denseBytes = dense;
  return "";
}

/// One memref of a launch reply: its shape and where its dense data lies
/// (in the reply, or in the executor's shared arena).
struct ReplyMemRef {
  llvm::SmallVector<int64_t, 4> sizes;
  const char *data = nullptr;
  uint64_t bytes = 0;
};

/// Reads a launch reply (its status word first) for results of `ranks` and
/// `eltSizes` (the request's): each result must have the rank and element
/// size asked for and exactly the bytes its shape needs, and nothing may
/// follow them. "" or what is wrong. (A SmallVector of a few results: a
/// reply of a few memrefs of low rank is read without an allocation.)
inline std::string readLaunchReply(const char *data, size_t size,
                                   const char *arena, size_t arenaSize,
                                   llvm::ArrayRef<int64_t> ranks,
                                   llvm::ArrayRef<int64_t> eltSizes,
                                   llvm::SmallVectorImpl<ReplyMemRef> &results) {
  Reader r(data, size);
  uint64_t status = kReplyError;
  if (!r.get(status) || status != kReplyOk)
    return "its status word is missing";
  results.assign(ranks.size(), {});
  for (size_t i = 0; i < ranks.size(); ++i) {
    uint32_t rank = 0, eltSize = 0;
    // Named only on an error (no allocation per result otherwise).
    auto which = [i] { return "result " + std::to_string(i); };
    if (!r.get(rank) || !r.get(eltSize))
      return which() + " is cut short";
    if (int64_t(rank) != ranks[i] || int64_t(eltSize) != eltSizes[i])
      return which() + " has " + describeRank(rank, eltSize) + ", not " +
             (uint32_t(ranks[i]) & kScalarRank ? "" : "the ") +
             describeRank(uint32_t(ranks[i]), uint64_t(eltSizes[i])) +
             " asked for";
    rank &= ~kScalarRank; // a scalar's is rank 0
    ReplyMemRef &out = results[i];
    out.sizes.resize(rank);
    for (auto &s : out.sizes)
      if (!r.get(s))
        return which() + "'s shape is cut short";
    uint64_t needed = 0;
    if (!(out.data = readData(r, out.bytes, arena, arenaSize)))
      return which() + "'s data lies outside the reply and the shared memory";
    if (!denseBytes(out.sizes.data(), rank, eltSize, needed) ||
        needed != out.bytes)
      return which() + " has " + std::to_string(out.bytes) +
             " bytes of data, not what its shape needs";
  }
  if (!r.done())
    return std::to_string(r.remaining()) + " bytes follow the last result";
  return "";
}

/// The kernel's name as the user knows it: `entry` without the
/// `_catalyst_pyface_` prefix of its wrapper.
inline std::string kernelName(const std::string &entry) {
  static const char prefix[] = "_catalyst_pyface_";
  if (entry.compare(0, sizeof(prefix) - 1, prefix) == 0 &&
      entry.size() > sizeof(prefix) - 1)
    return entry.substr(sizeof(prefix) - 1);
  return entry;
}

/// A message sent with one gathering write (a launch request, a launch
/// reply): its metadata is written here, its data stays where it lies and
/// goes out as pieces of its own. Offsets, which alignment is of, count the
/// whole message.
class GatherMessage {
public:
  /// Metadata bytes.
  void put(const void *p, size_t n) {
    meta.append(static_cast<const char *>(p), static_cast<const char *>(p) + n);
    offset += n;
  }
  void put32(uint32_t v) { put(&v, 4); }
  void put64(uint64_t v) { put(&v, 8); }
  /// `n` bytes of metadata to write in place (e.g. with a Writer).
  char *reserve(size_t n) {
    meta.resize(meta.size() + n);
    offset += n;
    return meta.data() + meta.size() - n;
  }
  /// Pads the metadata so that what follows starts at kDataAlignment.
  void alignData() {
    size_t padded = (offset + kDataAlignment - 1) / kDataAlignment * kDataAlignment;
    meta.resize(meta.size() + (padded - offset), 0);
    offset = padded;
  }
  /// `n` bytes at `p` (which must live until the message is sent), sent
  /// from where they lie.
  void addData(const char *p, size_t n) {
    pieces.push_back({meta.size(), {const_cast<char *>(p), n}});
    offset += n;
    dataBytes += n;
  }
  /// A buffer of `n` bytes the message owns, for data that must be
  /// gathered first (a strided view).
  char *stage(size_t n) {
    staged.emplace_back(new char[n]);
    return staged.back().get();
  }
  /// The pieces of the message, in order, for sendmsg.
  llvm::SmallVector<iovec, 8> parts() {
    llvm::SmallVector<iovec, 8> result;
    size_t at = 0;
    for (auto &[until, data] : pieces) {
      result.push_back({meta.data() + at, until - at});
      result.push_back(data);
      at = until;
    }
    result.push_back({meta.data() + at, meta.size() - at});
    return result;
  }
  /// The whole message's size.
  size_t size() const { return meta.size() + dataBytes; }

private:
  // Inline storage: a launch's request or reply of a few memrefs allocates
  // nothing here.
  llvm::SmallVector<char, 256> meta;
  /// Data after meta[0..first).
  llvm::SmallVector<std::pair<size_t, iovec>, 4> pieces;
  std::vector<std::unique_ptr<char[]>> staged;
  size_t offset = 0, dataBytes = 0;
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_WIRE_H
