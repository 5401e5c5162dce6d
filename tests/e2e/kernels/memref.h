/* The MLIR descriptor of a memref<?xf64>, as the kernels' pyface wrappers
 * receive their arguments and return their results. */
#ifndef E2E_KERNELS_MEMREF_H
#define E2E_KERNELS_MEMREF_H

#include <stdint.h>

typedef struct {
  double *allocated, *aligned;
  int64_t offset, size, stride;
} Memref1D;

#endif
