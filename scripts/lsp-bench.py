# Times `wirelint server` on a repository: startup, then didChange until the
# diagnostics are published (a request the server does not know, queued
# behind the change, is answered once the re-check is done and its
# diagnostics are sent), then a hover, and the server's memory (VmRSS now,
# VmHWM its peak, from /proc). Each change appends, with a nonce (so each
# buffer is new content, never in the facts cache from an earlier session,
# as a keystroke's is not), either a comment in the file's own syntax
# (EDIT `comment`, the default: the file's facts stay the same) or a
# definition (EDIT `code`: a constant, a function or a local, so the facts
# of the file and its speaker change, as most keystrokes' do). Usage:
#   python3 scripts/lsp-bench.py ROOT REL_PATH_OF_AN_OPEN_FILE path/to/wirelint [RUNS] [EDIT]
import json, subprocess, sys, time, os
root = sys.argv[1]; rel = sys.argv[2]; binp = sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 11
nonce = "%x" % int(time.time() * 1e6)
edit = sys.argv[5] if len(sys.argv) > 5 else "comment"
ext = os.path.splitext(rel)[1]
comment = {".lua": "--", ".rs": "//"}.get(ext, "#")
def appended(k):
    if edit == "comment":
        return "\n%s edit %d %s\n" % (comment, k, nonce)
    if ext == ".rs":
        return "\nconst WL_BENCH_%d: &str = \"%s\";\n" % (k, nonce)
    if ext == ".lua":
        return "\nlocal wl_bench_%d = \"%s\"\n" % (k, nonce)
    return "\ndefmodule WlBench%d do\n  def k, do: \"%s\"\nend\n" % (k, nonce)
p = subprocess.Popen([binp, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None if os.environ.get("WIRELINT_SERVER_TIMING") else subprocess.DEVNULL, cwd=root)
def send(m):
    b = json.dumps(m).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def recv():
    n = 0
    while True:
        l = p.stdout.readline()
        if l in (b"\r\n", b"\n"): break
        if l.lower().startswith(b"content-length"): n = int(l.split(b":")[1])
    return json.loads(p.stdout.read(n))
def req(i, method, params):
    send({"jsonrpc":"2.0","id":i,"method":method,"params":params})
    while True:
        m = recv()
        if m.get("id") == i: return m
uri = "file://" + os.path.join(root, rel)
t0 = time.time()
req(1, "initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
send({"jsonrpc":"2.0","method":"initialized","params":{}})
text = open(os.path.join(root, rel)).read()
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"elixir","version":1,"text":text}}})
req(2, "textDocument/hover", {"textDocument":{"uri":uri},"position":{"line":0,"character":0}})
print("startup+open: %.3f s" % (time.time()-t0))
def cpu():
    f = open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
times = []; hovers = []
cpu0 = cpu()
for k in range(runs):
    t = time.time()
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":k+2},"contentChanges":[{"text": text + appended(k)}]}})
    req(100+k, "wirelint/barrier", {})
    times.append(time.time()-t)
    t = time.time()
    req(200+k, "textDocument/hover", {"textDocument":{"uri":uri},"position":{"line":0,"character":0}})
    hovers.append(time.time()-t)
def show(what, ts):
    ts.sort()
    print("%s: median %.1f ms, min %.1f ms, max %.1f ms (%d runs)" % (what, 1e3*ts[len(ts)//2], 1e3*ts[0], 1e3*ts[-1], len(ts)))
show("didChange -> diagnostics published", times)
show("then a hover", hovers)
print("server CPU time per change and hover: %.1f ms" % (1e3 * (cpu() - cpu0) / runs))
mem = dict(l.split(":", 1) for l in open("/proc/%d/status" % p.pid) if l.startswith(("VmRSS", "VmHWM")))
print("server memory: RSS %s, peak %s" % (mem["VmRSS"].strip(), mem["VmHWM"].strip()))
req(999, "shutdown", None); send({"jsonrpc":"2.0","method":"exit","params":None})
p.wait()
