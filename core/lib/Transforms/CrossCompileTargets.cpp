//===- CrossCompileTargets.cpp - one object per catalyst.target -*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/RecordingWorker.h"
#include "DebugVariables.h"
#include "PyfaceWrappers.h"
#include "ExecutorStudio/Transforms/Passes.h"
#include "ExecutorStudio/Support/EmitCode.h"
#include "ExecutorStudio/Support/Targets.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <atomic>
#include <chrono>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace catalyst {
#define GEN_PASS_DEF_CROSSCOMPILETARGETSPASS
#include "ExecutorStudio/Transforms/Passes.h.inc"
} // namespace catalyst

using namespace mlir;
using namespace catalyst;

namespace {

/// Whether code for `triple` runs in this process (same arch, OS and
/// environment; the vendor does not matter).
bool isHostTriple(const llvm::Triple &triple) {
  llvm::Triple host(llvm::sys::getProcessTriple());
  return triple.getArch() == host.getArch() &&
         triple.getOS() == host.getOS() &&
         triple.getEnvironment() == host.getEnvironment();
}

/// Why `name` cannot be a file name in the workspace, or "" when it can.
/// Names come from the IR, so they are kept to one plain path component.
std::string fileNameProblem(StringRef name) {
  if (name.empty())
    return "is empty";
  if (name == "." || name == "..")
    return "is a directory reference";
  if (name.size() > 200)
    return "is longer than 200 bytes";
  for (char c : name) {
    if (c == '/' || c == '\\')
      return "contains a path separator";
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return "contains a control character";
  }
  return "";
}

/// `text` with non-printable bytes and quotes escaped, for a message.
std::string escaped(StringRef text) {
  std::string result;
  llvm::raw_string_ostream os(result);
  llvm::printEscapedString(text, os);
  return result;
}

/// Writes `text` to `path` (for the save-ir-after-each dumps).
LogicalResult writeDump(Operation *anchor, StringRef path,
                        llvm::function_ref<void(raw_ostream &)> print) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return emitError(anchor->getLoc(), "cannot write ")
           << path << ": " << ec.message() << " (is the workspace writable?)";
  print(os);
  return success();
}

struct Target {
  ModuleOp module;
  std::string name;
  bool dispatched;
  std::string triple;
  /// Whether its object carries debug info (the pass's `debug` option or
  /// its catalyst.target's).
  bool debug = false;
  SmallVector<EntryPoint> entries;
  SmallVector<LaunchKernelOp> launches;
  /// The next nested snapshot's index (executor_studio::addNestedSnapshot).
  unsigned nextNested = 0;
  /// The options of the recording that records this target's own steps
  /// (executor_studio::nestedRecordingOptions() on the pass's thread), or
  /// null; the steps are collected in `nested` and handed to the recorder
  /// in the targets' order once all are compiled.
  const executor_studio::RecordOptions *nestedOptions = nullptr;
  std::vector<executor_studio::Snapshot> nested = {};
};

/// Adds the next nested step of `target` to the recorder's
/// cross-compile-targets snapshot.
void addNested(Target &target, StringRef step,
               executor_studio::SnapshotKind kind, std::string text,
               bool changed, double milliseconds) {
  executor_studio::Snapshot snapshot;
  snapshot.index = target.nextNested++;
  snapshot.pass = target.name + "/" + step.str();
  snapshot.options = snapshot.pass;
  snapshot.anchor = target.triple;
  snapshot.target = target.name;
  snapshot.kind = kind;
  snapshot.changed = changed;
  snapshot.milliseconds = milliseconds;
  snapshot.ir =
      executor_studio::IRText(std::make_shared<const std::string>(std::move(text)));
  target.nested.push_back(std::move(snapshot));
}

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

//===----------------------------------------------------------------------===//
// Targets compiled apart: each in an MLIRContext and an LLVMContext of its
// own, so that independent targets compile on several threads (issue 39).
//===----------------------------------------------------------------------===//

/// A location without its context, to carry a diagnostic from a target's
/// context back to the host's.
struct PlainLocation {
  enum class Kind { Unknown, Point, Range, Name, CallSite, Fused };
  Kind kind = Kind::Unknown;
  std::string text;
  unsigned startLine = 0, startColumn = 0, endLine = 0, endColumn = 0;
  std::vector<PlainLocation> children;
};

PlainLocation toPlain(Location loc) {
  PlainLocation plain;
  if (auto point = dyn_cast<FileLineColLoc>(loc)) {
    plain.kind = PlainLocation::Kind::Point;
    plain.text = point.getFilename().str();
    plain.startLine = point.getLine();
    plain.startColumn = point.getColumn();
  } else if (auto range = dyn_cast<FileLineColRange>(loc)) {
    plain.kind = PlainLocation::Kind::Range;
    plain.text = range.getFilename().str();
    plain.startLine = range.getStartLine();
    plain.startColumn = range.getStartColumn();
    plain.endLine = range.getEndLine();
    plain.endColumn = range.getEndColumn();
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    plain.kind = PlainLocation::Kind::Name;
    plain.text = name.getName().str();
    plain.children.push_back(toPlain(name.getChildLoc()));
  } else if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    plain.kind = PlainLocation::Kind::CallSite;
    plain.children.push_back(toPlain(call.getCallee()));
    plain.children.push_back(toPlain(call.getCaller()));
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    plain.kind = PlainLocation::Kind::Fused;
    for (Location part : fused.getLocations())
      plain.children.push_back(toPlain(part));
  }
  return plain;
}

Location fromPlain(const PlainLocation &plain, MLIRContext *ctx) {
  switch (plain.kind) {
  case PlainLocation::Kind::Point:
    return FileLineColLoc::get(ctx, plain.text, plain.startLine,
                               plain.startColumn);
  case PlainLocation::Kind::Range:
    return FileLineColRange::get(ctx, plain.text, plain.startLine,
                                 plain.startColumn, plain.endLine,
                                 plain.endColumn);
  case PlainLocation::Kind::Name:
    return NameLoc::get(StringAttr::get(ctx, plain.text),
                        fromPlain(plain.children.front(), ctx));
  case PlainLocation::Kind::CallSite:
    return CallSiteLoc::get(fromPlain(plain.children[0], ctx),
                            fromPlain(plain.children[1], ctx));
  case PlainLocation::Kind::Fused: {
    SmallVector<Location> parts;
    for (const PlainLocation &part : plain.children)
      parts.push_back(fromPlain(part, ctx));
    return FusedLoc::get(ctx, parts);
  }
  case PlainLocation::Kind::Unknown:
    break;
  }
  return UnknownLoc::get(ctx);
}

/// A diagnostic without its context (the message as printed).
struct PlainDiagnostic {
  DiagnosticSeverity severity = DiagnosticSeverity::Error;
  PlainLocation location;
  std::string message;
  std::vector<PlainDiagnostic> notes;
};

PlainDiagnostic toPlain(Diagnostic &diag) {
  PlainDiagnostic plain;
  plain.severity = diag.getSeverity();
  plain.location = toPlain(diag.getLocation());
  plain.message = diag.str();
  for (Diagnostic &note : diag.getNotes())
    plain.notes.push_back(toPlain(note));
  return plain;
}

/// Emits `plain` in `ctx`, as the target's context emitted it.
void emitPlain(const PlainDiagnostic &plain, MLIRContext *ctx) {
  Diagnostic diag(fromPlain(plain.location, ctx), plain.severity);
  diag << plain.message;
  for (const PlainDiagnostic &note : plain.notes)
    diag.attachNote(fromPlain(note.location, ctx)) << note.message;
  ctx->getDiagEngine().emit(std::move(diag));
}

/// What compiling one target produced: its object, its recorded steps and
/// its diagnostics.
struct TargetResult {
  bool succeeded = false;
  std::vector<PlainDiagnostic> diagnostics;
  std::vector<executor_studio::Snapshot> nested;
  /// The object file's bytes (kept for the cache).
  std::shared_ptr<const std::string> object;
};

/// What a target's compilation depends on, as one string: the target
/// module's text (with its locations) after the host passes, the pass's
/// options, the triple, the entries, the recording's printing options and
/// the tool's version. Equal keys give byte-identical objects and steps.
std::string targetCacheKey(StringRef text, const Target &target,
                           ArrayRef<std::string> entries, unsigned optLevel,
                           bool lineTable, StringRef cwd) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "executor-studio " EXECUTOR_STUDIO_VERSION " llvm " LLVM_VERSION_STRING
     << "\n triple " << target.triple << "\n opt " << optLevel << "\n debug "
     << target.debug << "\n line-table " << lineTable;
  if (const executor_studio::RecordOptions *nested = target.nestedOptions)
    os << "\n nested generic " << nested->printGenericForm << " loc "
       << nested->printDebugInfo;
  else
    os << "\n not nested";
  // Debug info makes relative file names absolute from here.
  if (target.debug || lineTable)
    os << "\n cwd " << cwd;
  os << "\n entries";
  for (const std::string &entry : entries)
    os << " " << entry;
  os << "\n locations " << (target.debug || lineTable);
  os << "\n" << text;
  return key;
}

/// Whether the file at `path` holds exactly `bytes` (false when it cannot
/// be read).
bool sameFileContents(StringRef path, StringRef bytes) {
  uint64_t size;
  if (llvm::sys::fs::file_size(path, size) || size != bytes.size())
    return false;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  return file && (*file)->getBuffer() == bytes;
}

/// The in-memory cache of compiled targets, shared by every run of the pass
/// in the process (the language server's, the studio's and the driver's),
/// least recently used out first, bounded by the bytes it holds.
class TargetCache {
public:
  static TargetCache &get() {
    static TargetCache cache;
    return cache;
  }

  std::shared_ptr<const TargetResult> lookup(const std::string &key) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = index.find(key);
      if (it != index.end()) {
        ++hitCount;
        entries.splice(entries.begin(), entries, it->second);
        return it->second->result;
      }
    }
    // Not in memory: on disk, maybe, from another process.
    if (std::shared_ptr<const TargetResult> stored = readDisk(key)) {
      insertInMemory(key, stored);
      std::lock_guard<std::mutex> lock(mutex);
      ++diskHitCount;
      return stored;
    }
    std::lock_guard<std::mutex> lock(mutex);
    ++missCount;
    return nullptr;
  }

  void insert(const std::string &key,
              std::shared_ptr<const TargetResult> result) {
    insertInMemory(key, result);
    writeDisk(key, *result);
  }

  void setDiskDirectory(std::string dir) {
    std::lock_guard<std::mutex> lock(mutex);
    diskDir = std::move(dir);
    diskUsed.reset();
  }

private:
  void insertInMemory(const std::string &key,
                      std::shared_ptr<const TargetResult> result) {
    size_t bytes = key.size() + (result->object ? result->object->size() : 0);
    for (const executor_studio::Snapshot &step : result->nested)
      if (step.ir)
        bytes += step.ir->size();
    std::lock_guard<std::mutex> lock(mutex);
    if (bytes > limit || index.count(key))
      return;
    entries.push_front({key, std::move(result), bytes});
    index[key] = entries.begin();
    used += bytes;
    while (used > limit && !entries.empty()) {
      used -= entries.back().bytes;
      index.erase(entries.back().key);
      entries.pop_back();
    }
  }

public:
  void setLimit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    limit = bytes;
    while (used > limit && !entries.empty()) {
      used -= entries.back().bytes;
      index.erase(entries.back().key);
      entries.pop_back();
    }
  }

  catalyst::TargetCacheStatistics statistics() {
    std::lock_guard<std::mutex> lock(mutex);
    catalyst::TargetCacheStatistics result;
    result.hits = hitCount;
    result.diskHits = diskHitCount;
    result.misses = missCount;
    result.entries = entries.size();
    result.bytes = used;
    result.limit = limit;
    result.diskDirectory = diskDir;
    result.diskLimit = diskLimit;
    return result;
  }

private:
  TargetCache() {
    if (const char *mb = std::getenv("EXECUTOR_STUDIO_TARGET_CACHE_MB"))
      limit = size_t(std::strtoull(mb, nullptr, 10)) << 20;
    diskDir = defaultDiskDirectory();
    if (const char *mb = std::getenv("EXECUTOR_STUDIO_DISK_CACHE_MB"))
      diskLimit = size_t(std::strtoull(mb, nullptr, 10)) << 20;
  }

  /// $EXECUTOR_STUDIO_CACHE_DIR, else $XDG_CACHE_HOME/executor-studio, else
  /// ~/.cache/executor-studio (each with targets/ in it); none (no disk
  /// cache) with EXECUTOR_STUDIO_DISK_CACHE=0 or without a home.
  static std::string defaultDiskDirectory() {
    if (const char *off = std::getenv("EXECUTOR_STUDIO_DISK_CACHE");
        off && StringRef(off) == "0")
      return "";
    SmallString<256> dir;
    if (const char *own = std::getenv("EXECUTOR_STUDIO_CACHE_DIR"); own && *own)
      dir = own;
    else if (const char *xdg = std::getenv("XDG_CACHE_HOME");
             xdg && llvm::sys::path::is_absolute(xdg))
      llvm::sys::path::append(dir, xdg, "executor-studio");
    else if (const char *home = std::getenv("HOME");
             home && llvm::sys::path::is_absolute(home))
      llvm::sys::path::append(dir, home, ".cache", "executor-studio");
    else
      return "";
    llvm::sys::path::append(dir, "targets");
    return dir.str().str();
  }

  /// What else a result on disk depends on: the executable that compiled
  /// it (its size and time: another build compiles anew).
  static const std::string &executableIdentity() {
    static std::string identity = [] {
      static int anchor;
      std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
      llvm::sys::fs::file_status status;
      if (exe.empty() || llvm::sys::fs::status(exe, status))
        return std::string();
      return exe + " " + std::to_string(status.getSize()) + " " +
             std::to_string(status.getLastModificationTime()
                                .time_since_epoch()
                                .count());
    }();
    return identity;
  }

  static constexpr StringLiteral kMagic = "executor-studio-target-cache 3\n";

  /// The file of `key` (empty: no disk cache).
  std::string diskPath(const std::string &key) {
    std::string dir;
    {
      std::lock_guard<std::mutex> lock(mutex);
      dir = diskDir;
    }
    if (dir.empty() || executableIdentity().empty())
      return "";
    llvm::SHA256 hash;
    hash.update(executableIdentity());
    hash.update(key);
    SmallString<256> path(dir);
    llvm::sys::path::append(path, llvm::toHex(hash.final(), /*LowerCase=*/true) +
                                      ".target");
    return path.str().str();
  }

  /// The entry: kMagic, the identity and the key (a hash's collision reads
  /// as a miss), the object, the recorded steps as the recording worker's
  /// binary form (writeRecording), and their texts (RecordingWorker.h), each
  /// after its size in bytes on a line of its own.
  std::shared_ptr<const TargetResult> readDisk(const std::string &key) {
    std::string path = diskPath(key);
    if (path.empty())
      return nullptr;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!file)
      return nullptr;
    StringRef rest = (*file)->getBuffer();
    auto field = [&](StringRef &out) {
      size_t newline = rest.find('\n');
      uint64_t size = 0;
      if (newline == StringRef::npos ||
          rest.take_front(newline).getAsInteger(10, size) ||
          size > rest.size() - newline - 1) // (no overflow, unlike a sum)
        return false;
      out = rest.substr(newline + 1, size);
      rest = rest.drop_front(newline + 1 + size);
      return true;
    };
    StringRef identity, storedKey, object, steps, texts;
    if (!rest.consume_front(kMagic) || !field(identity) ||
        identity != executableIdentity() || !field(storedKey) ||
        storedKey != key || !field(object) || !field(steps) ||
        !field(texts) || !rest.empty())
      return nullptr;
    llvm::Expected<executor_studio::Recording> recording =
        executor_studio::readRecording(steps, texts);
    if (!recording) {
      llvm::consumeError(recording.takeError());
      return nullptr;
    }
    auto result = std::make_shared<TargetResult>();
    result->succeeded = true;
    result->object = std::make_shared<const std::string>(object.str());
    result->nested = std::move(recording->snapshots);
    // Used now: the last to go.
    int fd;
    if (!llvm::sys::fs::openFileForRead(path, fd)) {
      (void)llvm::sys::fs::setLastAccessAndModificationTime(
          fd, std::chrono::system_clock::now());
      (void)llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    }
    return result;
  }

  void writeDisk(const std::string &key, const TargetResult &result) {
    std::string path = diskPath(key);
    // Warnings and remarks are not kept: a result from disk has none.
    if (path.empty() || !result.object || !result.diagnostics.empty())
      return;
    StringRef dir = llvm::sys::path::parent_path(path);
    if (llvm::sys::fs::create_directories(dir))
      return;
    executor_studio::Recording recording;
    recording.succeeded = true;
    recording.snapshots = result.nested;
    std::string steps, texts;
    {
      llvm::raw_string_ostream stepsOut(steps), textsOut(texts);
      executor_studio::writeRecording(recording, std::nullopt, stepsOut,
                                      textsOut);
    }
    // Written whole under another name, then renamed: a reader in another
    // process sees the old entry or the new one.
    SmallString<256> temporary;
    int fd;
    if (llvm::sys::fs::createUniqueFile(path + "-%%%%%%%%.tmp", fd, temporary))
      return;
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << kMagic;
      for (const std::string *part : std::initializer_list<const std::string *>{
               &executableIdentity(), &key, result.object.get(), &steps,
               &texts})
        os << part->size() << "\n" << *part;
      os.close();
      if (os.has_error()) {
        os.clear_error();
        llvm::sys::fs::remove(temporary);
        return;
      }
    }
    if (llvm::sys::fs::rename(temporary, path)) {
      llvm::sys::fs::remove(temporary);
      return;
    }
    // The directory's size is counted once, then kept up to date here (other
    // processes add to it too: counted again when it seems over the limit).
    uint64_t written = kMagic.size() + executableIdentity().size() +
                       key.size() + result.object->size() + steps.size() +
                       texts.size() + 80;
    bool over;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (diskUsed)
        *diskUsed += written;
      over = !diskUsed || *diskUsed > diskLimit;
    }
    if (over)
      trimDisk(dir);
  }

  /// Removes the least recently used entries while the directory holds
  /// more than its limit.
  void trimDisk(StringRef dir) {
    struct File {
      std::string path;
      uint64_t size;
      llvm::sys::TimePoint<> time;
    };
    std::vector<File> files;
    uint64_t total = 0;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
         it.increment(ec)) {
      llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = it->status();
      if (!status)
        continue;
      files.push_back({it->path(), status->getSize(),
                       status->getLastModificationTime()});
      total += status->getSize();
    }
    auto count = [&] {
      std::lock_guard<std::mutex> lock(mutex);
      diskUsed = total;
    };
    if (total <= diskLimit)
      return count();
    llvm::sort(files, [](const File &a, const File &b) { return a.time < b.time; });
    for (const File &file : files) {
      if (total <= diskLimit - diskLimit / 4) // down to 3/4: not every time
        break;
      if (!llvm::sys::fs::remove(file.path))
        total -= file.size;
    }
    count();
  }

  struct Entry {
    std::string key;
    std::shared_ptr<const TargetResult> result;
    size_t bytes;
  };
  std::mutex mutex;
  std::list<Entry> entries;
  std::unordered_map<std::string, std::list<Entry>::iterator> index;
  size_t used = 0, limit = size_t(256) << 20;
  size_t hitCount = 0, diskHitCount = 0, missCount = 0;
  std::string diskDir;
  size_t diskLimit = size_t(512) << 20;
  /// The bytes in diskDir as last counted, plus what this process wrote
  /// since.
  std::optional<uint64_t> diskUsed;
};

/// The pool that compiles targets when the pass's context has none of its
/// own (a recording runs the passes on one thread; the recorded context
/// allowed threads).
llvm::ThreadPoolInterface &sharedTargetPool() {
  static llvm::DefaultThreadPool pool(llvm::hardware_concurrency());
  return pool;
}

/// What a target needs to be compiled in a context of its own.
struct TargetJob {
  /// The target module (a copy, with its name and attributes), printed with
  /// its locations.
  std::string text;
  std::string objectPath;
  /// Its entry names, in the order the host launches them.
  std::vector<std::string> entries;
  std::string cacheKey; // empty: not cached
  std::shared_ptr<const TargetResult> result;
};

struct CrossCompileTargetsPass
    : public catalyst::impl::CrossCompileTargetsPassBase<
          CrossCompileTargetsPass> {
  using CrossCompileTargetsPassBase::CrossCompileTargetsPassBase;
  void runOnOperation() override;

private:
  // The phases of runOnOperation.
  LogicalResult collectTargets(ModuleOp root, SmallVectorImpl<Target> &targets);
  LogicalResult checkWorkspace(ArrayRef<Target> targets);
  LogicalResult collectEntryPoints(ModuleOp root, MutableArrayRef<Target> targets);
  LogicalResult startManifest(ModuleOp root, ArrayRef<Target> targets);
  LogicalResult prepareJob(Target &target, StringRef absoluteWorkspace,
                           TargetJob &job);
  std::shared_ptr<const TargetResult>
  compileApart(const Target &target, const TargetJob &job,
               std::unique_ptr<MLIRContext> &context);
  LogicalResult place(Target &target, const TargetJob &job);
  unsigned threadsToUse(size_t targets);

  LogicalResult compile(Target &target, StringRef objectPath);
  LogicalResult lowerToLLVMDialect(Target &target, ModuleOp clone);
  LogicalResult addDebugScopes(Target &target, ModuleOp clone);
  LogicalResult emitObject(Target &target, ModuleOp llvmModule,
                           StringRef objectPath);
  void reduceToDeclarations(Target &target);
  LogicalResult linkLocally(Target &target, StringRef objectPath);

  /// Local entry name -> the target that defines it.
  llvm::StringMap<std::string> localEntries;
  /// The linker manifest, {workspace}/{root}.objects.
  std::string manifestPath;
  /// What the targets' own contexts take from the pass's (set while they
  /// compile).
  const DialectRegistry *targetRegistry = nullptr;
  bool allowUnregistered = false;
  std::vector<std::string> loadedDialects;
  bool printOpOnDiagnostic = true;
  bool printStackTraceOnDiagnostic = false;
};
} // namespace

LogicalResult CrossCompileTargetsPass::lowerToLLVMDialect(Target &target,
                                                          ModuleOp clone) {
  std::optional<TargetInfo> info = getTarget(target.module);
  std::string pipeline = info && info->pipeline
                             ? *info->pipeline
                             : getDefaultTargetPipelineText();
  if (saveIrAfterEach.empty() && !target.nestedOptions) {
    PassManager pm(clone->getName());
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (!executor_studio::parsePipelineInto(pipeline, pm, errorStream))
      return target.module.emitOpError("has catalyst.target pipeline \"")
             << pipeline << "\" that does not parse: " << error;
    if (failed(pm.run(clone)))
      return target.module.emitOpError("target @")
             << target.name << " failed to lower with \"" << pipeline << "\"";
    return success();
  }
  FailureOr<executor_studio::SaveMode> mode = [&]() -> FailureOr<executor_studio::SaveMode> {
    if (saveIrAfterEach.empty())
      return executor_studio::SaveMode::Pass; // (not saved)
    llvm::Expected<executor_studio::SaveMode> parsed =
        executor_studio::parseSaveMode(saveIrAfterEach);
    if (!parsed) {
      target.module.emitOpError("save-ir-after-each: ")
          << llvm::toString(parsed.takeError());
      return failure();
    }
    return *parsed;
  }();
  if (failed(mode))
    return failure();
  executor_studio::RecordOptions options;
  options.pipeline = pipeline;
  if (const executor_studio::RecordOptions *outer = target.nestedOptions) {
    options.printGenericForm = outer->printGenericForm;
    options.printDebugInfo = outer->printDebugInfo;
  }
  options.deferText = false; // a target is small; its texts are all shown
  executor_studio::Recording recording =
      executor_studio::recordPipeline(clone, options);
  if (target.nestedOptions) {
    // The target as extracted is the input of its pipeline; a first pass
    // that changes nothing shares its text.
    executor_studio::Snapshot extracted;
    extracted.index = target.nextNested++;
    extracted.pass = target.name + "/extracted";
    extracted.options = extracted.pass;
    extracted.anchor = "builtin.module @" + target.name;
    extracted.target = target.name;
    extracted.changed = true;
    extracted.ir = recording.inputIR;
    target.nested.push_back(std::move(extracted));
  }
  if (target.nestedOptions)
    for (const executor_studio::Snapshot &snapshot : recording.snapshots) {
      executor_studio::Snapshot step = snapshot; // (the texts are shared)
      step.index = target.nextNested++;
      step.pass = target.name + "/" + snapshot.pass;
      step.target = target.name;
      for (auto &diag : step.diagnostics)
        diag.pass = step.pass;
      target.nested.push_back(std::move(step));
    }
  if (!saveIrAfterEach.empty()) {
    SmallString<256> dir(workspace);
    llvm::sys::path::append(dir, target.name, "ir");
    if (llvm::Error error =
            executor_studio::writeSnapshots(recording, dir, *mode))
      return target.module.emitOpError("cannot save IR to ")
             << dir << ": " << llvm::toString(std::move(error));
  }
  if (!recording.succeeded) {
    // The recorder captured the diagnostics; report them again here.
    InFlightDiagnostic diag = target.module.emitOpError("target @")
                              << target.name << " failed to lower with \""
                              << pipeline << "\"";
    for (const auto &snapshot : recording.snapshots)
      for (const auto &d : snapshot.diagnostics)
        diag.attachNote() << snapshot.pass << ": " << d.file << ":" << d.line
                          << ":" << d.column << ": " << d.message;
    for (const auto &d : recording.diagnostics)
      diag.attachNote() << d.message;
    return failure();
  }
  return success();
}

LogicalResult CrossCompileTargetsPass::addDebugScopes(Target &target,
                                                      ModuleOp clone) {
  // Every op kept its location through the target's pipeline: a scope per
  // function turns them into the object's line table. Relative file names
  // become absolute first, so a debugger or a crash report finds the .mlir
  // file from any directory (only in the object: the host's IR keeps them).
  SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd)) {
    AttrTypeReplacer absolute;
    absolute.addReplacement(
        [&](FileLineColRange loc) -> std::optional<Attribute> {
          StringRef file = loc.getFilename().getValue();
          if (file.empty() || file.starts_with("<") ||
              llvm::sys::path::is_absolute(file))
            return std::nullopt;
          SmallString<256> path(cwd);
          llvm::sys::path::append(path, file);
          llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
          return FileLineColRange::get(
              StringAttr::get(loc.getContext(), path), loc.getStartLine(),
              loc.getStartColumn(), loc.getEndLine(), loc.getEndColumn());
        });
    absolute.recursivelyReplaceElementsIn(clone, /*replaceAttrs=*/false,
                                          /*replaceLocs=*/true,
                                          /*replaceTypes=*/false);
  }
  PassManager pm(clone->getName());
  LLVM::DIScopeForLLVMFuncOpPassOptions options;
  options.emissionKind = target.debug ? LLVM::DIEmissionKind::Full
                                      : LLVM::DIEmissionKind::LineTablesOnly;
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(options));
  if (failed(pm.run(clone)))
    return target.module.emitOpError("target @")
           << target.name << " could not be given debug info";
  return success();
}

LogicalResult CrossCompileTargetsPass::emitObject(Target &target,
                                                  ModuleOp llvmModule,
                                                  StringRef objectPath) {
  // The program registered LLVM's targets at its entry (Targets.h).
  llvm::Triple triple(target.triple);
  std::string error;
  const llvm::Target *backend = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return target.module.emitOpError("has unknown triple \"")
           << target.triple << "\": " << error
           << executor_studio::uninitializedTargetsNote();
  llvm::TargetOptions targetOptions;
  // Code LLVM proved unreachable (after a store to a null pointer, say)
  // traps where it was, inside its kernel, instead of running on past the
  // kernel's end into whatever follows it in the session's memory.
  targetOptions.TrapUnreachable = true;
  targetOptions.NoTrapAfterNoreturn = true;
  std::unique_ptr<llvm::TargetMachine> machine(backend->createTargetMachine(
      triple, "generic", "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      optLevel == 0   ? llvm::CodeGenOptLevel::None
      : optLevel == 1 ? llvm::CodeGenOptLevel::Less
      : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                      : llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return target.module.emitOpError("has triple \"")
           << target.triple << "\" that LLVM cannot generate code for";

  bool nested = target.nestedOptions != nullptr;
  auto printed = [](const llvm::Module &m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    m.print(os, nullptr);
    return text;
  };
  Clock::time_point start = Clock::now();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(llvmModule, llvmContext, target.name);
  if (!module)
    return target.module.emitOpError("target @")
           << target.name
           << " did not translate to LLVM IR; its pipeline must lower it "
              "to the LLVM dialect";
  module->setTargetTriple(triple);
  module->setDataLayout(machine->createDataLayout());
  for (llvm::Function &function : *module) {
    if (function.isDeclaration())
      continue;
    // Unwind tables: a crash report (and a debugger) walks through kernel
    // frames, with or without debug info.
    function.setUWTableKind(llvm::UWTableKind::Async);
    // With debug info, frames a debugger can walk without them too.
    if (target.debug)
      function.addFnAttr("frame-pointer", "all");
  }
  std::string unoptimized;
  if (nested) {
    unoptimized = printed(*module);
    addNested(target, "llvm", executor_studio::SnapshotKind::LLVMIR,
              unoptimized, /*changed=*/true, millisecondsSince(start));
    start = Clock::now();
  }
  auto optimize = makeOptimizingTransformer(optLevel, 0, machine.get());
  if (llvm::Error err = optimize(module.get()))
    return target.module.emitOpError("target @")
           << target.name
           << " failed to optimise: " << llvm::toString(std::move(err));
  if (nested) {
    std::string optimized = printed(*module);
    bool changed = optimized != unoptimized;
    addNested(target, "llvm-opt", executor_studio::SnapshotKind::LLVMIR,
              std::move(optimized), changed, millisecondsSince(start));
    // The assembly the object holds, for the target's triple; code
    // generation changes the module it runs on, so it runs on a copy.
    start = Clock::now();
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*module);
    llvm::SmallString<0> assembly;
    llvm::raw_svector_ostream os(assembly);
    if (llvm::Error err = executor_studio::emitCode(
            *machine, *copy, os, llvm::CodeGenFileType::AssemblyFile))
      return target.module.emitOpError("target @")
             << target.name << ": " << llvm::toString(std::move(err));
    addNested(target, "asm", executor_studio::SnapshotKind::Assembly,
              assembly.str().str(), /*changed=*/true,
              millisecondsSince(start));
  }

  if (!saveIrAfterEach.empty()) {
    // The LLVM IR that becomes the object, optimised, beside it.
    SmallString<256> path(llvm::sys::path::parent_path(objectPath));
    llvm::sys::path::append(path, target.name + ".ll");
    if (failed(writeDump(target.module, path,
                         [&](raw_ostream &os) { module->print(os, nullptr); })))
      return failure();
  }

  std::error_code ec;
  llvm::ToolOutputFile out(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return target.module.emitOpError("cannot write ")
           << objectPath << ": " << ec.message()
           << " (is the workspace writable?)";
  if (llvm::Error err = executor_studio::emitCode(
          *machine, *module, out.os(), llvm::CodeGenFileType::ObjectFile))
    return target.module.emitOpError("target @")
           << target.name << ": " << llvm::toString(std::move(err));
  out.keep();
  return success();
}

LogicalResult CrossCompileTargetsPass::compile(Target &target,
                                               StringRef objectPath) {
  OwningOpRef<ModuleOp> clone(cast<ModuleOp>(target.module->clone()));
  // The clone is a standalone module: drop its name and the host-only
  // attributes, expose the entries and privatize the rest.
  clone->setSymNameAttr(nullptr);
  for (StringRef attr : {attrs::kTarget, attrs::kDispatch, attrs::kObjectFile})
    clone.get()->removeAttr(attr);
  for (auto func : clone->getOps<func::FuncOp>()) {
    bool isEntry = llvm::any_of(target.entries, [&](const EntryPoint &e) {
      return e.name == func.getSymName();
    });
    if (isEntry) {
      func.setPublic();
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(clone->getContext()));
    }
    else if (!func.isExternal())
      func.setPrivate();
  }
  if (!saveIrAfterEach.empty()) {
    // What Catalyst's users look for first: the target as extracted.
    SmallString<256> path(workspace);
    llvm::sys::path::append(path, target.name, "extracted.mlir");
    if (failed(writeDump(target.module, path,
                         [&](raw_ostream &os) { clone->print(os); })))
      return failure();
  }
  // The functions' arguments as written, for their debug variables.
  FunctionArguments arguments;
  if (target.debug)
    arguments = collectFunctionArguments(*clone);
  if (failed(lowerToLLVMDialect(target, *clone)))
    return failure();
  // (addPyfaceWrappers reports what is missing, at the target.)
  if (failed(addPyfaceWrappers(*clone, target.entries)))
    return failure();
  // Only the entries (and their interfaces) leave the object: everything
  // else gets internal linkage, so objects never clash at link time.
  llvm::StringSet<> exported;
  for (const EntryPoint &entry : target.entries) {
    exported.insert(entry.name);
    exported.insert("_mlir_ciface_" + entry.name);
    exported.insert("_catalyst_pyface_" + entry.name);
  }
  for (auto fn : clone->getOps<LLVM::LLVMFuncOp>())
    if (!fn.isExternal() && !exported.contains(fn.getSymName()))
      fn.setLinkage(LLVM::Linkage::Internal);
  // Recorded with locations (print loc): the target's LLVM IR and assembly
  // get a line table too, so that an op's history follows it down to them
  // (ExecutorStudio/Pipeline/OpHistory.h).
  const executor_studio::RecordOptions *nested = target.nestedOptions;
  bool lineTable = nested && nested->printDebugInfo;
  if (target.debug || lineTable) {
    if (failed(addDebugScopes(target, *clone)))
      return failure();
    if (target.debug)
      addArgumentVariables(*clone, arguments, /*inMemory=*/optLevel == 0);
  }
  return emitObject(target, *clone, objectPath);
}

void CrossCompileTargetsPass::reduceToDeclarations(Target &target) {
  Block *body = target.module.getBody();
  OpBuilder b(&getContext());
  b.setInsertionPointToEnd(body);
  SmallVector<Operation *> old;
  for (Operation &op : *body)
    old.push_back(&op);
  for (const EntryPoint &entry : target.entries) {
    auto decl = func::FuncOp::create(b, target.module.getLoc(), entry.name,
                                     entry.type);
    decl.setPrivate();
  }
  for (Operation *op : old)
    op->erase();
}

LogicalResult CrossCompileTargetsPass::linkLocally(Target &target,
                                                   StringRef objectPath) {
  ModuleOp root = getOperation();
  OpBuilder b(&getContext());
  for (const EntryPoint &entry : target.entries) {
    auto [owner, inserted] = localEntries.try_emplace(entry.name, target.name);
    if (!inserted && owner->second != target.name)
      return target.module.emitOpError("local target entry @")
             << entry.name << " is also an entry of local target @"
             << owner->second
             << "; both objects would define it when linked into the host: "
                "rename one of them";
    Operation *existing = root.lookupSymbol(entry.name);
    if (existing) {
      auto func = dyn_cast<func::FuncOp>(existing);
      if (!func || !func.isExternal() || func.getFunctionType() != entry.type)
        return target.module.emitOpError("local target entry @")
               << entry.name
               << " clashes with a host symbol of the same name; rename one "
                  "of them (local objects are linked into the host)";
      continue;
    }
    // Declarations go first in the host, as Catalyst places them.
    b.setInsertionPointToStart(root.getBody());
    auto decl =
        func::FuncOp::create(b, target.module.getLoc(), entry.name, entry.type);
    decl.setPrivate();
  }
  for (LaunchKernelOp launch : target.launches) {
    OpBuilder lb(launch);
    auto call = func::CallOp::create(
        lb, launch.getLoc(), launch.getCallee().getLeafReference(),
        launch.getResultTypes(), launch.getInputs());
    launch->replaceAllUsesWith(call.getResults());
    launch->erase();
  }
  appendObjectFile(root, objectPath);
  // The linker's manifest, one path a line; runOnOperation started it.
  std::error_code ec;
  llvm::raw_fd_ostream os(manifestPath, ec, llvm::sys::fs::OF_Append);
  if (ec)
    return target.module.emitOpError("cannot write ")
           << manifestPath << ": " << ec.message();
  os << objectPath << "\n";
  target.module->erase();
  return success();
}

/// The catalyst.target modules of `root`, each with its name, triple and
/// debug flag; an error for a name that is no file name, a name twice, or
/// a local target for another machine.
LogicalResult
CrossCompileTargetsPass::collectTargets(ModuleOp root,
                                        SmallVectorImpl<Target> &targets) {
  llvm::StringMap<ModuleOp> byName;
  bool failed = false;
  for (auto module : root.getOps<ModuleOp>()) {
    if (!isTarget(module))
      continue;
    Target target{module, getTargetName(module), hasDispatch(module), "",
                  false, {}, {}};
    std::string problem = fileNameProblem(target.name);
    if (!problem.empty()) {
      emitError(module.getLoc(), "catalyst.target module name \"")
          << escaped(target.name) << "\" " << problem
          << ": it names the module's directory and object in the "
             "workspace, so it must be a plain file name; rename the module";
      failed = true;
      continue;
    }
    auto [it, inserted] = byName.try_emplace(target.name, module);
    if (!inserted) {
      InFlightDiagnostic diag =
          module.emitOpError("duplicate catalyst.target module name '")
          << target.name << "': both would compile to " << target.name << "/"
          << target.name << ".o; give each target its own sym_name";
      diag.attachNote(it->second.getLoc()) << "first target @" << target.name
                                           << " is here";
      failed = true;
      continue;
    }
    std::optional<TargetInfo> info = getTarget(module);
    target.triple = info && info->triple ? *info->triple
                                         : llvm::sys::getProcessTriple();
    // The executor's triple, when the driver knows it (--target-of).
    if (target.dispatched && !executorTriple.empty())
      target.triple = executorTriple;
    target.debug = debug || (info && info->debug);
    if (!target.dispatched && !isHostTriple(llvm::Triple(target.triple))) {
      module.emitOpError("is a local target for triple \"")
          << target.triple << "\" but the host is \""
          << llvm::sys::getProcessTriple()
          << "\": only dispatched targets (catalyst.dispatch) may be "
             "cross-compiled for another machine";
      failed = true;
      continue;
    }
    targets.push_back(std::move(target));
  }
  return failure(failed);
}

/// Targets need the `workspace` option.
LogicalResult
CrossCompileTargetsPass::checkWorkspace(ArrayRef<Target> targets) {
  if (!workspace.empty())
    return success();
  // At the first target, not the root: the message is about it, and the
  // diagnostic then does not print the whole program.
  ModuleOp first = targets.front().module;
  InFlightDiagnostic diag =
      emitError(first.getLoc(),
                "Missing `workspace` option for target cross-compilation: ")
      << "target @" << targets.front().name
      << " needs a directory for its object; pass "
         "cross-compile-targets{workspace=DIR}";
  if (targets.size() > 1)
    diag.attachNote() << targets.size() - 1
                      << " more catalyst.target module(s) need it too";
  return failure();
}

/// Each target's entry points (the functions the host's launch_kernels
/// name) and launches; an error for a launch of a function the target
/// does not define.
LogicalResult
CrossCompileTargetsPass::collectEntryPoints(ModuleOp root,
                                            MutableArrayRef<Target> targets) {
  bool failed = false;
  root.walk([&](LaunchKernelOp launch) {
    for (Target &target : targets) {
      if (launch.getCallee().getRootReference().getValue() != target.name ||
          target.module->isProperAncestor(launch))
        continue;
      target.launches.push_back(launch);
      StringRef entry = launch.getCallee().getLeafReference().getValue();
      if (llvm::any_of(target.entries,
                       [&](const EntryPoint &e) { return e.name == entry; }))
        continue;
      auto func = target.module.lookupSymbol<func::FuncOp>(entry);
      if (!func) {
        launch.emitOpError("names @")
            << entry << ", which target @" << target.name << " does not define";
        failed = true;
        continue;
      }
      target.entries.push_back({entry.str(), func.getFunctionType()});
    }
  });
  return failure(failed);
}

/// Each run writes the linker manifest anew, {workspace}/{root}.objects,
/// when a target is linked locally.
LogicalResult CrossCompileTargetsPass::startManifest(ModuleOp root,
                                                     ArrayRef<Target> targets) {
  localEntries.clear();
  std::string rootName =
      root.getSymName() ? root.getSymName()->str() : std::string("module");
  if (std::string problem = fileNameProblem(rootName); !problem.empty()) {
    return emitError(root.getLoc(), "module name \"")
           << escaped(rootName) << "\" " << problem
           << ": it names the linker manifest " << "NAME.objects"
           << " in the workspace, so it must be a plain file name; rename the "
              "module";
  }
  SmallString<256> manifest(workspace);
  llvm::sys::path::append(manifest, rootName + ".objects");
  manifestPath = manifest.str().str();
  if (llvm::none_of(targets, [](const Target &t) { return !t.dispatched; }))
    return success();
  if (std::error_code ec = llvm::sys::fs::create_directories(workspace))
    return root.emitOpError("cannot create workspace ")
           << workspace << ": " << ec.message()
           << " (is the workspace writable?)";
  std::error_code ec;
  llvm::raw_fd_ostream os(manifestPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return root.emitOpError("cannot write ")
           << manifestPath << ": " << ec.message()
           << " (is the workspace writable?)";
  return success();
}

/// The object path of `target` (its directory created) and the text and
/// cache key its compilation in a context of its own needs.
LogicalResult CrossCompileTargetsPass::prepareJob(Target &target,
                                                  StringRef absoluteWorkspace,
                                                  TargetJob &job) {
  job.objectPath =
      catalyst::getTargetObjectPath(absoluteWorkspace, target.name);
  StringRef dir = llvm::sys::path::parent_path(job.objectPath);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return target.module.emitOpError("cannot create ")
           << dir << ": " << ec.message() << " (is the workspace writable?)";
  for (const EntryPoint &entry : target.entries)
    job.entries.push_back(entry.name);
  // A detached copy prints as a whole program (its location aliases and
  // resources with it), in time proportional to the target alone.
  OwningOpRef<Operation *> copy(target.module->clone());
  llvm::raw_string_ostream os(job.text);
  copy.get()->print(os, OpPrintingFlags().enableDebugInfo(
                            /*enable=*/true, /*prettyForm=*/false));
  // With save-ir-after-each the files must be written: no cache.
  if (cache && saveIrAfterEach.empty()) {
    SmallString<256> cwd;
    (void)llvm::sys::fs::current_path(cwd);
    bool lineTable =
        target.nestedOptions && target.nestedOptions->printDebugInfo;
    if (target.debug || lineTable) {
      job.cacheKey = targetCacheKey(job.text, target, job.entries, optLevel,
                                    lineTable, cwd);
    } else {
      // Without debug info or recorded locations, nothing a target compiles
      // to depends on its locations (a result with diagnostics is not
      // kept): the key leaves them out, so that lines inserted above a
      // kernel do not compile it again.
      std::string withoutLocations;
      llvm::raw_string_ostream plain(withoutLocations);
      copy.get()->print(plain);
      job.cacheKey = targetCacheKey(withoutLocations, target, job.entries,
                                    optLevel, lineTable, cwd);
    }
  }
  return success();
}

/// Compiles the target of `job` in `context`, an MLIRContext apart from the
/// host's that one thread uses for its targets (made here at the first;
/// nothing here touches the host's IR or context), or takes its object and
/// steps from the cache.
std::shared_ptr<const TargetResult>
CrossCompileTargetsPass::compileApart(const Target &hostTarget,
                                      const TargetJob &job,
                                      std::unique_ptr<MLIRContext> &context) {
  if (!job.cacheKey.empty())
    if (std::shared_ptr<const TargetResult> cached =
            TargetCache::get().lookup(job.cacheKey)) {
      // An object already there with the same bytes (the same workspace
      // previewed again) stays: rewriting it truncates it, and the file
      // system flushes a truncated file on close, for every target.
      if (sameFileContents(job.objectPath, *cached->object))
        return cached;
      std::error_code ec;
      llvm::raw_fd_ostream os(job.objectPath, ec, llvm::sys::fs::OF_None);
      if (!ec) {
        os << *cached->object;
        os.close();
        if (!os.has_error())
          return cached;
        os.clear_error();
      }
      // (Not written: compiled again, which reports why.)
    }
  auto result = std::make_shared<TargetResult>();
  {
    if (!context) {
      context = std::make_unique<MLIRContext>(*targetRegistry,
                                              MLIRContext::Threading::DISABLED);
      context->allowUnregisteredDialects(allowUnregistered);
      context->printOpOnDiagnostic(printOpOnDiagnostic);
      context->printStackTraceOnDiagnostic(printStackTraceOnDiagnostic);
      // The dialects the host's context has (this pass's dependent ones
      // among them), as a target compiled in it found them.
      for (const std::string &name : loadedDialects)
        context->getOrLoadDialect(name);
    }
    MLIRContext &ctx = *context;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      result->diagnostics.push_back(toPlain(diag));
      return success();
    });
    ParserConfig config(&ctx, /*verifyAfterParse=*/false);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(job.text, config, hostTarget.name);
    if (module) {
      Target target{*module, hostTarget.name, hostTarget.dispatched,
                    hostTarget.triple, hostTarget.debug, {}, {}};
      target.nestedOptions = hostTarget.nestedOptions;
      bool found = true;
      for (const std::string &name : job.entries) {
        auto func = module->lookupSymbol<func::FuncOp>(name);
        if (!func) {
          found = false;
          break;
        }
        target.entries.push_back({name, func.getFunctionType()});
      }
      result->succeeded =
          found && mlir::succeeded(compile(target, job.objectPath));
      result->nested = std::move(target.nested);
    }
  }
  // Diagnostics name lines: a result with some (warnings, remarks, in the
  // pass or in a recorded step) is not kept.
  bool quiet = result->diagnostics.empty() &&
               llvm::all_of(result->nested, [](const executor_studio::Snapshot &s) {
                 return s.diagnostics.empty();
               });
  if (result->succeeded && quiet && !job.cacheKey.empty()) {
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> object =
            llvm::MemoryBuffer::getFile(job.objectPath, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/false)) {
      result->object =
          std::make_shared<const std::string>((*object)->getBuffer().str());
      TargetCache::get().insert(job.cacheKey, result);
    }
  }
  return result;
}

/// A dispatched target keeps declarations and the object's path, a local
/// one is linked.
LogicalResult CrossCompileTargetsPass::place(Target &target,
                                             const TargetJob &job) {
  if (!target.dispatched)
    return linkLocally(target, job.objectPath);
  setObjectFile(target.module, job.objectPath);
  reduceToDeclarations(target);
  return success();
}

/// How many threads compile `targets` targets: one without threads (the
/// context's, or --mlir-disable-threading), else the `jobs` option or the
/// thread pool's size, at most one per target.
unsigned CrossCompileTargetsPass::threadsToUse(size_t targets) {
  if (targets <= 1 || jobs == 1)
    return 1;
  unsigned available;
  if (getContext().isMultithreadingEnabled())
    available = getContext().getThreadPool().getMaxConcurrency();
  else if (executor_studio::recordingAllowsThreads())
    available = sharedTargetPool().getMaxConcurrency();
  else
    return 1;
  unsigned wanted = jobs ? static_cast<unsigned>(jobs) : available;
  return static_cast<unsigned>(
      std::min<size_t>(std::max(1u, wanted), targets));
}

void CrossCompileTargetsPass::runOnOperation() {
  ModuleOp root = getOperation();
  if (optLevel > 3) {
    emitError(root.getLoc(), "cross-compile-targets opt-level=")
        << optLevel.getValue() << " is not an optimisation level; give 0, 1, 2 or 3";
    return signalPassFailure();
  }
  SmallVector<Target> targets;
  if (mlir::failed(collectTargets(root, targets)))
    return signalPassFailure();
  if (targets.empty())
    return;
  if (mlir::failed(checkWorkspace(targets)) ||
      mlir::failed(collectEntryPoints(root, targets)) ||
      mlir::failed(startManifest(root, targets)))
    return signalPassFailure();
  SmallString<256> absoluteWorkspace(workspace);
  llvm::sys::fs::make_absolute(absoluteWorkspace);

  // Each target compiles in an MLIRContext and an LLVMContext of its own,
  // from its text: independent targets compile on several threads, and
  // their diagnostics and recorded steps reach the host in the targets'
  // order, whatever the order they finish in.
  const executor_studio::RecordOptions *nestedOptions =
      executor_studio::nestedRecordingOptions();
  std::vector<TargetJob> jobList(targets.size());
  for (auto [target, job] : llvm::zip(targets, jobList)) {
    target.nestedOptions = nestedOptions;
    if (mlir::failed(prepareJob(target, absoluteWorkspace, job)))
      return signalPassFailure();
  }
  DialectRegistry registry;
  getContext().getDialectRegistry().appendTo(registry);
  targetRegistry = &registry;
  allowUnregistered = getContext().allowsUnregisteredDialects();
  loadedDialects.clear();
  for (Dialect *dialect : getContext().getLoadedDialects())
    loadedDialects.push_back(dialect->getNamespace().str());
  printOpOnDiagnostic = getContext().shouldPrintOpOnDiagnostic();
  printStackTraceOnDiagnostic = getContext().shouldPrintStackTraceOnDiagnostic();

  // One context per thread, for all the targets it compiles (what a target
  // compiles to does not depend on what its context saw before).
  auto work = [&](size_t i, std::unique_ptr<MLIRContext> &context) {
    jobList[i].result = compileApart(targets[i], jobList[i], context);
  };
  unsigned threads = threadsToUse(targets.size());
  if (threads <= 1) {
    std::unique_ptr<MLIRContext> context;
    for (size_t i = 0; i < targets.size(); ++i)
      work(i, context);
  } else {
    llvm::ThreadPoolInterface &pool = getContext().isMultithreadingEnabled()
                                          ? getContext().getThreadPool()
                                          : sharedTargetPool();
    std::atomic<size_t> next{0};
    auto drain = [&] {
      std::unique_ptr<MLIRContext> context;
      for (size_t i; (i = next.fetch_add(1)) < targets.size();)
        work(i, context);
    };
    llvm::ThreadPoolTaskGroup group(pool);
    for (unsigned t = 1; t < threads; ++t)
      group.async(drain);
    drain();
    group.wait();
  }
  targetRegistry = nullptr;

  for (auto [target, job] : llvm::zip(targets, jobList)) {
    const TargetResult &result = *job.result;
    for (const PlainDiagnostic &diag : result.diagnostics)
      emitPlain(diag, &getContext());
    for (const executor_studio::Snapshot &step : result.nested)
      executor_studio::addNestedSnapshot(step); // (the texts are shared)
    if (!result.succeeded || mlir::failed(place(target, job)))
      return signalPassFailure();
  }
}

catalyst::TargetCacheStatistics catalyst::getTargetCacheStatistics() {
  return TargetCache::get().statistics();
}

void catalyst::setTargetCacheLimit(size_t bytes) {
  TargetCache::get().setLimit(bytes);
}

void catalyst::setTargetDiskCacheDirectory(llvm::StringRef dir) {
  TargetCache::get().setDiskDirectory(dir.str());
}
