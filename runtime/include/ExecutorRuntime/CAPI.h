/*===- CAPI.h - the __catalyst__executor__* runtime ABI -----------*- C -*-===*\
|*                                                                            *|
|* What convert-executor-to-llvm emits calls to: the prototypes of Catalyst's *|
|* runtime/include/ExecutorCAPI.h, type for type, so a program built against  *|
|* Catalyst's header and linked with -lrt_executor (this library is also      *|
|* built as librt_executor.so) runs unchanged. Every function stops the       *|
|* program with "executor runtime error: ..." naming the address, object and  *|
|* entry on failure; the status results are 0 whenever they return.          *|
\*===----------------------------------------------------------------------===*/
#ifndef EXECUTORRUNTIME_CAPI_H
#define EXECUTORRUNTIME_CAPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens a session with the executor at `address` (mapped through
 * EXECUTOR_ADDRESS_MAP) and returns its handle, never 0. Later calls with
 * the same address return the same session until it is closed. */
int64_t __catalyst__executor__open(const char *address);

/* Ships the file at `path`, once per path and session (an empty path does
 * nothing). format 0: a relocatable object, linked into the session;
 * format 1: an asset, stored in the session's asset directory under the
 * file name of `path` (see Plugin.h). Returns 0. */
int64_t __catalyst__executor__send_binary(int64_t session, const char *path,
                                          uint32_t format);

/* The rank that marks an input or output of __catalyst__executor__launch as
 * a scalar (an extension of Catalyst's ABI, whose programs pass memrefs
 * only; the prototypes are unchanged). */
#define EXECUTOR_SCALAR_RANK ((size_t)-1)

/* Runs the symbol `entry` (`_catalyst_pyface_<kernel>`, looked up as
 * written) of the object shipped as `object` (null or empty: any shipped
 * object, then the executor process) as `entry(results, args)`. `inputs`
 * and `outputs` are arrays of pointers to MLIR memref descriptors; the
 * output descriptors are filled with malloc'ed memory the caller owns.
 * An input or output whose rank is EXECUTOR_SCALAR_RANK is a scalar whose
 * element size (1, 2, 4 or 8; a bool is a byte) is its size: its pointer
 * points at the value (an output's at where the value is stored), which
 * the kernel's wrapper takes by pointer and returns in its results. */
void __catalyst__executor__launch(int64_t session, const char *entry,
                                  const char *object, size_t num_inputs,
                                  void *const *inputs, const size_t *input_ranks,
                                  const size_t *input_element_sizes,
                                  size_t num_outputs, void *const *outputs,
                                  const size_t *output_ranks,
                                  const size_t *output_element_sizes);

/* Starts a () -> () entry; returns a token for __catalyst__executor__await. */
int64_t __catalyst__executor__launch_async(int64_t session, const char *entry,
                                           const char *object);
void __catalyst__executor__await(int64_t token);

/* Calls the ORC wrapper function `symbol` (in a shipped object or a server
 * plugin) with the `args_size` bytes at `args`. Stores the reply in `*out`
 * (null when it is empty; free it with free_result) and its size in
 * `*out_size`; either pointer may be null. Returns 0. Checking the size is
 * the caller's: convert-executor-to-llvm's code stops the program when it
 * is not what the output buffers take. */
int32_t __catalyst__executor__call_wrapper(int64_t session, const char *symbol,
                                           const char *args, size_t args_size,
                                           void **out, size_t *out_size);
void __catalyst__executor__free_result(void *out);

/* Waits for the session's unfinished launch_async kernels, ends the session
 * (the executor removes its asset directory) and returns 0; closing an
 * unknown or closed handle returns 0 too. */
int64_t __catalyst__executor__close(int64_t session);

#ifdef __cplusplus
}
#endif

#endif /* EXECUTORRUNTIME_CAPI_H */
