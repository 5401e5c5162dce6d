#!/usr/bin/env python3
"""Runs every command the documentation marks as runnable (issue 26).

Markdown (README.md, lsp/README.md, vscode-extension/README.md, docs/*.md):
an HTML comment `<!-- runnable -->` on the line before a ```sh block marks
the block; `<!-- runnable: output -->` also checks that the block's output
holds every non-empty line of the next fenced block, in order (runs of
blanks compare as one). Each block runs with bash (`set -e -o pipefail`) in
a scratch directory that mirrors the repository (its top-level entries as
symbolic links, `build` the build directory), so `build/bin/...`,
`samples/...` and `scripts/...` resolve and what the commands write stays
there.

`<!-- runnable: executor -->` starts an executor-server on a free loopback
port first and writes its address where the text says `127.0.0.1:PORT`.
Every ```sh block must be marked, as runnable or with `<!-- not runnable:
REASON -->`: an unmarked block fails the test (a command the text quotes is
either run or says why not).

Sample headers (samples/*.mlir): a comment line `// runnable:` marks the
indented command lines after it (`//   executor-opt x.mlir \\`, up to a
line that is not one), run in a scratch copy of samples/ with build/bin on
PATH; `// runnable: from the repository` runs them in a mirror of the
repository instead, `... with an executor` as `executor` above. An indented
command line of a header (its first word a tool, `cd`, a variable
assignment or a path) that no marker precedes fails the test; `// not
runnable: REASON` before it says why it is not run.

The tools' --help (executor-compile, executor-opt, executor-server,
executor-studio, executor-lsp-server): a line of the overview that is a
command of the tool (`  executor-compile in.mlir -o prog`) runs in a
scratch directory whose in.mlir is samples/cross-compile-dispatch.mlir, and
every pass pipeline the help quotes (`builtin.module(...)`) must run
(executor-opt --pass-pipeline on an empty module).

`<!-- file: PATH -->` before a fenced block (```mlir, ...) says the block
is the repository's file PATH, which must hold exactly the block's lines:
a program the text shows is the one a runnable block runs.

Every relative link of these Markdown files (`[text](path)`, `![alt](path)`,
`path#anchor`) must name a file or folder of the repository, and an
`#anchor` one of the headings of the Markdown file it names (GitHub's
anchors: lower case, punctuation dropped, spaces as `-`).

A command that fails, or output that does not match, a shown file that
differs, or a link that does not resolve fails the test with the file, the
line and what is wrong.
Usage: run-documented-commands.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FILE_MARKER = re.compile(r"^<!--\s*file:\s*(?P<path>\S+)\s*-->\s*$")
# [text](target) and ![alt](target), not inside `code`; the target up to a
# space (a title may follow) or the closing parenthesis.
LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
MARKER = re.compile(r"^<!--\s*runnable(?::\s*(?P<options>[^>]*?))?\s*-->\s*$")
NOT_RUNNABLE = re.compile(r"^<!--\s*not runnable:\s*(?P<reason>\S[^>]*?)\s*-->\s*$")
# A header line of a sample that is a command: a tool, cd, an assignment, a path.
SAMPLE_COMMAND = re.compile(r"^//   (executor-\S+|cd|[A-Z_]+=\S*|\.{0,2}/\S+|build/\S+|scripts/\S+)(\s|$)")
PIPELINE = re.compile(r"builtin\.module\(")
TOOLS = ("executor-compile", "executor-opt", "executor-server", "executor-studio",
         "executor-lsp-server")

unmarked = []


def markdown_blocks(path):
    """(line, commands, expected output or None, options) for each marked
    block; unmarked ```sh blocks go to `unmarked`."""
    lines = open(path, encoding="utf-8").read().splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("```sh"):
            before = lines[i - 1].strip() if i else ""
            if not NOT_RUNNABLE.match(before):
                unmarked.append(f"{path}:{i + 1}: a ```sh block marked neither "
                                "<!-- runnable --> nor <!-- not runnable: REASON -->")
            i += 1
            continue
        m = MARKER.match(lines[i].strip())
        if not m:
            i += 1
            continue
        options = (m.group("options") or "").split()
        start = i + 1
        if start >= len(lines) or not lines[start].startswith("```sh"):
            raise SystemExit(f"{path}:{i + 1}: <!-- runnable --> must precede a ```sh block")
        end = start + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        commands = "\n".join(lines[start + 1:end])
        expected = None
        if "output" in options:
            j = end + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            k = j + 1
            while k < len(lines) and not lines[k].startswith("```"):
                k += 1
            expected = [l for l in lines[j + 1:k] if l.strip()]
        blocks.append((start + 1, commands, expected, options))
        i = end + 1
    return blocks


def sample_blocks(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    blocks = []
    covered = set()
    for i, line in enumerate(lines):
        stripped = line.strip()
        runnable = stripped.startswith("// runnable:")
        if not runnable and not stripped.startswith("// not runnable:"):
            continue
        commands = []
        j = i + 1
        while j < len(lines) and lines[j].startswith("//   ") and lines[j][5:].strip():
            commands.append(lines[j][5:].rstrip())
            covered.add(j)
            j += 1
        if not commands:
            raise SystemExit(f"{path}:{i + 1}: '{stripped}' with no indented command after it")
        if runnable:
            words = stripped[len("// runnable:"):]
            options = [o for o in ("repository", "executor") if o in words]
            blocks.append((i + 2, "\n".join(commands), None, options))
    for i, line in enumerate(lines):
        if not line.startswith("//"):
            break  # the header ends at the first line that is not a comment
        if SAMPLE_COMMAND.match(line) and i not in covered:
            unmarked.append(f"{path}:{i + 1}: a command in the header marked neither "
                            "'// runnable:' nor '// not runnable: REASON'")
    return blocks


def help_blocks(build, scratch_root):
    """(where, commands, None, options) for each command line of the tools'
    --help overviews, and one per pass pipeline their help quotes."""
    blocks = []
    for tool in TOOLS:
        binary = os.path.join(build, "bin", tool)
        if not os.path.exists(binary):
            continue  # not built (the studio without the GUI)
        text = subprocess.run([binary, "--help"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=60).stdout
        overview = text.split("USAGE:")[0]
        for n, line in enumerate(overview.splitlines()):
            if line.strip().startswith(tool + " "):
                blocks.append((f"{tool} --help, line {n + 1}", line.strip(), None,
                               ["help-input"]))
        for m in PIPELINE.finditer(text):
            depth, end = 0, m.start()
            for end in range(m.end() - 1, len(text)):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
            pipeline = text[m.start():end + 1]
            blocks.append((f"{tool} --help, the pipeline {pipeline}",
                           "echo 'module {}' > empty.mlir\n"
                           f"executor-opt empty.mlir --pass-pipeline='{pipeline}' > /dev/null",
                           None, []))
    return blocks


def anchors(path):
    """GitHub's anchors for the headings of a Markdown file."""
    found = set()
    fenced = False
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or not m:
            continue
        text = re.sub(r"[`*]|<[^>]*>", "", m.group(1)).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        base, n = slug, 1
        while slug in found:
            slug = f"{base}-{n}"
            n += 1
        found.add(slug)
    return found


def check_links_and_files(path, source):
    """Problems with the relative links and the `<!-- file: -->` blocks of a
    Markdown file."""
    problems = []
    lines = open(path, encoding="utf-8").read().splitlines()
    fenced = False
    for n, line in enumerate(lines):
        m = FILE_MARKER.match(line.strip())
        if m:
            shown = os.path.join(source, m.group("path"))
            if n + 1 >= len(lines) or not lines[n + 1].startswith("```"):
                problems.append(f"{os.path.relpath(path, source)}:{n + 1}: <!-- file: --> must precede a fenced block")
                continue
            end = n + 2
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if not os.path.isfile(shown):
                problems.append(f"{os.path.relpath(path, source)}:{n + 1}: the file {m.group('path')} is not in the repository")
            elif open(shown, encoding="utf-8").read().splitlines() != lines[n + 2:end]:
                problems.append(f"{os.path.relpath(path, source)}:{n + 1}: the block is not {m.group('path')} "
                                "as the repository holds it")
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for link in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            target = link.group("target")
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # https:, mailto:, file: ...
            where, _, anchor = target.partition("#")
            named = os.path.normpath(os.path.join(os.path.dirname(path), where)) if where else path
            if not os.path.exists(named):
                problems.append(f"{os.path.relpath(path, source)}:{n + 1}: the link {target} names no file "
                                f"({os.path.relpath(named, source)})")
            elif anchor and named.endswith(".md") and anchor not in anchors(named):
                problems.append(f"{os.path.relpath(path, source)}:{n + 1}: the link {target}: no heading of "
                                f"{os.path.relpath(named, source)} has the anchor #{anchor}")
    return problems


class Executor:
    """An executor-server on a free loopback port, for blocks that say
    127.0.0.1:PORT."""

    def __init__(self, build, cwd):
        self.log = open(os.path.join(cwd, "executor-server.log"), "w")
        self.process = subprocess.Popen(
            [os.path.join(build, "bin", "executor-server"), "--bind", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.address = None
        line = self.process.stdout.readline()  # "listening on 127.0.0.1:N"
        m = re.search(r"listening on (127\.0\.0\.1:\d+)", line)
        if m:
            self.address = m.group(1)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def normalize(text):
    return " ".join(text.split())


def check_output(output, expected):
    """The first expected line not found (in order) in output, or None."""
    got = [normalize(l) for l in output.splitlines()]
    at = 0
    for line in expected:
        want = normalize(line)
        while at < len(got) and got[at] != want:
            at += 1
        if at == len(got):
            return line
        at += 1
    return None


def run(where, commands, expected, cwd, env):
    script = "set -e -o pipefail\n" + commands + "\n"
    result = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=900)
    if result.returncode != 0:
        return f"{where}: exit status {result.returncode}\n{commands}\n--- output ---\n{result.stdout}"
    if expected is not None:
        missing = check_output(result.stdout, expected)
        if missing is not None:
            return (f"{where}: the output does not show '{missing}' (in the order the text gives)\n"
                    f"{commands}\n--- output ---\n{result.stdout}")
    return None


def main():
    source, build = map(os.path.abspath, sys.argv[1:3])
    documents = [os.path.join(source, p) for p in
                 ("README.md", "lsp/README.md", "vscode-extension/README.md")]
    docs = os.path.join(source, "docs")
    documents += sorted(os.path.join(docs, p) for p in os.listdir(docs) if p.endswith(".md"))
    samples = os.path.join(source, "samples")
    sample_files = sorted(os.path.join(samples, p) for p in os.listdir(samples) if p.endswith(".mlir"))

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.join(build, "bin"), env.get("PATH", "")])
    # The demo and the scripts use this build; it is built already.
    env["EXECUTOR_STUDIO_BUILD_DIR"] = build
    env["EXECUTOR_STUDIO_PREBUILT"] = "1"
    def mirror_repository(cwd):
        for entry in os.listdir(source):
            if entry not in ("build", ".git"):
                os.symlink(os.path.join(source, entry), os.path.join(cwd, entry))
        os.symlink(build, os.path.join(cwd, "build"))

    def copy_samples(cwd):
        for entry in os.listdir(samples):
            if entry.endswith(".mlir"):
                shutil.copy(os.path.join(samples, entry), cwd)

    def help_input(cwd):
        shutil.copy(os.path.join(samples, "cross-compile-dispatch.mlir"),
                    os.path.join(cwd, "in.mlir"))

    # (file, its blocks, how to prepare a block's scratch directory)
    sources = [(path, markdown_blocks(path), mirror_repository) for path in documents]
    sources += [(path, sample_blocks(path), copy_samples) for path in sample_files]
    failures, ran = list(unmarked), 0
    for path in documents:
        failures += check_links_and_files(path, source)
    scratch_root = tempfile.mkdtemp(prefix="documented-commands-")
    # The studio's settings and kept edits, and the tools' caches, of this
    # run only: a user's own are neither read nor left with the scratch
    # files' recovery entries.
    for variable, name in (("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                           ("XDG_CACHE_HOME", "cache")):
        env[variable] = os.path.join(scratch_root, "home", name)
        os.makedirs(env[variable])
    sources += [(None, help_blocks(build, scratch_root), None)]
    try:
        for path, blocks, prepare in sources:
            for line, commands, expected, options in blocks:
                cwd = tempfile.mkdtemp(dir=scratch_root)
                if "repository" in options:
                    mirror_repository(cwd)
                elif "help-input" in options:
                    help_input(cwd)
                elif prepare:
                    prepare(cwd)
                where = f"{os.path.relpath(path, source)}:{line}" if path else line
                print(f"run: {where}", flush=True)
                ran += 1
                executor = Executor(build, cwd) if "executor" in options else None
                try:
                    if executor:
                        if not executor.address:
                            failures.append(f"{where}: the executor-server did not start")
                            continue
                        commands = commands.replace("127.0.0.1:PORT", executor.address)
                    failure = run(where, commands, expected, cwd, env)
                finally:
                    if executor:
                        executor.close()
                if failure:
                    failures.append(failure)
    finally:
        shutil.rmtree(scratch_root, ignore_errors=True)
    for failure in failures:
        print("FAILED " + failure, file=sys.stderr)
    print(f"{ran} documented command blocks, {len(failures)} failed")
    if ran == 0:
        print("no block is marked runnable: the markers are gone", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
