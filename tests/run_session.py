#!/usr/bin/env python3
"""run_session.py GRUNDY: the interactive session driven through a pseudo-terminal, as a person
types it: a definition over two lines, an error with its caret and the session going on, Ctrl-C
during a long query (the session goes on), history (the Up arrow brings the last entry back),
the prelude's games and *n, a position alone (answered as solve), a definition without its
';', an error at the end of an entry, for over a set, a definition that fails its checks
(the session as it was: it crashed), :stats with each game's values (the query Ctrl-C
stopped dropped only its own game's), history kept in $HOME/.grundy_history
between sessions (and a $HOME that cannot be written), and :quit. Prints "N passed, M failed"; exits 1 on a failure."""
import os, pty, re, select, signal, sys, tempfile, time

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


home = tempfile.mkdtemp()

# The session on a pipe: a definition that fails its checks first of all (the name it had put
# in the map pointed into the rewound arena: exit 139), then an entry.
import subprocess
r = subprocess.run([grundy, "-i", "/dev/null"], input='game g = octal ""\nsolve *2\n', capture_output=True, text=True,
                   timeout=120)
check(r.returncode == 0 and "sg 2" in r.stdout and "needs a point" in r.stderr,
      "a failing definition, then an entry, on a pipe (status %d)" % r.returncode, r.stdout + r.stderr)


def start(home_dir):
    global pid, fd, buf
    buf = ""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm"
        os.environ["HOME"] = home_dir
        os.execv(grundy, [grundy, "--threads", "1"])


def quit_session(what):
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
    check(status == 0, "%s: :quit ends the session with status 0 (status %s)" % (what, status))


start(home)


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

# A position alone is solved; so is one whose last ';' is left out and a group of anyleaf.
send("kayles(4) + *3\r")
out = read_until("grundy> ")
check("solve kayles(4) + *3" in out and "outcome N (the player to move wins), sg 2" in out,
      "a position typed alone is answered as solve", out)
# A definition without its ';' is taken at once (the prompt does not wait for more).
send("game s = subtract {1,4}\r")
out = read_until("grundy> ", 10)
check("...>" not in out and "error" not in out, "a definition ending in '}' needs no ';'", out)
send("solve s(7)\r")
out = read_until("grundy> ")
check("outcome P (the player to move loses), sg 0" in out, "the definition without ';' was kept", out)
# An entry cut short, ended by an empty line: the caret after its last token.
send("solve s(7\r\r")
out = read_until("grundy> ")
check("<input>:1:10: error: unexpected end of input: expected ')'" in out and "solve s(7\n" in out,
      "an error at the end of an entry reads well, the caret after its last token", out)
send("game t { heap n; move -> n - k for k in {1, 3, 4} where k <= n; }\r")
read_until("grundy> ")
send("table t(0..7)\r")
out = read_until("grundy> ")
check("0 | 0 1 0 1 2 3 2 0" in out, "for k in a set literal in a rule block", out)
# A definition that fails its checks leaves the session as it was (it crashed: exit 139).
send('game bad = octal ""\r')
out = read_until("grundy> ")
check("needs a point" in out, "a failing definition says why", out)
send("solve *2\r")
out = read_until("grundy> ")
check("sg 2" in out, "the session answers after a failing definition", out)
send('game t = octal "0.7x"\r')
out = read_until("grundy> ")
check("error" in out, "a failing redefinition is refused", out)
send("table t(0..7)\r")
out = read_until("grundy> ")
check("0 | 0 1 0 1 2 3 2 0" in out, "a failing redefinition leaves the old definition", out)
send("solve bad(3)\r")
out = read_until("grundy> ")
check("unknown game 'bad'" in out, "the failing definition did not join", out)
# :stats: each game's values and memory; the query Ctrl-C stopped dropped its own game's values
# only (g's table from before stays).
send(":stats\r")
out = read_until("grundy> ")
check("values kept" in out and re.search(r"\n  g +8 +[0-9.]+ KiB", out) is not None and
      re.search(r"\n  t +8 +[0-9.]+ KiB", out) is not None, ":stats lists each game's values and memory", out)
check("grundygame" not in out, "the stopped query's half-made values were dropped", out)
send("*3 + kayles(2)\r")
out = read_until("grundy> ")
quit_session("first session")
if history:
    hist = os.path.join(home, ".grundy_history")
    text = open(hist).read().replace("\\040", " ") if os.path.exists(hist) else ""   # libedit's escapes
    check("*3 + kayles(2)" in text and ":quit" not in text, "history is written to $HOME/.grundy_history", text)
    # A second session finds it: the Up arrow brings the last session's last entry back.
    start(home)
    read_until("grundy> ")
    send("\x1b[A\r")
    out = read_until("grundy> ")
    check("solve *3 + kayles(2)" in out, "the history of the last session is read back", out)
    quit_session("second session")
    # A home that cannot be written: the session works and leaves with status 0.
    start(os.path.join(home, "no", "such", "dir"))
    read_until("grundy> ")
    send("*1\r")
    out = read_until("grundy> ")
    check("sg 1" in out, "a session whose home cannot be written answers", out)
    quit_session("unwritable home")

print("session: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
