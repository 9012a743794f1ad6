# Times `wirelint server` on a repository: startup, then didChange until the
# diagnostics are published (a hover request queued behind the change
# answers once the re-check is done). Usage:
#   python3 scripts/lsp-bench.py ROOT REL_PATH_OF_AN_OPEN_FILE path/to/wirelint
import json, subprocess, sys, time, os
root = sys.argv[1]; rel = sys.argv[2]; binp = sys.argv[3]
p = subprocess.Popen([binp, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
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
times = []
for k in range(5):
    t = time.time()
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":k+2},"contentChanges":[{"text": text + ("\n# edit %d\n" % k)}]}})
    req(10+k, "textDocument/hover", {"textDocument":{"uri":uri},"position":{"line":0,"character":0}})
    times.append(time.time()-t)
times.sort()
print("didChange -> diagnostics published: median %.3f s, min %.3f s (5 runs)" % (times[2], times[0]))
req(99, "shutdown", None); send({"jsonrpc":"2.0","method":"exit","params":None})
p.wait()
