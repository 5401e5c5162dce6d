/*===- sample_host.c - a host program on the executor runtime's C ABI -----===*\
|*                                                                            *|
|* Opens a session with the executor at argv[1] (which has sample_moments     *|
|* loaded with --plugin), calls sample_moments on four numbers through        *|
|* __catalyst__executor__call_wrapper and prints the mean and variance.       *|
|* Built against ExecutorStudio::Runtime (find_package(ExecutorStudio)).      *|
\*===----------------------------------------------------------------------===*/
#include "ExecutorRuntime/CAPI.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s HOST:PORT\n", argv[0]);
    return 2;
  }
  int64_t session = __catalyst__executor__open(argv[1]);
  double values[4] = {1, 2, 3, 4};
  void *reply = NULL;
  size_t replySize = 0;
  if (__catalyst__executor__call_wrapper(session, "sample_moments",
                                         (const char *)values, sizeof(values),
                                         &reply, &replySize) != 0 ||
      replySize != 2 * sizeof(double)) {
    fprintf(stderr, "sample_host: unexpected reply of %zu bytes\n", replySize);
    return 1;
  }
  double moments[2];
  memcpy(moments, reply, sizeof(moments));
  __catalyst__executor__free_result(reply);
  printf("mean %g variance %g\n", moments[0], moments[1]);
  return (int)__catalyst__executor__close(session);
}
