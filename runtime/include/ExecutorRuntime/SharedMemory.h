//===- SharedMemory.h - buffers handed over between processes ---*- C++ -*-===//
//
// The Unix-socket transport's shared memory: each side of a session owns one
// arena (a memfd mapped MAP_SHARED) that it writes the large buffers of its
// messages into; the peer maps the same file (its descriptor crosses the
// socket once per arena, with SCM_RIGHTS) and reads them in place. An arena
// only grows: a larger one replaces it, and is handed over again.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORRUNTIME_SHAREDMEMORY_H
#define EXECUTORRUNTIME_SHAREDMEMORY_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace executor_studio::runtime {

/// Buffers this large cross a Unix socket in shared memory (the client's
/// arena, the executor's arena, the kernel heap); smaller ones are copied
/// into the message.
constexpr uint64_t kShareAbove = 64 * 1024;

/// A memfd of `bytes` bytes whose size is sealed (it can neither shrink nor
/// grow, and the seals are final), as the peer that maps it requires; -1
/// with `error` set when it cannot be made.
int makeSealedMemfd(const char *name, size_t bytes, std::string &error);

/// A memfd mapped into this process.
class SharedArena {
public:
  SharedArena() = default;
  SharedArena(const SharedArena &) = delete;
  SharedArena &operator=(const SharedArena &) = delete;
  ~SharedArena() { reset(); }

  /// Makes the arena at least `bytes` large (a new memfd when it grows; the
  /// old mapping is dropped). False with `error` when memory runs out.
  bool reserve(size_t bytes, std::string &error);
  /// Maps the peer's arena from `fd` (taking it over) of `bytes` bytes. The
  /// file must be at least that large and sealed against shrinking (else a
  /// peer could cut it under this side's reads: SIGBUS) and growing (as
  /// makeSealedMemfd seals it: what is mapped is what it holds for good).
  bool adopt(int fd, size_t bytes, std::string &error);
  void reset();

  char *data() const { return base; }
  size_t size() const { return length; }
  int fd() const { return file; }
  /// Bumped each time reserve() makes a new memfd: the peer must be sent it.
  uint64_t generation() const { return made; }

private:
  char *base = nullptr;
  size_t length = 0;
  int file = -1;
  uint64_t made = 0;
};

} // namespace executor_studio::runtime

#endif // EXECUTORRUNTIME_SHAREDMEMORY_H
