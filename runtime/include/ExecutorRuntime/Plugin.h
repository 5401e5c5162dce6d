/*===- Plugin.h - writing functions that executor.call reaches ---*- C -*-===*\
|*                                                                            *|
|* A library loaded with `executor-server --plugin lib.so` (or an object      *|
|* shipped with send_binary) exposes functions that executor.call invokes as  *|
|* ORC wrapper functions:                                                     *|
|*                                                                            *|
|*   ExecutorWrapperBuffer name(const char *input, size_t input_size);       *|
|*                                                                            *|
|* The input is the flat wire layout lower-runtime-dispatch builds (inputs    *|
|* packed in order); the reply holds the declared result, then each out      *|
|* buffer, in order. A reply of any other size than the caller's outputs     *|
|* take stops the calling program with a message that names the call.        *|
|*                                                                            *|
|* Assets (send_binary format 1) are files in the session's own directory,   *|
|* named as they were sent (the file name of the host's path). It is the     *|
|* session process's working directory, so fopen("weights.bin", "rb")        *|
|* finds one; executor_asset_path spells the full path. The directory is     *|
|* removed when the session ends.                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef EXECUTORRUNTIME_PLUGIN_H
#define EXECUTORRUNTIME_PLUGIN_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layout of ORC's CWrapperFunctionBuffer: up to sizeof(char *) bytes
 * inline, more in a malloc'ed block the server frees after sending it. */
typedef struct {
  union {
    char *ValuePtr;
    char Value[sizeof(char *)];
  } Data;
  size_t Size;
} ExecutorWrapperBuffer;

/* Makes `*reply` a reply of `size` bytes and returns where to write them:
 * inside `*reply` itself for up to sizeof(char *) bytes, so write them
 * before copying or returning it. Returns NULL when memory runs out (the
 * reply is then empty).
 *
 *   ExecutorWrapperBuffer reply;
 *   char *out = executor_reply(&reply, sizeof(result));
 *   memcpy(out, &result, sizeof(result));
 *   return reply; */
static inline char *executor_reply(ExecutorWrapperBuffer *reply, size_t size) {
  reply->Size = size;
  reply->Data.ValuePtr = NULL;
  if (size <= sizeof(reply->Data.Value))
    return reply->Data.Value;
  reply->Data.ValuePtr = (char *)malloc(size);
  if (!reply->Data.ValuePtr)
    reply->Size = 0;
  return reply->Data.ValuePtr;
}

/* An error: ORC's out-of-band errors do not cross the connection, so the
 * message goes to the server's log and the reply is empty, which the
 * calling program reports as a reply of the wrong size. */
static inline ExecutorWrapperBuffer executor_reply_error(const char *message) {
  ExecutorWrapperBuffer reply;
  fprintf(stderr, "executor plugin error: %s\n", message);
  fflush(stderr);
  executor_reply(&reply, 0);
  return reply;
}

/* The session's asset directory ($EXECUTOR_ASSET_DIR), or NULL outside a
 * session of executor-server. */
static inline const char *executor_asset_dir(void) {
  return getenv("EXECUTOR_ASSET_DIR");
}

/* Writes the full path of the asset `name` into `buffer`; returns 0, or -1
 * when there is no asset directory or the path does not fit. */
static inline int executor_asset_path(const char *name, char *buffer,
                                      size_t size) {
  const char *dir = executor_asset_dir();
  if (!dir)
    return -1;
  int n = snprintf(buffer, size, "%s/%s", dir, name);
  return n < 0 || (size_t)n >= size ? -1 : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* EXECUTORRUNTIME_PLUGIN_H */
