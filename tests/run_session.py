#!/usr/bin/env python3
"""run_session.py GRUNDY: the interactive session driven through a pseudo-terminal, as a person
types it: a definition over two lines, an error with its caret and the session going on, Ctrl-C
during a long query (the session goes on), history (the Up arrow brings the last entry back),
the prelude's games and *n, and :quit. Prints "N passed, M failed"; exits 1 on a failure."""
import os, pty, select, signal, sys, time

grundy = sys.argv[1]
history = len(sys.argv) < 3 or sys.argv[2] == "history"   # built without libedit: no history
passed = failed = 0


def check(cond, what, text=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)
        if text:
            print("    output: " + text[-1500:].replace("\n", "\n    output: "))


pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm"
    os.execv(grundy, [grundy, "--threads", "1"])

buf = ""


def read_until(pattern, timeout=60.0):
    """Reads the terminal until pattern appears after what was read before; returns the new text."""
    global buf
    start = len(buf)
    end = time.time() + timeout
    while pattern not in buf[start:] and time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            buf += data.decode("utf-8", "replace").replace("\r\n", "\n")
    return buf[start:]


def send(text):
    os.write(fd, text.encode())


out = read_until("grundy> ")
check("grundy> " in out, "the session shows its prompt", out)

# A definition over two lines: the continuation prompt, then the query on it.
send("game g {\r")
out = read_until("...> ")
check("...> " in out, "an open brace asks for more", out)
send("heap n; move -> n - 2 where n >= 2; }\r")
read_until("grundy> ")
send("table g(0..7)\r")
out = read_until("grundy> ")
check("0 | 0 0 1 1 0 0 1 1" in out, "the two-line definition answers its table", out)

# A typo: the error with the line and a caret, a suggestion; then the fix runs.
send("tabel g(0..3)\r")
out = read_until("grundy> ")
check("<input>:1:1: error: unexpected name 'tabel' (did you mean 'table'?)" in out and "| ^~~~~" in out,
      "a misspelt keyword is shown with a caret and a suggestion", out)
send("table g(0..3)\r")
out = read_until("grundy> ")
check("0 | 0 0 1 1" in out, "the session goes on after an error", out)

# Ctrl-C during a long query stops the query, not the session.
send("table grundygame(0..100000000)\r")
time.sleep(1.0)
send("\x03")
out = read_until("grundy> ", 30)
check("interrupted; the session goes on" in out, "Ctrl-C stops the running query", out)
send("solve kayles(4) + *3\r")
out = read_until("grundy> ")
check("outcome N (the player to move wins), sg 2" in out and "-> kayles(4) + *1" in out,
      "after Ctrl-C the next query is answered (the prelude's kayles and *3)", out)

# History: the Up arrow brings the last entry back.
if history:
    send("\x1b[A\r")
    out = read_until("grundy> ")
    check("outcome N (the player to move wins), sg 2" in out, "the Up arrow recalls the last entry", out)

send(":quit\r")
status = None
for _ in range(600):                     # up to a minute (a sanitizer's exit is slow)
    read_until("\x00", 0.1)
    wpid, st = os.waitpid(pid, os.WNOHANG)
    if wpid:
        status = os.waitstatus_to_exitcode(st)
        break
    time.sleep(0.1)
if status is None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
check(status == 0, ":quit ends the session with status 0 (status %s)" % status)

print("session: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
