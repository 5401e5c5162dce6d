//===- FuzzRecording.cpp - a recording's binary form ----------------------===//
//
// readRecording (RecordingWorker.h) reads what a recording worker sends back
// and what the target cache keeps on disk, where anything with the user's
// rights can change it. The first byte says how many of the bytes after it
// are the texts; the rest is the recording. What reads must write again as
// it reads: written and read once more, the same bytes.
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/RecordingWorker.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace executor_studio;

namespace {
std::string write(const Recording &recording, std::string &texts) {
  std::string bytes;
  llvm::raw_string_ostream out(bytes), textsOut(texts);
  writeRecording(recording, std::nullopt, out, textsOut);
  return bytes;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  llvm::StringRef input(reinterpret_cast<const char *>(data) + 1, size - 1);
  llvm::StringRef texts = input.take_front(data[0]);
  llvm::StringRef bytes = input.drop_front(texts.size());
  llvm::Expected<Recording> recording = readRecording(bytes, texts);
  if (!recording) {
    llvm::consumeError(recording.takeError());
    return 0;
  }
  std::string firstTexts, secondTexts;
  std::string first = write(*recording, firstTexts);
  llvm::Expected<Recording> again = readRecording(first, firstTexts);
  if (!again)
    std::abort(); // what the writer wrote does not read
  std::string second = write(*again, secondTexts);
  if (first != second || firstTexts != secondTexts)
    std::abort();
  return 0;
}
