/*===- sample_histogram.c - a runtime function for runtime-call.mlir ------===*\
|*                                                                            *|
|* Loaded into executor-server with --plugin. executor.call invokes it as an  *|
|* ORC wrapper function: the input is the flat wire layout that               *|
|* lower-runtime-dispatch built (i64 shots, i64 device, char basis[256],      *|
|* f64 scale), the reply the declared i32 result followed by the 8-bin f64    *|
|* histogram.                                                                 *|
\*===----------------------------------------------------------------------===*/
#include "ExecutorRuntime/Plugin.h"

#include <stdint.h>
#include <string.h>

ExecutorWrapperBuffer sample_histogram(const char *data, size_t size) {
  enum { kInput = 8 + 8 + 256 + 8, kReply = 4 + 8 * 8 };
  if (size != kInput)
    return executor_reply_error("sample_histogram: expected 280 bytes of input");
  int64_t shots;
  double scale;
  memcpy(&shots, data, 8);
  const char *basis = data + 16;
  memcpy(&scale, data + 16 + 256, 8);
  if (strcmp(basis, "z-basis") != 0)
    return executor_reply_error("sample_histogram: unknown basis");
  ExecutorWrapperBuffer r;
  char *out = executor_reply(&r, kReply);
  if (!out)
    return r;
  int32_t count = (int32_t)shots;
  memcpy(out, &count, 4);
  /* A deterministic histogram: bin k holds (k + 1) * scale * shots / 36. */
  for (int k = 0; k < 8; ++k) {
    double bin = (k + 1) * scale * (double)shots / 36.0;
    memcpy(out + 4 + 8 * k, &bin, 8);
  }
  return r;
}
