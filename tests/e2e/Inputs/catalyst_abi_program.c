/* A host program written against the prototypes of Catalyst's
 * runtime/include/ExecutorCAPI.h (declared here, as a program built with
 * Catalyst's header sees them) and linked with -lrt_executor:
 *
 *   catalyst_abi_program KERNELS.o ASSET-FILE     the whole session
 *   catalyst_abi_program KERNELS.o ASSET-FILE bad-format
 *                                                 send_binary format 7
 *
 * Every check prints a line; a failed one exits 1. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t __catalyst__executor__open(const char *addr);
int64_t __catalyst__executor__send_binary(int64_t session, const char *path,
                                          uint32_t format);
void __catalyst__executor__launch(int64_t session, const char *entry_symbol,
                                  const char *object, size_t num_inputs,
                                  void *const *input_descs,
                                  const size_t *input_ranks,
                                  const size_t *input_elem_sizes,
                                  size_t num_outputs, void *const *output_descs,
                                  const size_t *output_ranks,
                                  const size_t *output_elem_sizes);
int64_t __catalyst__executor__launch_async(int64_t session,
                                           const char *entry_symbol,
                                           const char *object);
void __catalyst__executor__await(int64_t token);
int32_t __catalyst__executor__call_wrapper(int64_t session, const char *symbol,
                                           const char *args_buf,
                                           size_t args_size, void **out_buf,
                                           size_t *out_size);
void __catalyst__executor__free_result(void *buf);
int64_t __catalyst__executor__close(int64_t session);

/* memref<?xf64> */
typedef struct {
  double *allocated, *aligned;
  int64_t offset, size, stride;
} Vector;

static int failures;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    printf(__VA_ARGS__);                                                       \
    printf(": %s\n", (cond) ? "ok" : "FAILED");                                \
    if (!(cond))                                                               \
      ++failures;                                                              \
  } while (0)

static void printVector(const char *what, const Vector *v) {
  printf("%s = [", what);
  for (int64_t i = 0; i < v->size; ++i)
    printf(i ? ", %g" : "%g", v->aligned[v->offset + i * v->stride]);
  printf("]\n");
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s KERNELS.o ASSET-FILE [bad-format]\n", argv[0]);
    return 2;
  }
  const char *object = argv[1], *asset = argv[2];
  setvbuf(stdout, NULL, _IONBF, 0);

  int64_t session = __catalyst__executor__open("ADDR:PORT");
  CHECK(session != 0, "open -> %lld", (long long)session);
  CHECK(__catalyst__executor__open("ADDR:PORT") == session,
        "open of the same address -> the same session");

  if (argc > 3 && strcmp(argv[3], "bad-format") == 0) {
    __catalyst__executor__send_binary(session, object, 7);
    printf("send_binary with format 7 returned\n");
    return 1;
  }

  CHECK(__catalyst__executor__send_binary(session, object, 0) == 0,
        "send_binary(object, 0) -> 0");
  CHECK(__catalyst__executor__send_binary(session, object, 0) == 0,
        "send_binary of the same path again -> 0");
  CHECK(__catalyst__executor__send_binary(session, "", 0) == 0,
        "send_binary of an empty path -> 0");
  CHECK(__catalyst__executor__send_binary(session, asset, 1) == 0,
        "send_binary(asset, 1) -> 0");

  /* y = scale(x), with size_t counts, ranks and element sizes. */
  double xs[4] = {1, 2, 3, 4};
  Vector x = {xs, xs, 0, 4, 1}, y;
  void *inputs[1] = {&x}, *outputs[1] = {&y};
  size_t ranks[1] = {1}, sizes[1] = {sizeof(double)};
  __catalyst__executor__launch(session, "_catalyst_pyface_scale", object, 1,
                               inputs, ranks, sizes, 1, outputs, ranks, sizes);
  printVector("scale", &y);
  CHECK(y.size == 4 && y.aligned[0] == 2 && y.aligned[3] == 8,
        "launch of _catalyst_pyface_scale");
  free(y.allocated);

  /* No object: the symbol is looked up in every shipped object. */
  __catalyst__executor__launch(session, "_catalyst_pyface_scale", NULL, 1,
                               inputs, ranks, sizes, 1, outputs, ranks, sizes);
  CHECK(y.size == 4 && y.aligned[1] == 4, "launch with a null object");
  free(y.allocated);

  /* The asset, read by a kernel by the name it was sent under. */
  Vector w;
  void *weights[1] = {&w};
  __catalyst__executor__launch(session, "_catalyst_pyface_weights_cwd", object,
                               0, NULL, NULL, NULL, 1, weights, ranks, sizes);
  printVector("weights", &w);
  CHECK(w.size == 3 && w.aligned[2] == 2.5, "a kernel reads the asset");
  free(w.allocated);

  /* sample_histogram (the plugin): i64 shots, i64 device, char basis[256],
   * f64 scale -> i32 count, f64 histogram[8]. */
  char args[8 + 8 + 256 + 8] = {0};
  int64_t shots = 360, device = 0;
  double scale = 1;
  memcpy(args, &shots, 8);
  memcpy(args + 8, &device, 8);
  strcpy(args + 16, "z-basis");
  memcpy(args + 16 + 256, &scale, 8);
  void *reply = NULL;
  size_t replySize = 12345;
  int32_t status = __catalyst__executor__call_wrapper(
      session, "sample_histogram", args, sizeof(args), &reply, &replySize);
  CHECK(status == 0, "call_wrapper -> %d", status);
  CHECK(replySize == 4 + 8 * 8, "call_wrapper's reply size %zu", replySize);
  if (reply && replySize == 4 + 8 * 8) {
    int32_t count;
    double bins[8];
    memcpy(&count, reply, 4);
    memcpy(bins, (char *)reply + 4, sizeof(bins));
    printf("count = %d, bins = [%g, %g, ..., %g]\n", count, bins[0], bins[1],
           bins[7]);
    CHECK(count == 360 && bins[0] == 10 && bins[7] == 80,
          "sample_histogram's numbers");
  }
  __catalyst__executor__free_result(reply);
  /* The reply may be dropped. */
  CHECK(__catalyst__executor__call_wrapper(session, "sample_histogram", args,
                                           sizeof(args), NULL, NULL) == 0,
        "call_wrapper without out pointers -> 0");

  int64_t token =
      __catalyst__executor__launch_async(session, "_catalyst_pyface_touch",
                                         object);
  __catalyst__executor__await(token);
  printf("launch_async + await: done\n");
  /* Left unawaited: close waits for it. */
  __catalyst__executor__launch_async(session, "_catalyst_pyface_touch", object);

  CHECK(__catalyst__executor__close(session) == 0, "close -> 0");
  CHECK(__catalyst__executor__close(session) == 0, "close again -> 0");
  int64_t again = __catalyst__executor__open("ADDR:PORT");
  CHECK(again != 0 && again != session, "open after close -> a new session %lld",
        (long long)again);
  CHECK(__catalyst__executor__close(again) == 0, "close -> 0");
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
