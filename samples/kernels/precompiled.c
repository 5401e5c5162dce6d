/*===- precompiled.c - kernels compiled outside this toolchain -------------===*\
|*                                                                            *|
|* The object that samples/precompiled-dispatch.mlir dispatches, built with  *|
|* a plain C compiler (the build writes build/samples/precompiled.o). It has  *|
|* the entry ABI cross-compile-targets generates, so any object with it can  *|
|* be launched: _catalyst_pyface_<entry>(void *results, void *args), args an  *|
|* array of pointers to the entry's memref descriptors, results the packed    *|
|* result descriptors.                                                        *|
\*===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdlib.h>

/* The descriptor of a memref<Nxf64>. */
typedef struct {
  double *allocated, *aligned;
  int64_t offset, size, stride;
} Memref1D;

/* cube: y = x * x * x, in a new buffer (the executor frees it after the
 * reply is sent). */
void _catalyst_pyface_cube(void *results, void *args) {
  const Memref1D *x = ((Memref1D **)args)[0];
  double *y = malloc(sizeof(double) * (size_t)x->size);
  for (int64_t i = 0; i < x->size; ++i) {
    double v = x->aligned[x->offset + i * x->stride];
    y[i] = v * v * v;
  }
  *(Memref1D *)results = (Memref1D){y, y, 0, x->size, 1};
}
