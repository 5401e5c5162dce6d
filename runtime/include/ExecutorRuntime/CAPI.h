/*===- CAPI.h - the __catalyst__executor__* runtime ABI -----------*- C -*-===*\
|*                                                                            *|
|* What convert-executor-to-llvm emits calls to. Every function stops the     *|
|* program with a message naming the address, object and entry on failure.   *|
\*===----------------------------------------------------------------------===*/
#ifndef EXECUTORRUNTIME_CAPI_H
#define EXECUTORRUNTIME_CAPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens (once per address; later calls return the same session) a session
 * with the executor at `address` (mapped through EXECUTOR_ADDRESS_MAP). */
int64_t __catalyst__executor__open(const char *address);

/* Ships the object at `path` (format 0: raw object file); a second send of
 * the same object on a session does nothing. */
void __catalyst__executor__send_binary(int64_t session, const char *path,
                                       int32_t format);

/* Runs `entry` (_catalyst_pyface_<kernel>) of `object`. `inputs` and
 * `outputs` are arrays of pointers to MLIR memref descriptors; the output
 * descriptors are filled with malloc'ed memory the caller owns. */
void __catalyst__executor__launch(int64_t session, const char *entry,
                                  const char *object, int64_t num_inputs,
                                  void **inputs, const int64_t *input_ranks,
                                  const int64_t *input_element_sizes,
                                  int64_t num_outputs, void **outputs,
                                  const int64_t *output_ranks,
                                  const int64_t *output_element_sizes);

/* Starts a () -> () entry; returns a token for __catalyst__executor__await. */
int64_t __catalyst__executor__launch_async(int64_t session, const char *entry,
                                           const char *object);
void __catalyst__executor__await(int64_t token);

/* Calls the ORC wrapper function `symbol` with `input`; stores a buffer
 * with the reply in `*reply` (free it with free_result). Stops the program
 * when the reply is shorter than `expected_reply_size`. */
void __catalyst__executor__call_wrapper(int64_t session, const char *symbol,
                                        const void *input, int64_t input_size,
                                        void **reply,
                                        int64_t expected_reply_size);
void __catalyst__executor__free_result(void *reply);

void __catalyst__executor__close(int64_t session);

#ifdef __cplusplus
}
#endif

#endif /* EXECUTORRUNTIME_CAPI_H */
