"""Make the screenshots of `tne serve` in docs/ (headless Debian Chromium via Playwright).

    python docs/make_web_screenshots.py

Plays a few moves of a game against the casual level (mcts:iterations=2000) with seed 2,
then photographs the play view (a tile selected: its legal squares dotted), the engine's
hint, a revolt's commit dialog, the editor, the analysis panel and the chooser of a
tournament's records at 1280x800, and the play view on a phone-sized screen (390x844), where
the board is wider than the screen and a line above it says which columns are off-screen."""
import json
import os
import sys
import tempfile
import threading
import time

import httpx
import uvicorn
from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), os.path.join(HERE, "..", "tests")]
from tne_ai.web.app import create_app  # noqa: E402
from test_web_browser import REVOLT  # noqa: E402

PORT = 8791


def main():
    games = tempfile.mkdtemp()
    server = uvicorn.Server(uvicorn.Config(create_app(games, "mcts:iterations=2000"),
                                           port=PORT, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{PORT}"
    api = httpx.Client(base_url=url, timeout=60)
    v = api.post("/api/games", json={"seats": ["human", "casual"], "seed": 2}).json()
    gid, link = v["id"], v["links"][0]["link"]   # seat 0's link, with its key
    api.headers["X-Tne-Key"] = v["key"]
    # player 0 places tiles from his hand on the first legal square next to a temple ...
    plan = ["tile red G3", "tile green G4", "tile black L2", "tile blue M3", "leader black G2",
            "tile red G5", "leader green H4", "tile black H5"]
    for move in plan:
        while True:
            v = api.get(f"/api/games/{gid}?seat=0").json()
            if v["legal"]:
                break
            time.sleep(0.1)
        if move in v["legal"]:
            api.post(f"/api/games/{gid}/move", json={"seat": 0, "move": move})
        else:
            tiles = [m for m in v["legal"] if m.startswith("tile ")]
            api.post(f"/api/games/{gid}/move", json={"seat": 0, "move": tiles[len(tiles) // 2]})
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = b.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url + link)
        page.wait_for_function("['your-move', 'decision'].includes(document.body.dataset.state)")
        page.click(".hand-tile:not([disabled])")
        page.screenshot(path=os.path.join(HERE, "web-play.png"))
        page.keyboard.press("Escape")
        page.click("#btn-hint")
        page.wait_for_selector("#hint ol.an-moves li")
        page.screenshot(path=os.path.join(HERE, "web-hint.png"), full_page=True)
        phone = b.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        phone.goto(url + link)
        phone.wait_for_function("['your-move', 'decision'].includes(document.body.dataset.state)")
        phone.click(".hand-tile:not([disabled])")
        phone.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(path=os.path.join(HERE, "web-phone.png"), full_page=False)
        # analysis of the seat's own view
        page.click("#btn-analyse")
        page.wait_for_function("document.querySelectorAll('#an-moves li').length >= 3 && "
                               "parseInt(document.getElementById('an-status').textContent) >= 64000")
        page.screenshot(path=os.path.join(HERE, "web-analysis.png"))
        page.click("#ed-stop")
        # the revolt of the browser test, at its commit dialog
        r = api.post("/api/games/upload", json={"seats": ["human", "random"], "seed": 0,
                                               "data": REVOLT}).json()
        api.post(f"/api/games/{r['id']}/move", json={"seat": 0, "move": "leader red B3"},
                 headers={"X-Tne-Key": r["key"]})
        page.goto(url + r["links"][0]["link"])
        page.wait_for_selector("#dlg-decision[open]")
        page.screenshot(path=os.path.join(HERE, "web-conflict.png"))
        # a tournament's records uploaded: the page asks which game to open
        page.set_input_files("#file-upload", os.path.join(HERE, "..", "examples",
                                                         "greedy_vs_mcts.jsonl"))
        page.wait_for_selector("#dlg-pick[open]")
        page.screenshot(path=os.path.join(HERE, "web-upload.png"))
        page.keyboard.press("Escape")
        # the editor: the analysed position with a few pieces more
        page.goto(f"{url}/#editor")
        page.wait_for_function("document.body.dataset.state == 'editor'")
        for tool, squares in (("tile:red", ["G4", "H4"]), ("tile:green", ["G5", "H5"]),
                              ("tile:blue", ["E3"]), ("catastrophe", ["J6"])):
            page.click(f"button.tool[data-tool='{tool}']")
            for sq in squares:
                page.click(f"#editor-board rect.square[data-square='{sq}']")
        page.click("button.tool[data-tool='leader']")
        page.select_option("#ed-lc", "green")
        page.click("#editor-board rect.square[data-square='G3']")
        page.click("button.tool[data-tool='tile:red']")
        for sq in ("C5", "D5", "C6", "D6"):
            page.click(f"#editor-board rect.square[data-square='{sq}']")
        page.click("button.tool[data-tool='monument']")
        page.select_option("#ed-mon", "red-green")
        page.click("#editor-board rect.square[data-square='C5']")
        page.fill("input[data-path='hands.0.red']", "2")
        page.dispatch_event("input[data-path='hands.0.red']", "change")
        page.wait_for_function("['yes', 'no'].includes(document.querySelector('#editor-status')"
                               ".dataset.valid)")
        page.screenshot(path=os.path.join(HERE, "web-editor.png"))
        b.close()
    server.should_exit = True
    print(json.dumps({"game": gid, "shots": sorted(n for n in os.listdir(HERE) if n.startswith("web-"))}))


if __name__ == "__main__":
    main()
