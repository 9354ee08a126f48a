"""Where a search's time goes, per numba kernel, sampled by Linux perf:

    python bench/kernel_profile.py [--search default|baseline] [--where start|mid] [--runs 40]

perf cannot name numba's machine code by itself: it is generated in memory.  This script
compiles the kernels in a fresh process with an empty numba cache (code loaded from a cache
keeps no LLVM module to read the function names from), writes the address of every compiled
function to /tmp/perf-PID.map (the format perf reads for code generated at run time), then
starts `perf record` on itself (cpu-clock, so no hardware counters are needed) for the runs
of 10,000 iterations with seed 1, the positions of `tne bench`.  It prints the share of
samples of the busiest functions and, for the samples inside numba's reference counting
(`NRT_incref`, `NRT_decref`), the function they were called from: the return address on top
of the sampled stack (perf's `--call-graph dwarf` copy of it).  Needs `perf` (Debian's
linux-perf); the map's sizes are the distances between function starts, so a sample is named
by the nearest function at or below it.
"""
import argparse
import bisect
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def short_name(symbol):
    """tne_ai.core.rules.apply.apply_action for numba's mangled _ZN6tne_ai6engine5apply12apply_action..."""
    prefix = "cpython:" if "7cpython" in symbol[:12] else ""
    m = re.search(r"_ZN(.*?)B\d", symbol)
    if not m:
        return symbol[:80]
    body, parts = m.group(1), []
    while body and body[0].isdigit():
        n = re.match(r"\d+", body).group(0)
        body = body[len(n):]
        parts.append(body[:int(n)])
        body = body[int(n):]
    return prefix + ".".join(p for p in parts if p != "cpython")


def write_map():
    """/tmp/perf-PID.map of every function of every compiled numba dispatcher loaded."""
    from numba.core.registry import CPUDispatcher
    found = {}
    for module in list(sys.modules.values()):
        for value in list(getattr(module, "__dict__", {}).values()):
            if not isinstance(value, CPUDispatcher):
                continue
            for cres in value.overloads.values():
                library = cres.library
                engine = library._codegen._engine
                for fn in library._final_module.functions:
                    if not fn.is_declaration:
                        address = engine.get_function_address(fn.name)
                        if address:
                            found[address] = fn.name
    starts = sorted(found)
    path = f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as out:
        for i, a in enumerate(starts):
            size = starts[i + 1] - a if i + 1 < len(starts) and starts[i + 1] - a < 1 << 20 else 1 << 16
            out.write(f"{a:x} {size:x} {short_name(found[a])}\n")
    return path


def callers(data, map_path):
    """Counts of (NRT function, calling function) over the samples inside NRT_incref/decref."""
    table = []
    for line in open(map_path):
        a, s, name = line.split(" ", 2)
        table.append((int(a, 16), int(s, 16), name.strip()))
    table.sort()
    starts = [t[0] for t in table]

    def name_of(address):
        i = bisect.bisect_right(starts, address) - 1
        return table[i][2] if i >= 0 and address < table[i][0] + table[i][1] else None

    dump = subprocess.run(["perf", "report", "-D", "-i", data], capture_output=True, text=True).stdout
    counts = collections.Counter()
    raw, ip, offset = None, None, None

    def finish():
        if raw is not None and ip is not None and offset is not None:
            inside = name_of(ip)
            if inside in ("NRT_incref", "NRT_decref"):
                ret = int.from_bytes(bytes(raw[offset + 8:offset + 16]), "little")
                counts[(inside, name_of(ret))] += 1
    for line in dump.splitlines():
        if "raw event: size" in line:
            finish()
            raw, ip, offset = [], None, None
            continue
        m = re.match(r"^\.\s+[0-9a-f]{4}:\s+((?:[0-9a-f]{2} )+)", line)
        if m and raw is not None:
            raw += [int(x, 16) for x in m.group(1).split()]
            continue
        m = re.search(r"PERF_RECORD_SAMPLE\(IP, 0x2\): \d+/\d+: (0x[0-9a-f]+)", line)
        if m:
            ip = int(m.group(1), 16)
        m = re.search(r"ustack: size \d+, offset (0x[0-9a-f]+)", line)
        if m:
            offset = int(m.group(1), 16)
    finish()
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--search", choices=("default", "baseline"), default="default")
    ap.add_argument("--where", choices=("start", "mid"), default="mid")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    if shutil.which("perf") is None:
        sys.exit("kernel_profile.py: perf is not installed (Debian: apt-get install linux-perf)")
    if os.environ.get("TNE_PROFILE_CHILD") != "1":
        work = tempfile.mkdtemp()
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(work, "cache"), TNE_PROFILE_CHILD="1")
        try:
            sys.exit(subprocess.run([sys.executable, __file__] + sys.argv[1:], env=env, cwd=work).returncode)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    from tne_ai.matches import bench
    from tne_ai.search.session import search
    st = bench.positions_at(2, 100, 5)[0] if args.where == "mid" else bench.positions_at(2, 0, 1)[0]
    options = bench.BASELINE if args.search == "baseline" else {}
    search(st, iterations=50, **options)            # compile
    map_path = write_map()
    data = os.path.abspath("perf.data")
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "2000", "--call-graph", "dwarf,64",
                             "-p", str(os.getpid()), "-o", data], stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    t = time.process_time()
    for _ in range(args.runs):
        search(st, iterations=10000, seed=1, **options)
    seconds = time.process_time() - t
    perf.send_signal(signal.SIGINT)
    perf.wait()
    print(f"{args.search} search, {args.where}: {args.runs} x 10,000 iterations in {seconds:.2f} CPU s")
    report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", "sym",
                             "-g", "none"], capture_output=True, text=True).stdout
    rows = [line for line in report.splitlines() if re.match(r"^\s+[0-9.]+%", line)]
    print("\n".join(rows[:args.top]))
    counts = callers(data, map_path)
    total = sum(counts.values())
    if total:
        print(f"reference counts: {total} samples, by calling function:")
        for (inside, caller), n in counts.most_common(args.top):
            print(f"  {100 * n / total:5.1f}%  {inside} from {caller}")
    else:
        print("reference counts: no sample inside NRT_incref or NRT_decref")
    os.remove(map_path)


if __name__ == "__main__":
    main()
