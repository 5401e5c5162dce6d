//===- PipelineRecorder.cpp - the IR after every pass -----------*- C++ -*-===//
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Pipeline/PassOptionHelp.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <unordered_map>

using namespace mlir;
using namespace executor_studio;

namespace {
using Clock = std::chrono::steady_clock;

/// Whether the IR changed between two points, as OperationFingerPrint tells
/// (the same mutable bits of every op: its pointer, parent, attributes,
/// properties, blocks and their arguments, location, operands, successors
/// and result types), mixed as boost's hash_combine does instead of SHA-1
/// or llvm::hash_combine: the recorder takes one after every pass, and
/// SHA-1 over a 10,000-op module cost a quarter of the pipeline's time,
/// llvm::hash_combine still a tenth.
class IRFingerPrint {
public:
  /// The fingerprint of `top`; with `children`, also one per op of its
  /// body (a module's functions and globals), in order.
  explicit IRFingerPrint(Operation *top,
                         std::vector<std::pair<Operation *, uint64_t>> *children = nullptr) {
    // The top op itself, then each op of its body on its own (the same
    // value with or without `children`).
    addOp(top, top, value);
    for (Region &region : top->getRegions())
      for (Block &block : region)
        for (Operation &child : block) {
          uint64_t hash = 0;
          child.walk([&](Operation *op) { addOp(op, top, hash); });
          if (children)
            children->emplace_back(&child, hash);
          mix(value, hash);
        }
  }
  bool operator!=(const IRFingerPrint &other) const {
    return value != other.value;
  }

private:
  static void mix(uint64_t &h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  static void mix(uint64_t &h, const void *pointer) {
    mix(h, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)));
  }
  /// The mutable bits of `op`, not those of the ops in its regions.
  static void addOp(Operation *op, Operation *top, uint64_t &h) {
    mix(h, op);
    mix(h, op == top ? nullptr : op->getParentOp());
    mix(h, op->getRawDictionaryAttrs().getAsOpaquePointer());
    mix(h, static_cast<uint64_t>(op->hashProperties()));
    mix(h, op->getLoc().getAsOpaquePointer());
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        mix(h, &block);
        for (BlockArgument arg : block.getArguments()) {
          mix(h, arg.getAsOpaquePointer());
          mix(h, arg.getType().getAsOpaquePointer());
        }
      }
    for (Value operand : op->getOperands())
      mix(h, operand.getAsOpaquePointer());
    for (Block *successor : op->getSuccessors())
      mix(h, successor);
    for (Type type : op->getResultTypes())
      mix(h, type.getAsOpaquePointer());
  }

  uint64_t value = 0;
};

/// Destroys the copies of the IR that snapshots no longer need on a thread
/// of its own, so that dropping a recording (a front end drops the last one
/// when the next arrives) or printing a deferred text, which drops its copy,
/// does not wait for a free() per op: destroying the copies is about a
/// third of what recording the IR costs. A copy is a detached op: destroying
/// it touches its own ops and the allocator, nothing that a thread still
/// using the context shares (the context never frees attributes or types).
/// Each queued copy keeps the owner of its context alive until it is gone.
class CopyReaper {
public:
  static CopyReaper &get() {
    static CopyReaper reaper;
    return reaper;
  }

  void destroy(Operation *op, std::shared_ptr<void> owner) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!stopping) {
        if (!thread)
          // Destroying recurses once per nesting level, as parsing does.
          thread.emplace(std::optional<unsigned>(kParserStackBytes),
                         [this] { run(); });
        queue.push_back({op, std::move(owner)});
        wake.notify_one();
        return;
      }
    }
    op->destroy(); // at exit: here, before `owner` lets the context go
  }

  void waitUntilIdle() {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [&] { return queue.empty() && !busy; });
  }

  ~CopyReaper() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
      wake.notify_one();
    }
    if (thread)
      thread->join(); // after the queue is empty
  }

private:
  struct Dropped {
    Operation *op;
    std::shared_ptr<void> owner;
  };

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty())
        return; // stopping, and all is destroyed
      std::vector<Dropped> batch = std::move(queue);
      queue.clear();
      busy = true;
      lock.unlock();
      for (Dropped &dropped : batch) {
        dropped.op->destroy();
        dropped.owner.reset(); // may destroy the context: after its ops
      }
      batch.clear();
      lock.lock();
      busy = false;
      if (queue.empty())
        idle.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, idle;
  std::vector<Dropped> queue;
  bool busy = false, stopping = false;
  std::optional<llvm::thread> thread;
};

/// A copy of the IR (a whole root, one op of its body, or a root without
/// its body), destroyed by the CopyReaper when the last snapshot that
/// needs it is gone.
struct IRCopy {
  std::shared_ptr<void> owner;
  Operation *op = nullptr;
  IRCopy() = default;
  IRCopy(const IRCopy &) = delete;
  IRCopy &operator=(const IRCopy &) = delete;
  ~IRCopy() {
    if (op)
      CopyReaper::get().destroy(op, std::move(owner));
  }
};

/// A copy of one op of the root's body, shared by the snapshots in which
/// it did not change.
using OpCopy = IRCopy;

/// The ops of the root's body by fingerprint, as the last snapshot copied
/// them.
using SharedCopies = std::unordered_map<uint64_t, std::shared_ptr<OpCopy>>;

/// Whether the root's body can be copied op by op: one block without
/// arguments, whose ops neither define nor use values (functions, globals,
/// modules), so that each is a whole of its own.
bool copiesOpByOp(Operation *root) {
  if (root->getNumRegions() != 1 || !root->getRegion(0).hasOneBlock())
    return false;
  Block &body = root->getRegion(0).front();
  if (body.getNumArguments() != 0)
    return false;
  for (Operation &op : body)
    if (op.getNumOperands() != 0 || op.getNumResults() != 0)
      return false;
  return true;
}

} // namespace

const char *executor_studio::snapshotKindName(SnapshotKind kind) {
  switch (kind) {
  case SnapshotKind::MLIR:
    return "mlir";
  case SnapshotKind::LLVMIR:
    return "llvm";
  case SnapshotKind::Assembly:
    return "asm";
  }
  return "mlir";
}

//===----------------------------------------------------------------------===//
// IRText
//===----------------------------------------------------------------------===//

struct IRText::State {
  std::once_flag once;
  std::function<std::string()> make;
  std::shared_ptr<const std::string> text;
  std::atomic<bool> made{false};
  /// lines(), once counted.
  std::atomic<size_t> lines{kNotCounted};
  /// size(), when it was known before the text was made.
  size_t knownSize = kNotCounted;
  static constexpr size_t kNotCounted = ~size_t(0);
};

IRText::IRText(std::shared_ptr<const std::string> text) {
  if (!text)
    return;
  state = std::make_shared<State>();
  state->text = std::move(text);
  state->made = true;
}

IRText IRText::deferred(std::function<std::string()> make) {
  IRText result;
  result.state = std::make_shared<State>();
  result.state->make = std::move(make);
  return result;
}

IRText IRText::deferred(std::function<std::string()> make, size_t size,
                        size_t lines) {
  IRText result = deferred(std::move(make));
  result.state->knownSize = size;
  result.state->lines = lines;
  return result;
}

size_t IRText::size() const {
  if (!state)
    return 0;
  return state->knownSize != State::kNotCounted ? state->knownSize : get()->size();
}

const std::string *IRText::get() const {
  if (!state)
    return nullptr;
  if (!state->made.load(std::memory_order_acquire))
    std::call_once(state->once, [&] {
      state->text = std::make_shared<const std::string>(state->make());
      state->make = nullptr; // the copy of the IR is not needed any more
      state->made.store(true, std::memory_order_release);
    });
  return state->text.get();
}

IRText::operator std::shared_ptr<const std::string>() const {
  get();
  return state ? state->text : nullptr;
}

size_t IRText::lines() const {
  if (!state)
    return 0;
  size_t count = state->lines.load(std::memory_order_relaxed);
  if (count == State::kNotCounted) {
    // (Two threads may both count: the same number.)
    count = llvm::StringRef(*get()).count('\n');
    state->lines.store(count, std::memory_order_relaxed);
  }
  return count;
}

bool IRText::isMade() const {
  return state && state->made.load(std::memory_order_acquire);
}

bool IRText::sameAs(const IRText &other) const {
  return state == other.state ||
         (isMade() && other.isMade() && get() == other.get());
}

RecordedDiagnostic executor_studio::convertDiagnostic(Diagnostic &diag) {
  RecordedDiagnostic out;
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Error:
    out.severity = RecordedDiagnostic::Severity::Error;
    break;
  case DiagnosticSeverity::Warning:
    out.severity = RecordedDiagnostic::Severity::Warning;
    break;
  case DiagnosticSeverity::Remark:
    out.severity = RecordedDiagnostic::Severity::Remark;
    break;
  case DiagnosticSeverity::Note:
    out.severity = RecordedDiagnostic::Severity::Note;
    break;
  }
  out.message = diag.str();
  if (auto loc = diag.getLocation()->findInstanceOf<FileLineColLoc>()) {
    out.file = loc.getFilename().str();
    out.line = loc.getLine();
    out.column = loc.getColumn();
  }
  for (Diagnostic &note : diag.getNotes())
    out.notes.push_back(convertDiagnostic(note));
  return out;
}

namespace {
std::string printIR(Operation *op, const RecordOptions &options,
                    bool verified = true) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  // The pass manager verified the IR after the pass already; printing must
  // not verify it again (that is most of the cost of printing).
  // After a failed pass the IR may be invalid: then the printer checks it
  // and falls back to the generic form.
  if (verified)
    flags.assumeVerified();
  if (options.printGenericForm)
    flags.printGenericOpForm();
  if (options.printDebugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  op->print(os, flags);
  return text;
}

/// The text of `op` now, or (RecordOptions::deferText) a copy of it printed
/// when the text is first asked for. `owner` keeps the context alive.
/// The maps a recording clones its copies with, one per symbol (and one
/// for ops without): cloning a function of 10,000 ops grows its maps to
/// hundreds of kilobytes, which a new map would allocate, and the system
/// hand out as fresh zeroed pages, again for every copy; the next copy of
/// the same function reuses them (IRMapping::clear keeps the buckets of a
/// map about as full as before).
class CloneMappings {
public:
  Operation *copyOf(Operation *op) {
    StringRef symbol;
    if (auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      symbol = name.getValue();
    IRMapping &mapping = mappings[symbol];
    mapping.clear();
    return op->clone(mapping);
  }

private:
  llvm::StringMap<IRMapping> mappings;
};

Operation *copyOf(Operation *op, CloneMappings *mappings) {
  return mappings ? mappings->copyOf(op) : op->clone();
}

IRText snapshotText(Operation *op, const RecordOptions &options, bool verified,
                    const std::shared_ptr<void> &owner,
                    CloneMappings *mappings = nullptr) {
  if (!options.deferText)
    return IRText(
        std::make_shared<const std::string>(printIR(op, options, verified)));
  auto copy = std::make_shared<IRCopy>();
  copy->owner = owner;
  copy->op = copyOf(op, mappings);
  RecordOptions printing;
  printing.printGenericForm = options.printGenericForm;
  printing.printDebugInfo = options.printDebugInfo;
  return IRText::deferred([copy, printing, verified] {
    return printIR(copy->op, printing, verified);
  });
}

/// snapshotText, deferred, for a root whose body copiesOpByOp: each op of
/// the body is copied only when its fingerprint is not among `previous`'s
/// (the last snapshot's copies), else that copy is shared; the text puts
/// them back into a copy of the root when it is asked for. A pipeline
/// step changes a few functions of a large module: it copies those.
/// `current` receives this snapshot's copies.
IRText sharedSnapshotText(Operation *root,
                          const std::vector<std::pair<Operation *, uint64_t>> &children,
                          const RecordOptions &options, const std::shared_ptr<void> &owner,
                          const SharedCopies &previous, SharedCopies &current,
                          CloneMappings &mappings) {
  struct Copy {
    IRCopy skeleton; // the root with an empty body
    std::vector<std::shared_ptr<OpCopy>> ops;
  };
  auto copy = std::make_shared<Copy>();
  copy->skeleton.owner = owner;
  copy->skeleton.op =
      root->clone(Operation::CloneOptions::all().cloneRegions(false));
  current.clear();
  for (auto [op, fingerprint] : children) {
    std::shared_ptr<OpCopy> &shared = current[fingerprint];
    if (!shared) {
      auto found = previous.find(fingerprint);
      if (found != previous.end()) {
        shared = found->second;
      } else {
        shared = std::make_shared<OpCopy>();
        shared->owner = owner;
        shared->op = mappings.copyOf(op);
      }
    }
    copy->ops.push_back(shared);
  }
  RecordOptions printing;
  printing.printGenericForm = options.printGenericForm;
  printing.printDebugInfo = options.printDebugInfo;
  return IRText::deferred([copy, printing] {
    // The root again, its body cloned from the shared copies.
    Operation *whole = copy->skeleton.op->clone(
        Operation::CloneOptions::all().cloneRegions(false));
    Block *body = new Block();
    whole->getRegion(0).push_back(body);
    for (const std::shared_ptr<OpCopy> &op : copy->ops)
      body->push_back(op->op->clone());
    std::string text = printIR(whole, printing, /*verified=*/true);
    CopyReaper::get().destroy(whole, copy->skeleton.owner);
    return text;
  });
}

/// Whether `pass` is the adaptor that runs a nested pipeline.
bool isAdaptor(Pass *pass) {
  return pass->getArgument().empty() &&
         pass->getName().ends_with("OpToOpPassAdaptor");
}

std::string describeAnchor(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
    text += " @" + name.getValue().str();
  return text;
}

class Recorder : public PassInstrumentation {
public:
  Recorder(Recording &recording, Operation *root, const RecordOptions &options,
           std::shared_ptr<void> contextOwner, size_t lastStepKept)
      : recording(recording), root(root), options(options),
        contextOwner(std::move(contextOwner)), lastStepKept(lastStepKept),
        last(recording.inputIR), lastFingerprint(root) {}

  /// The snapshot of the top-level step running now (for nested ones).
  Snapshot *currentTopLevel() {
    std::lock_guard<std::mutex> lock(mutex);
    return current();
  }
  const RecordOptions &getOptions() const { return options; }

  /// One snapshot per step of the pipeline as written: a pass on the root,
  /// or a nested pipeline (`func.func(convert-linalg-to-loops)`) after it
  /// has run on every op it anchors on. (One per nested op would print the
  /// whole IR once per function.) The passes inside a nested pipeline add
  /// their diagnostics to its snapshot.
  void runBeforePass(Pass *pass, Operation *op) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (!running.empty()) {
      // Inside a nested pipeline: name the step after what runs in it.
      if (running.size() == 1 && !isAdaptor(pass)) {
        std::string argument = pass->getArgument().empty()
                                   ? pass->getName().str()
                                   : pass->getArgument().str();
        if (nestedAnchor.empty())
          nestedAnchor = op->getName().getStringRef().str();
        if (!llvm::is_contained(nestedPasses, argument))
          nestedPasses.push_back(argument);
      }
      running.push_back({kNotRecorded, Clock::now()});
      return;
    }
    nestedAnchor.clear();
    nestedPasses.clear();
    Snapshot snapshot;
    snapshot.index = recording.snapshots.size();
    llvm::raw_string_ostream os(snapshot.options);
    pass->printAsTextualPipeline(os);
    if (isAdaptor(pass))
      snapshot.pass = snapshot.options;
    else
      snapshot.pass = pass->getArgument().empty() ? pass->getName().str()
                                                  : pass->getArgument().str();
    snapshot.anchor = describeAnchor(op);
    recording.snapshots.push_back(std::move(snapshot));
    running.push_back({recording.snapshots.size() - 1, Clock::now()});
  }

  void runAfterPass(Pass *pass, Operation *op) override { finish(false); }
  void runAfterPassFailed(Pass *pass, Operation *op) override {
    finish(true);
  }

  /// The snapshot of the pipeline step that is running, if any.
  Snapshot *current() {
    if (running.empty())
      return nullptr;
    return &recording.snapshots[running.front().first];
  }

  std::mutex mutex;

private:
  static constexpr size_t kNotRecorded = ~size_t(0);
  /// What ran inside the nested pipeline being recorded.
  std::string nestedAnchor;
  std::vector<std::string> nestedPasses;

  void finish(bool failed) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [index, start] = running.back();
    running.pop_back();
    if (index == kNotRecorded)
      return; // a pass inside a nested pipeline
    Snapshot &snapshot = recording.snapshots[index];
    if (!nestedAnchor.empty()) // `func.func(cse,canonicalize)`
      snapshot.pass =
          nestedAnchor + "(" + llvm::join(nestedPasses, ",") + ")";
    snapshot.milliseconds =
        std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    snapshot.failed = failed;
    // With deferred texts, the body's ops are fingerprinted one by one, so
    // that a changed step copies only those that changed.
    bool opByOp = options.recordIR && options.deferText && !failed &&
                  index != lastStepKept && copiesOpByOp(root);
    std::vector<std::pair<Operation *, uint64_t>> children;
    IRFingerPrint after(root, opByOp ? &children : nullptr);
    snapshot.changed = failed || after != lastFingerprint;
    lastFingerprint = after;
    if (!options.recordIR)
      return;
    if ((snapshot.changed || !last) && !failed && index == lastStepKept &&
        options.deferText) {
      // The last step: the op stays as it is now, kept alive by the owner;
      // print it when asked instead of copying it.
      RecordOptions printing;
      printing.printGenericForm = options.printGenericForm;
      printing.printDebugInfo = options.printDebugInfo;
      last = IRText::deferred([owner = contextOwner, op = root, printing] {
        return printIR(op, printing, /*verified=*/true);
      });
    } else if ((snapshot.changed || !last) && opByOp) {
      SharedCopies current;
      last = sharedSnapshotText(root, children, options, contextOwner,
                                lastCopies, current, cloneMappings);
      lastCopies = std::move(current);
    } else if (snapshot.changed || !last) {
      last = snapshotText(root, options, /*verified=*/!failed, contextOwner,
                          &cloneMappings);
      lastCopies.clear();
    }
    snapshot.ir = last;
  }

  Recording &recording;
  Operation *root;
  const RecordOptions &options;
  std::shared_ptr<void> contextOwner;
  /// The step whose text is printed from the op itself (ParsedInput::opIsKept);
  /// none: ~0.
  size_t lastStepKept;
  IRText last;
  IRFingerPrint lastFingerprint;
  /// The body's ops as the last shared snapshot copied them.
  SharedCopies lastCopies;
  /// The maps this recording's copies are cloned with.
  CloneMappings cloneMappings;
  std::vector<std::pair<size_t, Clock::time_point>> running;
};

/// The recordPipeline on this thread whose passes may add nested steps.
thread_local Recorder *nestingRecorder = nullptr;
/// Whether the context of the recordPipeline running on this thread was
/// multithreaded before the recording made it run on one thread.
thread_local bool recordingContextWasMultithreaded = false;

/// Sets recordingContextWasMultithreaded for one recordPipeline.
class ThreadingScope {
public:
  explicit ThreadingScope(bool multithreaded)
      : saved(recordingContextWasMultithreaded) {
    recordingContextWasMultithreaded = multithreaded;
  }
  ~ThreadingScope() { recordingContextWasMultithreaded = saved; }

private:
  bool saved;
};

/// Sets nestingRecorder for one recordPipeline, and back afterwards (a pass
/// may record a pipeline of its own: that one nests nothing).
class NestingScope {
public:
  explicit NestingScope(Recorder *recorder) : saved(nestingRecorder) {
    nestingRecorder = recorder;
  }
  ~NestingScope() { nestingRecorder = saved; }

private:
  Recorder *saved;
};

} // namespace

void executor_studio::waitForDroppedCopies() {
  CopyReaper::get().waitUntilIdle();
}

bool executor_studio::recordingAllowsThreads() {
  return recordingContextWasMultithreaded;
}

const RecordOptions *executor_studio::nestedRecordingOptions() {
  return nestingRecorder ? &nestingRecorder->getOptions() : nullptr;
}

void executor_studio::addNestedSnapshot(Snapshot snapshot) {
  if (!nestingRecorder)
    return;
  if (Snapshot *step = nestingRecorder->currentTopLevel())
    step->nested.push_back(std::move(snapshot));
}

const Snapshot *executor_studio::findSnapshot(const Recording &recording,
                                              StringRef name) {
  unsigned number = 0;
  if (!name.getAsInteger(10, number)) {
    for (const Snapshot &s : recording.snapshots)
      if (s.index + 1 == number)
        return &s;
    return nullptr;
  }
  for (const Snapshot &s : recording.snapshots)
    if (s.pass == name)
      return &s;
  for (const Snapshot &s : recording.snapshots) {
    StringRef rest = name;
    bool qualified = rest.consume_front(s.pass) && rest.consume_front("/");
    for (const Snapshot &n : s.nested)
      if (n.pass == name || (qualified && n.pass == rest))
        return &n;
  }
  return nullptr;
}

bool executor_studio::parsePipelineInto(StringRef text, OpPassManager &pm,
                                        raw_ostream &errors) {
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  auto fail = [&] {
    // MLIR says "no such option X"; say which pass and what it takes.
    std::string explained = explainPipelineOptions(text);
    errors << (explained.empty() ? StringRef(parseErrors).trim()
                                 : StringRef(explained));
    return false;
  };
  StringRef trimmed = text.trim();
  size_t paren = trimmed.find('(');
  bool anchored =
      paren != StringRef::npos && trimmed.ends_with(")") &&
      llvm::all_of(trimmed.take_front(paren), [](char c) {
        return llvm::isAlnum(c) || c == '.' || c == '_';
      }) &&
      trimmed.take_front(paren).contains('.');
  if (!anchored)
    return succeeded(parsePassPipeline(trimmed, pm, parseStream)) || fail();
  FailureOr<OpPassManager> parsed = parsePassPipeline(trimmed, parseStream);
  if (failed(parsed))
    return fail();
  if (parsed->getOpAnchorName() != pm.getOpAnchorName()) {
    errors << "pipeline is anchored on '" << parsed->getOpAnchorName()
           << "' but runs on '" << pm.getOpAnchorName() << "'";
    return false;
  }
  pm = std::move(*parsed);
  return true;
}

Recording executor_studio::recordPipeline(Operation *op,
                                          const RecordOptions &options,
                                          std::shared_ptr<void> contextOwner) {
  return recordPipeline(op, options, std::move(contextOwner), ParsedInput());
}

Recording executor_studio::recordPipeline(Operation *op,
                                          const RecordOptions &options,
                                          std::shared_ptr<void> contextOwner,
                                          const ParsedInput &parsed) {
  // Deferred texts print copies later, which needs the context then.
  if (options.deferText && !contextOwner) {
    RecordOptions now = options;
    now.deferText = false;
    return recordPipeline(op, now, nullptr);
  }
  Recording recording;
  MLIRContext *ctx = op->getContext();
  bool wasMultithreaded = ctx->isMultithreadingEnabled();
  // Printing the whole IR between passes needs one thread.
  if (wasMultithreaded)
    ctx->disableMultithreading();
  auto start = Clock::now();
  if (options.recordIR && options.deferText && parsed.printReparsed) {
    // Parsed again when asked for: no copy before the first pass.
    RecordOptions printing;
    printing.printGenericForm = options.printGenericForm;
    printing.printDebugInfo = options.printDebugInfo;
    recording.inputIR =
        IRText::deferred([reparse = parsed.printReparsed, printing] {
          return reparse([&](Operation *input) {
            return printIR(input, printing, /*verified=*/true);
          });
        });
  } else if (options.recordIR) {
    recording.inputIR = snapshotText(op, options, /*verified=*/true, contextOwner);
  }

  PassManager pm(ctx, op->getName().getStringRef());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!parsePipelineInto(options.pipeline, pm, errorStream)) {
    RecordedDiagnostic diag;
    diag.message = "invalid pipeline \"" + options.pipeline + "\": " + errors;
    recording.diagnostics.push_back(std::move(diag));
    if (wasMultithreaded)
      ctx->enableMultithreading();
    return recording;
  }
  size_t lastStepKept = parsed.opIsKept && pm.size() ? pm.size() - 1 : ~size_t(0);
  auto recorder =
      std::make_unique<Recorder>(recording, op, options, contextOwner, lastStepKept);
  Recorder *rec = recorder.get();
  pm.addInstrumentation(std::move(recorder));
  LogicalResult result = success();
  {
    NestingScope nesting(options.recordNested && options.recordIR ? rec
                                                                   : nullptr);
    ThreadingScope threading(wasMultithreaded);
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      RecordedDiagnostic recorded = convertDiagnostic(diag);
      if (Snapshot *snapshot = rec->current()) {
        recorded.pass = snapshot->pass;
        snapshot->diagnostics.push_back(std::move(recorded));
      } else {
        recording.diagnostics.push_back(std::move(recorded));
      }
      return success();
    });
    result = pm.run(op);
  }
  recording.succeeded = succeeded(result);
  if (recording.succeeded && options.recordIR)
    recording.outputIR = recording.snapshots.empty()
                             ? recording.inputIR
                             : recording.snapshots.back().ir;
  recording.totalMilliseconds =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (wasMultithreaded)
    ctx->enableMultithreading();
  return recording;
}

llvm::Expected<SaveMode> executor_studio::parseSaveMode(StringRef text) {
  if (text == "pipeline")
    return SaveMode::Pipeline;
  if (text == "changed")
    return SaveMode::Changed;
  if (text == "pass")
    return SaveMode::Pass;
  return llvm::createStringError("unknown save mode '" + text.str() +
                                 "'; use pipeline, changed or pass");
}

llvm::Error executor_studio::writeSnapshots(const Recording &recording,
                                            StringRef dir, SaveMode mode) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create " + dir.str());
  auto write = [&](StringRef name, const std::string &text) -> llvm::Error {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + path.str().str());
    os << text;
    return llvm::Error::success();
  };
  if (recording.inputIR)
    if (llvm::Error err = write("00_input.mlir", *recording.inputIR))
      return err;
  // `func.func(convert-linalg-to-loops)` -> `func.func_convert-linalg-to-loops`
  auto fileName = [](unsigned number, StringRef pass, SnapshotKind kind) {
    std::string name;
    for (char c : pass)
      if (llvm::isAlnum(c) || c == '-' || c == '.' || c == '_')
        name.push_back(c);
      else if (!name.empty() && name.back() != '_')
        name.push_back('_');
    while (!name.empty() && name.back() == '_')
      name.pop_back();
    const char *extension = kind == SnapshotKind::LLVMIR     ? "ll"
                            : kind == SnapshotKind::Assembly ? "s"
                                                             : "mlir";
    return llvm::formatv("{0:d2}_{1}.{2}", number, name, extension).str();
  };
  for (const Snapshot &snapshot : recording.snapshots) {
    bool last = &snapshot == &recording.snapshots.back();
    bool wanted = mode == SaveMode::Pass ||
                  (mode == SaveMode::Changed && snapshot.changed) ||
                  (mode == SaveMode::Pipeline && last);
    if (wanted && snapshot.ir)
      if (llvm::Error err = write(fileName(snapshot.index + 1, snapshot.pass,
                                           snapshot.kind),
                                  *snapshot.ir))
        return err;
    // Each target's own steps in {dir}/TARGET/, numbered from its extracted
    // module (00).
    for (const Snapshot &nested : snapshot.nested) {
      bool extracted = nested.index == 0;
      bool wantedNested =
          mode == SaveMode::Pass || extracted ||
          (mode == SaveMode::Changed && nested.changed) ||
          (mode == SaveMode::Pipeline && nested.kind == SnapshotKind::Assembly);
      if (!wantedNested || !nested.ir)
        continue;
      StringRef step = StringRef(nested.pass);
      step.consume_front(nested.target + "/");
      SmallString<256> targetDir(nested.target);
      llvm::sys::path::append(targetDir,
                              fileName(nested.index, step, nested.kind));
      SmallString<256> full(dir);
      llvm::sys::path::append(full, nested.target);
      if (std::error_code ec = llvm::sys::fs::create_directories(full))
        return llvm::createStringError(ec, "cannot create " + full.str().str());
      if (llvm::Error err = write(targetDir, *nested.ir))
        return err;
    }
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Re-running the rest of a pipeline
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<std::string>>
executor_studio::pipelineSteps(StringRef pipeline, StringRef anchor) {
  OpPassManager pm(anchor);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!parsePipelineInto(pipeline, pm, errorStream))
    return llvm::createStringError("invalid pipeline \"" + pipeline.str() +
                                   "\": " + errors);
  std::vector<std::string> steps;
  bool lastWasAdaptor = false;
  for (Pass &pass : pm.getPasses()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    pass.printAsTextualPipeline(os);
    bool adaptor = isAdaptor(&pass);
    // The pass manager merges consecutive nested pipelines into one adaptor
    // before it runs: the recording has one snapshot for them.
    if (adaptor && lastWasAdaptor)
      steps.back() += "," + text;
    else
      steps.push_back(std::move(text));
    lastWasAdaptor = adaptor;
  }
  return steps;
}

llvm::Expected<std::string>
executor_studio::remainingPipeline(StringRef pipeline, int afterStep,
                                   StringRef anchor) {
  auto steps = pipelineSteps(pipeline, anchor);
  if (!steps)
    return steps.takeError();
  if (afterStep < -1 || afterStep >= static_cast<int>(steps->size()))
    return llvm::createStringError(
        llvm::formatv("no step {0} to re-run after: the pipeline has {1} "
                      "step(s), numbered from 0 (-1 is the input)",
                      afterStep, steps->size())
            .str());
  std::string rest;
  for (size_t i = afterStep + 1; i < steps->size(); ++i) {
    if (!rest.empty())
      rest += ",";
    rest += (*steps)[i];
  }
  return anchor.str() + "(" + rest + ")";
}

Recording executor_studio::spliceRecording(
    const Recording &base, int afterStep,
    std::shared_ptr<const std::string> editedIR, Recording rest) {
  Recording out;
  out.succeeded = rest.succeeded;
  out.inputIR = afterStep < 0 ? IRText(editedIR) : base.inputIR;
  out.totalMilliseconds = rest.totalMilliseconds;
  // The base run's own diagnostics (parsing and verifying its input) hold
  // only while that input does: an edited input has the re-run's.
  if (afterStep >= 0)
    out.diagnostics = base.diagnostics;
  for (RecordedDiagnostic &d : rest.diagnostics)
    out.diagnostics.push_back(std::move(d));
  for (int i = 0; i <= afterStep && i < static_cast<int>(base.snapshots.size());
       ++i) {
    out.snapshots.push_back(base.snapshots[i]);
    out.totalMilliseconds += base.snapshots[i].milliseconds;
  }
  if (afterStep >= 0 && !out.snapshots.empty()) {
    Snapshot &edited = out.snapshots.back();
    edited.changed = true;
    edited.failed = false;
    edited.edited = true;
    edited.ir = editedIR;
    edited.diagnostics.clear();
  }
  for (Snapshot &s : rest.snapshots) {
    s.index = out.snapshots.size();
    out.snapshots.push_back(std::move(s));
  }
  out.outputIR = rest.outputIR;
  return out;
}
