//===- OrcGenericProtocol.cpp - launches on any ORC executor --------------===//
//
// An ORC executor that publishes no services of its own (LLVM's
// llvm-jitlink-executor) gets alloc, free and invoke with Catalyst's
// encodings in a small object the client compiles for the executor's triple
// and links into it at attach; launches then go as through Catalyst's
// services (CatalystServicesProtocol.h), with ORC's memory access. It has no
// asset storage.
//
//===----------------------------------------------------------------------===//
#include "CatalystServicesProtocol.h"

#include "ExecutorStudio/Support/EmitCode.h"
#include "ExecutorStudio/Support/Targets.h"

#include "llvm/ExecutionEngine/Orc/ExecutorProcessControl.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace llvm;
using namespace llvm::orc;

namespace executor_studio::runtime {
namespace {

/// The alloc, free and invoke services with Catalyst's encodings, as LLVM IR
/// compiled for `triple`: what the client links into an ORC executor that
/// has no services of its own. Each is an ORC wrapper function
/// `{ptr, i64} (ptr data, i64 size)`, the C ABI of CWrapperFunctionBuffer.
Expected<std::unique_ptr<MemoryBuffer>> orcServicesObject(const Triple &triple) {
  // The program registered LLVM's targets at its entry (Targets.h): its
  // main, or the C ABI's __catalyst__executor__open.
  std::string problem;
  const Target *target = TargetRegistry::lookupTarget(triple, problem);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "no LLVM target for the executor's triple " +
                                 triple.str() + ": " + problem +
                                 executor_studio::uninitializedTargetsNote());
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, "", "", TargetOptions(), Reloc::PIC_));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot generate code for " + triple.str());
  LLVMContext context;
  Module module("executor-studio-orc-services", context);
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  Type *ptr = PointerType::getUnqual(context);
  Type *i64 = Type::getInt64Ty(context);
  StructType *buffer = StructType::get(context, {ptr, i64});
  FunctionType *wrapper = FunctionType::get(buffer, {ptr, i64}, false);
  FunctionCallee calloc = module.getOrInsertFunction("calloc", ptr, i64, i64);
  FunctionCallee release =
      module.getOrInsertFunction("free", Type::getVoidTy(context), ptr);
  auto define = [&](const char *name, auto body) {
    Function *f =
        Function::Create(wrapper, GlobalValue::ExternalLinkage, name, module);
    IRBuilder<> b(BasicBlock::Create(context, "entry", f));
    // The request's u64 at `offset` bytes.
    auto word = [&](unsigned offset) -> Value * {
      Value *at = b.CreateConstGEP1_64(b.getInt8Ty(), f->getArg(0), offset);
      return b.CreateAlignedLoad(i64, at, Align(1));
    };
    auto reply = [&](Value *inlineWord, uint64_t size) {
      Value *r = UndefValue::get(buffer);
      r = b.CreateInsertValue(r, inlineWord, 0);
      r = b.CreateInsertValue(r, ConstantInt::get(i64, size), 1);
      b.CreateRet(r);
    };
    body(b, word, reply);
  };
  // SPSExecutorAddr(uint64_t size): the address travels inline (8 bytes).
  define("__executor_studio_orc_alloc", [&](IRBuilder<> &b, auto word,
                                            auto reply) {
    Value *size = word(0);
    Value *zero = b.CreateICmpEQ(size, ConstantInt::get(i64, 0));
    size = b.CreateSelect(zero, ConstantInt::get(i64, 1), size);
    reply(b.CreateCall(calloc, {ConstantInt::get(i64, 1), size}), 8);
  });
  // void(SPSExecutorAddr).
  define("__executor_studio_orc_free", [&](IRBuilder<> &b, auto word,
                                           auto reply) {
    b.CreateCall(release, {b.CreateIntToPtr(word(0), ptr)});
    reply(ConstantPointerNull::get(PointerType::getUnqual(context)), 0);
  });
  // void(SPSExecutorAddr entry, SPSSequence<SPSExecutorAddr> {results,
  // arguments}): u64 entry, u64 count (2), u64 results, u64 arguments.
  define("__executor_studio_orc_invoke", [&](IRBuilder<> &b, auto word,
                                             auto reply) {
    FunctionType *pyface =
        FunctionType::get(Type::getVoidTy(context), {ptr, ptr}, false);
    b.CreateCall(pyface, b.CreateIntToPtr(word(0), ptr),
                 {b.CreateIntToPtr(word(16), ptr),
                  b.CreateIntToPtr(word(24), ptr)});
    reply(ConstantPointerNull::get(PointerType::getUnqual(context)), 0);
  });
  SmallVector<char, 0> object;
  raw_svector_ostream stream(object);
  if (Error err = executor_studio::emitCode(*machine, module, stream,
                                            CodeGenFileType::ObjectFile))
    return err;
  return MemoryBuffer::getMemBufferCopy(StringRef(object.data(), object.size()),
                                        "<executor-studio ORC services>");
}

class OrcGenericProtocol final : public CatalystServicesProtocol {
public:
  explicit OrcGenericProtocol(ExecutorClient::Impl &session)
      : CatalystServicesProtocol(session) {}
  ExecutorKind kind() const override { return ExecutorKind::OrcExecutor; }
  Error attach() override {
    if (Error err = CatalystServicesProtocol::attach())
      return err;
    if (Error err = linkServices())
      return session.error("is an ORC executor without executor services, "
                           "and linking them into it failed: " +
                           toString(std::move(err)));
    return Error::success();
  }
  Error storeAsset(const std::string &name, ArrayRef<char>) override {
    return session.error("storing asset '" + name +
                         "': an ORC executor has no asset storage (assets "
                         "need executor-server or catalyst-executor)");
  }

private:
  /// Links the alloc/free/invoke services into the executor.
  Error linkServices() {
    ExecutionSession &es = *session.es;
    auto object =
        orcServicesObject(es.getExecutorProcessControl().getTargetTriple());
    if (!object)
      return object.takeError();
    JITDylib &jd = es.createBareJITDylib("<executor-studio ORC services>");
    jd.addToLinkOrder(*session.process);
    if (Error err = session.linker->add(jd, std::move(*object)))
      return err;
    auto found =
        es.lookup(makeJITDylibSearchOrder(&jd),
                  SymbolLookupSet({es.intern("__executor_studio_orc_alloc"),
                                   es.intern("__executor_studio_orc_free"),
                                   es.intern("__executor_studio_orc_invoke")}));
    if (!found)
      return found.takeError();
    remoteAlloc = (*found)[es.intern("__executor_studio_orc_alloc")].getAddress();
    remoteFree = (*found)[es.intern("__executor_studio_orc_free")].getAddress();
    remoteInvoke =
        (*found)[es.intern("__executor_studio_orc_invoke")].getAddress();
    return Error::success();
  }
};

} // namespace

std::unique_ptr<LaunchProtocol>
makeOrcGenericProtocol(ExecutorClient::Impl &session) {
  return std::make_unique<OrcGenericProtocol>(session);
}

} // namespace executor_studio::runtime
