//===- SharedMemoryTest.cpp - a peer's shared memory is checked first -----===//
//
// Over a Unix socket each side maps the arena whose descriptor the peer sent
// (SharedArena::adopt). A file shorter than the peer said, or one the peer
// can still shrink, would turn this side's reads into SIGBUS: adopt refuses
// both (found writing the fuzz-shared-memory target, tests/fuzz: its seed
// arena-smaller-than-said is that peer).
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/SharedMemory.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace executor_studio::runtime;

TEST(SharedMemory, ASealedArenaOfItsSizeIsAdopted) {
  SharedArena own;
  std::string error;
  ASSERT_TRUE(own.reserve(4096, error)) << error;
  own.data()[0] = 'x';
  SharedArena peer;
  ASSERT_TRUE(peer.adopt(dup(own.fd()), own.size(), error)) << error;
  EXPECT_EQ(peer.data()[0], 'x');
  // What reserve() makes cannot shrink under the peer.
  EXPECT_NE(ftruncate(own.fd(), 0), 0);
}

TEST(SharedMemory, AFileShorterThanSaidIsRefused) {
  std::string error;
  int fd = makeSealedMemfd("short", 4096, error);
  ASSERT_GE(fd, 0) << error;
  SharedArena peer;
  EXPECT_FALSE(peer.adopt(fd, 65536, error));
  EXPECT_NE(error.find("65536 bytes"), std::string::npos) << error;
  EXPECT_EQ(peer.data(), nullptr);
}

TEST(SharedMemory, AnUnsealedFileIsRefused) {
  int fd = memfd_create("unsealed", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 4096), 0);
  SharedArena peer;
  std::string error;
  EXPECT_FALSE(peer.adopt(fd, 4096, error));
  EXPECT_NE(error, "");
}

TEST(SharedMemory, APipeIsRefused) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  SharedArena peer;
  std::string error;
  EXPECT_FALSE(peer.adopt(fds[0], 4096, error));
  close(fds[1]);
}

// Sealed against shrinking only: its size is not settled, so it is refused
// (both seals, as makeSealedMemfd sets them, are required).
TEST(SharedMemory, AFileThatCanStillGrowIsRefused) {
  int fd = memfd_create("grows", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 4096), 0);
  ASSERT_EQ(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
  SharedArena peer;
  std::string error;
  EXPECT_FALSE(peer.adopt(fd, 4096, error));
  EXPECT_NE(error.find("sealed memfd of the 4096 bytes"), std::string::npos)
      << error;
}
