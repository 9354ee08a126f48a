"""`tne serve`: play, set up and analyse positions in the browser (the optional extra `web`).

app.py      the ASGI routes (Starlette) over games.py, views.py, the search and the formats
games.py    a game on the server: seats, moves, the AI off the request path, saving to disk
views.py    what a seat may see: its view of a game, the move log with hidden swaps redacted,
            conflict outcomes in words, the renderer's colours and symbols for the page
static/     the page, its script and styles (no build step, nothing from a CDN)
"""
