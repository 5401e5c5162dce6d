//===- executor-compile.cpp - the Executor Studio compiler driver -*- C++ -*-===//
//
//   executor-compile in.mlir -o prog
//
// Runs the executor pipeline (through the pipeline recorder, so that
// --save-ir-after-each and --summary see every pass), translates the host to
// LLVM IR, compiles it and links it with the local target objects, the
// executor runtime and MLIR's runner utilities into an executable whose
// entry is the host function --entry (default: main).
//
//===----------------------------------------------------------------------===//
#include "ExecutorStudio/Pipeline/InputLimits.h"
#include "ExecutorStudio/Pipeline/PassOptionHelp.h"
#include "ExecutorStudio/Registration/TextEntryPoints.h"
#include "ExecutorStudio/Pipeline/PipelineRecorder.h"
#include "ExecutorStudio/Registration/Registration.h"
#include "ExecutorStudio/Transforms/Passes.h"
#include "ExecutorStudio/Catalyst/IR/CatalystAttributes.h"
#include "ExecutorStudio/Catalyst/IR/TargetTripleEdit.h"
#include "ExecutorStudio/Support/EmitCode.h"
#include "ExecutorStudio/Support/Targets.h"
#include "ExecutorStudio/Support/ValueParser.h"
#include "ExecutorRuntime/ExecutorClient.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/thread.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("executor-compile options");
static cl::opt<std::string>
    inputFile(cl::Positional,
              cl::desc("<input.mlir> (- reads standard input)"),
              cl::cat(category));
static cl::opt<std::string>
    outputFile("o",
               cl::desc("Output file (default: the input's name without "
                        ".mlir, or .out.mlir, .ll, .o by --emit; - writes "
                        "--emit=mlir, llvm or obj to standard output)"),
               cl::value_desc("path"), cl::cat(category));
static cl::opt<std::string> workspaceDir(
    "workspace",
    cl::desc("Directory for target objects and saved IR (default: "
             "<output>.workspace; a temporary directory, removed at exit, "
             "when the output goes to standard output)"),
    cl::cat(category));
static cl::opt<bool> printPipeline("print-pipeline",
                                   cl::desc("Print the pipeline and exit"),
                                   cl::cat(category));
static cl::opt<std::string>
    pipelineOverride("pipeline",
                     cl::desc("Run this textual pipeline instead of the "
                              "default one (--workspace is passed on to "
                              "executor-default-pipeline and "
                              "cross-compile-targets where it names no "
                              "workspace)"),
                     cl::cat(category));
static cl::opt<std::string> saveIrAfterEach(
    "save-ir-after-each",
    cl::desc("Write {workspace}/ir/NN_<pass>.mlir: pipeline (input and "
             "output), changed (after passes that changed the IR) or pass "
             "(after every pass); each target's own steps, LLVM IR and "
             "assembly in {workspace}/ir/TARGET/"),
    cl::cat(category));
static cl::opt<bool> summary("summary",
                             cl::desc("Print one line per pass: time and "
                                      "whether it changed the IR"),
                             cl::cat(category));
enum class Emit { MLIR, LLVM, Obj, Exe };
static cl::opt<Emit, false, executor_studio::ValueParser<Emit>> emit(
    "emit", cl::desc("What to produce"), cl::init(Emit::Exe),
    cl::values(clEnumValN(Emit::MLIR, "mlir", "the IR after the pipeline"),
               clEnumValN(Emit::LLVM, "llvm", "LLVM IR of the host"),
               clEnumValN(Emit::Obj, "obj", "the host object file"),
               clEnumValN(Emit::Exe, "exe", "a linked executable")),
    cl::cat(category));
static cl::opt<bool> noEmbedObjects(
    "no-embed-objects",
    cl::desc("Do not embed the shipped kernel objects and assets in the "
             "executable: send_binary reads them from their paths at run time "
             "(needed to link against Catalyst's runtime)"),
    cl::cat(category));
static cl::opt<bool> debugInfo(
    "g",
    cl::desc("Compile the kernels with debug info naming the .mlir file's "
             "lines (crash reports and gdb show them)"),
    cl::cat(category));
static cl::opt<unsigned> optLevel(
    "O", cl::Prefix, cl::init(2), cl::value_desc("level"),
    cl::desc("The kernels' LLVM optimisation level, -O0 to -O3 (default "
             "-O2)"),
    cl::cat(category));
static cl::opt<unsigned> jobs(
    "j", cl::Prefix, cl::init(0), cl::value_desc("N"),
    cl::desc("Kernels (catalyst.target modules) compiled at once: 0 (the "
             "default) as many as there are cores, 1 one after the other; "
             "the output does not depend on it"),
    cl::cat(category));
static cl::opt<std::string>
    entryName("entry", cl::desc("Host function the executable starts in"),
              cl::init("main"), cl::cat(category));
static cl::opt<std::string> targetOf(
    "target-of",
    cl::desc("Compile every dispatched target for the executor at this "
             "address (HOST:PORT, unix:PATH, ssh://..., slurm:...; after "
             "EXECUTOR_ADDRESS_MAP): opens a session there and reads the "
             "executor's triple from ORC's setup message"),
    cl::value_desc("address"), cl::cat(category));
static cl::opt<std::string> targetTriple(
    "target-triple",
    cl::desc("Compile every dispatched target for this triple, whatever its "
             "catalyst.target.triple says (local targets stay the host's)"),
    cl::value_desc("triple"), cl::cat(category));

namespace {
int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "executor-compile") << message << "\n";
  return 1;
}

/// The constant C string `value` points to, if it is one.
std::optional<llvm::StringRef> constantString(llvm::Value *value) {
  auto *global =
      llvm::dyn_cast<llvm::GlobalVariable>(value->stripPointerCasts());
  if (!global || !global->hasInitializer())
    return std::nullopt;
  auto *data =
      llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  if (!data || !data->isCString())
    return std::nullopt;
  return data->getAsCString();
}

/// Embeds every file the host ships with __catalyst__executor__send_binary
/// (a constant path) in `module`, and registers them at the start of `main`
/// (ExecutorRuntime/Embedded.h). Files that do not exist here are left to be
/// read at run time, with a warning. Returns the number embedded.
llvm::Expected<unsigned> embedShippedFiles(llvm::Module &module) {
  llvm::Function *send = module.getFunction("__catalyst__executor__send_binary");
  llvm::Function *main = module.getFunction("main");
  if (!send || !main || main->isDeclaration())
    return 0;
  llvm::SetVector<llvm::StringRef> paths;
  for (llvm::User *user : send->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      if (call->getCalledFunction() == send && call->arg_size() >= 2)
        if (std::optional<llvm::StringRef> path =
                constantString(call->getArgOperand(1)))
          paths.insert(*path);
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::StructType *entryType = llvm::StructType::get(ctx, {ptr, ptr, i64});
  std::vector<llvm::Constant *> entries;
  for (llvm::StringRef path : paths) {
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::WithColor::warning(llvm::errs(), "executor-compile")
          << path << " is not embedded (" << buffer.getError().message()
          << "); the program reads it at run time\n";
      continue;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    auto *data = new llvm::GlobalVariable(
        module, llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), bytes.size()),
        /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantDataArray::getRaw(bytes, bytes.size(),
                                        llvm::Type::getInt8Ty(ctx)),
        "__executor_embedded_data");
    data->setAlignment(llvm::Align(16));
    auto *name = new llvm::GlobalVariable(
        module, llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), path.size() + 1),
        true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantDataArray::getString(ctx, path), "__executor_embedded_path");
    entries.push_back(llvm::ConstantStruct::get(
        entryType, {name, data, llvm::ConstantInt::get(i64, bytes.size())}));
  }
  if (entries.empty())
    return 0;
  auto *tableType = llvm::ArrayType::get(entryType, entries.size());
  auto *table = new llvm::GlobalVariable(
      module, tableType, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(tableType, entries), "__executor_embedded_files");
  llvm::FunctionCallee registerFn = module.getOrInsertFunction(
      "__executor_studio_register_embedded",
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, i64}, false));
  llvm::IRBuilder<> b(&*main->getEntryBlock().getFirstInsertionPt());
  b.CreateCall(registerFn, {table, llvm::ConstantInt::get(i64, entries.size())});
  return static_cast<unsigned>(entries.size());
}

void printDiagnostic(const executor_studio::RecordedDiagnostic &d,
                     llvm::StringRef prefix = "") {
  using Severity = executor_studio::RecordedDiagnostic::Severity;
  const char *kind = d.severity == Severity::Error     ? "error"
                     : d.severity == Severity::Warning ? "warning"
                     : d.severity == Severity::Note    ? "note"
                                                       : "remark";
  llvm::errs() << prefix;
  if (!d.file.empty())
    llvm::errs() << d.file << ":" << d.line << ":" << d.column << ": ";
  llvm::errs() << kind << ": ";
  if (!d.pass.empty())
    llvm::errs() << "[" << d.pass << "] ";
  llvm::errs() << d.message << "\n";
  for (const auto &note : d.notes)
    printDiagnostic(note, prefix);
}

/// Makes `entry` the process entry: a C `int main(int, char**)` that calls
/// the host's `setup()` when it has one (where dispatch-executor-targets
/// opens the sessions and ships the objects), then `entry`, and returns 0
/// (or the entry's i32 result).
LogicalResult addProcessEntry(ModuleOp module, llvm::StringRef entry) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!fn || fn.isExternal())
    return module.emitError("the host has no function @")
           << entry << " to start the executable in (see --entry)";
  LLVM::LLVMFunctionType type = fn.getFunctionType();
  if (type.getNumParams() != 0)
    return fn.emitError("entry @")
           << entry << " must take no arguments to be the executable's entry";
  MLIRContext *ctx = module.getContext();
  auto i32 = IntegerType::get(ctx, 32);
  bool returnsI32 = type.getReturnType() == i32;
  if (!returnsI32 && !isa<LLVM::LLVMVoidType>(type.getReturnType()))
    return fn.emitError("entry @")
           << entry << " must return nothing or i32";
  auto setup = module.lookupSymbol<LLVM::LLVMFuncOp>("setup");
  if (setup && (setup.isExternal() ||
                setup.getFunctionType().getNumParams() != 0))
    setup = nullptr;
  if (entry == "main" && returnsI32 && !setup)
    return success();
  if (entry == "main") {
    if (failed(SymbolTable::replaceAllSymbolUses(
            fn, StringAttr::get(ctx, "__executor_studio_main"), module)))
      return failure();
    fn.setSymName("__executor_studio_main");
  } else if (module.lookupSymbol("main")) {
    return module.emitError("--entry=")
           << entry << " but the host already defines @main";
  }
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto mainFn = LLVM::LLVMFuncOp::create(
      b, fn.getLoc(), "main", LLVM::LLVMFunctionType::get(i32, {i32, ptr}));
  Block *body = mainFn.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  if (setup && setup != fn)
    LLVM::CallOp::create(b, fn.getLoc(), setup, ValueRange{});
  auto call = LLVM::CallOp::create(b, fn.getLoc(), fn, ValueRange{});
  Value result = returnsI32 ? call.getResult()
                            : LLVM::ConstantOp::create(
                                  b, fn.getLoc(), i32, b.getI32IntegerAttr(0))
                                  .getResult();
  LLVM::ReturnOp::create(b, fn.getLoc(), ValueRange{result});
  return success();
}

/// The first op (outermost first) that translateModuleToLLVMIR cannot
/// translate: its dialect has no translation to LLVM IR.
Operation *firstUntranslatable(ModuleOp module) {
  Operation *found = nullptr;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (dialect &&
        dialect->getRegisteredInterface<LLVMTranslationDialectInterface>())
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// A workspace of its own for a run whose output goes to standard output
/// (no name to put one beside), removed at exit.
struct TemporaryWorkspace {
  std::string path;
  std::error_code create() {
    llvm::SmallString<128> dir;
    std::error_code ec =
        llvm::sys::fs::createUniqueDirectory("executor-compile", dir);
    path = dir.str().str();
    return ec;
  }
  ~TemporaryWorkspace() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

/// Removes what this run created in the workspace unless keep() is called:
/// the files it did not hold before (and the directories that held none of
/// them), or the whole workspace when it did not exist. Saved IR (ir/) is
/// kept when `keepIR`.
class WorkspaceCleanup {
public:
  WorkspaceCleanup(std::string dir, bool keepIR)
      : dir(std::move(dir)), keepIR(keepIR) {
    existed = llvm::sys::fs::is_directory(this->dir);
    if (existed)
      walk([&](llvm::StringRef path) { before.insert(path); });
  }
  void keep() { kept = true; }
  ~WorkspaceCleanup() {
    if (kept)
      return;
    llvm::SmallString<256> ir(dir);
    llvm::sys::path::append(ir, "ir");
    std::vector<std::string> created, dirs;
    walk([&](llvm::StringRef path) {
      if (keepIR && path.starts_with(ir))
        return;
      if (!before.contains(path))
        created.push_back(path.str());
    }, &dirs);
    for (const std::string &path : created)
      llvm::sys::fs::remove(path);
    // Deepest first: a directory this run made goes once it is empty.
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it)
      if (!before.contains(*it))
        llvm::sys::fs::remove(*it); // fails, harmlessly, when not empty
    if (!existed && llvm::sys::fs::is_directory(dir))
      llvm::sys::fs::remove(dir); // only when empty: nothing of the user's
  }

private:
  void walk(llvm::function_ref<void(llvm::StringRef)> file,
            std::vector<std::string> *dirs = nullptr) {
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
         it != end && !ec; it.increment(ec)) {
      if (it->type() == llvm::sys::fs::file_type::directory_file) {
        if (dirs)
          dirs->push_back(it->path());
        else
          before.insert(it->path());
        continue;
      }
      file(it->path());
    }
  }
  std::string dir;
  bool keepIR, existed = false, kept = false;
  llvm::StringSet<> before;
};

std::string findTool(llvm::StringRef name) {
  for (llvm::StringRef dir : {llvm::StringRef(EXECUTOR_STUDIO_LLVM_BIN_DIR)}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::can_execute(path))
      return path.str().str();
  }
  if (auto found = llvm::sys::findProgramByName(name))
    return *found;
  return "";
}

/// The runtime library: in ../lib beside this binary (the build tree, or an
/// installed tree wherever it was moved), else the configured build
/// directory.
std::string findRuntimeLibDir(const char *argv0) {
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findRuntimeLibDir));
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(dir, "lib");
  llvm::SmallString<256> lib(dir);
  llvm::sys::path::append(lib, "libExecutorRuntime.so");
  if (llvm::sys::fs::exists(lib))
    return dir.str().str();
  return EXECUTOR_STUDIO_LIB_DIR;
}
} // namespace

namespace {
/// A step's verdict: the exit code to stop with, or none to go on.
using Exit = std::optional<int>;

/// What the options decide before anything is read.
struct Plan {
  std::string output;
  bool toStdout = false;
  std::string workspace;
  std::optional<TemporaryWorkspace> temporary;
  std::string pipeline;
  std::optional<executor_studio::SaveMode> saveMode;
  /// What every dispatched target is compiled for (--target-of,
  /// --target-triple); empty: each its own triple.
  std::string executorTriple;
  /// Where it comes from, for messages ("--target-triple=T", "the
  /// executor at ADDRESS").
  std::string executorTripleSource;
};

/// The output file: -o, else the input's name as cc names a.out; refused
/// where nothing can go beside it.
Exit chooseOutput(Plan &plan) {
  std::string output = outputFile;
  if (output.empty()) {
    // As cc does with a.out: the input's name without .mlir (suite.mlir
    // makes suite), beside nothing but its workspace.
    bool stdinInput = inputFile == "-" || inputFile.empty();
    llvm::StringRef stem = stdinInput ? llvm::StringRef("a")
                                      : llvm::sys::path::stem(inputFile);
    output = (stem + (emit == Emit::MLIR   ? ".out.mlir"
                      : emit == Emit::LLVM ? ".ll"
                      : emit == Emit::Obj  ? ".o"
                      : stdinInput         ? ".out"
                                           : "")).str();
    if (llvm::sys::fs::equivalent(output, inputFile))
      return fail("the default output " + output + " is the input file; "
                  "give -o");
  }
  // Whether given or the default: never the input (an ELF binary over the
  // user's source, issue 40).
  if (output != "-" && llvm::sys::fs::equivalent(output, inputFile))
    return fail("-o " + output + " is the input file; give another name");
  plan.output = output;
  plan.toStdout = output == "-";
  if (plan.toStdout && emit == Emit::Exe)
    return fail("-o -: an executable is not written to standard output; "
                "give a file name, or --emit=mlir, llvm or obj");
  if (plan.toStdout)
    return std::nullopt;
  // The default workspace goes beside the output: refuse outputs that
  // have no "beside" (/, a directory, a device such as /dev/null).
  llvm::sys::fs::file_status status;
  bool exists = !llvm::sys::fs::status(output, status) &&
                llvm::sys::fs::exists(status);
  if (exists && llvm::sys::fs::is_directory(status))
    return fail("-o " + output + " is a directory; give a file name");
  bool special = exists && !llvm::sys::fs::is_regular_file(status);
  if (special && (emit == Emit::Exe || workspaceDir.empty()))
    return fail("-o " + output + " is not a regular file" +
                (emit == Emit::Exe
                     ? "; an executable needs one"
                     : "; give --workspace=DIR for the target objects (its "
                       "default, " + output + ".workspace, is beside it)"));
  if (llvm::sys::path::filename(output).empty() ||
      llvm::sys::path::is_separator(output.back()))
    return fail("-o " + output + " names a directory; give a file name");
  return std::nullopt;
}

/// The workspace: --workspace, else beside the output, else a temporary
/// one for standard output; absolute.
Exit chooseWorkspace(Plan &plan) {
  std::string workspace = workspaceDir;
  if (workspace.empty() && plan.toStdout && !printPipeline) {
    plan.temporary.emplace();
    if (std::error_code ec = plan.temporary->create())
      return fail("cannot create a temporary workspace: " + ec.message());
    workspace = plan.temporary->path;
  } else if (workspace.empty()) {
    workspace = plan.toStdout ? "a.workspace" : plan.output + ".workspace";
  }
  llvm::SmallString<256> absolute(workspace);
  llvm::sys::fs::make_absolute(absolute);
  plan.workspace = absolute.str().str();
  // A workspace is a directory: a file of that name is the user's, not ours
  // to write into or remove when the compile fails (issue 40).
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(plan.workspace, status) &&
      llvm::sys::fs::exists(status) && !llvm::sys::fs::is_directory(status))
    return fail((workspaceDir.empty()
                     ? "the default workspace " + workspace +
                           " (beside -o) exists and is not a directory; "
                           "give --workspace=DIR, or another -o"
                     : "--workspace=" + workspace +
                           " exists and is not a directory; give a "
                           "directory (it is made when missing)"));
  return std::nullopt;
}

/// "" when LLVM here generates code for `triple`; otherwise why not, with
/// the back ends it has.
std::string unsupportedTriple(const std::string &triple) {
  std::string error;
  if (llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error))
    return "";
  std::vector<std::string> names;
  for (const llvm::Target &target : llvm::TargetRegistry::targets())
    names.push_back(target.getName());
  llvm::sort(names);
  return "this executor-compile cannot compile for " + triple +
         ": its LLVM generates code for " + llvm::join(names, ", ");
}

/// The triple of every dispatched target: --target-triple, or the triple
/// of the executor --target-of names (a session opened there tells it);
/// they must agree when both are given.
Exit chooseDispatchedTriple(Plan &plan) {
  if (!targetTriple.empty()) {
    if (llvm::Triple(targetTriple).getArch() == llvm::Triple::UnknownArch)
      return fail("--target-triple=" + targetTriple +
                  " is not a triple LLVM knows; give one such as "
                  "aarch64-unknown-linux-gnu or x86_64-pc-linux-gnu");
    plan.executorTriple = targetTriple;
    plan.executorTripleSource = "--target-triple=" + targetTriple;
  }
  if (!targetOf.getNumOccurrences()) {
    if (!plan.executorTriple.empty())
      if (std::string why = unsupportedTriple(plan.executorTriple);
          !why.empty())
        return fail("--target-triple: " + why);
    return std::nullopt;
  }
  if (targetOf.empty())
    return fail("--target-of is empty; give the executor's address (HOST:PORT, "
                "unix:PATH, ssh://[user@]host[/path], slurm:...)");
  auto client = executor_studio::runtime::ExecutorClient::open(targetOf);
  if (!client)
    return fail("--target-of=" + targetOf +
                ": cannot open a session to read the executor's triple: " +
                llvm::toString(client.takeError()));
  std::string triple = (*client)->executorTriple();
  llvm::consumeError((*client)->close());
  if (triple.empty())
    return fail("--target-of=" + targetOf +
                ": the executor's setup message names no triple");
  if (!plan.executorTriple.empty() &&
      catalyst::isOtherArchitecture(plan.executorTriple, triple))
    return fail("--target-triple=" + plan.executorTriple +
                " but the executor at " + targetOf + " (--target-of) runs " +
                triple + ": code for one does not run on the other; give one "
                "of the two flags");
  if (std::string why = unsupportedTriple(triple); !why.empty())
    return fail("--target-of=" + targetOf + ": the executor runs " + triple +
                ", and " + why +
                "; build executor-compile against an LLVM with that back end, "
                "or run the program on an executor of one of these");
  plan.executorTriple = triple;
  plan.executorTripleSource = "the executor at " + targetOf;
  return std::nullopt;
}

/// A dispatched target whose catalyst.target.triple is of another
/// architecture than the one --target-of or --target-triple compiles it
/// for: said, as the flag wins.
void noteOverriddenTriples(ModuleOp module, const Plan &plan) {
  if (plan.executorTriple.empty())
    return;
  for (auto target : module.getOps<ModuleOp>()) {
    if (!catalyst::isTarget(target) || !catalyst::hasDispatch(target))
      continue;
    std::optional<catalyst::TargetInfo> info = catalyst::getTarget(target);
    if (info && info->triple &&
        catalyst::isOtherArchitecture(*info->triple, plan.executorTriple))
      target.emitWarning("catalyst.target.triple is \"")
          << *info->triple << "\", but @" << catalyst::getTargetName(target)
          << " is compiled for " << plan.executorTriple << " ("
          << plan.executorTripleSource << ")";
  }
}

/// The pipeline (the default one, or the user's with the workspace where
/// it needs one) and which IR to save; --print-pipeline stops here.
Exit choosePipeline(Plan &plan) {
  catalyst::DefaultPipelineOptions pipelineOptions;
  pipelineOptions.workspace = plan.workspace;
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel.getValue()) +
                " is not an optimisation level; give -O0, -O1, -O2 or -O3");
  pipelineOptions.debug = debugInfo;
  pipelineOptions.optLevel = optLevel;
  if (jobs > 1)
    pipelineOptions.jobs = jobs;
  pipelineOptions.executorTriple = plan.executorTriple;
  // A pipeline of the user's gets the driver's workspace where it runs
  // cross-compile-targets (or the default pipeline) without one; one with
  // a misspelling is left as written, for the error to quote.
  plan.pipeline = pipelineOverride;
  if (plan.pipeline.empty())
    plan.pipeline = catalyst::getDefaultPipelineText(pipelineOptions);
  else if (executor_studio::explainPipelineOptions(plan.pipeline).empty())
    plan.pipeline = executor_studio::addMissingPassOption(
        plan.pipeline, {"executor-default-pipeline", "cross-compile-targets"},
        "workspace", catalyst::quotePassOption(plan.workspace));
  if (!pipelineOverride.empty() &&
      executor_studio::explainPipelineOptions(plan.pipeline).empty()) {
    // -g and -O reach the user's cross-compile-targets too.
    if (debugInfo)
      plan.pipeline = executor_studio::addMissingPassOption(
          plan.pipeline, {"executor-default-pipeline", "cross-compile-targets"},
          "debug", "true");
    if (optLevel.getNumOccurrences())
      plan.pipeline = executor_studio::addMissingPassOption(
          plan.pipeline, {"executor-default-pipeline", "cross-compile-targets"},
          "opt-level", std::to_string(optLevel));
    if (!plan.executorTriple.empty())
      plan.pipeline = executor_studio::addMissingPassOption(
          plan.pipeline, {"executor-default-pipeline", "cross-compile-targets"},
          "executor-triple", catalyst::quotePassOption(plan.executorTriple));
  }
  if (printPipeline) {
    llvm::outs() << plan.pipeline << "\n";
    return 0;
  }
  if (!saveIrAfterEach.empty()) {
    auto mode = executor_studio::parseSaveMode(saveIrAfterEach);
    if (!mode)
      return fail("--save-ir-after-each: " + llvm::toString(mode.takeError()));
    plan.saveMode = *mode;
  }
  return std::nullopt;
}

/// Reads the input into `sourceMgr`; refuses text nested deeper than the
/// parser may recurse.
Exit readInput(llvm::SourceMgr &sourceMgr) {
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  std::optional<size_t> deep =
      executor_studio::findExcessiveNesting(file->getBuffer());
  const char *deepAt = deep ? file->getBufferStart() + *deep : nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (deepAt) {
    // The parser recurses per level: report instead of overflowing.
    sourceMgr.PrintMessage(
        llvm::errs(), llvm::SMLoc::getFromPointer(deepAt),
        llvm::SourceMgr::DK_Error,
        executor_studio::nestingRefusal("the input",
                                        "executor-compile does not parse it"));
    return 1;
  }
  return std::nullopt;
}

/// Runs the pipeline through the recorder: its diagnostics, the saved IR
/// (--save-ir-after-each), the --summary, and the failing pass.
Exit record(ModuleOp module, const Plan &plan) {
  executor_studio::RecordOptions recordOptions;
  recordOptions.pipeline = plan.pipeline;
  recordOptions.recordIR = plan.saveMode.has_value();
  // Each target's own steps, down to its assembly, go to ir/TARGET/.
  recordOptions.recordNested = plan.saveMode.has_value();
  executor_studio::Recording recording =
      executor_studio::recordPipeline(module.getOperation(), recordOptions);
  for (const auto &d : recording.diagnostics)
    printDiagnostic(d);
  for (const auto &snapshot : recording.snapshots)
    for (const auto &d : snapshot.diagnostics)
      printDiagnostic(d);
  if (plan.saveMode) {
    llvm::SmallString<256> dir(plan.workspace);
    llvm::sys::path::append(dir, "ir");
    if (llvm::Error err =
            executor_studio::writeSnapshots(recording, dir, *plan.saveMode))
      return fail(llvm::toString(std::move(err)));
  }
  if (summary) {
    llvm::outs() << "pass summary (" << recording.snapshots.size()
                 << " passes, "
                 << llvm::format("%.1f", recording.totalMilliseconds)
                 << " ms):\n";
    for (const auto &s : recording.snapshots) {
      std::string what = s.pass;
      if (!llvm::StringRef(s.anchor).starts_with("builtin.module"))
        what += " (" + s.anchor + ")";
      llvm::outs() << llvm::format("  %2u %-50s %8.2f ms  %s\n", s.index + 1,
                                   what.c_str(), s.milliseconds,
                                   s.failed    ? "FAILED"
                                   : s.changed ? "changed"
                                               : "unchanged");
    }
    catalyst::TargetCacheStatistics cache = catalyst::getTargetCacheStatistics();
    llvm::outs() << "kernels: " << cache.misses << " compiled, "
                 << cache.hits + cache.diskHits << " from the cache ("
                 << cache.diskHits << " from disk)\n";
  }
  if (!recording.succeeded) {
    for (const auto &s : recording.snapshots)
      if (s.failed)
        return fail("pass '" + s.pass + "' failed (" + s.anchor + ")");
    return fail("the pipeline did not run");
  }
  return std::nullopt;
}

/// The host as optimised LLVM IR for the host's target (with the process
/// entry and the embedded objects of an executable).
Exit translateHost(ModuleOp module, llvm::LLVMContext &llvmContext,
                   std::unique_ptr<llvm::Module> &llvmModule,
                   std::unique_ptr<llvm::TargetMachine> &machine) {
  // --emit=llvm, obj and exe need the host in the LLVM dialect: a pipeline
  // of the user's that stops short of it is the problem, not the entry.
  if (Operation *op = firstUntranslatable(module)) {
    op->emitError("'")
        << op->getName() << "' is not in the LLVM dialect after the pipeline"
        << (pipelineOverride.empty() ? "" : " given with --pipeline")
        << ", so --emit="
        << (emit == Emit::LLVM ? "llvm" : emit == Emit::Obj ? "obj" : "exe")
        << " cannot translate the host; end the pipeline with the lowering "
           "to LLVM (executor-default-pipeline, or executor-lower-to-llvm "
           "after bufferization), or use --emit=mlir";
    return 1;
  }
  if (emit == Emit::Exe && failed(addProcessEntry(module, entryName)))
    return 1;
  llvmModule = translateModuleToLLVMIR(module, llvmContext, inputFile);
  if (!llvmModule)
    return fail("the host did not translate to LLVM IR; the pipeline must "
                "lower it to the LLVM dialect");
  if (emit == Emit::Exe && !noEmbedObjects) {
    llvm::Expected<unsigned> embedded = embedShippedFiles(*llvmModule);
    if (!embedded)
      return fail("embedding the kernel objects: " +
                  llvm::toString(embedded.takeError()));
  }
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail(error);
  machine.reset(target->createTargetMachine(
      triple, "generic", "", llvm::TargetOptions(), llvm::Reloc::PIC_));
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  if (llvm::Error err =
          makeOptimizingTransformer(2, 0, machine.get())(llvmModule.get()))
    return fail("optimising the host: " + llvm::toString(std::move(err)));
  return std::nullopt;
}

/// Writes `print`'s text to `output`.
Exit writeText(const std::string &output,
               llvm::function_ref<void(llvm::raw_ostream &)> print) {
  std::error_code ec;
  llvm::ToolOutputFile out(output, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write " + output + ": " + ec.message());
  print(out.os());
  out.keep();
  return std::nullopt;
}

/// Writes the host object to `objectPath`.
Exit writeObject(const std::string &objectPath, llvm::Module &llvmModule,
                 llvm::TargetMachine &machine) {
  std::error_code ec;
  llvm::ToolOutputFile out(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write " + objectPath + ": " + ec.message());
  if (llvm::Error err = executor_studio::emitCode(
          machine, llvmModule, out.os(), llvm::CodeGenFileType::ObjectFile))
    return fail("the host object: " + llvm::toString(std::move(err)));
  out.keep();
  return std::nullopt;
}

/// Links the host object, the local targets' objects, the executor runtime
/// and MLIR's runner utilities into the executable, with clang.
Exit link(ModuleOp module, const std::string &objectPath,
          const std::string &output, const char *argv0) {
  std::string clang = findTool("clang");
  if (clang.empty())
    return fail("clang-22 not found; run scripts/setup.sh");
  std::string runtimeDir = findRuntimeLibDir(argv0);
  // MLIR's runner utilities (printMemref*, memrefCopy, ...), from Debian's
  // libmlir-22, by their versioned names: linking needs no -dev package.
  std::string mlirLibDir = EXECUTOR_STUDIO_MLIR_LIB_DIR;
  std::string soVersion = EXECUTOR_STUDIO_MLIR_SOVERSION;
  std::vector<std::string> args = {clang, "-fuse-ld=lld", "-o", output,
                                   objectPath};
  for (const std::string &object : catalyst::getObjectFiles(module))
    args.push_back(object);
  if (*EXECUTOR_STUDIO_SANITIZE_FLAGS)
    args.push_back(EXECUTOR_STUDIO_SANITIZE_FLAGS);
  for (const std::string &arg :
       {"-L" + runtimeDir, "-Wl,-rpath," + runtimeDir, "-L" + mlirLibDir,
        "-Wl,-rpath," + mlirLibDir, std::string("-lExecutorRuntime"),
        "-l:libmlir_runner_utils.so." + soVersion,
        "-l:libmlir_c_runner_utils.so." + soVersion, std::string("-lm")})
    args.push_back(arg);
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::string linkError;
  int status = llvm::sys::ExecuteAndWait(clang, argRefs, std::nullopt, {}, 0,
                                         0, &linkError);
  if (status != 0) {
    std::string command;
    for (const std::string &a : args)
      command += a + " ";
    return fail("linking failed (" +
                (linkError.empty() ? "exit " + std::to_string(status)
                                   : linkError) +
                "): " + command);
  }
  return std::nullopt;
}

/// Parses the input. With -g, functions' arguments keep their names as
/// written, for their debug variables (gdb's `info args`): parseModule, as
/// the studio's debug recordings do.
static OwningOpRef<ModuleOp> parseInput(llvm::SourceMgr &sourceMgr,
                                       MLIRContext &ctx) {
  return executor_studio::parseModule(sourceMgr, ParserConfig(&ctx),
                                      /*keepArgumentNames=*/debugInfo);
}

/// The driver: options, then parse / record / write (MLIR, LLVM IR, the
/// host object) / link.
int compileMain(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  executor_studio::addVersionPrinter();
  cl::ParseCommandLineOptions(argc, argv,
                              "Executor Studio compiler driver\n\n"
                              "  executor-compile in.mlir -o prog\n");
  executor_studio::registerAllPasses();

  if (inputFile.empty() && !printPipeline)
    return fail("no input file; give IN.mlir (or - to read standard input); "
                "see --help");
  if (entryName.empty())
    return fail("--entry is empty; name the host function the executable "
                "starts in (default: main)");
  Plan plan;
  for (auto step :
       {chooseOutput, chooseWorkspace, chooseDispatchedTriple, choosePipeline})
    if (Exit exit = step(plan))
      return *exit;

  // Parse.
  DialectRegistry registry;
  executor_studio::registerAllDialects(registry);
  // Threads compile the kernels (cross-compile-targets); -j1: none.
  MLIRContext ctx(registry, jobs == 1 ? MLIRContext::Threading::DISABLED
                                      : MLIRContext::Threading::ENABLED);
  // Errors point at the op's line; a generic dump of it adds nothing.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  if (Exit exit = readInput(sourceMgr))
    return *exit;
  SourceMgrDiagnosticHandler sourceDiagnostics(sourceMgr, &ctx);
  OwningOpRef<ModuleOp> module = parseInput(sourceMgr, ctx);
  if (!module)
    return 1;
  noteOverriddenTriples(*module, plan);

  // Record. What this run writes into the workspace goes again if it
  // fails: a failed compile leaves no objects behind (saved IR stays: it
  // shows where the pipeline failed).
  WorkspaceCleanup cleanup(plan.workspace, plan.saveMode.has_value());
  if (std::error_code ec = llvm::sys::fs::create_directories(plan.workspace))
    return fail("cannot create workspace " + plan.workspace + ": " +
                ec.message());
  if (Exit exit = record(*module, plan))
    return *exit;

  // Write.
  auto done = [&](Exit exit) {
    if (exit)
      return *exit;
    cleanup.keep();
    return 0;
  };
  if (emit == Emit::MLIR)
    return done(writeText(plan.output,
                          [&](llvm::raw_ostream &os) { module->print(os); }));
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  std::unique_ptr<llvm::TargetMachine> machine;
  if (Exit exit = translateHost(*module, llvmContext, llvmModule, machine))
    return *exit;
  if (emit == Emit::LLVM)
    return done(writeText(plan.output, [&](llvm::raw_ostream &os) {
      llvmModule->print(os, nullptr);
    }));
  // The host object of an executable is an intermediate: it goes into the
  // workspace with the targets' objects, beside nothing of the user's.
  std::string objectPath = plan.output;
  if (emit == Emit::Exe) {
    llvm::SmallString<256> path(plan.workspace);
    llvm::sys::path::append(path, "host.o");
    objectPath = path.str().str();
  }
  if (Exit exit = writeObject(objectPath, *llvmModule, *machine))
    return *exit;
  if (emit == Emit::Obj)
    return done(std::nullopt);

  // Link.
  if (Exit exit = link(*module, objectPath, plan.output, argv[0]))
    return *exit;
  cleanup.keep();
  if (summary)
    llvm::outs() << "wrote " << plan.output << " (workspace " << plan.workspace
                 << ")\n";
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Every target, for the host and cross-compile-targets' triples, once
  // (Targets.h: the program's, never the libraries').
  executor_studio::initializeTargets();
  // The parser, the passes and the printer recurse per nesting level: run
  // on a thread with a large stack (the input's nesting is limited too).
  int result = 1;
  executor_studio::runOnParserStack([&] { result = compileMain(argc, argv); });
  return result;
}
