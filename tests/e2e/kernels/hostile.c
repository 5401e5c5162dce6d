/* A kernel that lies about its result (HostileExecutorTest): the result
 * descriptor it writes takes its fields from its input, so a test can
 * rewrite them one by one. On the launch protocols that read results from
 * the executor's memory (executor-server's ORC-wrapper path for scalars,
 * Catalyst's services, ORC's generic memory access) the client reads this
 * descriptor as the executor's word. */
#include <stdint.h>

typedef struct {
  int64_t *allocated, *aligned;
  int64_t offset, size, stride;
} Memref1DI64;

typedef struct {
  void *allocated;
  char *aligned;
  int64_t offset, size, stride;
} Result1D;

static double cells[4] = {1, 2, 3, 4};

/* lie(scalar, fields) -> memref<?xf64>: fields are {byte delta of the
 * aligned pointer from four doubles 1..4, offset, size, stride}; the
 * scalar is unused (it makes executor-server take the services' path). */
void _catalyst_pyface_lie(void *results, void *args) {
  Memref1DI64 *fields = ((Memref1DI64 **)args)[1];
  const int64_t *f = fields->aligned + fields->offset;
  Result1D *r = (Result1D *)results;
  r->allocated = (void *)0xdeadbeef; /* MLIR's mark of a global: not freed */
  r->aligned = (char *)cells + f[0];
  r->offset = f[1];
  r->size = f[2];
  r->stride = f[3];
}
