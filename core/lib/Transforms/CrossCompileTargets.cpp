//===- CrossCompileTargets.cpp - one object per catalyst.target -*- C++ -*-===//
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystOps.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "DebugVariables.h"
#include "PyfaceWrappers.h"
#include "ExecutorStudio/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <chrono>
#include <memory>

namespace catalyst {
#define GEN_PASS_DEF_CROSSCOMPILETARGETSPASS
#include "ExecutorStudio/Transforms/Passes.h.inc"
} // namespace catalyst

using namespace mlir;
using namespace catalyst;

namespace {

void initializeTargets() {
  static bool done = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)done;
}

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
};

/// Whether the recorder running this pass records each target's own steps.
bool recordsNested() {
  return executor_studio::nestedRecordingOptions() != nullptr;
}

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
  executor_studio::addNestedSnapshot(std::move(snapshot));
}

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

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
  LogicalResult compileAndPlace(Target &target, StringRef absoluteWorkspace);

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
};
} // namespace

LogicalResult CrossCompileTargetsPass::lowerToLLVMDialect(Target &target,
                                                          ModuleOp clone) {
  std::optional<TargetInfo> info = getTarget(target.module);
  std::string pipeline = info && info->pipeline
                             ? *info->pipeline
                             : getDefaultTargetPipelineText();
  if (saveIrAfterEach.empty() && !recordsNested()) {
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
  if (const executor_studio::RecordOptions *outer =
          executor_studio::nestedRecordingOptions()) {
    options.printGenericForm = outer->printGenericForm;
    options.printDebugInfo = outer->printDebugInfo;
  }
  options.deferText = false; // a target is small; its texts are all shown
  executor_studio::Recording recording =
      executor_studio::recordPipeline(clone, options);
  if (recordsNested()) {
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
    executor_studio::addNestedSnapshot(std::move(extracted));
  }
  if (recordsNested())
    for (const executor_studio::Snapshot &snapshot : recording.snapshots) {
      executor_studio::Snapshot step = snapshot; // (the texts are shared)
      step.index = target.nextNested++;
      step.pass = target.name + "/" + snapshot.pass;
      step.target = target.name;
      for (auto &diag : step.diagnostics)
        diag.pass = step.pass;
      executor_studio::addNestedSnapshot(std::move(step));
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
  initializeTargets();
  llvm::Triple triple(target.triple);
  std::string error;
  const llvm::Target *backend = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return target.module.emitOpError("has unknown triple \"")
           << target.triple << "\": " << error;
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

  bool nested = recordsNested();
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
    llvm::legacy::PassManager printer;
    if (machine->addPassesToEmitFile(printer, os, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile))
      return target.module.emitOpError("triple \"")
             << target.triple << "\" cannot emit assembly";
    printer.run(*copy);
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
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, out.os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return target.module.emitOpError("triple \"")
           << target.triple << "\" cannot emit object files";
  codegen.run(*module);
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
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(&getContext()));
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
  const executor_studio::RecordOptions *nested =
      executor_studio::nestedRecordingOptions();
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

/// Compiles `target` to its object in the workspace; a dispatched target
/// then keeps declarations and the object's path, a local one is linked.
LogicalResult
CrossCompileTargetsPass::compileAndPlace(Target &target,
                                         StringRef absoluteWorkspace) {
  std::string objectPath =
      catalyst::getTargetObjectPath(absoluteWorkspace, target.name);
  StringRef dir = llvm::sys::path::parent_path(objectPath);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return target.module.emitOpError("cannot create ")
           << dir << ": " << ec.message() << " (is the workspace writable?)";
  if (mlir::failed(compile(target, objectPath)))
    return failure();
  if (!target.dispatched)
    return linkLocally(target, objectPath);
  setObjectFile(target.module, objectPath);
  reduceToDeclarations(target);
  return success();
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
  for (Target &target : targets)
    if (mlir::failed(compileAndPlace(target, absoluteWorkspace)))
      return signalPassFailure();
}
