"""Soak of `tne serve`: concurrent games with hostile requests mixed in, then SIGKILL and restart.

    python bench/web_soak.py [--seconds 600] [--games 20] [--ai mcts:iterations=200] [--seed 1]

Starts `tne serve` as its own process on 127.0.0.1 (a free port, a fresh games directory) and
runs one client thread per game slot until ``--seconds`` have passed (every loop is bounded by
that deadline; the script stops by itself).  A slot's game is, by slot number modulo 3, a human
against the server's AI, a hot-seat game of two humans (one key), or two humans with a key
each; the client plays every human seat, with that seat's key, a seeded random legal move at a
time, and starts a new game in the slot when one ends.  About one request in three is hostile:
huge and 5,000-digit numbers, numbers above 1e308, superscript and other non-ASCII digits, deep
nesting, invalid UTF-8, bodies over the limit, wrong types, hostile headers, and another seat's
view or move without its key; and malformed HTTP sent on a raw socket.  Every answer is
checked: a hostile request must get a 4xx with a one-line JSON error (malformed HTTP: a 4xx from
the server's HTTP layer, or the connection closed, counted as "raw closed"), a player's request
a 200 (or the 409 of a race with the AI), and no answer may be a 5xx.

Before the clock starts, one move against the AI warms the server up (numba's kernels load).
The server's resident memory (VmRSS of /proc/PID/status) is sampled every second; the peak of
the first and of the last tenth of the run are reported (memory flat: the last within 25% +
64 MB of the first).  At the deadline the server is killed with SIGKILL while the clients are
still sending, started again on the same games directory, and every move the server had
acknowledged (answered 200) must be in its game, in order.  The server's stderr must hold no
traceback and no internal error.  Prints a JSON summary; exit status 1 if a check failed.
"""
import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import httpx2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUGE = "1" + "0" * 4999


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port, games_dir, ai, log):
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "cli.py"), "serve", "--host",
                             "127.0.0.1", "--port", str(port), "--games-dir", games_dir,
                             "--ai", ai], stdout=log, stderr=log, cwd=ROOT)
    deadline = time.monotonic() + 300
    while True:
        try:
            httpx2.get(f"http://127.0.0.1:{port}/api/meta", timeout=5)
            return proc
        except httpx2.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"web_soak: the server did not start (exit {proc.poll()})")
            time.sleep(0.2)


def warm_up(url, timeout=900):
    """One move against the AI and its answer, before the clock starts: the first calls of
    the rules and the search load (or, in a fresh checkout, compile) numba's kernels, which
    can take minutes on a loaded machine."""
    http = httpx2.Client(base_url=url, timeout=timeout)
    v = http.post("/api/games", json={"seats": ["human", "ai"], "seed": 0}).json()
    key = {"X-Tne-Key": v["key"]}
    http.post(f"/api/games/{v['id']}/move", json={"seat": 0, "move": "pass"}, headers=key)
    http.post(f"/api/games/{v['id']}/move", json={"seat": 0, "move": "pass"}, headers=key)
    deadline = time.monotonic() + timeout
    while http.get(f"/api/games/{v['id']}?seat=0", headers=key).json()["to_act"] != 0:
        if time.monotonic() > deadline:
            raise SystemExit("web_soak: the AI did not move during the warm-up")
        time.sleep(0.5)


def rss_kb(pid, field="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def raw_request(url, data):
    """Send ``data`` as it is on a new connection (what an HTTP client library would refuse to
    send); the status of the answer, or None if the server closed without one."""
    host, port = url.rsplit("/", 1)[-1].split(":")
    answer = b""
    with socket.create_connection((host, int(port)), timeout=60) as s:
        try:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered and closed before reading it all (a 200 KB header)
        try:
            while b"\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except OSError:
            pass  # reset after its answer, or before one
    parts = answer.split(b" ", 2)
    return int(parts[1]) if len(parts) > 2 and parts[1].isdigit() else None


def hostile(rng, gid, keys):
    """One hostile request (method, path, body bytes or None, headers) against game gid."""
    game = f"/api/games/{gid}"
    wrong = {"X-Tne-Key": keys[0][::-1]}
    kinds = [
        ("POST", "/api/games", f'{{"seats": ["human", "ai"], "seed": {HUGE}}}'.encode(), {}),
        ("POST", "/api/games", b'{"seats": ["human", "ai"], "seed": 1e309}', {}),
        ("POST", "/api/games", b'{"seats": ["human", "ai"], "seed": ' + b"9" * 400 + b"}", {}),
        ("POST", "/api/games", '{"seats": ["human", "ai"], "seed": "²"}'.encode(), {}),
        ("POST", "/api/games", b'{"seats": ["human", 7], "hotseat": "yes"}', {}),
        ("POST", "/api/games", b'{"seats": ' + b"[" * 100000, {}),
        ("POST", "/api/games", b'{"a":' * 30000, {}),
        ("POST", "/api/games", b'{"seats": ["\xc3("]}', {}),
        ("POST", "/api/games", b" " * (1 << 20) + b"{}", {}),
        ("RAW", "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: ²\r\n\r\n{}".encode(),
         None, {}),
        ("RAW", b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: " + b"9" * 5000 +
         b"\r\n\r\n{}", None, {}),
        ("RAW", b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200000 + b"\r\n\r\n",
         None, {}),
        ("RAW", b"GET /api/meta HTTP/1.1\r\nHost: \xc3(\xff\r\nX-Tne-Key: \x00\x01\r\n\r\n",
         None, {}),
        ("RAW", b"\xc3( /\xff HTTP/9.9\r\n\r\n", None, {}),
        ("POST", "/api/games/upload", b'{"seats": ["human", "ai"], "data": [[[1]]]}', {}),
        ("GET", f"{game}?seat=²", None, {}),
        ("GET", f"{game}?seat={HUGE}", None, {}),
        ("GET", f"{game}?seat=0", None, wrong),
        ("GET", f"{game}?seat=1", None, {"X-Tne-Key": b"\xff" * 100}),
        ("GET", f"{game}/position?seat=0&key=x", None, {}),
        ("POST", f"{game}/move", '{"seat": "²", "move": "pass"}'.encode(), {}),
        ("POST", f"{game}/move", b'{"seat": 0, "move": "pass"}', wrong),
        ("POST", f"{game}/move", b'{"seat": 1e400, "move": [1]}', {}),
        ("POST", f"{game}/undo", b'{"seat": 0}', wrong),
        ("POST", f"{game}/hint", b'{"seat": ' + HUGE.encode() + b"}", {}),
        ("POST", "/api/analyses", b'{"position": {}, "iterations": ' + HUGE.encode() + b"}", {}),
        ("POST", "/api/positions/check", b'{"position": {"players": 1e999}}', {}),
        ("POST", "/api/positions/check", b'{"position": "' + b"x" * 2000 + b'"}', {}),
        ("GET", "/api/games/%ff%fe%00", None, {}),
        ("GET", "/api/analyses/" + "x" * 3000 + "/events", None, {}),
        ("DELETE", game, None, {}),
    ]
    return kinds[rng.randrange(len(kinds))]


class Slot(threading.Thread):
    """One game slot: plays its games' human seats until the deadline, hostile requests
    mixed in; records every acknowledged move and every answer's status."""

    def __init__(self, index, url, seed, deadline, stats, lock):
        super().__init__(daemon=True, name=f"soak-{index}")
        self.index, self.url, self.deadline = index, url, deadline
        self.rng = random.Random(seed * 1000 + index)
        self.stats, self.lock = stats, lock
        self.acked = {}   # gid -> (seat, keys, the log's move texts in the last 200 answer)
        self.failures = []

    def note(self, kind, status):
        with self.lock:
            key = f"{kind} {status}"
            self.stats[key] = self.stats.get(key, 0) + 1

    def new_game(self, http):
        mode = self.index % 3
        seats = ["human", "ai"] if mode == 0 else ["human", "human"]
        r = http.post("/api/games", json={"seats": seats, "seed": self.rng.randrange(1 << 30),
                                          "hotseat": mode == 1})
        self.note("create", r.status_code)
        if r.status_code != 200:
            self.failures.append(f"create: {r.status_code} {r.text[:200]}")
            return None
        v = r.json()
        keys = {e["seat"]: e["link"].rsplit("&key=", 1)[1] for e in v["links"]}
        return v["id"], keys

    def run(self):
        try:
            self._run()
        except httpx2.HTTPError as e:
            if time.monotonic() < self.deadline:  # else: killed at the deadline, as planned
                self.failures.append(f"no answer before the deadline: {e!r}")
        except Exception as e:
            self.failures.append(f"the client failed: {e!r}")

    def _run(self):
        http = httpx2.Client(base_url=self.url, timeout=60)
        game = None
        while time.monotonic() < self.deadline:
            if game is None:
                game = self.new_game(http)
                if game is None:
                    time.sleep(0.5)
                    continue
            gid, keys = game
            if self.rng.random() < 0.35:
                method, path, body, headers = hostile(self.rng, gid, keys)
                if method == "RAW":   # malformed HTTP: the server's HTTP layer answers a 4xx
                    status = raw_request(self.url, path)
                    self.note("raw", status if status is not None else "closed")
                    if status is not None and not 400 <= status < 500:
                        self.failures.append(f"raw {path[:60]!r}: {status}")
                    continue
                r = http.request(method, path, content=body, headers=headers)
                self.note("hostile", r.status_code)
                ok = 400 <= r.status_code < 500
                try:
                    one_line = list(r.json()) == ["error"] and "\n" not in r.json()["error"]
                except ValueError:
                    one_line = False
                if not ok or not one_line:
                    self.failures.append(f"hostile {method} {path[:60]}: {r.status_code} "
                                         f"{r.text[:200]}")
                continue
            seat = min(keys)
            r = http.get(f"/api/games/{gid}?seat={seat}", headers={"X-Tne-Key": keys[seat]})
            self.note("view", r.status_code)
            if r.status_code != 200:
                self.failures.append(f"view: {r.status_code} {r.text[:200]}")
                game = None
                continue
            v = r.json()
            if v["over"]:
                game = None
                continue
            mover = v["to_act"]
            if mover not in keys:
                time.sleep(0.05)  # the AI thinks
                continue
            if mover != seat:
                v = http.get(f"/api/games/{gid}?seat={mover}",
                             headers={"X-Tne-Key": keys[mover]}).json()
                if not v["legal"]:
                    continue
            moves = v["legal"]
            tiles = [m for m in moves if not m.startswith(("swap", "pass", "catastrophe"))]
            move = self.rng.choice(tiles or moves)
            r = http.post(f"/api/games/{gid}/move", json={"seat": mover, "move": move},
                          headers={"X-Tne-Key": keys[mover]})
            self.note("move", r.status_code)
            if r.status_code == 200:
                self.acked[gid] = (mover, keys, [e["move"] for e in r.json()["log"]])
            elif r.status_code != 409:
                self.failures.append(f"move: {r.status_code} {r.text[:200]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--ai", default="mcts:iterations=200")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games-dir", default=None, help="default: a fresh temporary directory")
    args = ap.parse_args()
    if not (0 < args.seconds <= 7200 and 1 <= args.games <= 100):
        raise SystemExit("web_soak: --seconds 0 < s <= 7200, --games 1 to 100")
    games_dir = args.games_dir or tempfile.mkdtemp(prefix="tne-soak-")
    log = tempfile.TemporaryFile(mode="w+")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_server(port, games_dir, args.ai, log)
    failures = []
    try:
        warm_up(url)
        stats, lock = {}, threading.Lock()
        t0 = time.monotonic()
        deadline = t0 + args.seconds
        slots = [Slot(i, url, args.seed, deadline, stats, lock) for i in range(args.games)]
        for s in slots:
            s.start()
        samples = []   # (seconds since start, VmRSS kB)
        while time.monotonic() < deadline:
            kb = rss_kb(proc.pid)
            if kb is not None:
                samples.append((time.monotonic() - t0, kb))
            time.sleep(1.0)
        proc.send_signal(signal.SIGKILL)  # the clients are still sending
        proc.wait(60)
        for s in slots:
            s.join(120)
        tenth = args.seconds / 10
        first = max((kb for t, kb in samples if t <= tenth), default=0)
        last = max((kb for t, kb in samples if t >= args.seconds - tenth), default=0)
        by_tenth = [round(max((kb for t, kb in samples if k * tenth <= t < (k + 1) * tenth),
                              default=0) / 1024, 1) for k in range(10)]
        acked = {}
        for s in slots:
            failures += s.failures
            acked.update(s.acked)
        # restart on the same directory: every acknowledged move is there, in order
        leftovers = sorted(n for n in os.listdir(games_dir) if n.endswith(".tmp"))
        proc = start_server(port, games_dir, args.ai, log)
        lost = 0
        for gid, (seat, keys, moves) in acked.items():
            v = httpx2.get(f"{url}/api/games/{gid}?seat={seat}",
                          headers={"X-Tne-Key": keys[seat]}, timeout=60).json()
            after = [e["move"] for e in v["log"]]
            if after[:len(moves)] != moves:
                lost += 1
                failures.append(f"game {gid}: {len(moves)} acknowledged moves, after the "
                                f"restart {len(after)} and not the same")
        remaining_tmp = sorted(n for n in os.listdir(games_dir) if n.endswith(".tmp"))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
    log.seek(0)
    server_log = log.read()
    if "Traceback" in server_log or "internal error" in server_log:
        failures.append("the server's log holds a traceback or an internal error")
    five = sum(n for k, n in stats.items() if k.split()[1].startswith("5"))
    if five:
        failures.append(f"{five} answers with a 5xx status")
    if last > first * 1.25 + 64 * 1024:
        failures.append(f"memory grew: peak VmRSS {first} kB in the first tenth, {last} kB in "
                        "the last")
    if remaining_tmp:
        failures.append(f"temporaries left after the restart: {remaining_tmp}")
    summary = {
        "seconds": args.seconds, "games": args.games, "ai": args.ai,
        "games_played": len(acked), "requests": dict(sorted(stats.items())),
        "hostile": sum(n for k, n in stats.items() if k.startswith(("hostile", "raw"))),
        "moves_in_acknowledged_logs": sum(len(m) for _, _, m in acked.values()),
        "games_checked_after_restart": len(acked), "games_with_lost_moves": lost,
        "tmp_files_left_by_the_kill": len(leftovers),
        "peak_rss_mb_first_tenth": round(first / 1024, 1),
        "peak_rss_mb_last_tenth": round(last / 1024, 1),
        "peak_rss_mb_by_tenth": by_tenth, "games_kept_at_the_end": len(acked) + 1,
        "server_log_lines": len(server_log.splitlines()),
        "failures": failures[:20], "failure_count": len(failures),
    }
    print(json.dumps(summary, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
