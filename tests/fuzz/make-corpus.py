#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (committed; run again after
a wire format changes): small hand-made messages for the binary formats, and
the samples and pass tests (split at `// -----`) for the .mlir targets.
Each seed is named by what it is."""
import os
import re
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
out = os.path.join(here, "corpus")

MAGIC = 0x455845434C4E4348
OK, ERR = 0, 1
SHARED = 1 << 63


def u32(v): return struct.pack("<I", v)
def u64(v): return struct.pack("<Q", v)
def i64(v): return struct.pack("<q", v)


def pad(b, base=0):
    return b + b"\0" * ((-(len(b) + base)) % 16)


def request(inputs, outputs, name=b"square", pyface=0x1000, base=0, shared=None):
    """A launch request: inputs [(elt, sizes, data)], outputs [(rank, elt)]."""
    b = u64(MAGIC) + u64(pyface) + u32(len(inputs)) + u32(len(outputs)) + u32(len(name)) + name
    for i, (elt, sizes, data) in enumerate(inputs):
        b += u32(len(sizes)) + u32(elt) + b"".join(i64(s) for s in sizes)
        if shared is not None and i == 0:
            b += u64(len(data) | SHARED) + u64(shared)
        else:
            b = pad(b + u64(len(data)), base) + data
    for rank, elt in outputs:
        b += u32(rank) + u32(elt)
    return b


def reply(results, shared=None):
    b = u64(OK)
    for i, (elt, sizes, data) in enumerate(results):
        b += u32(len(sizes)) + u32(elt) + b"".join(i64(s) for s in sizes)
        if shared is not None and i == 0:
            b += u64(len(data) | SHARED) + u64(shared)
        else:
            b = pad(b + u64(len(data))) + data
    return b


def frame(opcode, seq, tag, body):
    return u64(32 + len(body)) + u64(opcode) + u64(seq) + u64(tag) + body


def doubles(*v): return b"".join(struct.pack("<d", x) for x in v)


def write(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def uleb(v):
    b = b""
    while True:
        byte = v & 0x7F
        v >>= 7
        if v:
            b += bytes([byte | 0x80])
        else:
            return b + bytes([byte])


def string(s): return uleb(len(s)) + s


def recording(texts, snapshots, output=b"\1"):
    """A recording's binary form (writeRecording), behind the harness's first
    byte: the size of its texts, then the texts."""
    placed_input = b"\2" + uleb(0) + uleb(11) + uleb(2)
    b = b"executor-studio-recording 1\n" + b"\1" + struct.pack("<d", 3.5) + uleb(0)
    b += placed_input + uleb(0) + uleb(len(snapshots)) + b"".join(snapshots) + output
    return bytes([len(texts)]) + texts + b


def snapshot(target, index, pass_, text, nested=(), diagnostics=b"\0", flags=1):
    b = string(target) + uleb(index) + string(pass_) + string(pass_) + string(b"builtin.module")
    b += bytes([flags]) + struct.pack("<d", 0.25) + b"\0" + diagnostics + text
    return b + uleb(len(nested)) + b"".join(nested)


def main():
    # Seeds are (re)written in place: the reproducers of fixed crashes that
    # were moved into the corpora by hand stay.
    vec4 = doubles(1, 2, 3, 4)
    # Launch requests: byte 0 sizes the client's arena (x 64 bytes).
    write("fuzz-launch-request", "one-in-one-out", b"\0" + request([(8, [4], vec4)], [(1, 8)]))
    write("fuzz-launch-request", "two-in-rank2", b"\0" + request(
        [(8, [2, 2], vec4), (4, [3], b"\1\0\0\0\2\0\0\0\3\0\0\0")], [(2, 8), (0, 4)]))
    write("fuzz-launch-request", "scalar-rank0", b"\0" + request([(8, [], doubles(2.5))], []))
    write("fuzz-launch-request", "empty", b"\0" + request([(8, [0], b"")], [(1, 8)]))
    write("fuzz-launch-request", "shared-arena", b"\4" + request([(8, [4], vec4)], [(1, 8)], shared=64))
    # Launch replies: arena, count of results asked, (rank, elt) each.
    write("fuzz-launch-reply", "one-result", b"\0\1\1\x08" + reply([(8, [4], vec4)]))
    write("fuzz-launch-reply", "two-results", b"\0\2\2\x08\0\x04" + reply([(8, [2, 2], vec4), (4, [], b"\7\0\0\0")]))
    write("fuzz-launch-reply", "shared-arena", b"\4\1\1\x08" + reply([(8, [4], vec4)], shared=32))
    write("fuzz-launch-reply", "error", b"\0\1\1\x08" + u64(ERR) + b"kernel failed")
    # Result descriptors an executor wrote: rank, element size, then the
    # aligned pointer, offset, sizes, strides.
    def view(rank, elt, aligned, offset, sizes, strides):
        return bytes([rank, elt]) + b"".join(i64(w) for w in [aligned, offset] + sizes + strides)
    texts = b"module {\n}\nfunc.func @k()\n"
    same, none, placed = b"\1", b"\0", b"\2" + uleb(11) + uleb(15) + uleb(1)
    diagnostic = uleb(1) + b"\1" + string(b"a warning") + string(b"x.mlir") + uleb(3) + uleb(7) + string(b"cse") + uleb(0)
    write("fuzz-recording", "shared-text", recording(texts, [snapshot(b"", 0, b"cse", same, flags=0)]))
    write("fuzz-recording", "nested-targets", recording(texts, [snapshot(b"", 0, b"cross-compile-targets", placed, nested=[
        snapshot(b"a", 0, b"a/extracted", placed), snapshot(b"a", 1, b"a/cse", same),
        snapshot(b"b", 0, b"b/extracted", placed)])]))
    write("fuzz-recording", "diagnostic-no-text", recording(texts, [snapshot(b"", 0, b"cse", none, diagnostics=diagnostic)], output=b"\0"))
    write("fuzz-result-view", "dense-rank2", view(2, 8, 0x10000, 0, [2, 3], [3, 1]))
    write("fuzz-result-view", "transposed", view(2, 4, 0x10000, 1, [3, 2], [1, 3]))
    write("fuzz-result-view", "broadcast-stride0", view(1, 8, 0x10000, 0, [4], [0]))
    write("fuzz-result-view", "empty-dimension", view(3, 8, 0x10000, 0, [2, 0, 2], [4, 2, 1]))
    write("fuzz-result-view", "offset-near-top", view(1, 8, -16, 1, [1], [1]))
    write("fuzz-result-view", "huge-stride", view(2, 16, 0x10000, 0, [2, 2], [2**62, 1]))
    # Transport: direct calls (0x40, flags << 8), replies (0x41), ORC
    # messages (Setup 0, Hangup 1, Result 2, CallWrapper 3).
    call = frame(0x40, 1, 0x1000, request([(8, [4], vec4)], [(1, 8)], base=32))
    write("fuzz-direct-call", "direct-launch", call)
    write("fuzz-direct-call", "two-direct-calls", call + frame(0x140, 2, 0x1000, request([], [(1, 8)], base=32)))
    write("fuzz-direct-call", "orc-call-wrapper", frame(3, 1, 0x2000, u64(5) + b"hello"))
    write("fuzz-direct-call", "direct-reply", frame(0x41, 7, 0, u64(OK)))
    write("fuzz-direct-call", "hangup-with-error", frame(1, 0, 0, b"\1" + u64(12) + b"kernel died!"))
    write("fuzz-direct-call", "share-arena-over-tcp", frame(0x42, 0, 0, u64(4096)))
    # Issue 41: ORC messages a lying executor sends (the client's transport
    # checks them before ORC): Setup twice, an SPS length beyond the bytes
    # (2^62), a result to a call never made, a message cut off half-way.
    def sps(b): return u64(len(b)) + b
    setup = frame(0, 0, 0, sps(b"x86_64-unknown-linux-gnu") + u64(4096) + u64(0) +
                  u64(1) + sps(b"__llvm_orc_SimpleExecutorDylibManager_open_wrapper") + u64(0x1000))
    write("fuzz-direct-call", "orc-setup-twice", setup + setup)
    write("fuzz-direct-call", "orc-result-length-2-62",
          setup + frame(2, 0, 0, b"\0" + u64(1 << 62) + b"lie"))
    write("fuzz-direct-call", "orc-setup-length-2-62",
          frame(0, 0, 0, u64(1 << 62) + b"x86_64"))
    write("fuzz-direct-call", "orc-result-to-a-call-never-made",
          setup + frame(2, 1000, 0, b"\1" + u64(0x1000)))
    write("fuzz-direct-call", "orc-result-cut-half-way",
          setup + frame(2, 0, 0, b"\1" + u64(0x1000))[:36])
    # Shared memory: chunks of (memfd pages | 0x80 unsealed, u16 length, bytes).
    def chunk(pages, data): return bytes([pages]) + struct.pack("<H", len(data)) + data
    share = frame(0x42, 0, 0, u64(4096))
    shared_call = frame(0x40, 1, 0x1000, request([(8, [4], vec4)], [(1, 8)], base=32, shared=0))
    write("fuzz-shared-memory", "arena-then-launch", chunk(1, share) + chunk(0, shared_call))
    write("fuzz-shared-memory", "arena-smaller-than-said", chunk(1, frame(0x42, 0, 0, u64(65536))) + chunk(0, shared_call))
    write("fuzz-shared-memory", "unsealed-arena", chunk(0x81, share) + chunk(0, shared_call))
    write("fuzz-shared-memory", "inline-launch", chunk(0, frame(0x40, 1, 0x1000, request([(8, [4], vec4)], [(1, 8)], base=32))))
    # Handshake lines (the peer's side of both ends).
    for name, text in [("token-line", "EXECUTOR-TOKEN fuzz-token-0123456789\n"),
                       ("wrong-token", "EXECUTOR-TOKEN guess\n"),
                       ("token-asked-ok", "EXECUTOR-TOKEN\nOK\n"),
                       ("ready", "EXECUTOR-READY\n"),
                       ("refused", "EXECUTOR-REFUSED busy: 8 sessions\n"),
                       ("tls", "EXECUTOR-TLS\n"),
                       ("orc-first", "\x28\0\0\0\0\0\0\0\0\0\0\0")]:
        write("fuzz-handshake", name, text.encode("latin-1"))
    # Services: byte 0 picks the service, the rest is its SPS argument buffer.
    write("fuzz-services", "store-asset", b"\0" + u32(11) + b"weights.bin" + b"\1\2\3\4")
    write("fuzz-services", "store-asset-dotdot", b"\0" + u32(2) + b".." + b"x")
    write("fuzz-services", "note", b"\1" + b"client says hello")
    write("fuzz-services", "await-unknown", b"\2" + u64(42))
    write("fuzz-services", "alloc", b"\3" + u64(64))
    write("fuzz-catalyst-services", "alloc", b"\0" + u64(64))
    write("fuzz-catalyst-services", "store-asset", b"\1" + u64(4) + b"data" + u64(16) + b"/tmp/weights.bin")
    write("fuzz-catalyst-services", "store-asset-slash-end", b"\1" + u64(1) + b"x" + u64(5) + b"/tmp/")
    # Asset names.
    for name, text in [("plain", b"weights.bin"), ("dotdot", b".."), ("dot", b"."),
                       ("slash", b"a/b"), ("nul", b"a\0b"), ("hidden", b".hidden"),
                       ("longest", b"n" * 255), ("too-long", b"n" * 256)]:
        write("fuzz-asset-name", name, text)
    # The language server's byte stream.
    def lsp(*messages):
        return b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(m), m) for m in messages)
    init = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
    opened = (b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":'
              b'{"uri":"file:///a.mlir","languageId":"mlir","version":1,"text":"func.func @f() {\\n  return\\n}\\n"}}}')
    hover = (b'{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":'
             b'{"uri":"file:///a.mlir"},"position":{"line":0,"character":11}}}')
    change = (b'{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":'
              b'{"uri":"file:///a.mlir","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":2},'
              b'"end":{"line":1,"character":8}},"text":"func.return"}]}}')
    shutdown = b'{"jsonrpc":"2.0","id":3,"method":"shutdown"}'
    write("fuzz-lsp-framing", "session", lsp(init, opened, hover, change, shutdown))
    write("fuzz-lsp-framing", "bad-length", b"Content-Length: 12x\r\n\r\n{}" + lsp(init))
    write("fuzz-lsp-framing", "not-jsonrpc", lsp(b"[1,2,3]", b'{"id":1}', init))
    write("fuzz-lsp-framing", "cancel", lsp(init, b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}'))
    # .mlir: the samples and the pass tests, split where lit splits them.
    mlir = [os.path.join(root, "samples", f) for f in sorted(os.listdir(os.path.join(root, "samples"))) if f.endswith(".mlir")]
    per_pass = {"fuzz-lower-runtime-dispatch": "LowerRuntimeDispatch",
                "fuzz-dispatch-executor-targets": "DispatchExecutorTargets",
                "fuzz-convert-executor-to-llvm": "ConvertExecutorToLLVM",
                "fuzz-cross-compile-targets": "CrossCompileTargets"}
    tests = {}
    for target, folder in per_pass.items():
        d = os.path.join(root, "tests", "lit", "Transforms", folder)
        if not os.path.isdir(d):  # a conversion pass's tests
            d = os.path.join(root, "tests", "lit", "Conversion", folder)
        tests[target] = [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".mlir")]
    dialect = []
    for folder in ["Executor", "Catalyst"]:
        d = os.path.join(root, "tests", "lit", "Dialect", folder)
        dialect += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".mlir")]

    def seeds(target, files):
        for path in files:
            text = open(path).read()
            text = re.sub(r"^// (RUN|CHECK|COM|expected)[^\n]*\n", "", text, flags=re.M)
            for i, part in enumerate(re.split(r"^// -----\s*$", text, flags=re.M)):
                if part.strip() and len(part) <= 6000:
                    base = os.path.splitext(os.path.basename(path))[0]
                    write(target, "%s-%s-%d.mlir" % (os.path.basename(os.path.dirname(path)), base, i), part)
    seeds("fuzz-mlir-parse", mlir + dialect)
    seeds("fuzz-lsp-requests", mlir)
    for target in per_pass:
        seeds(target, mlir + tests[target])


if __name__ == "__main__":
    sys.exit(main())
