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
|* buffer, in order. A reply shorter than the caller's outputs stops the      *|
|* calling program with a message that names the symbol.                     *|
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

/* A reply of `size` bytes; `*data` is where to write them. */
static inline ExecutorWrapperBuffer executor_reply(size_t size, char **data) {
  ExecutorWrapperBuffer reply;
  reply.Size = size;
  reply.Data.ValuePtr = NULL;
  if (size > sizeof(reply.Data.Value)) {
    reply.Data.ValuePtr = (char *)malloc(size);
    *data = reply.Data.ValuePtr;
  } else {
    *data = reply.Data.Value;
  }
  return reply;
}

/* An error: ORC's out-of-band errors do not cross the connection, so the
 * message goes to the server's log and the reply is empty, which the
 * calling program reports as too short. */
static inline ExecutorWrapperBuffer executor_reply_error(const char *message) {
  char *unused;
  fprintf(stderr, "executor plugin error: %s\n", message);
  fflush(stderr);
  return executor_reply(0, &unused);
}

#ifdef __cplusplus
}
#endif

#endif /* EXECUTORRUNTIME_PLUGIN_H */
