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
  for (const sq of opts.targets || []) {
    const [x, y] = squareXY(sq, M);
    out.push(`<rect class="target" data-square="${sq}" x="${x + 3}" y="${y + 3}" width="${C - 6}" height="${C - 6}" rx="5" fill="#fff" fill-opacity="0.3" stroke="#1a7f1a" stroke-width="2.2"/>`);
  }
  if (opts.selected) {
    const [x, y] = squareXY(opts.selected, M);
    out.push(`<rect class="selected" x="${x + 1}" y="${y + 1}" width="${C - 2}" height="${C - 2}" fill="none" stroke="${M.best}" stroke-width="3" pointer-events="none"/>`);
  }
  const labels = {};
  (opts.marks || []).forEach((m, rank) => {
    if (!m.mark) return;
    const colour = rank === 0 ? M.best : M.alternative;
    const [x, y] = squareXY(m.mark.square, M);
    const s = m.mark.size * C;
    const dash = rank === 0 ? "" : ' stroke-dasharray="5 3"';
    out.push(`<g class="mark ${rank === 0 ? "best" : "alternative"}" data-rank="${rank + 1}" pointer-events="none"><title>${esc(m.move)}</title>` +
      `<rect x="${x + 2}" y="${y + 2}" width="${s - 4}" height="${s - 4}" rx="5" fill="none" stroke="${colour}" stroke-width="${rank === 0 ? 4 : 2.5}"${dash}/>`);
    if (m.mark.from) {
      const [fx, fy] = squareXY(m.mark.from, M);
      out.push(`<line x1="${fx + C / 2}" y1="${fy + C / 2}" x2="${x + C / 2}" y2="${y + C / 2}" stroke="${colour}" stroke-width="3"${dash}/>`);
    }
    const stack = labels[m.mark.square] || 0;
    labels[m.mark.square] = stack + 1;
    const win = m.win !== undefined ? ` w${Math.round(100 * m.win)}%` : "";
    out.push(`<text x="${x + 3}" y="${y + s - 4 - 11 * stack}" font-size="10" font-weight="bold" fill="${colour}" stroke="#fff" stroke-width="3" paint-order="stroke">${rank + 1}·${percent(m.share)}${win}</text></g>`);
  });
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

function symbolSvg(snippet, w, h, tx, ty, cls) {
  return `<svg class="${cls || "sym"}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><g transform="translate(${tx},${ty})">${snippet}</g></svg>`;
}
