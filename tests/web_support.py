"""Shared pieces of the web tests: a real server (uvicorn in a thread) and the system Chromium.

The browser is Debian's ``chromium`` package (installed by .ci/run), driven by Playwright for
Python through ``executable_path``; as root it needs ``--no-sandbox``."""
import socket
import threading
import time

import uvicorn

from tne_ai.web.app import create_app

CHROMIUM = "/usr/bin/chromium"
TIMEOUT_MS = 120_000  # generous: the tests must pass on a loaded machine


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`tne serve`'s application on a free port, started and stopped in this process."""

    def __init__(self, games_dir, ai="random"):
        self.port = free_port()
        self.app = create_app(str(games_dir), ai)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(60)


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
