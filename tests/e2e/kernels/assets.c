/* Kernels that read assets (send_binary format 1) the two documented ways:
 * by the name they were sent under, relative to the session's working
 * directory, and through executor_asset_path ($EXECUTOR_ASSET_DIR). */
#include "ExecutorRuntime/Plugin.h"
#include "memref.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The doubles in `file` (up to 64), as a memref<?xf64>; size -1 when it
 * cannot be opened. */
static Memref1D readDoubles(const char *file) {
  FILE *f = fopen(file, "rb");
  if (!f) {
    double *none = malloc(sizeof(double));
    return (Memref1D){none, none, 0, -1, 1};
  }
  double buffer[64];
  size_t n = fread(buffer, sizeof(double), 64, f);
  fclose(f);
  double *data = malloc(sizeof(double) * (n ? n : 1));
  for (size_t i = 0; i < n; ++i)
    data[i] = buffer[i];
  return (Memref1D){data, data, 0, (int64_t)n, 1};
}

/* weights_cwd: () -> memref<?xf64>, the doubles of "weights.bin". */
void _catalyst_pyface_weights_cwd(void *results, void *args) {
  (void)args;
  *(Memref1D *)results = readDoubles("weights.bin");
}

/* weights_env: the same through executor_asset_path. */
void _catalyst_pyface_weights_env(void *results, void *args) {
  (void)args;
  char path[4096];
  if (executor_asset_path("weights.bin", path, sizeof(path)) != 0)
    path[0] = '\0';
  *(Memref1D *)results = readDoubles(path);
}

/* scale: y = 2 * x, for the C ABI test. */
void _catalyst_pyface_scale(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double) * (x->size ? x->size : 1));
  for (int64_t i = 0; i < x->size; ++i)
    data[i] = 2 * x->aligned[x->offset + i * x->stride];
  *y = (Memref1D){data, data, 0, x->size, 1};
}

/* touch: () -> (), for launch_async. */
static volatile int touched;
void _catalyst_pyface_touch(void *results, void *args) {
  (void)results;
  (void)args;
  touched = 1;
}

/* asset_dir_length: an ORC wrapper function (executor.call) replying with
 * the length of $EXECUTOR_ASSET_DIR as an int64_t, or -1 without one. */
ExecutorWrapperBuffer asset_dir_length(const char *data, size_t size) {
  (void)data;
  (void)size;
  const char *dir = executor_asset_dir();
  int64_t length = dir ? (int64_t)strlen(dir) : -1;
  ExecutorWrapperBuffer reply;
  memcpy(executor_reply(&reply, sizeof(length)), &length, sizeof(length));
  return reply;
}

/* rename_assets: () -> (), renames the session's asset directory to its
 * path with "-moved" appended (a session owns its directory): the server
 * must still remove it when the session ends. */
void _catalyst_pyface_rename_assets(void *results, void *args) {
  (void)results;
  (void)args;
  const char *dir = executor_asset_dir();
  if (!dir)
    return;
  char moved[4096];
  snprintf(moved, sizeof(moved), "%s-moved", dir);
  rename(dir, moved);
}
