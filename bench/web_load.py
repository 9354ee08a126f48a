"""Load check of `tne serve`: N concurrent games against an AI, page actions timed meanwhile.

    python bench/web_load.py [--games 20] [--ai mcts:iterations=2000] [--seconds 60]

Starts `tne serve` as its own process, then one client thread per game plays seat 0 the way
the page does: it polls the game's view every 0.25 s while the AI thinks and, when it is to
move, plays a seeded random legal move.  Every request (views, moves) is timed; the median
and 95th percentile latency are printed, with the AI moves made and the load average."""
import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def client(url, seed, deadline, ai, out):
    rng = random.Random(seed)
    http = httpx2.Client(base_url=url, timeout=120)
    t = time.perf_counter()
    v = http.post("/api/games", json={"seats": ["human", ai], "seed": seed}).json()
    out["create"].append(time.perf_counter() - t)
    gid = v["id"]
    http.headers["X-Tne-Key"] = v["key"]  # seat 0's key (tne_ai/web/app.py, seat keys)
    while time.perf_counter() < deadline and not v["over"]:
        if v["legal"]:
            moves = v["legal"]
            tiles = [m for m in moves if m.startswith(("tile ", "commit", "decline", "treasure",
                                                       "war "))]
            move = rng.choice(tiles or moves)
            t = time.perf_counter()
            r = http.post(f"/api/games/{gid}/move", json={"seat": 0, "move": move})
            out["move"].append(time.perf_counter() - t)
            v = r.json()
        else:
            time.sleep(0.25)
            t = time.perf_counter()
            v = http.get(f"/api/games/{gid}?seat=0").json()
            (out["view_thinking"] if v["thinking"] else out["view"]).append(time.perf_counter() - t)
    out["plies"].append(len(v["log"]))


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--ai", default="mcts:iterations=2000")
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    port = free_port()
    games_dir = tempfile.mkdtemp()
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "cli.py"), "serve", "--port",
                               str(port), "--games-dir", games_dir, "--ai", args.ai], cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx2.get(url + "/api/meta", timeout=1)
                break
            except httpx2.HTTPError:
                time.sleep(0.1)
        # warm the AI (numba compile, caches) with one move before timing
        warm = httpx2.post(url + "/api/games", json={"seats": [args.ai, "human"], "seed": 0},
                          timeout=120).json()
        while not httpx2.get(f"{url}/api/games/{warm['id']}?seat=1").json()["legal"]:
            time.sleep(0.2)
        out = {k: [] for k in ("create", "move", "view", "view_thinking", "plies")}
        load0 = os.getloadavg()
        start = time.perf_counter()
        deadline = start + args.seconds
        threads = [threading.Thread(target=client, args=(url, 100 + i, deadline, args.ai, out))
                   for i in range(args.games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
        listing = httpx2.get(url + "/api/games").json()["games"]
    finally:
        server.terminate()
        server.wait(30)
    ai_moves = 0
    for name in os.listdir(games_dir):
        with open(os.path.join(games_dir, name)) as f:
            ai_moves += json.load(f)["by"].count("ai")
    result = {"games": args.games, "ai": args.ai, "wall_s": round(wall, 1),
              "ai_moves": ai_moves, "plies": sum(out["plies"]), "loadavg_before": load0,
              "loadavg_after": os.getloadavg(), "cpus": os.cpu_count(), "games_listed": len(listing)}
    for k in ("view_thinking", "view", "move", "create"):
        v = out[k]
        result[k] = {"n": len(v), "median_ms": round(1000 * statistics.median(v), 1) if v else None,
                     "p95_ms": round(1000 * pct(v, 0.95), 1) if v else None,
                     "max_ms": round(1000 * max(v), 1) if v else None}
    allv = out["view_thinking"] + out["view"] + out["move"]
    result["all_page_actions"] = {"n": len(allv), "median_ms": round(1000 * statistics.median(allv), 1),
                                  "p95_ms": round(1000 * pct(allv, 0.95), 1)}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
