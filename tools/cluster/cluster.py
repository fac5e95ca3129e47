#!/usr/bin/env python3
"""calvin's datagen and matches on a Ray cluster (see tools/cluster/README.md).

  cluster.py [--address ADDR] [--state DIR] datagen --out FILE [--shards N] -- DATAGEN-ARGS
  cluster.py [--address ADDR] [--state DIR] match [--shard-pairs P] [--pgnout FILE] -- MATCH-ARGS

The work is cut into shards (`--shard I/N` of `calvin datagen` and `calvin-match`), each a Ray
task on one CPU. The binaries (and any `--ship NAME=PATH` file, named `{NAME}` in the arguments)
travel through Ray's object store, so a worker needs Ray and nothing of the repository. A shard's
output comes back to the head only when its process finished; the head writes it atomically into
the state directory, so a shard whose worker was lost is played again (Ray retries it), none is
counted twice, and a re-run of the same command skips the shards already there. At the end the
head merges them: `calvin datagen merge`, or `calvin-match merge` with the PGNs concatenated in
shard order. A match with `--sprt` runs its shards in a window and stops as soon as the merge of
the finished shards 1..k (the first k in shard order, so the verdict does not depend on which
machine was fast) decides; the shards still running are cancelled.

Before shipping, a probe on each node refuses a node of another architecture than the binaries'
and warns of a node whose CPU lacks features the head's has; a shard whose binary stops with
SIGILL (a build for a newer CPU) stops the driver with one error that says what to build.
"""

import argparse
import hashlib
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------------------------
# The worker side: no import of anything outside the standard library but Ray, no path of the
# head's file system (the test hook aside).


def _cached_file(sha, ref):
    """The node-local copy of a shipped file (fetched from the object store once per node)."""
    import ray

    cache = Path(tempfile.gettempdir()) / "calvin-cluster-cache"
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / sha
    if not path.exists():
        data = ray.get(ref[0])
        tmp = cache / f"{sha}.{os.getpid()}.tmp"
        tmp.write_bytes(data)
        tmp.chmod(0o755)
        os.replace(tmp, path)
    return str(path)


def _die_with_parent():
    """In the shard's process: die when the worker dies (Linux), and be a process group."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _kill(proc):
    """Kills the shard's process group (its process and the engines it started)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _substitute(arg, names):
    """`{NAME}` in arg replaced by names[NAME] where NAME is one of them; other braces stay."""
    return re.sub(r"\{([A-Za-z0-9_.-]+)\}", lambda m: names.get(m.group(1), m.group(0)), arg)


def _node():
    """This worker's node: Ray's node id, the host name and the node's IP address."""
    import ray

    ctx = ray.get_runtime_context()
    return {"id": ctx.get_node_id(), "host": platform.node(), "ip": ray.util.get_node_ip_address()}


def _cpu_flags():
    """The CPU's features as /proc/cpuinfo names them (empty where there is none)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("flags", "Features")):
                return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


def node_info():
    """What the head checks of a node before it ships binaries there (a task on each node)."""
    return dict(_node(), system=platform.system(), machine=platform.machine(), flags=sorted(_cpu_flags()))


def _failure(index, job, program, code, log, node):
    """The error of a shard whose process failed: an illegal instruction (the shard's process's
    own, or an engine's that calvin-match reports) says what to build."""
    where = f"shard {index}/{job['shards']} on node {node['id'][:12]} ({node['host']}, {node['ip']})"
    if code == -signal.SIGILL or "(SIGILL)" in log:
        who = program if code == -signal.SIGILL else "an engine"
        return (f"{where}: {who} stopped with SIGILL (Illegal instruction): this "
                f"machine's CPU lacks instructions the binary was built for. The repository builds for "
                f"the CPU it is built on (target-cpu=native in .cargo/config.toml); for a cluster of "
                f"different machines build a portable binary on the head, e.g. "
                f"RUSTFLAGS='-C target-cpu=x86-64-v3' cargo build --release (x86-64-v2 for CPUs "
                f"without AVX2), and run the driver again: the shards already done are kept.")
    how = f"was killed by signal {-code}" if code < 0 else f"exited with {code}"
    return f"{where}: {program} {how}:\n{log}"


def run_shard(job, index, files, die_marker=None):
    """Runs shard `index` (1-based) of `job` in a fresh directory; returns the bytes of each of
    `job["outputs"]`, the process's output and the node it ran on (`_node`). `files`: name ->
    (sha256, [ObjectRef])."""
    node = _node()
    paths = {name: _cached_file(sha, ref) for name, (sha, ref) in files.items()}
    with tempfile.TemporaryDirectory(prefix="calvin-shard-") as work:
        subst = dict(paths, work=work, shard=f"{index}/{job['shards']}")
        argv = [_substitute(a, subst) for a in job["argv"]]
        outputs = {name: os.path.join(work, name) for name in job["outputs"]}
        proc = subprocess.Popen(argv, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True, preexec_fn=_die_with_parent)
        try:
            if die_marker is not None and not os.path.exists(die_marker):
                # Test hook: the first attempt of this shard loses its worker once the shard has
                # written part of its output (its last output file has grown twice: the datagen
                # file's header and a game, a match's first two games).
                Path(die_marker).touch()
                last = outputs[job["outputs"][-1]]
                sizes = {0}
                while proc.poll() is None and len(sizes) < 3:
                    sizes.add(os.path.getsize(last) if os.path.exists(last) else 0)
                    time.sleep(0.01)
                _kill(proc)
                os._exit(1)
            log, _ = proc.communicate()
        finally:
            if proc.poll() is None:
                _kill(proc)
                proc.wait()
        log = log.decode(errors="replace")
        if proc.returncode != 0:
            program = next((n for n, p in paths.items() if p == argv[0]), argv[0])
            raise ShardFailed(_failure(index, job, program, proc.returncode, log, node))
        return {name: Path(p).read_bytes() for name, p in outputs.items()}, log, node


class ShardFailed(Exception):
    """A shard's process failed by itself (not a lost worker): not retried, the driver stops."""


# --------------------------------------------------------------------------------------------
# The head.


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path, data):
    tmp = Path(f"{path}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def die(msg):
    print(f"cluster: error: {msg}", file=sys.stderr)
    sys.exit(2)


def take(args, key, n=1):
    """Removes `key` and its n values from args; returns the values (None if absent)."""
    if key not in args:
        return None
    i = args.index(key)
    if i + n >= len(args) + (0 if n else 1):
        die(f"{key} needs a value")
    vals = args[i + 1:i + 1 + n]
    del args[i:i + 1 + n]
    return vals


class Job:
    """The shards of one command, their state directory and the shipped files."""

    def __init__(self, opts, kind, argv, outputs, shards, files):
        self.opts, self.kind, self.shards = opts, kind, shards
        for name, p in files.items():
            if not Path(p).is_file():
                die(f"{p} ({name}) is not a file: build it (cargo build --release) or give its path")
        self.files = {name: (str(Path(p).resolve()), sha256(p)) for name, p in files.items()}
        self.spec = {"kind": kind, "argv": argv, "outputs": outputs, "shards": shards,
                     "files": {n: s for n, (_, s) in self.files.items()}}
        key = hashlib.sha256(json.dumps(self.spec, sort_keys=True).encode()).hexdigest()[:16]
        self.state = Path(opts.state or f".calvin-cluster/{kind}-{key}")
        self.state.mkdir(parents=True, exist_ok=True)
        spec_file = self.state / "job.json"
        if spec_file.exists():
            if json.loads(spec_file.read_text()) != self.spec:
                die(f"{self.state} holds another job's shards (its job.json differs): give another --state")
        else:
            write_atomic(spec_file, json.dumps(self.spec, indent=1, sort_keys=True).encode())

    def shard_path(self, index, name):
        return self.state / f"shard-{index:06d}-of-{self.shards}.{name}"

    def done(self, index):
        return all(self.shard_path(index, n).exists() for n in self.spec["outputs"])

    def save(self, index, outputs, log, node):
        # The log first (its first line names the node that played the shard), the outputs last:
        # a shard counts as done when all of them are there.
        head = f"cluster: shard {index}/{self.shards} played on node {node['id']} ({node['host']}, {node['ip']})\n"
        write_atomic(self.state / f"shard-{index:06d}-of-{self.shards}.log", (head + log).encode())
        for name, data in outputs.items():
            write_atomic(self.shard_path(index, name), data)

    def run(self, on_done=None, window=None):
        """Plays the shards not yet in the state directory. on_done(index) after each one saved;
        when it returns True the rest is cancelled. At most `window` shards in flight (None: all;
        -k: k a CPU of the cluster)."""
        import ray

        init = {"address": opts_address(self.opts), "include_dashboard": False, "log_to_driver": False}
        if self.opts.num_cpus and not self.opts.address:
            init["num_cpus"] = self.opts.num_cpus
        ray.init(**init)
        try:
            check_nodes(self.files, self.opts.assume_head_flags)
            cpus = int(ray.cluster_resources().get("CPU", 1))
            refs = {n: (s, [ray.put(Path(p).read_bytes())]) for n, (p, s) in self.files.items()}
            task = ray.remote(num_cpus=1, max_retries=self.opts.retries, retry_exceptions=False)(run_shard)
            todo = [i for i in range(1, self.shards + 1) if not self.done(i)]
            skipped = self.shards - len(todo)
            print(f"cluster: {self.kind}: {self.shards} shards, {skipped} already done in {self.state}, "
                  f"{len(todo)} to play on {cpus} CPUs", flush=True)
            die_dir = self.state / "die-once"
            if self.opts.die_once:
                die_dir.mkdir(exist_ok=True)
            job = {"argv": self.spec["argv"], "outputs": self.spec["outputs"], "shards": self.shards}
            window = cpus * -window if window is not None and window < 0 else window or len(todo)
            running, stopped, started, finished, by_node = {}, False, time.time(), 0, {}
            while (todo or running) and not stopped:
                while todo and len(running) < window:
                    i = todo.pop(0)
                    marker = str(die_dir / str(i)) if i in self.opts.die_once else None
                    running[task.remote(job, i, refs, marker)] = i
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    i = running.pop(ref)
                    try:
                        outputs, log, node = ray.get(ref)
                    except ray.exceptions.RayTaskError as e:
                        # The shard's process failed by itself (its message says where and why).
                        die(str(e.cause) if e.cause is not None else str(e))
                    except ray.exceptions.RayError as e:
                        # Its worker (or node) was lost on every attempt.
                        die(f"shard {i}/{self.shards}: lost on each of its {self.opts.retries + 1} "
                            f"attempts (--retries {self.opts.retries}): {type(e).__name__}: {e}")
                    self.save(i, outputs, log, node)
                    key = (node["id"][:12], node["host"], node["ip"])
                    by_node[key] = by_node.get(key, 0) + 1
                    finished += 1
                    if finished == self.opts.stop_after:
                        print(f"cluster: stopping after {finished} shards (--stop-after)", flush=True)
                        sys.exit(3)
                    if on_done is not None and on_done(i):
                        stopped = True
            for ref in running:
                ray.cancel(ref, force=True)
            print(f"cluster: {self.kind}: played {finished} shards in {time.time() - started:.1f} s"
                  + (f", cancelled {len(running) + len(todo)}" if stopped else ""), flush=True)
            if by_node:
                print("cluster: shards by node: " + ", ".join(
                    f"{n} on {i} ({h}, {a})" for (i, h, a), n in sorted(by_node.items())), flush=True)
        finally:
            ray.shutdown()


# The instruction-set features that a build for the head's CPU (target-cpu=native) may use, as
# /proc/cpuinfo names them; the head's other flags (virtualisation, power management) do not matter.
ISA_FLAGS = {"sse3", "pni", "ssse3", "sse4_1", "sse4_2", "popcnt", "abm", "lzcnt", "avx", "avx2", "bmi1",
             "bmi2", "fma", "f16c", "movbe", "adx", "aes", "pclmulqdq", "sha_ni", "gfni", "vaes",
             "vpclmulqdq", "avx_vnni", "avx_vnni_int8", "asimd", "sve", "sve2"}

# ELF's e_machine and the names platform.machine() gives the same architecture.
ELF_MACHINES = {0x3E: {"x86_64", "amd64"}, 0xB7: {"aarch64", "arm64"}, 0x03: {"i386", "i686", "x86"},
                0xF3: {"riscv64"}, 0x15: {"ppc64", "ppc64le"}}


def elf_machine(path):
    """The architecture names of an ELF executable (None: not ELF, or one not in the table)."""
    with open(path, "rb") as f:
        head = f.read(20)
    if len(head) < 20 or head[:4] != b"\x7fELF":
        return None
    return ELF_MACHINES.get(int.from_bytes(head[18:20], "little" if head[5] == 1 else "big"))


def check_nodes(files, assume_head_flags=""):
    """Before shipping: refuses a node of another system or architecture than the shipped ELF
    binaries', and warns of a node whose CPU lacks instruction-set features the head's CPU has (a
    binary built here with target-cpu=native stops there with SIGILL, which the shard reports)."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [n for n in ray.nodes() if n.get("Alive")]
    probe = ray.remote(num_cpus=0, max_retries=0)(node_info)
    refs = [probe.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)).remote()
            for n in nodes]
    ready, _ = ray.wait(refs, num_returns=len(refs), timeout=120)
    infos = []
    for ref in ready:
        try:
            infos.append(ray.get(ref))
        except ray.exceptions.RayError:
            pass  # a node lost meanwhile: its shards go elsewhere
    mine = (_cpu_flags() & ISA_FLAGS) | {f for f in _cpu_flags() if f.startswith("avx512")}
    mine |= {f for f in assume_head_flags.split(",") if f}
    arch = {name: elf_machine(path) for name, (path, _) in files.items()}
    print(f"cluster: {len(nodes)} nodes: " + ", ".join(
        f"{i['id'][:12]} ({i['host']}, {i['ip']}, {i['machine']})" for i in infos), flush=True)
    for i in infos:
        where = f"node {i['id'][:12]} ({i['host']}, {i['ip']})"
        for name, machines in arch.items():
            if machines is not None and (i["system"] != "Linux" or i["machine"].lower() not in machines):
                die(f"{where} is {i['system']} {i['machine']}; {name} ({files[name][0]}) is a Linux "
                    f"{'/'.join(sorted(machines))} binary: build one for that machine, or leave it out "
                    f"of the cluster")
        missing = sorted(mine - set(i["flags"]))
        if missing:
            print(f"cluster: warning: {where} lacks CPU features this machine has ({', '.join(missing)}): "
                  f"a binary built here for this CPU (target-cpu=native, the repository's "
                  f".cargo/config.toml) stops there with 'Illegal instruction'; build a portable one: "
                  f"RUSTFLAGS='-C target-cpu=x86-64-v3' cargo build --release", file=sys.stderr, flush=True)


def opts_address(opts):
    return opts.address or None


def datagen(opts):
    args = list(opts.args)
    for key in ("--out", "--shard", "--threads"):
        if key in args:
            die(f"give {key} to the driver, not after --" if key == "--out" else f"the driver sets {key}")
    if "--seed" not in args:
        args += ["--seed", "1"]
    argv = ["{calvin}", "datagen", *args, "--threads", "1", "--quiet", "--shard", "{shard}",
            "--out", "{work}/shard.bin"]
    job = Job(opts, "datagen", argv, ["shard.bin"], opts.shards, {"calvin": opts.calvin})
    job.run()
    parts = [str(job.shard_path(i, "shard.bin")) for i in range(1, job.shards + 1)]
    out = Path(opts.out)
    tmp = out.with_name(out.name + ".merging")
    if tmp.exists():
        tmp.unlink()
    r = subprocess.run([opts.calvin, "datagen", "merge", str(tmp), *parts], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"calvin datagen merge failed:\n{r.stdout}{r.stderr}")
    os.replace(tmp, out)
    print(r.stdout, end="")
    print(f"cluster: wrote {out}", flush=True)


def match_shards(args, pairs_per_shard):
    """The number of shards of a match: its opening pairs (from --games or --rounds) split into
    shards of `pairs_per_shard` pairs."""
    if "--rounds" in args:
        pairs = int(args[args.index("--rounds") + 1])
    elif "--games" in args:
        games = int(args[args.index("--games") + 1])
        pairs = (games + 1) // 2
    else:
        pairs = 1
    return max(1, -(-pairs // pairs_per_shard))


def verdict(report):
    """The SPRT's decision in `calvin-match merge`'s output: "H0", "H1" or None (its last line
    is JSON: games, total, pairs, wdl, penta, llr, verdict, shards, of)."""
    lines = report.strip().splitlines()
    try:
        return json.loads(lines[-1]).get("verdict") if lines else None
    except (ValueError, AttributeError):
        die(f"calvin-match merge printed no JSON line:\n{report}")


def match(opts):
    args = list(opts.args)
    for key in ("--pgnout", "--shard", "--results", "--concurrency"):
        if key in args:
            die(f"give {key} to the driver, not after --" if key in ("--pgnout", "--results")
                else f"the driver sets {key}")
    try:
        shards = opts.shards or match_shards(args, opts.shard_pairs)
    except (ValueError, IndexError):
        die("--games and --rounds need a whole number")
    if "--seed" not in args:
        # Every shard must draw the same openings: one seed for all (calvin-match alone takes
        # the clock's; here the same command is the same job, so that a re-run resumes it).
        args += ["--seed", "1"]
    files = {"calvin-match": opts.calvin_match}
    for item in opts.ship:
        name, _, path = item.partition("=")
        if not name or not path:
            die(f"--ship wants NAME=PATH, not '{item}'")
        files[name] = path
    argv = ["{calvin-match}", *args, "--concurrency", "1", "--shard", "{shard}",
            "--results", "{work}/results", "--pgnout", "{work}/games.pgn"]
    job = Job(opts, "match", argv, ["results", "games.pgn"], shards, files)
    merge_cmd = [opts.calvin_match, "merge"]
    decided = {"k": 0, "at": None, "report": None}
    sprt = "--sprt" in args

    def prefix():
        k = 0
        while k < shards and job.done(k + 1):
            k += 1
        return k

    def merged(k):
        r = subprocess.run(merge_cmd + [str(job.shard_path(i, "results")) for i in range(1, k + 1)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            die(f"calvin-match merge failed:\n{r.stdout}{r.stderr}")
        return r.stdout

    def on_done(_):
        # Each new k of the prefix in turn: the first k whose merge decides, whatever the order
        # in which the shards finished.
        k = prefix()
        while sprt and decided["k"] < k:
            decided["k"] += 1
            report = merged(decided["k"])
            if verdict(report) is not None:
                decided["at"], decided["report"] = decided["k"], report
                return True
        return False

    # A re-run after a decision has nothing to play.
    if not (sprt and on_done(0)):
        window = opts.window if opts.window is not None else (-2 if sprt else None)
        job.run(on_done=on_done if sprt else None, window=window)
    k = decided["at"] or shards
    missing = [i for i in range(1, k + 1) if not job.done(i)]
    if missing:
        die(f"shards {missing[:10]} did not finish")
    report = decided["report"] or merged(k)
    if opts.pgnout:
        with open(f"{opts.pgnout}.tmp{os.getpid()}", "wb") as f:
            for i in range(1, k + 1):
                f.write(job.shard_path(i, "games.pgn").read_bytes())
        os.replace(f"{opts.pgnout}.tmp{os.getpid()}", opts.pgnout)
    if opts.results:
        # The shards' results files: `calvin-match merge DIR/*` prints the report again.
        os.makedirs(opts.results, exist_ok=True)
        for i in range(1, k + 1):
            write_atomic(Path(opts.results) / f"shard-{i:06d}-of-{shards}.results",
                         job.shard_path(i, "results").read_bytes())
    if decided["at"] is not None and decided["at"] < shards:
        extra = sum(1 for i in range(k + 1, shards + 1) if job.done(i))
        print(f"cluster: the SPRT decided after shards 1..{k} of {shards}"
              + (f" ({extra} later shards finished and are not counted)" if extra else ""), flush=True)
    print(report, end="", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--address", help="a running cluster's address (ray start --head); default: a "
                    "Ray started on this machine for the run")
    ap.add_argument("--num-cpus", type=int, help="CPUs of the local Ray (default: all)")
    ap.add_argument("--state", help="the state directory (default .calvin-cluster/KIND-HASH of the job)")
    ap.add_argument("--retries", type=int, default=5, help="attempts after a lost worker (default 5)")
    ap.add_argument("--die-once", default="", help=argparse.SUPPRESS)  # test hook: shards I,J,...
    ap.add_argument("--stop-after", type=int, default=0, help=argparse.SUPPRESS)  # test hook
    # test hook: CPU features the head is taken to have besides its own (a node's check warns)
    ap.add_argument("--assume-head-flags", default="", help=argparse.SUPPRESS)
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("datagen", help="calvin datagen, sharded; the merged file goes to --out")
    d.add_argument("--out", required=True)
    d.add_argument("--shards", type=int, default=None, help="shards (default: the games / 50)")
    d.add_argument("--calvin", default=str(ROOT / "target/release/calvin"))
    d.add_argument("args", nargs=argparse.REMAINDER)
    m = sub.add_parser("match", help="calvin-match, sharded; merged report, PGN and results")
    m.add_argument("--shards", type=int, default=None)
    m.add_argument("--shard-pairs", type=int, default=10, help="opening pairs a shard (default 10)")
    m.add_argument("--window", type=int, default=None,
                   help="shards in flight (default: all; with --sprt 2 a CPU of the cluster)")
    m.add_argument("--pgnout", help="the games, shard after shard")
    m.add_argument("--results", help="a directory: the counted shards' results files go there")
    m.add_argument("--calvin-match", default=str(ROOT / "target/release/calvin-match"))
    m.add_argument("--ship", action="append", default=[],
                   help="NAME=PATH: a file every worker gets; {NAME} in the arguments is its path there")
    m.add_argument("args", nargs=argparse.REMAINDER)
    opts = ap.parse_args(argv)
    if opts.args and opts.args[0] == "--":
        opts.args = opts.args[1:]
    try:
        opts.die_once = {int(x) for x in opts.die_once.split(",") if x}
    except ValueError:
        die("--die-once wants shard numbers")
    if opts.command == "datagen":
        if opts.shards is None:
            games = take(list(opts.args), "--games")
            try:
                opts.shards = max(1, -(-int(games[0]) // 50)) if games else 1
            except ValueError:
                die("--games needs a whole number")
        if opts.shards < 1:
            die("--shards must be at least 1")
        datagen(opts)
    else:
        match(opts)


if __name__ == "__main__":
    main()
