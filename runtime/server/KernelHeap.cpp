//===- KernelHeap.cpp - kernels' large allocations in shared memory -------===//
#include "KernelHeap.h"
#include "ExecutorRuntime/SharedMemory.h"
#include "ExecutorRuntime/Wire.h"

#include "llvm/Support/MathExtras.h"

#include <cerrno>
#include <iterator>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace executor_studio::runtime {

namespace {
/// Blocks this large go to the heap (shared memory the client reads).
constexpr size_t kHeapAbove = kShareAbove;
constexpr size_t kPage = 4096;
/// Address space reserved for the heap at most (pages exist only once
/// written).
constexpr size_t kMaxHeapCapacity = 16ull << 30;
/// The heap's size (set once, at start).
size_t kHeapCapacity = 0;

struct Heap {
  std::mutex mutex;
  int fd = -1;
  char *base = nullptr;
  std::map<size_t, size_t> free;  // offset -> size, coalesced
  std::map<size_t, size_t> used;  // offset -> size
};
Heap &heap() {
  static Heap *h = new Heap; // never destroyed: kernels may free at exit
  return *h;
}

} // namespace

bool startKernelHeap(uint64_t limit, std::string &error) {
  Heap &h = heap();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (h.base)
    return true;
  kHeapCapacity = limit && limit < kMaxHeapCapacity
                      ? llvm::alignTo(static_cast<size_t>(limit), kPage)
                      : kMaxHeapCapacity;
  // Sealed: the client maps it only so (SharedArena::adopt).
  std::string why;
  int fd = makeSealedMemfd("executor-studio-kernel-heap", kHeapCapacity, why);
  if (fd < 0) {
    error = "cannot make the kernel heap: " + why;
    return false;
  }
  void *p = mmap(nullptr, kHeapCapacity, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (p == MAP_FAILED) {
    error = std::string("cannot map the kernel heap: ") + std::strerror(errno);
    close(fd);
    return false;
  }
  h.fd = fd;
  h.base = static_cast<char *>(p);
  h.free[0] = kHeapCapacity;
  return true;
}

int kernelHeapFd() { return heap().fd; }
size_t kernelHeapSize() { return heap().base ? kHeapCapacity : 0; }
char *kernelHeapBase() { return heap().base; }

bool inKernelHeap(const void *p) {
  const char *base = heap().base;
  auto *c = static_cast<const char *>(p);
  return base && c >= base && c < base + kHeapCapacity;
}

void *kernelHeapAllocate(size_t bytes) {
  Heap &h = heap();
  if (!h.base)
    return nullptr;
  size_t size = llvm::alignTo(bytes ? bytes : 1, kPage);
  std::lock_guard<std::mutex> lock(h.mutex);
  // First fit: the block freed last is found again, its pages already there.
  for (auto it = h.free.begin(); it != h.free.end(); ++it) {
    if (it->second < size)
      continue;
    size_t offset = it->first, left = it->second - size;
    h.free.erase(it);
    if (left)
      h.free[offset + size] = left;
    h.used[offset] = size;
    return h.base + offset;
  }
  return nullptr;
}

namespace {
void heapRelease(void *p) {
  Heap &h = heap();
  std::lock_guard<std::mutex> lock(h.mutex);
  size_t offset = static_cast<char *>(p) - h.base;
  auto it = h.used.find(offset);
  if (it == h.used.end())
    return; // not a block start: ignore, as the heap's memory stays valid
  size_t size = it->second;
  h.used.erase(it);
  auto next = h.free.lower_bound(offset);
  if (next != h.free.end() && next->first == offset + size) {
    size += next->second;
    next = h.free.erase(next);
  }
  if (next != h.free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  h.free[offset] = size;
}

size_t blockSize(void *p) {
  Heap &h = heap();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto it = h.used.find(static_cast<char *>(p) - h.base);
  return it == h.used.end() ? 0 : it->second;
}
} // namespace

extern "C" void *kernelMalloc(size_t size) {
  if (size >= kHeapAbove)
    if (void *p = kernelHeapAllocate(size))
      return p;
  return std::malloc(size);
}

extern "C" void kernelFree(void *p) {
  if (inKernelHeap(p))
    heapRelease(p);
  else
    std::free(p);
}

extern "C" void *kernelCalloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    return nullptr;
  size_t bytes = count * size;
  if (bytes >= kHeapAbove)
    if (void *p = kernelHeapAllocate(bytes)) {
      std::memset(p, 0, bytes); // a reused block is not zero
      return p;
    }
  return std::calloc(count, size);
}

extern "C" void *kernelRealloc(void *p, size_t size) {
  if (!p)
    return kernelMalloc(size);
  if (!inKernelHeap(p))
    return std::realloc(p, size); // libc's block stays libc's
  size_t old = blockSize(p);
  if (size <= old)
    return p;
  void *q = kernelMalloc(size);
  if (q) {
    std::memcpy(q, p, old);
    heapRelease(p);
  }
  return q;
}

extern "C" void *kernelAlignedAlloc(size_t alignment, size_t size) {
  if (alignment <= kPage && size >= kHeapAbove)
    if (void *p = kernelHeapAllocate(size))
      return p;
  return std::aligned_alloc(alignment, size);
}

extern "C" int kernelPosixMemalign(void **out, size_t alignment,
                                           size_t size) {
  if (alignment <= kPage && size >= kHeapAbove)
    if (void *p = kernelHeapAllocate(size)) {
      *out = p;
      return 0;
    }
  return posix_memalign(out, alignment, size);
}

std::unique_ptr<Service> makeKernelHeapService() {
  void *allocators[] = {reinterpret_cast<void *>(&kernelMalloc),
                        reinterpret_cast<void *>(&kernelFree),
                        reinterpret_cast<void *>(&kernelCalloc),
                        reinterpret_cast<void *>(&kernelRealloc),
                        reinterpret_cast<void *>(&kernelAlignedAlloc),
                        reinterpret_cast<void *>(&kernelPosixMemalign)};
  static_assert(std::size(allocators) == std::size(kKernelAllocators));
  std::vector<Service::Symbol> symbols;
  for (size_t i = 0; i < std::size(allocators); ++i)
    symbols.push_back({kKernelAllocators[i][1],
                       llvm::orc::ExecutorAddr::fromPtr(allocators[i])});
  return std::make_unique<Service>(std::move(symbols));
}

} // namespace executor_studio::runtime
