//===- KernelHeap.h - kernels' large allocations in shared memory -*- C++ -*-===//
//
// On a session over a Unix socket, the client links the kernels it ships
// against these allocation functions instead of libc's: blocks of 64 KiB
// and more come from a heap in shared memory (a memfd the client maps), so
// a launch's large results reach the client in place, without a copy on
// the executor. Smaller blocks, and every block when the heap is not
// started (TCP sessions) or full, are libc's.
//
//===----------------------------------------------------------------------===//
#ifndef EXECUTORSERVER_KERNELHEAP_H
#define EXECUTORSERVER_KERNELHEAP_H

#include "Service.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace executor_studio::runtime {

/// Creates the heap of at most `limit` bytes (0: the default, 16 GiB):
/// shared memory is not counted by RLIMIT_DATA, so executor-server gives
/// it --max-session-memory. False with `error` when shared memory is
/// refused.
bool startKernelHeap(uint64_t limit, std::string &error);
/// The heap as a service: its allocation functions under their bootstrap
/// names (kKernelAllocators, Wire.h), for the client to link kernels
/// against.
std::unique_ptr<Service> makeKernelHeapService();
/// The heap's memfd, size and start (-1, 0, null when not started).
int kernelHeapFd();
size_t kernelHeapSize();
char *kernelHeapBase();
/// Whether `p` points into the heap.
bool inKernelHeap(const void *p);
/// A heap block of `bytes` (page-aligned), or null when it is full or not
/// started.
void *kernelHeapAllocate(size_t bytes);

/// What kernels call for malloc, free, calloc, realloc, aligned_alloc and
/// posix_memalign (bootstrap symbols __executor_studio_<name>).
extern "C" void *kernelMalloc(size_t size);
extern "C" void kernelFree(void *p);
extern "C" void *kernelCalloc(size_t count, size_t size);
extern "C" void *kernelRealloc(void *p, size_t size);
extern "C" void *kernelAlignedAlloc(size_t alignment, size_t size);
extern "C" int kernelPosixMemalign(void **out, size_t alignment,
                                           size_t size);

} // namespace executor_studio::runtime

#endif // EXECUTORSERVER_KERNELHEAP_H
