//===- ObjectArchitecture.cpp - an object against the executor's triple ---===//
#include "ObjectArchitecture.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace executor_studio::runtime {

Expected<Triple> objectTriple(MemoryBufferRef object, const Triple &like) {
  auto file = object::ObjectFile::createObjectFile(object);
  if (!file)
    return file.takeError();
  Triple compiled = (*file)->makeTriple();
  Triple described = compiled;
  if (compiled.getObjectFormat() == like.getObjectFormat()) {
    // An ELF object does not say which OS and environment it was compiled
    // for; name it as the executor's would be named for its architecture.
    described = Triple(like.getArchName(), "unknown", like.getOSName(),
                       like.getEnvironmentName());
    described.setArch(compiled.getArch(), compiled.getSubArch());
  }
  return described;
}

Error checkObjectArchitecture(MemoryBufferRef object,
                              const Triple &executorTriple,
                              StringRef executorLabel) {
  Expected<Triple> compiled = objectTriple(object, executorTriple);
  if (!compiled) {
    consumeError(compiled.takeError());
    return Error::success();
  }
  if (compiled->getArch() == executorTriple.getArch() &&
      compiled->getObjectFormat() == executorTriple.getObjectFormat())
    return Error::success();
  StringRef file = sys::path::filename(object.getBufferIdentifier());
  // cross-compile-targets writes {workspace}/{module}/{module}.o.
  StringRef module = sys::path::stem(file);
  return createStringError(
      inconvertibleErrorCode(),
      file + " is " + compiled->str() + " but executor " + executorLabel +
          " runs " + executorTriple.str() +
          ": set catalyst.target = {triple = \"" + executorTriple.str() +
          "\"} on @" + module);
}

} // namespace executor_studio::runtime
