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

Sample headers (samples/*.mlir): a comment line `// runnable:` marks the
indented command lines after it (`//   executor-opt x.mlir \\`, up to a
line that is not one), run in a scratch copy of samples/ with build/bin on
PATH.

A command that fails, or output that does not match, fails the test with
the file, the line and what the command printed.
Usage: run-documented-commands.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!--\s*runnable(?::\s*(?P<options>[^>]*?))?\s*-->\s*$")


def markdown_blocks(path):
    """(line, commands, expected output or None) for each marked block."""
    lines = open(path, encoding="utf-8").read().splitlines()
    blocks = []
    i = 0
    while i < len(lines):
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
        blocks.append((start + 1, commands, expected))
        i = end + 1
    return blocks


def sample_blocks(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if line.strip() != "// runnable:":
            continue
        commands = []
        j = i + 1
        while j < len(lines) and lines[j].startswith("//   ") and lines[j][5:].strip():
            commands.append(lines[j][5:].rstrip())
            j += 1
        if not commands:
            raise SystemExit(f"{path}:{i + 1}: '// runnable:' with no indented command after it")
        blocks.append((i + 2, "\n".join(commands), None))
    return blocks


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

    # (file, its blocks, how to prepare a block's scratch directory)
    sources = [(path, markdown_blocks(path), mirror_repository) for path in documents]
    sources += [(path, sample_blocks(path), copy_samples) for path in sample_files]
    failures, ran = [], 0
    scratch_root = tempfile.mkdtemp(prefix="documented-commands-")
    try:
        for path, blocks, prepare in sources:
            for line, commands, expected in blocks:
                cwd = tempfile.mkdtemp(dir=scratch_root)
                prepare(cwd)
                where = f"{os.path.relpath(path, source)}:{line}"
                print(f"run: {where}", flush=True)
                ran += 1
                failure = run(where, commands, expected, cwd, env)
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
