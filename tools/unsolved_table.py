#!/usr/bin/env python3
"""unsolved_table: the table of unsolved octal games, docs/tables/unsolved-octal.md.

Every member of the family in examples/unsolved-octal.game (the codes of its `for c in {...}`
list) is computed by `grundy` to --heaps heaps (heaps 0..heaps-1, as the published tables count
n), and a member whose values the rare-value kernel was computing at that point (`rare_kernel`
in the check's JSON) goes on to --rare-heaps. Each member is its own `grundy --threads 1`
process with its own `--checkpoint`, on the threads no other member uses when it starts a stage
(`--member-threads M`: always `grundy --threads M`), so that:

  * --threads N runs N members at once (the longest work is one member: a member is never split
    across processes; when one or two long members are left, their next stages get the
    kernel's own threads, whose values are the same bytes as one thread's);
  * a member's time is its own: the wall and CPU time of its processes (CPU from the kernel's
    accounting of the child, wait4), never the time since the table started;
  * the run is resumable at any point: a finished member's row is kept in STATE/<code>/row.json,
    and an unfinished one goes on from its checkpoint (the second stage goes on from the first's
    values: `check G periodic` keeps its checkpoint at its --to when it proves nothing). Ctrl-C
    (or SIGTERM) makes every running grundy save its checkpoint and stop; run the same command
    again to go on.

With --plain-heaps N every member goes to N heaps first, and one that a plain kernel computed there
stops (0.06's work per heap grows with the heaps: 2^22 would take hours); the others go on. With
--member-time S a member's stages in this run may take S seconds of wall time in all: one cut
short keeps its checkpoint, its row shows how far it got (the columns of the heaps its checkpoint
holds, read back by a run to just below them), and the same command goes on with it.

A state's targets may be raised (a higher --plain-heaps, --heaps or --rare-heaps, never lower):
the members its old targets had finished go on from their checkpoints (with --keep-checkpoints;
without, from heap 0), so a table made to 2^18 is taken further by the same state.

The table's bytes are the same for every --threads apart from the time columns and the closing
note's times (and the n of a member a --member-time cut short): a member's row is what one
`grundy` run of that member alone prints.

  tools/unsolved_table.py [--grundy build/grundy] [--threads N] [--member-threads M]
                          [--heaps 2^22] [--rare-heaps 2^26]
                          [--plain-heaps 2^18] [--member-time SECONDS]
                          [--state unsolved.state] [--out docs/tables/unsolved-octal.md]
                          [--members CODE,CODE,...] [--family examples/unsolved-octal.game]
                          [--published docs/tables/unsolved-published.csv] [--table-only]

On standard error the command says when a member is done and, every --progress-every seconds
(60), where each running member is: its heap, rate and the time to go at that rate, read off
grundy's own progress lines (which stay out of the member's stderr.txt).

--table-only writes the table from the state as it stands and computes nothing (a long table
over several sittings: stop the command, write the table, start the command again): a member
the targets ask more of shows the last stage it finished, "on the way to" its next target.
"""
import argparse
import csv
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def count(text):
    """'2^22', '4194304' or '4_194_304' as an integer."""
    text = text.replace('_', '')
    if '^' in text:
        base, exp = text.split('^')
        return int(base) ** int(exp)
    return int(text)


def family_codes(path):
    """The codes of the family's list: the quoted strings of the first `for c in {...}`."""
    src = open(path, encoding='utf-8').read()
    src = '\n'.join(line.split('#', 1)[0] for line in src.splitlines())   # codes hold no '#'
    m = re.search(r'for\s+\w+\s+in\s*\{([^}]*)\}', src)
    if not m:
        sys.exit('unsolved_table: no "for c in {...}" list in %s' % path)
    return re.findall(r'"([^"]*)"', m.group(1))


def dirname_of(code):
    """A directory name for a code: '4!.0' -> '4x.0' ('!' and '?' are awkward in shells)."""
    return code.replace('!', 'x').replace('?', 'q').replace('=', 'e')


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_whole(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Runner:
    """Runs members' stages in grundy processes, remembering what each cost."""

    def __init__(self, args):
        self.args = args
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.children = set()
        self.failed = []
        self.elsewhere = []               # members another process holds the lock of
        self.where = {}                   # a running member's code: its progress samples (heaps, of, time)
        self.busy = 0                     # members being computed now (threads for the tail)

    # "grundy: query 1 (u periodic): u: 33554432 of 67108864 done, 2119129/s, 10 s in"; a message
    # ("grundy: error: time limit ... u: 39841792 of ... done (raise it ...") is not one
    PROGRESS = re.compile(r'^grundy: (?!error:|warning:).*: (\d+) of (\d+) done(, [^,()]*)*$')

    def copy_stderr(self, code, pipe, errf):
        """A member's standard error, line by line: its progress lines (grundy's line every few
        seconds off a terminal) kept for the census's own progress, every other line appended to
        its stderr.txt, where its messages are read back."""
        for line in pipe:
            m = self.PROGRESS.match(line.decode('utf-8', 'replace'))
            if m:
                with self.lock:
                    samples = self.where.setdefault(code, [])
                    samples.append((int(m.group(1)), int(m.group(2)), time.monotonic()))
                    del samples[:-2]
            else:
                errf.write(line)
                errf.flush()

    def progress_lines(self):
        """A line for each running member that has shown its progress: the heap it is at, and
        from its last two samples its rate and the time to go at that rate."""
        out = []
        with self.lock:
            for code, samples in sorted(self.where.items()):
                done, of, t = samples[-1]
                line = 'unsolved_table: %s at heap %s of %s' % (code, '{:,}'.format(done), '{:,}'.format(of))
                if len(samples) == 2 and t > samples[0][2] and done > samples[0][0]:
                    rate = (done - samples[0][0]) / (t - samples[0][2])
                    line += ', %s heaps a second, about %s to go' % ('{:,.0f}'.format(rate),
                                                                     duration((of - done) / rate))
                out.append(line)
        return out

    def member_threads(self):
        """A member's grundy --threads: --member-threads when given; else the threads no other
        member is using now (at least 1), so that the last long members, a dense code's plain
        kernel or the rare-value pipeline, get the cores the finished ones left (each stage is
        a grundy run of its own, so a member's next stage takes what is free then). The
        values are the same bytes on any number of threads."""
        if self.args.member_threads:
            return self.args.member_threads
        with self.lock:
            return max(1, self.args.threads - self.busy + 1)

    def run_grundy(self, mdir, to, max_time=None):
        """One grundy run of the member in mdir to heap `to` (within max_time seconds, when
        given): (exit status, the check's JSON row or None, what it printed on standard error)."""
        cmd = [self.args.grundy, 'member.game', '--to', str(to), '--threads', str(self.member_threads()),
               '--format', 'json', '--checkpoint', 'member.ck']
        if not self.args.progress:
            cmd.append('--no-progress')
        if self.args.max_memory:
            cmd += ['--max-memory', self.args.max_memory]
        if max_time is not None:
            cmd += ['--max-time', str(max_time)]
        # A member runs in a session of its own (so that a stop reaches its whole group). Where
        # the scheduler groups processes by session (Linux's autogroup), a session's share of the
        # processors ignores the nice values inside it: under `nice 19` the census would still
        # take its full share from other work. The new session's group gets this process's nice.
        niceness = os.nice(0)
        if niceness > 0 and os.path.exists('/proc/self/autogroup'):
            cmd = ['sh', '-c', 'echo %d > /proc/self/autogroup 2>/dev/null; exec "$0" "$@"' % niceness] + cmd
        start = time.monotonic()
        with open(os.path.join(mdir, 'stderr.txt'), 'ab+') as errf:
            since = errf.tell()           # this run's messages start here
            code = os.path.basename(mdir)
            p = subprocess.Popen(cmd, cwd=mdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            copier = threading.Thread(target=self.copy_stderr, args=(code, p.stderr, errf))
            copier.start()
            with self.lock:
                self.children.add(p)
            out = p.stdout.read()
            copier.join()
            _, status, usage = os.wait4(p.pid, 0)   # (not wait(): the child's CPU time comes with it)
            p.returncode = os.waitstatus_to_exitcode(status)
            with self.lock:
                self.children.discard(p)
                self.where.pop(code, None)
            errf.seek(since)
            err = errf.read()
        wall = time.monotonic() - start
        cpu = usage.ru_utime + usage.ru_stime
        # every process's time counts, an interrupted one's too (its work is in the checkpoint)
        with open(os.path.join(mdir, 'times.txt'), 'a', encoding='utf-8') as f:
            f.write('%d %.3f %.3f %d\n' % (to, wall, cpu, p.returncode))
        row = None
        if p.returncode in (0, 1):
            lines = [l for l in out.decode('utf-8').splitlines() if l.strip()]
            row = json.loads(lines[-1])
        return p.returncode, row, err.decode('utf-8', 'replace')

    def next_target(self, stages):
        """How far the member's next stage goes (heaps), or None: it is done. Every member goes
        to --plain-heaps first (when below --heaps); one a plain kernel computed there stops (its
        work per heap grows with the heaps: 0.06 would take hours to 2^22), the others go on to
        --heaps, and a sparse space on to --rare-heaps. A stage a limit cut short (--member-time)
        is gone on with, from its checkpoint."""
        a = self.args
        if not stages:
            return min(a.heaps, a.plain_heaps)
        last = stages[-1]
        if last.get('limit'):
            return last['limit']['target']
        row, h = last['row'], last['heaps']
        if row['status'] == 'proved':
            return None
        if not row.get('rare_kernel'):
            # a plain kernel's member stops at --plain-heaps (a state made with a lower one goes on)
            return a.plain_heaps if h < a.plain_heaps else None
        if h < a.heaps:
            return a.heaps
        # --sparse settled: only a sparse space, whose rare heaps ended in the first half of the
        # heaps (0.6: none past heap 20627). The kernel also takes codes whose rare class keeps
        # growing (0.04 from 2^19 on, about 4% of the heaps rare), and its work per heap grows
        # with the rare heaps: those would take hours to 2^26.
        lr = row.get('last_rare')
        if h < a.rare_heaps and (a.sparse == 'rare' or lr is None or lr < h // 2):
            return a.rare_heaps
        return None

    def cut_short(self, mdir, target, err):
        """A stage a limit stopped (exit status 3): the stage it leaves, with the row of the heaps
        its checkpoint holds (a run to just below them reads them from the checkpoint and computes
        nothing), or None when grundy did not say how far it got."""
        m = re.search(r': (\d+) of \d+ done', err)
        if not m or int(m.group(1)) < 1:
            return None
        reached = int(m.group(1))
        status, row, _ = self.run_grundy(mdir, reached - 1)
        if row is None:
            return None
        reason = 'time' if 'time limit' in err else 'limit'
        return {'heaps': reached, 'row': row, 'limit': {'target': target, 'reason': reason}}

    def member(self, code):
        mdir = os.path.join(self.args.state, dirname_of(code))
        os.makedirs(mdir, exist_ok=True)
        done = os.path.join(mdir, 'row.json')
        spath = os.path.join(mdir, 'stages.json')
        if (os.path.exists(done) and not json.load(open(done, encoding='utf-8')).get('limit')
                and (not os.path.exists(spath)
                     or self.next_target(json.load(open(spath, encoding='utf-8'))) is None)):
            return                        # finished, and the targets (maybe raised since) ask no more
        if not self.lock_member(mdir):
            with self.lock:
                self.elsewhere.append(code)
            return
        with self.lock:
            self.busy += 1
        try:
            self.member_locked(code, mdir, done)
        finally:
            with self.lock:
                self.busy -= 1
            shutil.rmtree(os.path.join(mdir, 'lock'), ignore_errors=True)

    def lock_member(self, mdir):
        """A member is computed by one process at a time, whatever shares the state folder (runs
        on other machines over a shared file system): mkdir is atomic. A lock left by a process of
        this machine that is gone is taken over."""
        lock = os.path.join(mdir, 'lock')
        me = '%s %d\n' % (socket.gethostname(), os.getpid())
        for _ in range(2):
            try:
                os.mkdir(lock)
                write_whole(os.path.join(lock, 'owner'), me)
                return True
            except FileExistsError:
                try:
                    host, pid = open(os.path.join(lock, 'owner')).read().split()
                except (OSError, ValueError):
                    return False          # being taken right now
                if host != socket.gethostname() or pid_alive(int(pid)):
                    return False
                shutil.rmtree(lock, ignore_errors=True)
        return False

    def member_locked(self, code, mdir, done):
        game = 'game u = octal "%s";\ncheck u periodic;\n' % code
        gpath = os.path.join(mdir, 'member.game')
        if not os.path.exists(gpath) or open(gpath).read() != game:
            write_whole(gpath, game)
        # the stages finished so far (a later run must not go back to the first stage's --to
        # over a checkpoint that already holds the second's heaps)
        spath = os.path.join(mdir, 'stages.json')
        stages = json.load(open(spath, encoding='utf-8')) if os.path.exists(spath) else []
        # --member-time: this run's time for the member, all its stages together
        deadline = None if self.args.member_time is None else time.monotonic() + self.args.member_time
        heaps = self.next_target(stages)
        while heaps is not None and not self.stop.is_set():
            left = None if deadline is None else max(1, int(round(deadline - time.monotonic())))
            status, row, err = self.run_grundy(mdir, heaps - 1, left)
            stage = {'heaps': heaps, 'row': row}
            if row is None and status == 3 and not self.stop.is_set():
                stage = self.cut_short(mdir, heaps, err)
            if stage is None or stage['row'] is None:
                if not self.stop.is_set():
                    self.failed.append((code, status, mdir))
                return
            if stages and stages[-1].get('limit'):
                stages.pop()              # the stage gone on with replaces where it had stopped
            stages.append(stage)
            write_whole(spath, json.dumps(stages, sort_keys=True) + '\n')
            if stage.get('limit'):
                break
            heaps = self.next_target(stages)
        if heaps is not None and not (stages and stages[-1].get('limit')):
            return                        # stopped (Ctrl-C): the next run goes on
        row = stages[-1]['row']
        wall = cpu = 0.0
        for line in open(os.path.join(mdir, 'times.txt'), encoding='utf-8'):
            f = line.split()
            wall += float(f[1])
            cpu += float(f[2])
        result = {'code': code, 'row': row, 'stages': [{'heaps': st['heaps'], 'row': st['row']} for st in stages], 'wall_seconds': round(wall, 3), 'cpu_seconds': round(cpu, 3)}
        if stages[-1].get('limit'):
            result['limit'] = stages[-1]['limit']   # the checkpoint stays: the next run goes on
        write_whole(done, json.dumps(result, sort_keys=True) + '\n')
        if not self.args.keep_checkpoints and not result.get('limit'):
            for name in ('member.ck', 'member.ck.tmp'):
                if os.path.exists(os.path.join(mdir, name)):
                    os.remove(os.path.join(mdir, name))

    def run(self, codes):
        queue = list(codes)
        qlock = threading.Lock()
        finished = [0]
        total = len(queue)

        def worker():
            while not self.stop.is_set():
                with qlock:
                    if not queue:
                        return
                    code = queue.pop(0)
                self.member(code)
                with qlock:
                    finished[0] += 1
                    if self.args.progress:
                        print('unsolved_table: %d/%d members (%s)' % (finished[0], total, code), file=sys.stderr, flush=True)

        # Ctrl-C and SIGTERM only set a flag: an exception raised inside Thread.join (as the
        # default KeyboardInterrupt is) can leave the thread marked finished while it runs
        # (CPython 3.11: join then returns at once), and the interpreter's exit then stops
        # the workers before they record their members' times and locks
        asked = threading.Event()

        def on_signal(signum, frame):
            asked.set()
        before = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        threads = [threading.Thread(target=worker) for _ in range(max(1, self.args.threads))]
        for t in threads:
            t.start()
        try:
            shown = time.monotonic()
            while any(t.is_alive() for t in threads) and not asked.is_set():
                for t in threads:
                    t.join(0.2)
                # a member may take hours: where each running one is, every --progress-every seconds
                if self.args.progress and self.args.progress_every > 0 \
                        and time.monotonic() - shown >= self.args.progress_every:
                    shown = time.monotonic()
                    for line in self.progress_lines():
                        print(line, file=sys.stderr, flush=True)
            if asked.is_set():
                self.interrupt()
            for t in threads:
                t.join()
        finally:
            for sig, h in before.items():
                signal.signal(sig, h)
        return not asked.is_set()

    def interrupt(self):
        """Every running grundy saves its checkpoint (SIGTERM) and stops; no new member starts."""
        self.stop.set()
        with self.lock:
            for p in self.children:
                try:
                    p.send_signal(signal.SIGTERM)
                except ProcessLookupError:
                    pass


def raises(old, args):
    """Whether the targets of args are those of the state's targets.txt line `old`, or higher:
    the finished members then go on from their checkpoints (kept by --keep-checkpoints; a member
    without one starts again) and no row of the state has more heaps than its new target."""
    f = old.split()
    if len(f) not in (3, 4) or f[2] != args.sparse:
        return False
    heaps, rare = int(f[0]), int(f[1])
    plain = int(f[3]) if len(f) == 4 else heaps
    return args.heaps >= heaps and args.rare_heaps >= rare and args.plain_heaps >= plain


def published_rows(path):
    rows = {}
    if path and os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for r in csv.DictReader(line for line in f if not line.startswith('#')):
                rows[r['code']] = r
    return rows


def power(n):
    """4194304 -> '2^22'; other numbers as they are."""
    if n > 0 and n & (n - 1) == 0:
        return '2^%d' % (n.bit_length() - 1)
    return str(n)


def duration(s):
    s = int(round(s))
    if s < 60:
        return '%d s' % s
    if s < 3600:
        return '%d min %02d s' % (s // 60, s % 60)
    return '%d h %02d min' % (s // 3600, s % 3600 // 60)


def table(args, codes, results, published, command, runs_wall):
    out = []
    out.append('# The unsolved octal games')
    out.append('')
    out.append('The codes of the list of unsolved games in T. Czajka\'s octal-games tables (`UnsolvedGames.md`):')
    out.append('Grundy\'s game (`4!.0`), %d codes `0.xyz` and %d codes `4.xyz`, the family of'
               % (sum(c.startswith('0.') for c in codes), sum(c.startswith('4.') for c in codes)))
    out.append('[`examples/unsolved-octal.game`](../../examples/unsolved-octal.game). Every code is computed to')
    if args.plain_heaps < args.heaps:
        out.append('%s heaps (heaps 0..%s - 1, the published tables\' n); one a plain kernel computed there stops'
                   % (power(args.plain_heaps), power(args.plain_heaps)))
        out.append('(its work per heap grows with the heaps), the others go on to %s heaps, and a code the'
                   % power(args.heaps))
        out.append('rare-value kernel was computing')
    else:
        out.append('%s heaps (heaps 0..%s - 1, the published tables\' n), and a code the rare-value kernel was computing'
                   % (power(args.heaps), power(args.heaps)))
    if args.sparse == 'settled':
        out.append('there with no rare heap in the second half (a sparse space) goes on to %s heaps; a period proved'
                   % power(args.rare_heaps))
    else:
        out.append('there goes on to %s heaps; a period proved' % power(args.rare_heaps))
    out.append('earlier ends the code (n is then the heaps its proof read). Over heaps 0..n-1: the largest')
    out.append('value and the first heap with it, the rare-value mask')
    out.append('(hexadecimal; `p` after it: with the heap\'s parity), how many heaps are rare (heap 0 counted, as')
    out.append('the published tables count it) and the last of them. Kernel `rare`: the rare-value kernel\'s own')
    out.append('classes; `plain`: a plain kernel computed the values, and the classes are those the values give,')
    out.append('oriented as the rare-value kernel orients them (see [periodicity.md](../periodicity.md), "The research')
    out.append('tables\' columns"); for a dense code they are no sparse space. Time: the')
    out.append('member\'s own processes, wall clock and CPU. The published columns (Czajka, where his table')
    out.append('has them) stand beside ours; they are counted over their own n.')
    out.append('')
    out.append('| code | status | n | largest | at | rare mask | rare | last rare | kernel | wall (s) | CPU (s) |'
               ' pub. n | pub. largest | pub. at | pub. mask | pub. rare | pub. last rare |')
    out.append('|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|')
    total_cpu = total_wall = 0.0
    for code in codes:
        res = results.get(code)
        pub = published.get(code, {})
        pcells = [pub.get(k, '') for k in ('n', 'largest', 'largest_at', 'rare_mask', 'rare_count', 'last_rare')]
        if res is None:
            out.append('| `%s` | not computed | | | | | | | | | | %s |' % (code, ' | '.join(pcells)))
            continue
        r = res['row']
        status = r['status']
        if status == 'proved':
            status = 'proved: period %d, preperiod %d' % (r['period'], r['preperiod'])
        if res.get('limit'):
            status = 'limit (%s) on the way to %s' % (res['limit']['reason'], power(res['limit']['target']))
        if res.get('pending'):
            status = 'on the way to %s' % power(res['pending'])
        mask = '' if 'rare_mask' not in r else '%x%s' % (r['rare_mask'], 'p' if r.get('rare_heap_parity') else '')
        last = '' if r.get('last_rare') is None else str(r['last_rare'])
        total_cpu += res['cpu_seconds']
        total_wall += res['wall_seconds']
        cells = [
            '`%s`' % code, status, power(r['checked_to'] + 1), str(r.get('largest', '')), str(r.get('largest_at', '')),
            mask, str(r.get('rare_count', '')), last, 'rare' if r.get('rare_kernel') else 'plain',
            '%.1f' % res['wall_seconds'], '%.1f' % res['cpu_seconds'],
        ] + pcells
        out.append('| ' + ' | '.join(cells) + ' |')
    out.append('')
    done = sum(1 for c in codes if c in results)
    rare = sum(1 for c in codes if c in results and results[c]['row'].get('rare_kernel'))
    proved = sum(1 for c in codes if c in results and results[c]['row']['status'] == 'proved')
    limited = [c for c in codes if c in results and results[c].get('limit')]
    pending = [c for c in codes if c in results and results[c].get('pending')]
    out.append('%d of %d codes computed; %d by the rare-value kernel, %d with a proved period.' % (done, len(codes), rare, proved))
    if pending:
        out.append('%d are on the way to their targets (the command\'s run was stopped to write this table: the row is the'
                   % len(pending))
        out.append('last stage each finished, the time includes the work since): %s.' % ', '.join('`%s`' % c for c in pending))
    if limited:
        out.append('%d stopped at their time limit (`--member-time`) on the way: %s. Their n is how far they got, and'
                   % (len(limited), ', '.join('`%s`' % c for c in limited)))
        out.append('depends on the machine; the same command goes on with them from their checkpoints.')
    out.append('')
    out.append('Made by `%s`: the members took %s of CPU time (%s of wall time, member by member), the'
               % (command, duration(total_cpu), duration(total_wall)))
    out.append('command %s of wall time in all (over its runs; `--threads N` computes N members at once). Run it'
               % duration(runs_wall))
    out.append('again to go on from its state (`%s`); the times vary from run to run and machine to machine, the'
               % args.state_shown)
    out.append('other cells do not, whatever `--threads`.')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description='The table of unsolved octal games (docs/tables/unsolved-octal.md).')
    ap.add_argument('--grundy', default=os.path.join(ROOT, 'build', 'grundy'))
    ap.add_argument('--threads', type=int, default=os.cpu_count() or 1, help='members computed at once')
    ap.add_argument('--member-threads', type=int, default=None,
                    help="each member's grundy --threads (default: the threads no other member is using when "
                         "it starts a stage, so the last members get the cores; its CPU time counts every thread)")
    ap.add_argument('--heaps', type=count, default=2 ** 22, help='heaps of every member (default 2^22)')
    ap.add_argument('--rare-heaps', type=count, default=2 ** 26,
                    help='heaps of a member the rare-value kernel computes (default 2^26)')
    ap.add_argument('--sparse', choices=('settled', 'rare'), default='settled',
                    help='who goes on to --rare-heaps: rare-value members whose rare heaps ended in the first '
                         'half of --heaps (settled, the default), or every member the rare-value kernel computed')
    ap.add_argument('--plain-heaps', type=count,
                    help='every member goes to these heaps first, and one a plain kernel computed there stops '
                         '(default: --heaps)')
    ap.add_argument('--member-time', type=float,
                    help='seconds of wall time a member may take in this run, its stages together; one cut short '
                         'shows how far it got, and the next run goes on from its checkpoint')
    ap.add_argument('--state', default='unsolved.state', help='folder of finished rows and checkpoints')
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs', 'tables', 'unsolved-octal.md'))
    ap.add_argument('--family', default=os.path.join(ROOT, 'examples', 'unsolved-octal.game'))
    ap.add_argument('--published', default=os.path.join(ROOT, 'docs', 'tables', 'unsolved-published.csv'))
    ap.add_argument('--members', help='only these codes (comma-separated), in family order')
    ap.add_argument('--max-memory', help="each grundy's --max-memory")
    ap.add_argument('--keep-checkpoints', action='store_true', help='keep each member\'s checkpoint (to go further later)')
    ap.add_argument('--table-only', action='store_true',
                    help='write the table from the state as it stands, computing nothing: a member not at the '
                         'targets yet shows the last stage it finished, "on the way to" the next')
    ap.add_argument('--no-progress', dest='progress', action='store_false')
    ap.add_argument('--progress-every', type=float, default=60,
                    help='seconds between the lines saying where each running member is (default 60)')
    args = ap.parse_args()
    if args.member_threads is not None and args.member_threads < 1:
        ap.error('--member-threads needs 1 or more, not %d' % args.member_threads)
    args.grundy = os.path.abspath(args.grundy)
    args.state_shown = args.state
    args.state = os.path.abspath(args.state)
    if args.rare_heaps < args.heaps:
        args.rare_heaps = args.heaps
    if args.plain_heaps is None or args.plain_heaps > args.heaps:
        args.plain_heaps = args.heaps
    codes = family_codes(args.family)
    if args.members:
        want = args.members.split(',')
        unknown = [c for c in want if c not in codes]
        if unknown:
            sys.exit('unsolved_table: not in the family: %s' % ', '.join(unknown))
        codes = [c for c in codes if c in want]
    os.makedirs(args.state, exist_ok=True)
    # the state belongs to one pair of targets: another pair would mix rows of different n
    key = os.path.join(args.state, 'targets.txt')
    targets = '%d %d %s%s\n' % (args.heaps, args.rare_heaps, args.sparse,
                                '' if args.plain_heaps == args.heaps else ' %d' % args.plain_heaps)
    if os.path.exists(key) and open(key).read() != targets and not raises(open(key).read(), args):
        sys.exit('unsolved_table: %s holds rows for other targets (%s); remove it or name another --state'
                 ' (targets may only be raised: the members go on from their checkpoints)'
                 % (args.state, open(key).read().strip()))
    write_whole(key, targets)

    runner = Runner(args)
    start = time.monotonic()

    completed = True
    if not args.table_only:
        completed = runner.run(codes)
        with open(os.path.join(args.state, 'runs.txt'), 'a', encoding='utf-8') as f:
            f.write('%.3f\n' % (time.monotonic() - start))
    if not completed:
        print('unsolved_table: stopped; the work so far is saved in %s: run the same command again to go on' % args.state_shown,
              file=sys.stderr)
        return 130
    if runner.failed:
        for code, status, mdir in runner.failed:
            print('unsolved_table: member %s failed (grundy exit status %d); see %s/stderr.txt' % (code, status, mdir),
                  file=sys.stderr)
        return 3
    if runner.elsewhere:
        print('unsolved_table: %d members are being computed by another run over %s (%s); run again when it is done'
              % (len(runner.elsewhere), args.state_shown, ', '.join(runner.elsewhere)), file=sys.stderr)
    results = {}
    for code in codes:
        path = os.path.join(args.state, dirname_of(code), 'row.json')
        if os.path.exists(path):
            results[code] = json.load(open(path, encoding='utf-8'))
            # a member the (raised) targets ask more of: its last finished stage, on the way on
            spath = os.path.join(args.state, dirname_of(code), 'stages.json')
            stages = json.load(open(spath, encoding='utf-8')) if os.path.exists(spath) else []
            if results[code].get('limit') and stages and not stages[-1].get('limit'):
                # a member a time limit had cut short, gone on with by a later run that was itself
                # stopped on the way: its row.json still says where the limit stopped it
                del results[code]['limit']
                results[code]['row'] = stages[-1]['row']
                results[code]['stages'] = [{'heaps': st['heaps'], 'row': st['row']} for st in stages]
            if not results[code].get('limit') and os.path.exists(spath):
                nxt = runner.next_target(json.load(open(spath, encoding='utf-8')))
                if nxt is not None:
                    results[code]['pending'] = nxt
                    wall = cpu = 0.0      # its time so far, the runs on the way included
                    tpath = os.path.join(args.state, dirname_of(code), 'times.txt')
                    for line in open(tpath, encoding='utf-8') if os.path.exists(tpath) else []:
                        f = line.split()
                        wall += float(f[1])
                        cpu += float(f[2])
                    results[code]['wall_seconds'], results[code]['cpu_seconds'] = round(wall, 3), round(cpu, 3)
    rpath = os.path.join(args.state, 'runs.txt')
    runs_wall = sum(float(l) for l in open(rpath, encoding='utf-8') if l.strip()) if os.path.exists(rpath) else 0.0
    command = 'tools/unsolved_table.py'
    if args.heaps != 2 ** 22:
        command += ' --heaps %s' % power(args.heaps)
    if args.rare_heaps != 2 ** 26:
        command += ' --rare-heaps %s' % power(args.rare_heaps)
    if args.plain_heaps != args.heaps:
        command += ' --plain-heaps %s' % power(args.plain_heaps)
    if args.member_time is not None:
        command += ' --member-time %g' % args.member_time
    if args.sparse != 'settled':
        command += ' --sparse %s' % args.sparse
    if args.members:
        command += ' --members %s' % args.members
    write_whole(args.out, table(args, codes, results, published_rows(args.published), command, runs_wall))
    print('unsolved_table: %d members, table in %s' % (len(results), args.out), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
