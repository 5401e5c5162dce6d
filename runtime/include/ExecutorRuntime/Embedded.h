/*===- Embedded.h - kernel objects embedded in a program ----------*- C -*-===*\
|*                                                                            *|
|* executor-compile embeds the objects (and assets) a program ships in the   *|
|* executable it links, and its `main` registers them before anything else   *|
|* runs. __catalyst__executor__send_binary of a path that is registered then *|
|* ships the embedded bytes instead of reading the file, so the program runs *|
|* after being moved to another directory or host. Not part of Catalyst's    *|
|* ABI: `executor-compile --no-embed-objects` makes programs that do not     *|
|* call it.                                                                  *|
\*===----------------------------------------------------------------------===*/
#ifndef EXECUTORRUNTIME_EMBEDDED_H
#define EXECUTORRUNTIME_EMBEDDED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One embedded file: the path send_binary names it by, and its bytes. */
typedef struct {
  const char *path;
  const char *data;
  uint64_t size;
} ExecutorEmbeddedFile;

/* Registers `count` embedded files (the table stays valid for the life of
 * the program); a later registration of a path replaces the earlier one. */
void __executor_studio_register_embedded(const ExecutorEmbeddedFile *files,
                                         uint64_t count);

#ifdef __cplusplus
}
#endif

#endif /* EXECUTORRUNTIME_EMBEDDED_H */
