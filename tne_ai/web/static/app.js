// The page of `tne serve`: play, the board editor and the analysis panel.  It talks to the
// JSON routes of tne_ai/web/app.py and only ever holds what the server sends a seat.
"use strict";

const $ = id => document.getElementById(id);
const COLOURS = ["red", "blue", "green", "black"];
const LETTERS = "rbgk";
const TOTALS = [57, 36, 30, 30];
const St = { M: null, levels: [], defaultAi: "", gid: null, seat: null, key: null, view: null, sel: null,
  hint: null, poll: null, decisionFor: null, decisionClosed: null, forced: new Set(),
  newMode: "new", uploadData: null };

// Seat keys: a seat's requests carry its key (X-Tne-Key); this browser remembers the keys it
// was given, so that the games list reopens its own seats (others open as a watcher).
function seatKeys() { try { return JSON.parse(localStorage.getItem("tne-keys") || "{}"); } catch (e) { return {}; } }
function rememberKey(gid, seat, key) {
  if (!key) return;
  const all = seatKeys();
  all[gid] = Object.assign(all[gid] || {}, { [seat]: key });
  try { localStorage.setItem("tne-keys", JSON.stringify(all)); } catch (e) { /* private mode: links still work */ }
}

async function api(method, path, body) {
  const opts = { method, headers: St.key ? { "X-Tne-Key": St.key } : {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

function message(text) {
  $("msg-text").textContent = text;
  if (!$("dlg-message").open) $("dlg-message").showModal();
}

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function seatName(seat, i) {
  if (seat === "human") return i === St.seat ? "you" : "human";
  const lv = St.levels.find(l => l.spec === seat);
  return lv ? `AI ${lv.name}` : `AI ${seat}`;
}

function show(which) {
  $("play-view").hidden = which !== "play";
  $("editor-view").hidden = which !== "editor";
  $("idle-view").hidden = which !== "idle";
  updateScrollCues();
}

// On a narrow screen the board is wider than its column and scrolls sideways (style.css): a
// line above it names the columns in view and those off-screen, and a shadow darkens each
// edge with more board beyond it.  Neither shows while the whole board fits.
function updateScrollCues() {
  document.querySelectorAll(".board-wrap").forEach(wrap => {
    const box = wrap.querySelector(".board-scroll"), cue = wrap.previousElementSibling;
    if (!box.offsetParent) return;  // a hidden view: nothing laid out
    const over = box.scrollWidth > box.clientWidth + 1;
    wrap.classList.toggle("more-left", over && box.scrollLeft > 1);
    wrap.classList.toggle("more-right", over && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    cue.hidden = !over;
    if (!over || !St.M) return;
    const files = St.M.files, edge = box.getBoundingClientRect();
    const seen = [...box.querySelectorAll("rect.square")]
      .filter(sq => sq.dataset.square.length === 2 && sq.dataset.square[1] === "1")
      .filter(sq => { const r = sq.getBoundingClientRect(); return r.left >= edge.left - 1 && r.right <= edge.right + 1; })
      .map(sq => files.indexOf(sq.dataset.square[0]));
    const span = (a, b) => a === b ? files[a] : `${files[a]} to ${files[b]}`;
    if (!seen.length) { cue.textContent = "⇆ The board is wider than the screen: swipe it sideways."; return; }
    const lo = Math.min(...seen), hi = Math.max(...seen), last = files.length - 1;
    const off = [];
    if (lo > 0) off.push(span(0, lo - 1));
    if (hi < last) off.push(span(hi + 1, last));
    cue.textContent = `⇆ Columns ${span(lo, hi)} in view: swipe the board sideways for ${off.join(" and ")}.`;
  });
}

// --- play ------------------------------------------------------------------------------

function setHash() {
  history.replaceState(null, "", `#game=${St.gid}` + (St.seat !== null ? `&seat=${St.seat}` : "") + (St.seat !== null && St.key ? `&key=${encodeURIComponent(St.key)}` : ""));
}

async function openGame(gid, seat, key) {
  St.gid = gid;
  St.seat = seat;
  St.key = seat === null ? null : key || (seatKeys()[gid] || {})[seat] || null;
  if (seat !== null) rememberKey(gid, seat, St.key);
  St.view = null;
  St.sel = null;
  St.hint = null;
  stopAnalysis();
  ED.from = null;
  $("ed-from").hidden = true;
  show("play");
  setHash();
  await refresh();
}

function schedulePoll(ms) {
  clearTimeout(St.poll);
  St.poll = setTimeout(refresh, ms);
}

async function refresh() {
  if (!St.gid) return;
  try {
    const q = St.seat === null ? "" : `?seat=${St.seat}`;
    const v = await api("GET", `/api/games/${St.gid}${q}`);
    setView(v);
  } catch (e) {
    $("status").textContent = `Cannot reach the game: ${e.message}`;
    schedulePoll(1500);
  }
}

function setView(v) {
  const changed = !St.view || St.view.version !== v.version || St.view.seat !== v.seat;
  St.view = v;
  if (changed) {
    St.sel = null;
    St.hint = null;
    render();
  }
  const humanHere = v.legal.length > 0;
  if (!v.over && !humanHere) schedulePoll(v.thinking ? 250 : 600);
}

function legal(prefix) { return St.view.legal.filter(t => t.startsWith(prefix)); }

function lastOpponentMarks(v) {
  // the squares of the moves made since this seat's own last move
  const out = [];
  for (let i = v.log.length - 1; i >= 0; i--) {
    const e = v.log[i];
    if (e.player === St.seat && e.by === "human") break;
    out.push(e.mark);
  }
  return out;
}

function targets() {
  const s = St.sel;
  if (!s) {
    // a pending monument or treasure: its blocks (top-left squares) or treasures, outlined
    const p = St.view.position.pending;
    if (p && (p.kind === "monument" || p.kind === "treasure") && St.view.legal.length)
      return legal(p.kind === "monument" ? "monument " : "treasure ").map(t => t.split(" ").pop());
    return [];
  }
  let moves = [];
  if (s.kind === "tile") moves = legal(`tile ${s.colour} `);
  else if (s.kind === "leader") moves = legal(`leader ${s.colour} `);
  else if (s.kind === "catastrophe") moves = legal("catastrophe ");
  else if (s.kind === "treasure") moves = legal("treasure ");
  return moves.map(t => t.split(" ").pop());
}

function myLeaderAt(sq) {
  const v = St.view;
  return (v.position.leaders || []).find(l => l[0] === St.seat && l[2] === sq);
}

function render() {
  const v = St.view, M = St.M, pos = v.position;
  const mine = v.legal.length > 0;
  const hotseat = v.hotseat && !v.over && v.seats[v.to_act] === "human" && v.to_act !== St.seat;
  $("cover").hidden = !hotseat;
  if (hotseat) {
    $("cover-text").textContent = `Player ${v.to_act}'s turn: pass the screen to player ${v.to_act}.`;
    $("cover-btn").textContent = `I am player ${v.to_act}: show my hand`;
  }
  const tg = targets();
  drawBoard($("board"), pos, M, {
    targets: tg, selected: St.sel && St.sel.square, last: lastOpponentMarks(v),
    marks: St.hint ? St.hint.top : null,
  });
  updateScrollCues();
  // status
  let status;
  if (v.over) status = "Game over.";
  else if (mine) {
    const p = pos.pending;
    status = p ? `Your decision: ${p.kind}.` :
      `Your move: action ${3 - pos.actions_left} of 2.` + (St.sel ? " Click a square with a green dot (Escape: another choice)." : " Click a tile in your hand, a leader, or a button.");
  } else if (v.seats[v.to_act] !== "human") status = `Player ${v.to_act} (${seatName(v.seats[v.to_act], v.to_act)}) is thinking…`;
  else status = `Player ${v.to_act} to move.`;
  if (v.error) status += " " + v.error;
  $("status").textContent = status;
  // the conflicts settled since this seat's last move, spelled out under the board
  const news = [];
  for (let i = v.log.length - 1; i >= 0; i--) {
    const e = v.log[i];
    if (e.outcome) news.unshift(e.outcome);
    if (e.player === St.seat && e.by === "human") break;
  }
  $("news").innerHTML = news.map(t => `<div class="outcome">${esc(t)}</div>`).join("");
  renderHand(v, mine);
  renderPlayers(v);
  renderLog(v);
  renderResult(v);
  // buttons
  const has = t => v.legal.includes(t);
  $("btn-pass").disabled = !has("pass");
  $("btn-catastrophe").disabled = legal("catastrophe ").length === 0;
  $("btn-swap").disabled = legal("swap ").length === 0;
  const wd = St.sel && St.sel.kind === "leader" && St.sel.square && has(`withdraw ${St.sel.colour}`);
  $("btn-withdraw").hidden = !wd;
  $("btn-undo").disabled = !v.can_undo;
  $("btn-hint").disabled = !mine;
  $("btn-record").disabled = !v.over;
  $("hint").innerHTML = St.hint ? `<h3>Engine's suggestion: <code>${esc(St.hint.move)}</code></h3>` +
    `<p class="small">Searched from your view only (${St.hint.iterations} iterations); its top moves:</p>` + movesHtml(St.hint.top) : "";
  if ($("legend").dataset.players !== String(v.players)) {  // drawn once: keeps it open or shut
    $("legend").innerHTML = legendHtml(M, v.players, true, window.innerWidth > 700);
    $("legend").dataset.players = v.players;
  }
  $("btn-decide").hidden = !(mine && pos.pending && v.legal.length > 1);
  document.body.dataset.state = v.over ? "over" : hotseat ? "hotseat" : mine ? (pos.pending ? "decision" : "your-move") : "waiting";
  document.body.dataset.version = v.version;
  if (mine && pos.pending) openDecision(v);
  else if ($("dlg-decision").open) $("dlg-decision").close();
}

// A decision with one legal answer (commit 0 without tiles of the colour, the only
// treasure ...) is played at once; the log marks it as forced.
function playForced(v) {
  const key = `${v.id}:${v.version}`;
  if (St.decisionFor === key) return;
  St.decisionFor = key;
  St.forced.add(`${v.id}:${v.log.length + 1}`);
  sendMove(v.legal[0]);
}

function renderHand(v, mine) {
  const M = St.M, pos = v.position, el = $("hand");
  const hand = St.seat !== null ? pos.hands[St.seat] : null;
  if (!hand) { el.innerHTML = "<h3>Hand</h3><p class='small'>Watching: no hand shown.</p>"; return; }
  const parts = [`<h3>Your hand (player ${St.seat})</h3><div class="hand-tiles">`];
  COLOURS.forEach((c, k) => {
    const can = mine && legal(`tile ${c} `).length > 0;
    const sel = St.sel && St.sel.kind === "tile" && St.sel.colour === c;
    parts.push(`<button class="hand-tile ${c}${sel ? " selected" : ""}" data-colour="${c}" ${can ? "" : "disabled"} title="${c} tiles">` +
      symbolSvg(M.tile[k], M.cell, M.cell, 0, 0) + `<span class="count">${hand[c]}</span></button>`);
  });
  parts.push("</div><div class='supply'><span class='small'>Leaders in supply:</span> ");
  const onBoard = new Set((pos.leaders || []).filter(l => l[0] === St.seat).map(l => l[1]));
  COLOURS.forEach((c, k) => {
    if (onBoard.has(c)) return;
    const can = mine && legal(`leader ${c} `).length > 0;
    const sel = St.sel && St.sel.kind === "leader" && St.sel.colour === c && !St.sel.square;
    parts.push(`<button class="supply-leader ${c}${sel ? " selected" : ""}" data-colour="${c}" ${can ? "" : "disabled"} title="your ${c} leader">` +
      symbolSvg(M.leader[St.seat][k], 30, 30, 15, 15) + "</button>");
  });
  parts.push(`</div><p class="small">Catastrophes: ${pos.catastrophes[St.seat]} · bag: ${v.bag} tiles · treasures on the board: ${pos.treasures.length}</p>`);
  el.innerHTML = parts.join("");
  el.querySelectorAll(".hand-tile").forEach(b => b.onclick = () => {
    St.sel = { kind: "tile", colour: b.dataset.colour };
    render();
  });
  el.querySelectorAll(".supply-leader").forEach(b => b.onclick = () => {
    St.sel = { kind: "leader", colour: b.dataset.colour };
    render();
  });
}

function renderPlayers(v) {
  const M = St.M, pos = v.position;
  const parts = [];
  for (let p = 0; p < v.players; p++) {
    const sc = pos.scores[p];
    const hand = pos.hands[p];
    const size = pos.hand_sizes ? pos.hand_sizes[p] : 6;
    const acting = p === v.to_act && !v.over;
    const supply = COLOURS.filter(c => !(pos.leaders || []).some(l => l[0] === p && l[1] === c));
    parts.push(`<div class="player${acting ? " acting" : ""}" data-player="${p}">` +
      `<div class="pname">${symbolSvg(M.leader_small[p][3], 16, 16, 8, 8)} Player ${p} · ${esc(seatName(v.seats[p], p))}${acting ? " · <b>to act</b>" : ""}</div>` +
      `<div class="scores">` + COLOURS.map((c, k) => `<span class="sw" style="background:${M.tile_fill[k]}"></span>${sc[c]}`).join(" ") +
      ` <span class="sw gold"></span>${sc.treasure}</div>` +
      `<div class="small">supply: ${supply.join(", ") || "none"} · catastrophes ${pos.catastrophes[p]} · ` +
      (hand && p === St.seat ? "hand shown above" : `hand hidden (${size} tiles)`) + "</div></div>");
  }
  $("players").innerHTML = parts.join("");
}

function renderLog(v) {
  const parts = v.log.map(e => `<li class="${e.by === "ai" ? "ai" : e.by}" data-ply="${e.ply}">` +
    `<span class="ply">${e.ply}.</span> P${e.player}${e.by === "ai" ? " (AI)" : ""}: <code>${esc(e.move)}</code>` +
    (St.forced.has(`${v.id}:${e.ply}`) ? ' <span class="forced small">(played at once: the only choice)</span>' : "") +
    (e.outcome ? `<div class="outcome">${esc(e.outcome)}</div>` : "") + "</li>");
  const el = $("log");
  el.innerHTML = parts.join("");
  el.scrollTop = el.scrollHeight;
}

function renderResult(v) {
  const el = $("result");
  el.hidden = !v.over;
  if (!v.over) return;
  const order = [...Array(v.players).keys()].sort((a, b) => v.ranking[a] - v.ranking[b]);
  el.innerHTML = "<h3>Final ranking</h3><table id='ranking'><tr><th>place</th><th>player</th><th>colours after treasures (lowest first)</th></tr>" +
    order.map(p => `<tr data-player="${p}"><td class="place">${v.ranking[p]}</td><td>Player ${p} (${esc(seatName(v.seats[p], p))})</td><td>${v.final[p].join(" ")}</td></tr>`).join("") +
    "</table>";
}

function openDecision(v, again) {
  if (v.legal.length === 1) { playForced(v); return; }
  const key = `${v.id}:${v.version}`;
  if ($("dlg-decision").open && St.decisionFor === key) return;
  if (St.decisionClosed === key && !again) return;  // closed by the player: Decide… reopens
  St.decisionFor = key;
  St.decisionClosed = null;
  const pos = v.position, p = pos.pending, dlg = $("dlg-decision");
  dlg.dataset.kind = p.kind;
  let title = "", body = "";
  let buttons = v.legal.map(t => [t, t]);
  if (p.kind === "revolt" || p.kind === "war") {
    const c = v.conflict;
    title = p.kind === "revolt" ? `Revolt (${c.colour})` : `War (${c.colour}) around ${p.unifying}`;
    const role = St.seat === c.attacker ? "attacker" : "defender";
    const committed = c.attacker_commit === null ? "commits first" : `committed ${c.attacker_commit}`;
    const aTotal = c.attacker_board + (c.attacker_commit || 0);
    body = `<table class="strengths"><tr><th></th><th>player</th><th>on the board</th><th>committed</th><th>strength</th></tr>` +
      `<tr class="attacker"><td>attacker</td><td>${c.attacker}</td><td class="board-strength">${c.attacker_board}</td><td>${c.attacker_commit === null ? "?" : c.attacker_commit}</td><td class="total">${c.attacker_commit === null ? c.attacker_board + "+?" : aTotal}</td></tr>` +
      `<tr class="defender"><td>defender</td><td>${c.defender}</td><td class="board-strength">${c.defender_board}</td><td>?</td><td class="total">${c.defender_board}+?</td></tr></table>` +
      `<p>You are the ${role} (the attacker ${committed}); ties go to the defender. Commit ${c.colour} tiles from your hand:</p>`;
    buttons = v.legal.map(t => {
      const n = parseInt(t.split(" ")[1], 10);
      const mineBoard = role === "attacker" ? c.attacker_board : c.defender_board;
      return [t, `${t} (strength ${mineBoard + n})`];
    });
  } else if (p.kind === "war-choice") {
    title = `Wars around ${p.unifying}`;
    body = "<p>Several colours are in conflict: choose the colour of the next war.</p>";
  } else if (p.kind === "monument") {
    title = "Build a monument?";
    body = `<p>The tile on ${p.at} completed a 2x2 block of one colour. Pick the monument and its block (named by its top-left square), or decline.</p>`;
  } else if (p.kind === "treasure") {
    title = "Take a treasure";
    body = "<p>Your trader's kingdom holds two or more treasures: take one (corner treasures first).</p>";
  }
  $("dec-title").textContent = title;
  $("dec-body").innerHTML = body;
  $("dec-buttons").innerHTML = buttons.map(([t, label]) => `<button type="button" class="decision" data-move="${esc(t)}">${esc(label)}</button>`).join("");
  $("dec-buttons").querySelectorAll("button").forEach(b => b.onclick = () => { dlg.close(); sendMove(b.dataset.move); });
  // not modal: the board, the log, Upload, New game and Editor stay usable
  if (!dlg.open) dlg.show();
}

async function sendMove(text) {
  try {
    document.body.dataset.state = "sending";
    const v = await api("POST", `/api/games/${St.gid}/move`, { seat: St.seat, move: text });
    setView(v);
  } catch (e) {
    message(`Move '${text}' refused: ${e.message}`);
    render();
  }
}

function onBoardClick(ev) {
  const v = St.view;
  if (!v || v.legal.length === 0) return;
  const g = ev.target.closest("[data-square]");
  if (!g) return;
  const sq = g.dataset.square;
  const tg = targets();
  if (St.sel && tg.includes(sq)) {
    const s = St.sel;
    const text = s.kind === "catastrophe" ? `catastrophe ${sq}` : s.kind === "treasure" ? `treasure ${sq}` : `${s.kind} ${s.colour} ${sq}`;
    St.sel = null;
    sendMove(text);
    return;
  }
  const lead = myLeaderAt(sq);
  if (lead) St.sel = { kind: "leader", colour: lead[1], square: sq };
  else St.sel = null;
  render();
}

function openSwap() {
  const hand = St.view.position.hands[St.seat];
  $("swap-body").innerHTML = COLOURS.map((c, k) => `<label class="swap-row"><span class="sw" style="background:${St.M.tile_fill[k]}"></span>${c} (${hand[c]} in hand) <input type="number" min="0" max="${hand[c]}" value="0" data-colour="${c}"></label>`).join("");
  $("dlg-swap").showModal();
}

$("dlg-swap").addEventListener("close", () => {
  if ($("dlg-swap").returnValue !== "ok") return;
  let letters = "";
  $("swap-body").querySelectorAll("input").forEach(i => {
    const n = Math.max(0, Math.min(6, parseInt(i.value, 10) || 0));
    letters += LETTERS[COLOURS.indexOf(i.dataset.colour)].repeat(n);
  });
  if (letters) sendMove(`swap ${letters}`);
});

async function hint() {
  $("hint").textContent = "The engine is thinking (from your view only)…";
  try {
    St.hint = await api("POST", `/api/games/${St.gid}/hint`, { seat: St.seat });
  } catch (e) { St.hint = null; message(e.message); }
  render();
}

async function undo() {
  try { setView(await api("POST", `/api/games/${St.gid}/undo`, { seat: St.seat })); }
  catch (e) { message(e.message); }
}

// --- new game / upload / games ---------------------------------------------------------

function seatOptions(defaultValue) {
  const opts = [["human", "human"]];
  St.levels.forEach(l => opts.push([l.name, `AI ${l.name} (${l.iterations} iterations, ${eloText(l.elo)})`]));
  opts.push(["ai", `server AI (${St.defaultAi})`], ["greedy", "greedy (one ply)"], ["random", "random moves"]);
  return opts.map(([v, t]) => `<option value="${v}"${v === defaultValue ? " selected" : ""}>${esc(t)}</option>`).join("");
}

function eloText(elo) { return `Elo ${elo >= 0 ? "+" : "−"}${Math.abs(elo)}`; }

function buildSeats(n) {
  const el = $("new-seats");
  const old = [...el.querySelectorAll("select")].map(s => s.value);
  el.innerHTML = [...Array(n).keys()].map(i => `<label>Seat ${i} <select class="seat" data-seat="${i}">${seatOptions(old[i] || (i === 0 ? "human" : "casual"))}</select></label>`).join("");
}

function openNew(mode, data, players) {
  St.newMode = mode;
  $("new-seed").value = Math.floor(Math.random() * 1000000);
  St.uploadData = data || null;
  const n = mode === "new" ? parseInt($("new-players").value, 10) : players;
  $("new-title").textContent = mode === "new" ? "New game" : `Continue from ${data.format === "tne-game/1" ? "a record" : "a position"} (${n} players)`;
  $("new-players-row").hidden = mode !== "new";
  buildSeats(n);
  $("dlg-new").showModal();
}

$("new-players").onchange = () => buildSeats(parseInt($("new-players").value, 10));

$("dlg-new").addEventListener("close", async () => {
  if ($("dlg-new").returnValue !== "start") {
    if (!St.gid && $("editor-view").hidden) show("idle");  // cancelled with no game open
    return;
  }
  const seats = [...$("new-seats").querySelectorAll("select")].map(s => s.value);
  const seed = parseInt($("new-seed").value, 10) || 0;
  try {
    const hotseat = $("new-hotseat").checked;
    const v = St.newMode === "new" ? await api("POST", "/api/games", { seats, seed, hotseat }) :
      await api("POST", "/api/games/upload", { seats, seed, hotseat, data: St.uploadData });
    await openGame(v.id, v.seat, v.key);
    const others = v.links.filter(l => l.seat !== v.seat && !v.hotseat);
    if (others.length) message("Send each player the link of their seat: " + others.map(l => `player ${l.seat}: ${location.origin}${l.link}`).join(" · "));
  } catch (e) { message(e.message); }
});

// A file of one JSON object (a tne-game/1 record or a tne-position/1 position) or JSON lines
// (records, one a line, as `tne tournament` writes): then the person picks the game.
function readFile(input, then) {
  const f = input.files[0];
  if (!f) return;
  f.text().then(text => {
    input.value = "";
    let items;
    try { items = [JSON.parse(text)]; } catch (e) {
      const lines = text.split("\n").map(l => l.trim()).filter(l => l);
      items = [];
      for (let i = 0; i < lines.length; i++) {
        try { items.push(JSON.parse(lines[i])); } catch (e2) {
          message(`${f.name} line ${i + 1}: not JSON (a file holds one JSON object, or JSON lines with one record each)`);
          return;
        }
      }
    }
    if (!items.length) { message(`${f.name}: empty`); return; }
    for (let i = 0; i < items.length; i++) {
      const d = items[i], where = items.length > 1 ? `${f.name} line ${i + 1}` : f.name;
      // the loader's order: the format first
      if (!d || typeof d !== "object" || Array.isArray(d)) { message(`${where}: expected a JSON object`); return; }
      if (d.format === undefined) { message(`${where}: format: missing (expected tne-game/1, a record, or tne-position/1, a position)`); return; }
      if (d.format !== "tne-game/1" && d.format !== "tne-position/1") { message(`${where}: format: ${JSON.stringify(d.format).slice(0, 40)} is neither tne-game/1 (a record) nor tne-position/1 (a position)`); return; }
      if (items.length > 1 && d.format !== "tne-game/1") { message(`${where}: a file of several lines holds records (tne-game/1), not positions`); return; }
    }
    if (items.length === 1) then(items[0], f.name);
    else pickRecord(items, f.name, then);
  });
}

function pickRecord(records, name, then) {
  $("pick-title").textContent = `${name}: ${records.length} games; open one`;
  $("pick-list").innerHTML = records.map((r, i) => {
    const meta = r.meta || {}, start = r.start || {};
    const who = Array.isArray(meta.agents) ? meta.agents.map(a => a && a.spec ? `${a.name} (${a.spec})` : String(a)).join(" vs ") : "";
    const res = r.result && Array.isArray(r.result.ranking) ? `, places ${r.result.ranking.join(" ")}` : "";
    return `<li><button type="button" class="pick" data-index="${i}">${esc(meta.game_id || `game ${i + 1}`)}</button> ` +
      `${esc(start.players || "?")} players, ${Array.isArray(r.moves) ? r.moves.length : "?"} moves${esc(res)}${who ? ": " + esc(who) : ""}</li>`;
  }).join("");
  $("pick-list").querySelectorAll("button.pick").forEach(b => b.onclick = () => {
    $("dlg-pick").close("picked");
    then(records[parseInt(b.dataset.index, 10)], name);
  });
  $("dlg-pick").showModal();
}

// An uploaded record or position: its position (a record's start) checked by the server's
// loader before the seats are asked, so that a bad file gets its one message first.
async function uploadChosen(data, name) {
  const pos = data.format === "tne-game/1" ? data.start : data;
  if (!pos || typeof pos !== "object") { message(`${name}: start: expected a tne-position/1 object`); return; }
  try { await api("POST", "/api/positions/check", { position: withBag(pos) }); }
  catch (e) { message(`${name}${data.format === "tne-game/1" ? " (start)" : ""}: ${e.message}`); return; }
  openNew("upload", data, pos.players);
}

$("file-upload").onchange = () => readFile($("file-upload"), uploadChosen);

async function openGames() {
  const d = await api("GET", "/api/games");
  $("games-list").innerHTML = d.games.map(g => `<li><a href="#game=${g.id}" data-id="${g.id}">${g.id}</a>: ${g.seats.map(esc).join(" vs ")}, ply ${g.ply}${g.over ? ", over" : ""}</li>`).join("") || "<li>none yet</li>";
  $("games-list").querySelectorAll("a").forEach(a => a.onclick = ev => {
    ev.preventDefault();
    $("dlg-games").close();
    const g = d.games.find(x => x.id === a.dataset.id);
    const mine = Object.keys(seatKeys()[g.id] || {}).map(Number);
    openGame(g.id, mine.length ? mine[0] : null);
  });
  $("dlg-games").showModal();
}

// --- editor and analysis ---------------------------------------------------------------

// from: the game the editor was opened from ({gid, seat, key}), which "Back to the game" and
// the browser's back button reopen
const ED = { pos: null, tool: "tile:red", analysis: null, source: null, marks: null, timer: null, from: null };

function emptyPosition(n, temples) {
  const M = St.M;
  const board = M.map.map(row => [...row].map(ch => ch === "~" ? "~" : (temples && "T*".includes(ch)) ? "r" : ".").join(""));
  const treasures = [];
  if (temples) M.map.forEach((row, r) => [...row].forEach((ch, c) => { if ("T*".includes(ch)) treasures.push(squareName(r, c, M)); }));
  const zero = () => ({ red: 0, blue: 0, green: 0, black: 0 });
  return {
    format: "tne-position/1", players: n, turn: 0, actions_left: 2, board, leaders: [], treasures,
    monuments: [], hands: [...Array(n)].map(zero), catastrophes: Array(n).fill(2),
    scores: [...Array(n)].map(() => ({ red: 0, blue: 0, green: 0, black: 0, treasure: 0 })),
    out_of_game: zero(), hidden_discards: 0, pending: null,
  };
}

function withBag(pos) {
  // the bag: every tile not on the board, in a hand or out of the game (counted, random draws)
  const d = JSON.parse(JSON.stringify(pos));
  if (d.hands.some(h => h === null)) { delete d.bag; return d; }
  const used = [0, 0, 0, 0];
  d.board.forEach(row => [...row].forEach(ch => { const k = LETTERS.indexOf(ch); if (k >= 0) used[k]++; }));
  (d.monuments || []).forEach(m => used[COLOURS.indexOf(m.tiles)] += 4);
  d.hands.forEach(h => COLOURS.forEach((c, k) => used[k] += h[c]));
  COLOURS.forEach((c, k) => used[k] += d.out_of_game[c]);
  d.bag = {};
  COLOURS.forEach((c, k) => d.bag[c] = Math.max(0, TOTALS[k] - used[k]));
  return d;
}

function editorTools() {
  const M = St.M;
  const tools = COLOURS.map((c, k) => [`tile:${c}`, symbolSvg(M.tile[k], 26, 26, -4, -4) + c]);
  tools.push(["catastrophe", symbolSvg(M.catastrophe, 26, 26, -4, -4) + "catastrophe"],
    ["treasure", "treasure"], ["leader", "leader"], ["monument", "monument"], ["erase", "erase"]);
  $("editor-tools").innerHTML = tools.map(([t, label]) => `<button class="tool${ED.tool.startsWith(t.split(":")[0]) && (t.indexOf(":") < 0 || ED.tool === t) ? " active" : ""}" data-tool="${t}">${label}</button>`).join("") +
    ` <label>player <select id="ed-lp">${[0, 1, 2, 3].slice(0, ED.pos.players).map(p => `<option>${p}</option>`).join("")}</select></label>` +
    ` <label>colour <select id="ed-lc">${COLOURS.map(c => `<option>${c}</option>`).join("")}</select></label>` +
    ` <label>monument <select id="ed-mon">${M.monuments.map(m => `<option>${m}</option>`).join("")}</select></label>`;
  $("editor-tools").querySelectorAll(".tool").forEach(b => b.onclick = () => { ED.tool = b.dataset.tool; editorTools(); });
}

function setCell(pos, sq, ch) {
  const [r, c] = parseSquare(sq, St.M);
  const row = [...pos.board[r]];
  row[c] = ch;
  pos.board[r] = row.join("");
}

function emptyCell(sq) {
  const [r, c] = parseSquare(sq, St.M);
  return St.M.map[r][c] === "~" ? "~" : ".";
}

function blockOf(at) {
  const [r, c] = parseSquare(at, St.M);
  return [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]].map(([a, b]) => squareName(a, b, St.M));
}

function editorClick(ev) {
  const g = ev.target.closest("[data-square]");
  if (!g) return;
  const sq = g.dataset.square, pos = ED.pos, tool = ED.tool;
  const dropLeader = () => { pos.leaders = pos.leaders.filter(l => l[2] !== sq); };
  if (tool.startsWith("tile:")) {
    dropLeader();
    setCell(pos, sq, LETTERS[COLOURS.indexOf(tool.split(":")[1])]);
  } else if (tool === "catastrophe") {
    dropLeader();
    setCell(pos, sq, "x");
  } else if (tool === "treasure") {
    pos.treasures = pos.treasures.includes(sq) ? pos.treasures.filter(t => t !== sq) : pos.treasures.concat([sq]);
  } else if (tool === "leader") {
    const p = parseInt($("ed-lp").value, 10), c = $("ed-lc").value;
    pos.leaders = pos.leaders.filter(l => !(l[0] === p && l[1] === c) && l[2] !== sq);
    setCell(pos, sq, emptyCell(sq));
    pos.leaders.push([p, c, sq]);
  } else if (tool === "monument") {
    const colors = $("ed-mon").value;
    const old = pos.monuments.find(m => m.colors === colors);
    if (old) blockOf(old.at).forEach(s => setCell(pos, s, LETTERS[COLOURS.indexOf(old.tiles)]));
    pos.monuments = pos.monuments.filter(m => m.colors !== colors);
    const [r, c] = parseSquare(sq, St.M);
    const first = LETTERS.indexOf(pos.board[r][c]);
    const tiles = first >= 0 && colors.split("-").includes(COLOURS[first]) ? COLOURS[first] : colors.split("-")[0];
    blockOf(sq).forEach(s => setCell(pos, s, "#"));
    pos.monuments.push({ colors, at: sq, tiles });
  } else if (tool === "erase") {
    dropLeader();
    pos.treasures = pos.treasures.filter(t => t !== sq);
    const mon = pos.monuments.find(m => blockOf(m.at).includes(sq));
    if (mon) {
      blockOf(mon.at).forEach(s => setCell(pos, s, emptyCell(s)));
      pos.monuments = pos.monuments.filter(m => m !== mon);
    } else setCell(pos, sq, emptyCell(sq));
  }
  editorChanged();
}

function numberInput(path, value, lo, hi) {
  return `<input type="number" class="ed-num" data-path="${path}" min="${lo}" max="${hi}" value="${value}">`;
}

function editorFields() {
  const pos = ED.pos;
  const parts = [`<h3>Position</h3><label>players <select id="ed-players">${[2, 3, 4].map(n => `<option${n === pos.players ? " selected" : ""}>${n}</option>`).join("")}</select></label>`,
    ` <label>turn ${numberInput("turn", pos.turn, 0, pos.players - 1)}</label>`,
    ` <label>actions left ${numberInput("actions_left", pos.actions_left, 0, 2)}</label>`,
    `<div class="ed-players">`];
  for (let p = 0; p < pos.players; p++) {
    const h = pos.hands[p];
    parts.push(`<div class="ed-player" data-player="${p}"><b>Player ${p}</b> <label>hand r b g k ` +
      (h ? COLOURS.map(c => numberInput(`hands.${p}.${c}`, h[c], 0, 6)).join("") : "<i>unknown</i>") +
      `</label> <label><input type="checkbox" class="ed-unknown" data-player="${p}"${h ? "" : " checked"}> unknown</label>` +
      `<br><label>score r b g k treasure ` +
      ["red", "blue", "green", "black", "treasure"].map(c => numberInput(`scores.${p}.${c}`, pos.scores[p][c], 0, 99)).join("") +
      `</label> <label>catastrophes ${numberInput(`catastrophes.${p}`, pos.catastrophes[p], 0, 2)}</label></div>`);
  }
  parts.push("</div><label>out of the game r b g k " + COLOURS.map(c => numberInput(`out_of_game.${c}`, pos.out_of_game[c], 0, 57)).join("") + "</label>");
  parts.push(`<p class="small">The bag is every tile not on the board, in a hand or out of the game (counted: draws at random). Pending decision: ${pos.pending ? esc(JSON.stringify(pos.pending)) : "none"}.</p>`);
  $("editor-fields").innerHTML = parts.join("");
  $("ed-players").onchange = () => {
    const n = parseInt($("ed-players").value, 10);
    const fresh = emptyPosition(n, false);
    for (const k of ["hands", "catastrophes", "scores"]) pos[k] = [...Array(n).keys()].map(i => i < pos[k].length ? pos[k][i] : fresh[k][i]);
    pos.players = n;
    pos.leaders = pos.leaders.filter(l => l[0] < n);
    pos.turn = Math.min(pos.turn, n - 1);
    editorChanged(true);
  };
  $("editor-fields").querySelectorAll(".ed-num").forEach(i => i.onchange = () => {
    const keys = i.dataset.path.split(".");
    let o = pos;
    for (const k of keys.slice(0, -1)) o = o[k];
    o[keys[keys.length - 1]] = parseInt(i.value, 10) || 0;
    editorChanged();
  });
  $("editor-fields").querySelectorAll(".ed-unknown").forEach(i => i.onchange = () => {
    const p = parseInt(i.dataset.player, 10);
    pos.hands[p] = i.checked ? null : { red: 0, blue: 0, green: 0, black: 0 };
    editorChanged(true);
  });
}

function drawEditor() {
  drawBoard($("editor-board"), ED.pos, St.M, { marks: ED.marks });
  updateScrollCues();
  if ($("editor-legend").dataset.players !== String(ED.pos.players)) {
    $("editor-legend").innerHTML = legendHtml(St.M, ED.pos.players, false, window.innerWidth > 700);
    $("editor-legend").dataset.players = ED.pos.players;
  }
}

function editorChanged(fields) {
  ED.marks = null;
  if (!ED.analysis) {
    $("an-moves").innerHTML = "";
    $("an-status").textContent = "Not running.";
    delete $("analysis").dataset.state;
  }
  $("editor-status").dataset.valid = "pending";
  drawEditor();
  if (fields) { editorFields(); editorTools(); }
  clearTimeout(ED.timer);
  ED.timer = setTimeout(checkEditor, 200);
}

async function checkEditor() {
  const st = $("editor-status");
  const seq = ED.seq = (ED.seq || 0) + 1;
  try {
    const r = await api("POST", "/api/positions/check", { position: withBag(ED.pos) });
    if (seq !== ED.seq) return true;  // a later edit is being checked
    st.textContent = r.over ? "Valid: the game is over." : `Valid: player ${r.to_act} to act` + (r.legal.length ? `, ${r.legal.length} legal moves.` : ".");
    st.dataset.valid = "yes";
    return true;
  } catch (e) {
    if (seq !== ED.seq) return false;
    st.textContent = `Invalid: ${e.message}`;
    st.dataset.valid = "no";
    return false;
  }
}

function openEditor(pos) {
  ED.pos = pos || ED.pos || emptyPosition(2, true);
  stopAnalysis();
  clearTimeout(St.poll);
  if (St.gid) {
    // from a game (Analyse, or the Editor button): the way back to it, a button and a
    // history entry (the browser's back button returns to #game=...)
    ED.from = { gid: St.gid, seat: St.seat, key: St.key };
    if (!location.hash.startsWith("#editor")) history.pushState({ editorFrom: St.gid }, "", "#editor");
    $("ed-from-text").textContent = `From game ${St.gid}` + (St.seat === null ? " (watching)." : ` (player ${St.seat}'s view).`);
  }
  $("ed-from").hidden = !ED.from;
  St.gid = null;
  St.view = null;
  if ($("dlg-decision").open) $("dlg-decision").close();
  $("cover").hidden = true;
  show("editor");
  document.body.dataset.state = "editor";
  editorTools();
  editorFields();
  editorChanged();
}

function stopAnalysis() {
  if (ED.source) { ED.source.close(); ED.source = null; }
  if (ED.analysis) { api("POST", `/api/analyses/${ED.analysis}/stop`, {}).catch(() => {}); ED.analysis = null; }
  $("ed-stop").disabled = true;
}

async function startAnalysis() {
  stopAnalysis();
  let a;
  try { a = await api("POST", "/api/analyses", { position: withBag(ED.pos), iterations: 200000 }); }
  catch (e) { $("an-status").textContent = `Cannot analyse: ${e.message}`; return; }
  ED.analysis = a.id;
  $("ed-stop").disabled = false;
  $("analysis").dataset.state = "running";
  $("an-status").textContent = `Player ${a.to_act} to act: searching…`;
  const src = new EventSource(`/api/analyses/${a.id}/events`);
  ED.source = src;
  src.onmessage = ev => {
    const snap = JSON.parse(ev.data);
    if (snap.top && snap.top.length) {
      ED.marks = snap.top;
      drawEditor();
      $("an-moves").innerHTML = movesHtml(snap.top);
    }
    const best = snap.top && snap.top.length ? snap.top[0].move : "?";
    if (snap.done) {
      $("an-status").textContent = `Done after ${snap.iterations} iterations` + (snap.error ? ` (error: ${snap.error})` : "") + `. Engine's move: ${best}`;
      $("an-status").dataset.best = best;
      $("analysis").dataset.state = "done";
      src.close();
      ED.source = null;
      ED.analysis = null;
      $("ed-stop").disabled = true;
    } else {
      $("an-status").textContent = `${snap.iterations} iterations (${snap.seconds} s): best so far ${best}`;
    }
  };
  src.onerror = () => { if (ED.source === src && src.readyState === EventSource.CLOSED) $("an-status").textContent += " (connection lost)"; };
}

function closeDecision() {
  St.decisionClosed = St.decisionFor;
  $("dlg-decision").close();
  $("status").textContent += " (Decide… opens the choice again.)";
}

// --- wiring ----------------------------------------------------------------------------

function wire() {
  // Escape closes the dialog on top (the modal ones close themselves), else drops the
  // selected tile or leader; every dialog also has a close control
  document.addEventListener("keydown", ev => {
    if (ev.key !== "Escape") return;
    if (document.querySelector("dialog:modal")) return;
    if ($("dlg-decision").open) { closeDecision(); ev.preventDefault(); return; }
    if (St.sel && St.view) { St.sel = null; render(); }
  });
  // Escape on a modal dialog closes it without an answer: never a stale "start" or "ok"
  document.querySelectorAll("dialog").forEach(d => d.addEventListener("cancel", () => { d.returnValue = "cancel"; }));
  document.querySelectorAll("dialog .close").forEach(b => b.onclick = () => {
    const d = b.closest("dialog");
    if (d.id === "dlg-decision") closeDecision(); else d.close("cancel");
  });
  $("btn-decide").onclick = () => { if (St.view) openDecision(St.view, true); };
  $("idle-new").onclick = () => openNew("new");
  $("idle-games").onclick = () => openGames().catch(e => message(e.message));
  $("idle-upload").onclick = () => $("file-upload").click();
  $("idle-editor").onclick = () => openEditor();
  $("board").addEventListener("click", onBoardClick);
  $("editor-board").addEventListener("click", editorClick);
  $("btn-new").onclick = () => openNew("new");
  $("btn-games").onclick = () => openGames().catch(e => message(e.message));
  $("btn-upload").onclick = () => $("file-upload").click();
  $("btn-editor").onclick = () => openEditor();
  $("btn-pass").onclick = () => sendMove("pass");
  $("btn-catastrophe").onclick = () => { St.sel = { kind: "catastrophe" }; render(); };
  $("btn-withdraw").onclick = () => { const c = St.sel.colour; St.sel = null; sendMove(`withdraw ${c}`); };
  $("btn-swap").onclick = openSwap;
  $("btn-undo").onclick = undo;
  $("btn-hint").onclick = hint;
  $("btn-export").onclick = async () => {
    try { download("tne-position.json", await api("GET", `/api/games/${St.gid}/position` + (St.seat === null ? "" : `?seat=${St.seat}`))); }
    catch (e) { message(e.message); }
  };
  $("btn-record").onclick = async () => {
    try { download(`tne-game-${St.gid}.json`, await api("GET", `/api/games/${St.gid}/record`)); }
    catch (e) { message(e.message); }
  };
  $("btn-analyse").onclick = async () => {
    const pos = await api("GET", `/api/games/${St.gid}/position` + (St.seat === null ? "" : `?seat=${St.seat}`));
    openEditor(pos);
    startAnalysis();
  };
  $("cover-btn").onclick = () => { St.seat = St.view.to_act; setHash(); St.view = null; refresh(); };
  $("ed-back").onclick = () => {
    const f = ED.from;
    if (!f) return;
    // the entry pushed on the way in: going back to it reopens the game (route)
    if (history.state && history.state.editorFrom === f.gid) history.back();
    else openGame(f.gid, f.seat, f.key).catch(e => message(e.message));
  };
  document.querySelectorAll(".board-scroll").forEach(b => b.addEventListener("scroll", updateScrollCues, { passive: true }));
  window.addEventListener("resize", updateScrollCues);
  $("ed-check").onclick = checkEditor;
  $("ed-analyse").onclick = startAnalysis;
  $("ed-stop").onclick = () => { stopAnalysis(); $("an-status").textContent += " Stopped."; $("analysis").dataset.state = "stopped"; };
  $("ed-play").onclick = async () => { if (await checkEditor()) openNew("upload", withBag(ED.pos), ED.pos.players); };
  $("ed-export").onclick = () => download("tne-position.json", withBag(ED.pos));
  $("ed-load").onclick = () => $("file-editor").click();
  $("file-editor").onchange = () => readFile($("file-editor"), data => openEditor(data.format === "tne-game/1" ? data.start : data));
  $("ed-start").onclick = () => openEditor(emptyPosition(ED.pos.players, true));
  $("ed-clear").onclick = () => openEditor(emptyPosition(ED.pos.players, false));
}

async function main() {
  const meta = await api("GET", "/api/meta");
  St.M = meta.symbols;
  St.levels = meta.levels;
  St.defaultAi = meta.default_ai;
  const lv = St.levels;
  $("levels-note").textContent = "AI levels are search budgets (iterations a move). Strength in Elo " +
    "against one fixed opponent, a 2,000-iteration search (0 = as strong as it), measured over " +
    "60 games a level: " + lv.map(l => `${l.name} ${eloText(l.elo)}`).join(", ") + ".";
  wire();
  window.addEventListener("hashchange", () => route().catch(e => message(e.message)));
  await route();
}

async function route() {
  // #game=ID&seat=K opens a game for a seat, #editor the editor, anything else a new game
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("game")) {
    const seat = h.get("seat");
    await openGame(h.get("game"), seat === null ? null : parseInt(seat, 10), h.get("key"));
  } else if (h.get("editor") !== null) {
    openEditor();
  } else {
    show("idle");
    document.body.dataset.state = "idle";
    openNew("new");
  }
}

main().catch(e => { document.body.dataset.state = "error"; document.body.insertAdjacentHTML("afterbegin", `<p class="fatal">${esc(e.message)}</p>`); });
