// bingwa serve: the page. It holds no rules: the server sends the board
// with, for every pit, its legal moves or why it cannot move, and this
// page sends back the text of the move a person picks. The new-game form
// is form.js's.
"use strict";

const SIDES = ["South", "North"];
const KEYS = ["south", "north"];
const FEW_SEEDS = 9;   // up to this many seeds are drawn one by one
const $ = (id) => document.getElementById(id);
let socket = null;
let hello = null;
let state = null;
let note = null;          // a status line that stands until the next change
let analysis = {};        // multipv rank -> latest info
let hints = [];
let hintsAt = null;       // the position the hints are for (game, ply, position)
let thinking = null;
let retry = 0;
let flip = null;          // null: North's view when a person plays North alone
const MIRROR = { "\u2190": "\u2192", "\u2192": "\u2190" };

// -- the connection ------------------------------------------------------------
function gameId() {
  const fromUrl = new URLSearchParams(location.search).get("game");
  return fromUrl || localStorage.getItem("bingwa.game") || null;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${proto}//${location.host}/ws`);
  socket.onopen = () => { retry = 0; $("conn").className = "conn on"; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    $("conn").className = "conn off";
    setNote("Connection lost: reconnecting…", "warn");
    setTimeout(connect, Math.min(5000, 300 * 2 ** retry++));
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(msg) {
  switch (msg.type) {
    case "hello":
      hello = msg;
      buildForm();
      send({ type: "join", game: gameId() });
      break;
    case "state":
      if (state && (state.game !== msg.game || state.variant !== msg.variant)) analysis = {};
      state = msg;
      if (hintsAt !== positionKey()) dropHints();  // an undo, a move, a new game: not its hint  // an undo, a move, a new game: not its hint
      window.bingwaStates = (window.bingwaStates || 0) + 1;  // lets tests wait for a change
      rememberGame(msg.game);
      if (!msg.engine_to_move || msg.paused) thinking = null;
      note = null;
      hideChoice();
      render();
      markReady();
      break;
    case "thinking":
      thinking = msg;
      analysis = {};
      if (msg.purpose !== "hint") hints = [];
      renderStatus();
      renderAnalysis();
      break;
    case "info":
      analysis[msg.multipv] = msg;
      renderAnalysis();
      break;
    case "hint":
      thinking = null;
      note = null;  // an earlier refusal is no longer the news
      hints = msg.lines;
      hintsAt = positionKey();
      dropHintAnalysis();  // the hint list says it all: its lines are not shown twice
      renderAnalysis();
      renderHints();
      renderBoard();
      renderStatus();
      break;
    case "record":
      download(msg.filename, msg.text);
      break;
    case "engine_error":
      setNote(msg.message, "error");
      logEvent(msg.message);  // stays after the restart's state clears the status
      break;
    case "error":
      thinking = thinking && thinking.purpose === "hint" ? null : thinking;
      setNote(msg.message, "error");
      break;
  }
}

function positionKey() {
  return state && `${state.game} ${state.cursor} ${state.position}`;
}

function dropHints() {
  hints = [];
  hintsAt = null;
  dropHintAnalysis();
}

function dropHintAnalysis() {
  const head = Object.values(analysis)[0];
  if (head && head.purpose === "hint") analysis = {};
}

function rememberGame(id) {
  localStorage.setItem("bingwa.game", id);
  const url = new URL(location.href);
  if (url.searchParams.get("game") !== id) {
    url.searchParams.set("game", id);
    history.replaceState(null, "", url);
  }
}

function markReady() {
  if (!document.body.dataset.ready) {
    window.bingwaReadyAt = performance.now();
    document.body.dataset.ready = "1";
  }
}

// -- drawing ------------------------------------------------------------------------
function render() {
  $("title").textContent = state.variant;
  fillFormOnce();
  renderPlayers();
  renderBoard();
  renderMoves();
  renderStatus();
  renderAnalysis();
  renderHints();
  renderControls();
}

function playerName(side) {
  const p = state.players[KEYS[side]];
  return p.kind === "human" ? "Human" : (p.engine || hello.engines[0]);
}

function renderPlayers() {
  const box = $("players");
  box.innerHTML = "";
  const b = state.board;
  for (const side of [far(), 1 - far()]) {
    const el = document.createElement("div");
    el.className = `player side-${side}` + (b.turn === side && !b.over ? " to-move" : "");
    const score = b.family === "bao" ? `${b.scores[side]} seeds held` :
      `${b.stores[side]} ${b.store_word}`;
    el.innerHTML = `<span class="dot"></span><b>${SIDES[side]}</b> <span>${playerName(side)}</span>` +
      `<span class="score" data-side="${side}">${score}</span>`;
    box.appendChild(el);
  }
}

function pitButton(cell, board) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "pit";
  el.dataset.pit = cell.name;
  el.dataset.seeds = cell.seeds;
  for (const m of cell.marks) el.classList.add(m);
  if (cell.origin) el.classList.add("origin");
  if (cell.captured) el.classList.add("captured");
  if (cell.sown) el.classList.add("sown");
  if (cell.moves && humanToMove()) el.classList.add("movable");
  if (hints.length && cell.moves && cell.moves.some((m) => m.text === hints[0].move)) {
    el.classList.add("hinted");
  }
  const seeds = document.createElement("span");
  seeds.className = "seeds";
  if (cell.seeds > 0 && cell.seeds <= FEW_SEEDS) {
    el.classList.add("few");
    for (let i = 0; i < cell.seeds; i++) seeds.appendChild(document.createElement("i"));
  }
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = cell.seeds;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = cell.name;
  el.append(seeds, count, name);
  let title = cell.name;
  if (cell.marks.includes("nyumba")) title += cell.marks.includes("owned") ? " (nyumba, owned)" : " (nyumba)";
  else if (cell.marks.includes("kichwa")) title += " (kichwa)";
  else if (cell.marks.includes("kimbi")) title += " (kimbi)";
  if (cell.marks.includes("blocked")) title += " blocked by takasia";
  el.title = title;
  el.onclick = () => clickPit(cell, el);
  return el;
}

// The board is drawn as South sees it; flipped, as North sees it (the rows
// and each row reversed, the stores and hands swapped).
function far() { return flipped() ? 0 : 1; }

function flipped() {
  if (flip !== null) return flip;
  const p = state.players;
  return p.north.kind === "human" && p.south.kind === "engine";
}

function renderBoard() {
  if (!state) return;
  const b = state.board;
  const box = $("board");
  box.innerHTML = "";
  box.className = `board ${b.family} pits-${b.rows[0].length}` + (flipped() ? " flipped" : "");
  box.style.setProperty("--pits", b.rows[0].length);  // style.css fits the pits to the width
  const order = flipped() ? [...b.rows].reverse().map((row) => [...row].reverse()) : b.rows;
  const side = b.family === "tworow" ? store : hand;
  box.appendChild(side(far(), b));
  const rows = document.createElement("div");
  rows.className = "rows";
  order.forEach((row, i) => {
    const r = document.createElement("div");
    r.className = "row" + (b.family === "bao" ? (i === 1 || i === 2 ? " front" : " back") : "");
    for (const cell of row) r.appendChild(pitButton(cell, b));
    rows.appendChild(r);
    if (b.family === "bao" && i === 1) {
      const line = document.createElement("div");
      line.className = "divider";
      rows.appendChild(line);
    }
  });
  box.appendChild(rows);
  box.appendChild(side(1 - far(), b));
  renderLegend(b);
}

function renderLegend(b) {
  const legend = $("legend");
  const items = ['<span><i class="o"></i>last move</span>', '<span><i class="c"></i>captured</span>'];
  if (b.family === "bao") {
    items.push('<span><i class="k"></i>kichwa</span>', '<span><i class="m"></i>kimbi</span>');
    if (state.variant_name === "bao") {
      items.push('<span><i class="n"></i>nyumba (owned)</span>', '<span>\u2715 takasia</span>');
    }
  }
  legend.innerHTML = items.join("");
}

function store(side, b) {
  const el = document.createElement("div");
  el.className = `store side-${side}`;
  el.dataset.store = KEYS[side];
  const last = b.last && b.last.side === side && b.last.captured ? ` <small>+${b.last.captured}</small>` : "";
  el.innerHTML = `<span class="count">${b.stores[side]}${last}</span><span class="name">${SIDES[side]}</span>`;
  return el;
}

function hand(side, b) {
  const el = document.createElement("div");
  el.className = `hand side-${side}`;
  el.dataset.hand = KEYS[side];
  el.innerHTML = `<span class="name">${SIDES[side]} hand</span><span class="count">${b.hands[side]}</span>`;
  return el;
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const start = document.createElement("li");
  start.appendChild(plyButton(0, "start", state.cursor === 0));
  list.appendChild(start);
  for (const ply of state.line) {
    const li = document.createElement("li");
    const btn = plyButton(ply.ply, ply.move, state.cursor === ply.ply);
    btn.classList.add(`side-${ply.side}`);
    if (ply.ply > state.cursor) btn.classList.add("future");
    btn.title = `${SIDES[ply.side]}: ${ply.move}${ply.note ? " {" + ply.note + "}" : ""}`;
    const num = document.createElement("span");
    num.className = "num";
    num.textContent = ply.ply;
    li.append(num, btn);
    list.appendChild(li);
  }
  // keep the current ply in view inside the list (never scroll the page)
  const current = list.querySelector(".current");
  if (current) {
    const top = current.offsetTop;  // .moves is positioned: its offsetParent
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function plyButton(ply, text, current) {
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "ply" + (current ? " current" : "");
  btn.dataset.ply = ply;
  btn.textContent = text;
  btn.onclick = () => send({ type: "goto", ply });
  return btn;
}

function humanToMove() {
  if (!state || state.board.over) return false;
  const p = state.players[KEYS[state.board.turn]];
  return p.kind === "human" || state.paused || state.cursor < state.line.length;
}

function renderStatus() {
  const el = $("status");
  el.className = "status";
  if (note || !state) {
    if (!note) return;
    el.textContent = note.text;
    el.classList.add(note.level);
    return;
  }
  const b = state.board;
  let text = "";
  if (b.last) {
    // Kalah's store also fills by sowing: say what went in, not "captured"
    const gain = b.store_word === "store" ? `, +${b.last.captured} in the store` : `, capturing ${b.last.captured}`;
    text = `${SIDES[b.last.side]} played ${b.last.text}` + (b.last.captured ? gain : "") + ". ";
  }
  if (state.outcome) {
    el.classList.add("over");
    el.textContent = text + state.outcome.text + ".";
    return;
  }
  const side = SIDES[b.turn];
  if (thinking && thinking.purpose === "hint") text += `${thinking.engine} looks for a hint…`;
  else if (state.engine_to_move && !state.paused && state.cursor === state.line.length) {
    text += `${side} (${playerName(b.turn)}) is thinking…`;
  } else if (state.cursor < state.line.length) {
    text += `Ply ${state.cursor} of ${state.line.length}: ${side} to move (a move here plays on from this point).`;
  } else if (state.paused) text += `Paused: ${side} to move. Press Resume for the engine to play.`;
  else text += `${side} to move: click one of ${side}'s pits.`;
  el.textContent = text;
}

function logEvent(text) {
  const box = $("events");
  const line = document.createElement("li");
  line.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  box.prepend(line);
  while (box.children.length > 3) box.lastChild.remove();
  box.hidden = false;
}

function setNote(text, level) {
  note = { text, level: level || "info" };
  renderStatus();
}

function renderAnalysis() {
  const box = $("analysis");
  const ranks = Object.keys(analysis).sort((a, b) => a - b);
  box.innerHTML = "";
  if (!ranks.length) {
    box.innerHTML = '<p class="muted">The engine\'s thoughts appear here while it thinks.</p>';
    return;
  }
  const head = analysis[ranks[0]];
  const h = document.createElement("p");
  h.className = "muted";
  h.textContent = `${head.engine} for ${SIDES[head.side]}` + (head.purpose === "hint" ? " (hint)" : "") +
    ` · depth ${head.depth}` + (head.nodes ? ` · ${head.nodes} nodes` : "");
  box.appendChild(h);
  for (const r of ranks) {
    const info = analysis[r];
    const line = document.createElement("div");
    line.className = "line";
    line.innerHTML = `<span class="score"></span><span class="pv"></span>`;
    line.querySelector(".score").textContent = info.score;
    line.querySelector(".pv").textContent = info.pv.join(" ");
    box.appendChild(line);
  }
}

function renderHints() {
  const box = $("hints");
  box.innerHTML = "";
  if (!hints.length) return;
  const h = document.createElement("p");
  h.className = "muted";
  const depth = hints[0].depth ? ` (depth ${hints[0].depth})` : "";
  h.textContent = `Hint${depth}: the engine's best moves`;
  box.appendChild(h);
  for (const line of hints) {
    const el = document.createElement("div");
    el.className = "hint-line";
    el.dataset.move = line.move;
    el.innerHTML = "<b></b> <span class='score'></span> <span class='pv'></span>";
    el.querySelector("b").textContent = line.move;
    el.querySelector(".score").textContent = line.score;
    el.querySelector(".pv").textContent = line.pv.slice(1).join(" ");
    box.appendChild(el);
  }
}

function renderControls() {
  const atEnd = state.cursor === state.line.length;
  $("first").disabled = $("back").disabled = state.cursor === 0;
  $("forward").disabled = $("last").disabled = atEnd;
  $("undo").disabled = state.cursor === 0;
  $("redo").disabled = atEnd;
  const engines = Object.values(state.players).some((p) => p.kind === "engine");
  $("pause").disabled = !engines || !!state.outcome;
  $("pause").textContent = state.paused || !atEnd ? "Resume" : "Pause";
  $("hint").disabled = !!state.outcome;
  $("stop").disabled = !(state.engine_to_move && !state.paused && atEnd);
  $("save-ogn").hidden = !state.formats.includes("ogn");  // OGN holds Oware Abapa only
}

// -- playing ---------------------------------------------------------------------------
function clickPit(cell, el) {
  if (!state) return;
  if (state.outcome) return setNote(state.outcome.text + ".", "info");
  if (!humanToMove()) {
    return setNote(`Wait: ${SIDES[state.board.turn]} (${playerName(state.board.turn)}) is to move.`, "warn");
  }
  if (!cell.moves) return setNote(cell.why, "warn");
  if (cell.moves.length === 1) return play(cell.moves[0].text);
  showChoice(cell, el);
}

function play(text) {
  hideChoice();
  hints = [];
  send({ type: "move", move: text });
}

function showChoice(cell, el) {
  const box = $("choice");
  box.innerHTML = "";
  const title = document.createElement("p");
  title.textContent = `${cell.name}: how does this move go?`;
  box.appendChild(title);
  for (const m of cell.moves) {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.dataset.move = m.text;
    btn.innerHTML = `<span class="arrow"></span> <span class="label"></span> <code></code>`;
    btn.querySelector(".arrow").textContent = flipped() ? MIRROR[m.arrow] || m.arrow : m.arrow;
    btn.querySelector(".label").textContent = m.label;
    btn.querySelector("code").textContent = m.text;
    btn.onclick = () => play(m.text);
    box.appendChild(btn);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "cancel";
  cancel.textContent = "Cancel";
  cancel.onclick = hideChoice;
  box.appendChild(cancel);
  box.hidden = false;
  box.dataset.pit = cell.name;
  placeChoice();
  setNote(`${cell.name}: choose how the move goes.`, "info");
}

// at its pit, inside the board: again whenever the window is resized or turned
function placeChoice() {
  const box = $("choice");
  const el = !box.hidden && document.querySelector(`.pit[data-pit="${box.dataset.pit}"]`);
  if (!el) return;
  const wrap = $("boardwrap").getBoundingClientRect();
  const pit = el.getBoundingClientRect();
  const left = Math.max(0, Math.min(pit.left - wrap.left + pit.width / 2 - box.offsetWidth / 2,
    wrap.width - box.offsetWidth));
  // below the pit, else above it if there is room, else below past the board (never over the pit)
  const below = pit.bottom - wrap.top + 6;
  const above = pit.top - wrap.top - box.offsetHeight - 6;
  box.style.left = `${left}px`;
  box.style.top = `${below + box.offsetHeight > wrap.height && above >= 0 ? above : below}px`;
}

function hideChoice() {
  $("choice").hidden = true;
}

function download(filename, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.bingwaLastRecord = text;
}

function wire() {
  $("newgame").onsubmit = (e) => {
    e.preventDefault();
    hints = [];
    analysis = {};
    send({ type: "new", variant: variantSpec(), south: playerOf("south"), north: playerOf("north") });
  };
  $("apply").onclick = () => send({ type: "players", south: playerOf("south"), north: playerOf("north") });
  $("first").onclick = () => send({ type: "goto", ply: 0 });
  $("back").onclick = () => state && state.cursor > 0 && send({ type: "goto", ply: state.cursor - 1 });
  $("forward").onclick = () => state && send({ type: "goto", ply: state.cursor + 1 });
  $("last").onclick = () => state && send({ type: "goto", ply: state.line.length });
  $("undo").onclick = () => send({ type: "undo" });
  $("redo").onclick = () => send({ type: "redo" });
  $("hint").onclick = () => { hints = []; note = null; renderStatus(); send({ type: "hint" }); };
  $("pause").onclick = () => send({ type: $("pause").textContent === "Pause" ? "pause" : "resume" });
  $("stop").onclick = () => send({ type: "stop" });
  $("flip").onclick = () => { if (state) { flip = !flipped(); renderPlayers(); renderBoard(); } };
  $("save").onclick = () => send({ type: "save", format: "record" });
  $("save-ogn").onclick = () => send({ type: "save", format: "ogn" });
  $("load").onchange = async (e) => {
    const file = e.target.files[0];
    if (file) send({ type: "load", text: await file.text(), format: "auto" });
    e.target.value = "";
  };
  window.addEventListener("resize", placeChoice);
  document.addEventListener("keydown", (e) => {
    if (!state || e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowLeft" && state.cursor > 0) send({ type: "goto", ply: state.cursor - 1 });
    if (e.key === "ArrowRight" && state.cursor < state.line.length) send({ type: "goto", ply: state.cursor + 1 });
    if (e.key === "Escape") hideChoice();
  });
}

wire();
if (window.bingwaRoom) window.bingwaRoom.start(); else connect();  // room.js: a room's page has its own socket
