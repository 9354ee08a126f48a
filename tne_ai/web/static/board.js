// The board as SVG, drawn from a tne-position/1 object with the renderer's symbols
// (render.py, sent by /api/meta): the same colours, tile signs, leader shapes and treasures
// as `tne show --svg`.
"use strict";

const BX = 26, BY = 24;

function squareName(r, c, M) { return M.files[c] + (r + 1); }

function parseSquare(name, M) {
  const c = M.files.indexOf(name[0]);
  const r = parseInt(name.slice(1), 10) - 1;
  return [r, c];
}

function squareXY(name, M) {
  const [r, c] = parseSquare(name, M);
  return [BX + c * M.cell, BY + r * M.cell];
}

function esc(t) {
  return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function percent(share) {
  return share < 0.095 ? (100 * share).toFixed(1) + "%" : Math.round(100 * share) + "%";
}

// opts: targets (array of squares to highlight), selected (square), last (array of
// {square,size,from} of the AI's recent moves), marks (analysis top moves), clickable
function drawBoard(svg, pos, M, opts) {
  opts = opts || {};
  const C = M.cell, W = BX + M.cols * C + 8, H = BY + M.rows * C + 22;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const out = [`<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<rect x="${BX - 1}" y="${BY - 1}" width="${M.cols * C + 2}" height="${M.rows * C + 2}" fill="none" stroke="#6b5a3a" stroke-width="2"/>`];
  for (let r = 0; r < M.rows; r++) {
    for (let c = 0; c < M.cols; c++) {
      const river = M.map[r][c] === "~";
      const x = BX + c * C, y = BY + r * C, name = squareName(r, c, M);
      out.push(`<rect class="square ${river ? "river" : "land"}" data-square="${name}" x="${x}" y="${y}" width="${C}" height="${C}" fill="${river ? M.river : M.land}" stroke="#cbbd97" stroke-width="0.6"/>`);
    }
  }
  for (let r = 0; r < M.rows; r++) {
    for (let c = 0; c < M.cols; c++) {
      const ch = pos.board[r][c], x = BX + c * C, y = BY + r * C, name = squareName(r, c, M);
      const k = "rbgk".indexOf(ch);
      if (k >= 0) {
        out.push(`<g class="tile ${M.colours[k]}" data-square="${name}" pointer-events="none" transform="translate(${x},${y})">${M.tile[k]}</g>`);
      } else if (ch === "#") {
        out.push(`<rect class="flipped" data-square="${name}" pointer-events="none" x="${x + 1}" y="${y + 1}" width="${C - 2}" height="${C - 2}" fill="${M.flipped}" stroke="#a08a57" stroke-width="1"/>`);
      } else if (ch === "x") {
        out.push(`<g class="catastrophe" data-square="${name}" pointer-events="none" transform="translate(${x},${y})">${M.catastrophe}</g>`);
      }
    }
  }
  for (const m of pos.monuments || []) {
    const [x, y] = squareXY(m.at, M);
    const [a, b] = m.colors.split("-").map(n => M.colours.indexOf(n));
    out.push(`<g class="monument ${m.colors}" data-square="${m.at}" pointer-events="none"><title>${m.colors} monument on ${m.at}</title>` +
      `<rect x="${x + 9}" y="${y + 9}" width="${2 * C - 18}" height="${2 * C - 18}" fill="${M.tile_fill[a]}" stroke="#5b4a2a" stroke-width="1.5"/>` +
      `<rect x="${x + 21}" y="${y + 21}" width="${2 * C - 42}" height="${2 * C - 42}" fill="${M.tile_fill[b]}" stroke="#fff" stroke-width="1.5"/></g>`);
  }
  for (const t of pos.treasures || []) {
    const [r, c] = parseSquare(t, M);
    const [x, y] = squareXY(t, M);
    const corner = M.map[r][c] === "*";
    out.push(`<g class="treasure${corner ? " corner" : ""}" data-square="${t}" pointer-events="none" transform="translate(${x},${y})">${corner ? M.corner_treasure : M.treasure}</g>`);
  }
  for (const [p, colour, sq] of pos.leaders || []) {
    const [x, y] = squareXY(sq, M);
    const k = M.colours.indexOf(colour);
    out.push(`<g class="leader p${p} ${colour}" data-square="${sq}" pointer-events="none" data-player="${p}" data-colour="${colour}" transform="translate(${x + C / 2},${y + C / 2})"><title>player ${p} ${colour} leader on ${sq}</title>${M.leader[p][k]}</g>`);
  }
  for (const last of opts.last || []) {
    if (!last) continue;
    const [x, y] = squareXY(last.square, M);
    const s = last.size * C;
    out.push(`<rect class="last-move" data-square="${last.square}" x="${x + 1}" y="${y + 1}" width="${s - 2}" height="${s - 2}" rx="4" fill="none" stroke="#ff00aa" stroke-width="2.5" stroke-dasharray="3 2" pointer-events="none"/>`);
  }
  // a legal target: a green dot with a white ring in the square's middle, never a filled
  // square (which reads as a tile); the whole square stays the click target
  for (const sq of opts.targets || []) {
    const [x, y] = squareXY(sq, M);
    out.push(`<circle class="target" data-square="${sq}" cx="${x + C / 2}" cy="${y + C / 2}" r="6.5" fill="#1a7f1a" stroke="#fff" stroke-width="2.5"/>`);
  }
  if (opts.selected) {
    const [x, y] = squareXY(opts.selected, M);
    out.push(`<rect class="selected" x="${x + 1}" y="${y + 1}" width="${C - 2}" height="${C - 2}" fill="none" stroke="${M.best}" stroke-width="3" pointer-events="none"/>`);
  }
  for (const m of boardMarks(opts.marks, M)) {
    const colour = m.rank === 0 ? M.best : M.alternative;
    const dash = m.rank === 0 ? "" : ' stroke-dasharray="5 3"';
    if (m.from) {
      // a leader's move: a line from its old square (drawn under the marks)
      const [fx, fy] = squareXY(m.from, M);
      const [x, y] = squareXY(m.square, M);
      out.push(`<line class="mark-path" x1="${fx + C / 2}" y1="${fy + C / 2}" x2="${x + C / 2}" y2="${y + C / 2}" stroke="${colour}" stroke-width="3"${dash} pointer-events="none"/>`);
    }
  }
  out.push("<g class=\"marks\">");
  for (const m of boardMarks(opts.marks, M)) {
    // one mark a square (the best rank there); its rank in a badge inside its own square
    const colour = m.rank === 0 ? M.best : M.alternative;
    const [x, y] = squareXY(m.square, M);
    const s = m.size * C;
    const dash = m.rank === 0 ? "" : ' stroke-dasharray="5 3"';
    out.push(`<g class="mark ${m.rank === 0 ? "best" : "alternative"}" data-rank="${m.rank + 1}" data-square="${m.square}" pointer-events="none"><title>${esc(m.title)}</title>` +
      `<rect x="${x + 2}" y="${y + 2}" width="${s - 4}" height="${s - 4}" rx="5" fill="none" stroke="${colour}" stroke-width="${m.rank === 0 ? 4 : 2.5}"${dash}/>` +
      `<circle cx="${x + 11}" cy="${y + 11}" r="8" fill="${colour}" stroke="#fff" stroke-width="1.5"/>` +
      `<text x="${x + 11}" y="${y + 15}" font-size="11" font-weight="bold" text-anchor="middle" fill="#fff">${m.rank + 1}</text></g>`);
  }
  out.push("</g>");
  for (let c = 0; c < M.cols; c++) {
    const x = BX + c * C + C / 2;
    out.push(`<text x="${x}" y="${BY - 8}" font-size="12" text-anchor="middle" font-weight="bold" fill="#444" pointer-events="none">${M.files[c]}</text>`);
    out.push(`<text x="${x}" y="${BY + M.rows * C + 15}" font-size="12" text-anchor="middle" font-weight="bold" fill="#444" pointer-events="none">${M.files[c]}</text>`);
  }
  for (let r = 0; r < M.rows; r++) {
    out.push(`<text x="${BX - 6}" y="${BY + r * C + C / 2 + 4}" font-size="12" text-anchor="end" font-weight="bold" fill="#444" pointer-events="none">${r + 1}</text>`);
  }
  svg.innerHTML = out.join("");
}

// The marks the board shows for a list of top moves (best first): one a square, the best
// rank wins a square, a monument's 2x2 block is skipped where a better mark lies in it; the
// others (and moves without a square: pass, swap, commit ...) are only in the list.
function boardMarks(top, M) {
  const taken = new Set(), out = [];
  (top || []).forEach((m, rank) => {
    if (!m.mark) return;
    const [r, c] = parseSquare(m.mark.square, M);
    const cover = [];
    for (let dr = 0; dr < m.mark.size; dr++)
      for (let dc = 0; dc < m.mark.size; dc++) cover.push(squareName(r + dr, c + dc, M));
    if (cover.some(q => taken.has(q))) return;
    cover.forEach(q => taken.add(q));
    out.push({ rank, square: m.mark.square, size: m.mark.size, from: m.mark.from, title: `${rank + 1}. ${m.move}` });
  });
  return out;
}

// The top moves in words: rank, move, visits (share), win chance with its standard error, and
// which are within noise of the best (tne_ai/search/noise.py: two standard errors of the difference).
function movesHtml(top) {
  if (!top || !top.length) return "";
  const rows = top.map((m, i) => `<li class="${i === 0 ? "best" : "alternative"}${m.within_noise && i ? " tied" : ""}" data-rank="${i + 1}">` +
    `<code>${esc(m.move)}</code> <span class="visits">${m.visits} visits (${percent(m.share)})</span>, ` +
    `<span class="win">win chance ${Math.round(100 * m.win)}%</span>` +
    (m.se !== undefined ? ` <span class="se">± ${Math.max(1, Math.round(200 * m.se))}</span>` : "") +
    (i && m.within_noise ? ' <span class="tie">≈ as good as 1</span>' : "") +
    (m.mark ? "" : ' <span class="small">(not on the board)</span>') + "</li>");
  const tied = top.filter((m, i) => i && m.within_noise).length;
  const note = tied ? `Moves ${top.map((m, i) => i === 0 || m.within_noise ? i + 1 : null).filter(x => x).join(", ")} are within noise of each other: the search cannot tell them apart (their win chances differ by less than two standard errors, the ± shown).` :
    "The best move's win chance is more than two standard errors (the ± shown) above each other's.";
  return `<ol class="an-moves">${rows.join("")}</ol><p class="noise small">${note}</p>`;
}

// What every sign on the board means, drawn with the board's own symbols.  play: with the
// signs only the play view draws (moves since yours, legal targets, the selection).
function legendHtml(M, players, play, open) {
  const C = M.cell, k = (svg, words) => `<span class="lg">${svg}<span>${words}</span></span>`;
  const sq = inner => symbolSvg(`<rect width="${C}" height="${C}" fill="${M.land}"/>` + inner, C, C, 0, 0, "sym lg-sym");
  const names = ["red tile (temple)", "blue tile (farm)", "green tile (market)", "black tile (settlement)"];
  const items = names.map((n, i) => k(sq(M.tile[i]), n));
  items.push(k(sq(`<rect x="1" y="1" width="${C - 2}" height="${C - 2}" fill="${M.flipped}" stroke="#a08a57"/>` +
      `<rect x="6" y="6" width="${C - 12}" height="${C - 12}" fill="${M.tile_fill[0]}" stroke="#5b4a2a" stroke-width="1.5"/>` +
      `<rect x="13" y="13" width="${C - 26}" height="${C - 26}" fill="${M.tile_fill[2]}" stroke="#fff" stroke-width="1.5"/>`), "monument (on its 2x2 block of turned tiles)"),
    k(sq(M.catastrophe), "catastrophe"),
    k(sq(M.corner_treasure), "corner treasure (star)"), k(sq(M.treasure), "treasure (circle)"));
  for (let p = 0; p < players; p++) items.push(k(symbolSvg(M.leader[p][3], C, C, C / 2, C / 2, "sym lg-sym"), `player ${p}'s leader (colour = kind)`));
  if (play) {
    items.push(k(sq(`<rect x="1" y="1" width="${C - 2}" height="${C - 2}" rx="4" fill="none" stroke="#ff00aa" stroke-width="2.5" stroke-dasharray="3 2"/>`), "moved since your last move"),
      k(sq(`<circle cx="${C / 2}" cy="${C / 2}" r="6.5" fill="#1a7f1a" stroke="#fff" stroke-width="2.5"/>`), "legal square for the selection"),
      k(sq(`<rect x="1" y="1" width="${C - 2}" height="${C - 2}" fill="none" stroke="${M.best}" stroke-width="3"/>`), "selected leader"));
  }
  items.push(k(sq(`<rect x="2" y="2" width="${C - 4}" height="${C - 4}" rx="5" fill="none" stroke="${M.best}" stroke-width="4"/><circle cx="11" cy="11" r="8" fill="${M.best}"/><text x="11" y="15" font-size="11" font-weight="bold" text-anchor="middle" fill="#fff">1</text>`), "the engine's best move"),
    k(sq(`<rect x="2" y="2" width="${C - 4}" height="${C - 4}" rx="5" fill="none" stroke="${M.alternative}" stroke-width="2.5" stroke-dasharray="5 3"/><circle cx="11" cy="11" r="8" fill="${M.alternative}"/><text x="11" y="15" font-size="11" font-weight="bold" text-anchor="middle" fill="#fff">2</text>`), "its next moves, by rank (see the list)"));
  return `<details class="legend-box"${open ? " open" : ""}><summary>Legend: what the signs mean</summary><div class="lg-items">${items.join("")}</div></details>`;
}

function symbolSvg(snippet, w, h, tx, ty, cls) {
  return `<svg class="${cls || "sym"}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><g transform="translate(${tx},${ty})">${snippet}</g></svg>`;
}
