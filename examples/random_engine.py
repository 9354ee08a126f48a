"""A random engine for the tne line protocol (docs/PROTOCOL.md), in plain Python.

It plays a uniformly random move from the "legal" list the client sends with each position
(as the engine:CMD agent does).  Run it as an agent:
    tne tournament --agent rnd='engine:python examples/random_engine.py' --agent g=greedy
"""
import json
import random
import sys

rng, legal = random.Random(0), []
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    reply = None
    if kind == "hello":
        reply = {"type": "hello", "name": "random", "version": "1", "protocol": 1,
                 "options": [{"name": "seed", "type": "int", "default": 0, "min": 0, "max": 2 ** 62}]}
    elif kind == "setoption" and msg.get("name") == "seed":
        rng.seed(msg["value"])
    elif kind == "isready":
        reply = {"type": "readyok"}
    elif kind == "position":
        legal = msg.get("legal", [])
    elif kind == "go":
        reply = {"type": "bestmove", "move": rng.choice(legal)} if legal else \
            {"type": "error", "message": "go: no legal moves were given with the position"}
    elif kind == "quit":
        break
    if reply is not None:
        print(json.dumps(reply), flush=True)
