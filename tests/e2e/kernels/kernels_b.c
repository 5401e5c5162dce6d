/* A second object exporting the same entry name as kernels_a.c. */
#include "memref.h"

#include <stdint.h>
#include <stdlib.h>


/* k: y = x + 100 */
void _catalyst_pyface_k(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double) * x->size);
  for (int64_t i = 0; i < x->size; ++i)
    data[i] = x->aligned[x->offset + i * x->stride] + 100;
  *y = (Memref1D){data, data, 0, x->size, 1};
}
