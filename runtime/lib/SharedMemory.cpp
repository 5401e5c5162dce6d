//===- SharedMemory.cpp - buffers handed over between processes -----------===//
#include "ExecutorRuntime/SharedMemory.h"

#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace executor_runtime {

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
  int fd = memfd_create("executor-studio-arena", MFD_CLOEXEC);
  if (fd < 0) {
    error = std::string("memfd_create: ") + std::strerror(errno);
    return false;
  }
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    error = std::string("cannot size shared memory: ") + std::strerror(errno);
    close(fd);
    return false;
  }
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

} // namespace executor_runtime
