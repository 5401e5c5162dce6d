//===- SharedMemory.cpp - buffers handed over between processes -----------===//
#include "ExecutorRuntime/SharedMemory.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace executor_studio::runtime {

int makeSealedMemfd(const char *name, size_t bytes, std::string &error) {
  int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    error = std::string("memfd_create: ") + std::strerror(errno);
    return -1;
  }
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    error = std::string("cannot size shared memory: ") + std::strerror(errno);
    close(fd);
    return -1;
  }
  return fd;
}

void SharedArena::reset() {
  if (base)
    munmap(base, length);
  if (file >= 0)
    close(file);
  base = nullptr;
  length = 0;
  file = -1;
}

bool SharedArena::reserve(size_t bytes, std::string &error) {
  if (bytes <= length)
    return true;
  // Grow by doubling from 1 MiB, so a run of growing launches maps a new
  // arena only a few times.
  size_t size = length ? length : (1u << 20);
  while (size < bytes)
    size *= 2;
  int fd = makeSealedMemfd("executor-studio-arena", size, error);
  if (fd < 0)
    return false;
  void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    error = std::string("cannot map shared memory: ") + std::strerror(errno);
    close(fd);
    return false;
  }
  reset();
  base = static_cast<char *>(p);
  length = size;
  file = fd;
  ++made;
  return true;
}

bool SharedArena::adopt(int fd, size_t bytes, std::string &error) {
  // Measured and sealed before use: a file shorter than the peer says, or
  // one it could still shrink, would fault this side's reads (SIGBUS); only
  // the bytes it holds are mapped.
  struct stat st;
  int seals = fcntl(fd, F_GET_SEALS);
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) < bytes || seals < 0 ||
      (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) !=
          (F_SEAL_SHRINK | F_SEAL_GROW)) {
    error = "the peer's shared memory is not a sealed memfd of the " +
            std::to_string(bytes) + " bytes it said";
    close(fd);
    return false;
  }
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    error = std::string("cannot map the peer's shared memory: ") +
            std::strerror(errno);
    close(fd);
    return false;
  }
  reset();
  base = static_cast<char *>(p);
  length = bytes;
  file = fd;
  return true;
}

} // namespace executor_studio::runtime
