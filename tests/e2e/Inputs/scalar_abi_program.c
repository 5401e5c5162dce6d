/* Scalars through the C ABI (issue 40): an input or output of rank
 * EXECUTOR_SCALAR_RANK is a scalar of its element size, by pointer to its
 * value. Runs the kernels of scalar-dispatch.mlir's @remote object (argv[1])
 * on the executor at ADDR:PORT; with a second argument, passes a scalar of
 * 3 bytes, which the runtime refuses. */
#include "ExecutorRuntime/CAPI.h"

#include <stdio.h>
#include <stdlib.h>

struct MemRef1D {
  double *allocated, *aligned;
  int64_t offset, size, stride;
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OBJECT [bad-size]\n", argv[0]);
    return 2;
  }
  const char *object = argv[1];
  int64_t s = __catalyst__executor__open("ADDR:PORT");
  __catalyst__executor__send_binary(s, object, 0);

  /* half(f64) -> f64: a scalar in, a scalar out. */
  double a = 2.5, half = 0;
  void *in1[] = {&a}, *out1[] = {&half};
  size_t scalarRank[] = {EXECUTOR_SCALAR_RANK}, eight[] = {8};
  __catalyst__executor__launch(s, "_catalyst_pyface_half", object, 1, in1,
                               scalarRank, eight, 1, out1, scalarRank, eight);
  printf("half(2.5) = %g\n", half);

  /* axpy(f64, i32, memref<8xf64>) -> (memref<8xf64>, f64). */
  double data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  struct MemRef1D x = {data, data, 0, 8, 1}, y = {0};
  int32_t n = -3;
  double sum = 0;
  void *in3[] = {&a, &n, &x}, *out2[] = {&y, &sum};
  size_t inRanks[] = {EXECUTOR_SCALAR_RANK, EXECUTOR_SCALAR_RANK, 1};
  size_t inSizes[] = {8, 4, 8};
  size_t outRanks[] = {1, EXECUTOR_SCALAR_RANK}, outSizes[] = {8, 8};
  __catalyst__executor__launch(s, "_catalyst_pyface_axpy", object, 3, in3,
                               inRanks, inSizes, 2, out2, outRanks, outSizes);
  printf("axpy: y =");
  for (int64_t i = 0; i < y.size; ++i)
    printf(" %g", y.aligned[y.offset + i * y.stride]);
  printf(", sum = %g\n", sum);
  free(y.allocated); /* the caller's, as the C ABI says */

  if (argc > 2) {
    /* A scalar of 3 bytes: no C scalar has that size. */
    size_t three[] = {3};
    __catalyst__executor__launch(s, "_catalyst_pyface_half", object, 1, in1,
                                 scalarRank, three, 1, out1, scalarRank,
                                 eight);
    printf("returned\n");
  }
  __catalyst__executor__close(s);
  printf("PASSED\n");
  return 0;
}
