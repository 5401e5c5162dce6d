//===- FuzzLaunchRequest.cpp - the executor's launch request decoder ------===//
//
// A launch request as executor-server reads it from a client
// (parseLaunchRequest, Wire.h), inline or with data in the client's shared
// arena. A kernel reads each input by its shape: the harness reads every
// byte each shape promises, as a kernel would.
//
//===----------------------------------------------------------------------===//
#include "ExecutorRuntime/Wire.h"

using namespace executor_studio::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The first byte sizes the client's arena (0: none, as over TCP).
  if (size < 1)
    return 0;
  size_t arenaSize = static_cast<size_t>(data[0]) * 64;
  std::unique_ptr<char[]> arena(new char[arenaSize + 1]);
  std::memset(arena.get(), 'a', arenaSize);
  // Exactly the request's bytes, so a read past them is caught.
  std::unique_ptr<char[]> request(new char[size - 1]);
  std::memcpy(request.get(), data + 1, size - 1);
  LaunchRequest parsed;
  if (!parseLaunchRequest(request.get(), size - 1,
                          arenaSize ? arena.get() : nullptr, arenaSize, parsed)
           .empty())
    return 0;
  unsigned sum = 0;
  for (size_t i = 0; i < parsed.args.size(); ++i) {
    DescriptorView view = parsed.inputView(i);
    const volatile char *first = view.aligned() + view.offset();
    uint64_t bytes = uint64_t(view.numElements()) * parsed.inElt[i];
    for (uint64_t b = 0; b < bytes; ++b)
      sum += first[b];
  }
  return sum == 0xdeadbeef ? 1 : 0;
}
