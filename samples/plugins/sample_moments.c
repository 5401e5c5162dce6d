/*===- sample_moments.c - a library function for custom-call.mlir ---------===*\
|*                                                                            *|
|* Loaded into executor-server with --plugin. custom-call.mlir calls it with  *|
|* catalyst.custom_call fn("sample_moments"), which dispatch-executor-targets *|
|* turns into executor.call: the input is the f64 values packed one after     *|
|* another, the reply their mean and (population) variance, two f64s.         *|
\*===----------------------------------------------------------------------===*/
#include "ExecutorRuntime/Plugin.h"

#include <string.h>

ExecutorWrapperBuffer sample_moments(const char *data, size_t size) {
  if (size == 0 || size % sizeof(double) != 0)
    return executor_reply_error(
        "sample_moments: expected a non-empty array of f64 values");
  size_t n = size / sizeof(double);
  double sum = 0, squares = 0;
  for (size_t i = 0; i < n; ++i) {
    double x;
    memcpy(&x, data + i * sizeof(double), sizeof(double));
    sum += x;
    squares += x * x;
  }
  double moments[2] = {sum / n, squares / n - (sum / n) * (sum / n)};
  ExecutorWrapperBuffer reply;
  char *out = executor_reply(&reply, sizeof(moments));
  if (!out)
    return reply;
  memcpy(out, moments, sizeof(moments));
  return reply;
}
