//===- executor-opt-mutate.cpp - executor-opt on mutated samples ----------===//
//
// Mutates the sample programs with a fixed seed (truncations, byte flips,
// deleted lines, huge integers, odd symbol names: quotes, `../`, unicode,
// deep nesting) and runs the real executor-opt on each mutant, and the
// default pipeline on some of those it accepts. Checks that executor-opt
// never dies of a signal or hangs, and that every input it rejects gets an
// error with a `file:line:col` location in that input. The pipeline writes
// into a workspace deep in a sandbox under --work-dir; files it writes
// outside the workspace are counted (and fail with --check-workspace).
// Prints one line per failure and a summary; exits 1 on any failure (the
// failing mutants stay in --work-dir).
//
//   executor-opt-mutate --executor-opt=build/bin/executor-opt --seed=1 \
//     --mutants=300 --work-dir=/tmp/m samples/*.mlir
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <random>

using namespace llvm;

namespace {
cl::list<std::string> sampleFiles(cl::Positional, cl::desc("<sample .mlir>..."),
                                  cl::OneOrMore);
cl::opt<std::string> executorOpt("executor-opt",
                                 cl::desc("The executor-opt to run"),
                                 cl::Required);
cl::opt<std::string> workDir("work-dir",
                             cl::desc("Where the mutants are written"),
                             cl::Required);
cl::opt<unsigned> seed("seed", cl::desc("Random seed"), cl::init(1));
cl::opt<unsigned> mutants("mutants", cl::desc("How many mutants to run"),
                          cl::init(300));
cl::opt<unsigned> pipelineEvery(
    "pipeline-every",
    cl::desc("Also run the default pipeline on every Nth mutant that parses "
             "(0: never)"),
    cl::init(2));
cl::opt<bool> checkWorkspace(
    "check-workspace",
    cl::desc("Fail when a pipeline writes a file outside its workspace"),
    cl::init(false));
cl::opt<unsigned> timeoutSeconds("timeout",
                                 cl::desc("Seconds one run may take"),
                                 cl::init(30));

/// Names that are no plain identifiers.
constexpr StringRef kOddNames[] = {
    "@\"../../../x/victim\"",
    "@\"a\\\"b\"",
    "@\"\"",
    "@\"na\xc3\xafve \xe2\x88\x80\"",
    // An absolute path (into --work-dir, see kAbsoluteName).
    "@\"ABSOLUTE\"",
    "@\"..\"",
    "@\"x\\n.o\"",
    "@\"\xf0\x9f\x92\xa5\"",
    "@\"a b\"",
    "@\"\\00\"",
};

/// Integers no type holds.
constexpr StringRef kHugeIntegers[] = {
    "99999999999999999999999999999999999999",
    "-9223372036854775809",
    "18446744073709551616",
    "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
    "4294967296",
    "-0",
    "1e400",
};

/// The stand-in in kOddNames for an absolute path under --work-dir: a
/// pass that writes a file by that name writes there (never elsewhere on the
/// machine).
constexpr StringRef kAbsoluteName = "ABSOLUTE";

class Mutator {
public:
  Mutator(unsigned seed, std::string absolutePath)
      : rng(seed), absolutePath(std::move(absolutePath)) {}

  /// Applies one to three mutations; `kinds` receives their names.
  std::string mutate(std::string text, std::string &kinds);

private:
  size_t pick(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  }
  /// The offsets where tokens matching `isStart` begin.
  template <typename Fn>
  SmallVector<size_t> findTokens(StringRef text, Fn isStart) {
    SmallVector<size_t> offsets;
    for (size_t i = 0; i < text.size(); ++i)
      if (isStart(text, i))
        offsets.push_back(i);
    return offsets;
  }
  /// An odd name, with kAbsoluteName replaced.
  std::string pickOddName() {
    std::string name = kOddNames[pick(std::size(kOddNames))].str();
    size_t at = name.find(kAbsoluteName);
    if (at != std::string::npos)
      name.replace(at, kAbsoluteName.size(), absolutePath);
    return name;
  }
  std::mt19937 rng;
  std::string absolutePath;
};

std::string Mutator::mutate(std::string text, std::string &kinds) {
  unsigned steps = 1 + pick(3);
  for (unsigned step = 0; step < steps; ++step) {
    size_t size = text.size();
    switch (pick(7)) {
    case 0: // truncate
      kinds += "truncate ";
      text.resize(pick(size + 1));
      break;
    case 1: { // flip bytes
      kinds += "flip ";
      for (unsigned i = 0, e = 1 + pick(4); size && i < e; ++i)
        text[pick(size)] ^= static_cast<char>(1u << pick(8));
      break;
    }
    case 2: { // delete lines
      kinds += "delete-lines ";
      SmallVector<StringRef> lines;
      StringRef(text).split(lines, '\n');
      size_t first = pick(lines.size()), count = 1 + pick(3);
      std::string result;
      for (size_t i = 0; i < lines.size(); ++i)
        if (i < first || i >= first + count)
          result += lines[i].str() + "\n";
      text = std::move(result);
      break;
    }
    case 3: { // a huge integer in place of a number
      kinds += "huge-integer ";
      SmallVector<size_t> numbers = findTokens(text, [](StringRef t, size_t i) {
        return isDigit(t[i]) && (i == 0 || !isAlnum(t[i - 1]));
      });
      if (numbers.empty())
        break;
      size_t at = numbers[pick(numbers.size())];
      size_t end = at;
      while (end < text.size() && isAlnum(text[end]))
        ++end;
      text.replace(at, end - at, kHugeIntegers[pick(std::size(kHugeIntegers))]);
      break;
    }
    case 4: { // an odd name in place of a symbol name or reference
      kinds += "odd-name ";
      SmallVector<size_t> symbols =
          findTokens(text, [](StringRef t, size_t i) { return t[i] == '@'; });
      if (symbols.empty())
        break;
      size_t at = symbols[pick(symbols.size())];
      size_t end = at + 1;
      if (end < text.size() && text[end] == '"') {
        end = text.find('"', end + 1);
        end = end == std::string::npos ? text.size() : end + 1;
      } else {
        while (end < text.size() && (isAlnum(text[end]) || text[end] == '_' ||
                                     text[end] == '.' || text[end] == '$'))
          ++end;
      }
      text.replace(at, end - at, pickOddName());
      break;
    }
    case 5: { // the same odd name for every use of one symbol
      kinds += "rename-symbol ";
      Regex symbol("@([A-Za-z_][A-Za-z0-9_$.]*)");
      SmallVector<StringRef> groups;
      SmallVector<std::string> names;
      StringRef rest = text;
      while (symbol.match(rest, &groups)) {
        names.push_back(groups[1].str());
        rest =
            rest.drop_front(groups[0].data() + groups[0].size() - rest.data());
      }
      if (names.empty())
        break;
      std::string from = "@" + names[pick(names.size())];
      std::string to = pickOddName();
      std::string result;
      for (size_t pos = 0;;) {
        size_t hit = text.find(from, pos);
        if (hit == std::string::npos) {
          result += text.substr(pos);
          break;
        }
        size_t after = hit + from.size();
        bool whole = after >= text.size() ||
                     !(isAlnum(text[after]) || text[after] == '_');
        result += text.substr(pos, hit - pos);
        result += whole ? to : from;
        pos = after;
      }
      text = std::move(result);
      break;
    }
    default: { // deep nesting at a line start
      kinds += "deep-nesting ";
      unsigned depth = 1 + pick(20000);
      std::string open, close;
      for (unsigned i = 0; i < depth; ++i) {
        open += "module {\n";
        close += "}\n";
      }
      text = open + text + close;
      break;
    }
    }
  }
  if (!kinds.empty())
    kinds.pop_back();
  return text;
}

struct Outcome {
  unsigned accepted = 0, located = 0, failures = 0;
  unsigned pipelineRuns = 0, pipelineRejected = 0, escapes = 0;
  std::map<std::string, unsigned> kindCounts;
};
} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "executor-opt on mutated samples: no crash, and "
                              "a located error for every rejected input\n");
  std::vector<std::string> samples;
  for (const std::string &path : sampleFiles) {
    auto buffer = MemoryBuffer::getFile(path);
    if (!buffer) {
      errs() << "cannot read " << path << "\n";
      return 2;
    }
    samples.push_back((*buffer)->getBuffer().str());
  }
  if (std::error_code ec = sys::fs::create_directories(workDir)) {
    errs() << "cannot create " << workDir << ": " << ec.message() << "\n";
    return 2;
  }

  // Pipelines write into a workspace deep in a sandbox, so names with `../`
  // or an absolute path under it stay inside --work-dir even when a pass
  // lets them out of the workspace (--check-workspace reports that).
  SmallString<256> sandbox(workDir.getValue());
  sys::fs::make_absolute(sandbox);
  sys::path::append(sandbox, "sandbox");
  SmallString<256> absolute(sandbox);
  sys::path::append(absolute, "absolute", "victim");
  Mutator mutator(seed, std::string(absolute));
  Outcome outcome;
  for (unsigned n = 0; n < mutants; ++n) {
    unsigned sample = n % samples.size();
    std::string kinds;
    std::string text = mutator.mutate(samples[sample], kinds);
    ++outcome.kindCounts[kinds.substr(0, kinds.find(' '))];

    SmallString<256> input(workDir.getValue()), errors(workDir.getValue());
    sys::path::append(input, formatv("mutant-{0}.mlir", n).str());
    sys::path::append(errors, formatv("mutant-{0}.err", n).str());
    {
      std::error_code ec;
      raw_fd_ostream os(input, ec);
      if (ec) {
        errs() << "cannot write " << input << ": " << ec.message() << "\n";
        return 2;
      }
      os << text;
    }
    std::string what =
        formatv("mutant {0} (of {1}: {2})", n, sampleFiles[sample], kinds);
    // Runs executor-opt with `extra` options; false on a failure.
    auto check = [&](ArrayRef<std::string> extra, bool &accepted) {
      SmallVector<StringRef> args = {executorOpt, input, "-o", "/dev/null"};
      for (const std::string &arg : extra)
        args.push_back(arg);
      std::string command = join(args, " ");
      std::string message;
      bool executionFailed = false;
      std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                              StringRef(errors)};
      int rc = sys::ExecuteAndWait(executorOpt, args, std::nullopt, redirects,
                                   timeoutSeconds, /*MemoryLimit=*/0, &message,
                                   &executionFailed);
      auto fail = [&](const Twine &why) {
        ++outcome.failures;
        outs() << "FAIL: " << what << ": " << why << "\n  " << command << "\n";
        return false;
      };
      if (executionFailed || rc < 0)
        return fail(rc == -2 ? "executor-opt crashed: " + message
                             : "executor-opt did not finish: " + message);
      accepted = rc == 0;
      if (accepted)
        return true;
      auto stderrText = MemoryBuffer::getFile(errors);
      StringRef said = stderrText ? (*stderrText)->getBuffer() : StringRef();
      // An error located in the input: `PATH:LINE:COL: error:`.
      Regex located("^" + Regex::escape(input) + ":[0-9]+:[0-9]+: error: ",
                    Regex::Newline);
      if (!located.match(said))
        return fail("rejected without an error located in the input; it "
                    "said:\n" +
                    said.take_front(600));
      return true;
    };
    bool accepted = false;
    if (!check({}, accepted))
      continue;
    if (!accepted) {
      ++outcome.located;
    } else {
      ++outcome.accepted;
      if (pipelineEvery && outcome.accepted % pipelineEvery == 0) {
        SmallString<256> workspace(sandbox);
        sys::path::append(workspace, "1", "2", "3", "4");
        sys::path::append(workspace, "5", "6", "7",
                          formatv("workspace-{0}", n).str());
        bool pipelineAccepted = false;
        ++outcome.pipelineRuns;
        if (!check({"--pass-pipeline=builtin.module(executor-default-pipeline{"
                    "workspace=" +
                    std::string(workspace) + "})"},
                   pipelineAccepted))
          continue;
        if (!pipelineAccepted)
          ++outcome.pipelineRejected;
        // Every file the pipeline wrote is in its workspace.
        std::error_code ec;
        for (sys::fs::recursive_directory_iterator it(sandbox, ec), end;
             it != end && !ec; it.increment(ec)) {
          if (it->type() == sys::fs::file_type::directory_file)
            continue;
          StringRef path = it->path();
          if (path.starts_with((workspace + "/").str()))
            continue;
          ++outcome.escapes;
          if (checkWorkspace) {
            ++outcome.failures;
            outs() << "FAIL: " << what << ": the pipeline wrote " << path
                   << " outside its workspace " << workspace << "\n  "
                   << executorOpt << " " << input << "\n";
          }
        }
        sys::fs::remove_directories(sandbox, /*IgnoreErrors=*/true);
      }
    }
    sys::fs::remove(input);
    sys::fs::remove(errors);
  }
  outs() << formatv("seed {0}: {1} mutants, {2} accepted, {3} rejected with "
                    "a located error, {4} failures\n",
                    seed.getValue(), mutants.getValue(), outcome.accepted,
                    outcome.located, outcome.failures);
  outs() << formatv("  default pipeline on {0} accepted mutants: {1} "
                    "rejected with a located error, {2} files written "
                    "outside the workspace\n",
                    outcome.pipelineRuns, outcome.pipelineRejected,
                    outcome.escapes);
  for (auto &[kind, count] : outcome.kindCounts)
    outs() << formatv("  first mutation {0}: {1}\n", kind, count);
  outs() << (outcome.failures ? "FAILED\n" : "OK\n");
  return outcome.failures ? 1 : 0;
}
