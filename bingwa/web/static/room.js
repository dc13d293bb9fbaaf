// bingwa serve: rooms, a game with a friend at another screen by a link
// (docs/web.md). Loaded before app.js, which calls bingwaRoom.start() once
// its own functions exist. On the main page this adds "Play a friend" to
// the new-game form; on a room's page (?room=ID) it talks to /rooms/ws,
// draws with app.js's board, and adds the room's panel: the link to send,
// the seats, the clocks, resign, draw and rematch offers.
// Like app.js it holds no rules: the server checks every message against
// the seat of the page that sent it.
"use strict";

window.bingwaRoom = (() => {
  const params = new URLSearchParams(location.search);
  const roomId = params.get("room");
  const CLOCKS = [["", "no clock"], ["1+0", "1 min"], ["3+2", "3 min + 2 s"],
    ["5+3", "5 min + 3 s"], ["10+5", "10 min + 5 s"], ["30+0", "30 min"]];
  let room = null;        // the room part of the last state
  let clockAt = 0;        // when that state came (performance.now())
  let retry = 0;
  let ticker = null;

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    Object.assign(node, attrs || {});
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // -- the main page: "Play a friend" ---------------------------------------------
  function addFriendForm() {
    // one compact fieldset under the new-game buttons: side, clock, hints, go
    const set = el("fieldset", { className: "friend", id: "friend-set",
      title: "You get a link: whoever opens it plays you; later visitors watch." });
    set.appendChild(el("legend", {}, "Play a friend by a link"));
    const side = el("select", { id: "friend-side", title: "Your side (South moves first)" });
    for (const [v, t] of [["south", "as South"], ["north", "as North"], ["random", "random side"]]) {
      side.appendChild(el("option", { value: v }, t));
    }
    const clock = el("select", { id: "friend-clock", title: "Each side's time, and the seconds each move adds" });
    for (const [v, t] of CLOCKS) clock.appendChild(el("option", { value: v }, t));
    const help = el("input", { type: "checkbox", id: "friend-help" });
    const hints = el("label", { title: "Off: neither player may ask the engine for a hint" });
    hints.append(help, " hints");
    const go = el("button", { type: "button", id: "friend", className: "primary" }, "Play a friend");
    go.onclick = makeRoom;
    set.append(side, clock, hints, go);
    const buttons = document.querySelector("#newgame .buttons");
    buttons.parentNode.insertBefore(set, buttons.nextSibling);
  }

  async function makeRoom() {
    const pick = document.getElementById("friend-clock").value;
    const clock = pick ? { minutes: Number(pick.split("+")[0]), increment: Number(pick.split("+")[1]) } : null;
    const body = { variant: variantSpec(), side: document.getElementById("friend-side").value,
      help: document.getElementById("friend-help").checked, clock };
    let answer;
    try {
      const response = await fetch("/rooms", { method: "POST", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json" } });
      answer = await response.json();
    } catch (exc) {
      answer = { error: `the server did not answer (${exc.message})` };
    }
    if (answer.error) return setNote(answer.error, "error");
    localStorage.setItem(`bingwa.seat.${answer.room}`, answer.seat);
    location.href = `/?room=${encodeURIComponent(answer.room)}&seat=${encodeURIComponent(answer.seat)}`;
  }

  // -- a room's page --------------------------------------------------------------------
  function seatToken() {
    return params.get("seat") || localStorage.getItem(`bingwa.seat.${roomId}`) || null;
  }

  function enterRoom() {
    document.body.classList.add("in-room");
    buildPanel();
    // app.js's drawing, as a seat of this room sees it
    rememberGame = () => {};
    humanToMove = () => !!(state && room && !state.board.over && room.you === KEYS[state.board.turn]);
    playerName = (side) => {
      if (!room) return "";
      const p = room.players[KEYS[side]];
      return (room.you === KEYS[side] ? "you, " : "") + p.seat;
    };
    openSocket();
    ticker = setInterval(renderClocks, 200);
  }

  function openSocket() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/rooms/ws`);
    socket = ws;
    ws.onopen = () => { retry = 0; document.getElementById("conn").className = "conn on"; };
    ws.onmessage = (event) => arrive(JSON.parse(event.data));
    ws.onclose = () => {
      document.getElementById("conn").className = "conn off";
      setNote("Connection lost: reconnecting…", "warn");
      setTimeout(openSocket, Math.min(3000, 200 * 2 ** retry++));
    };
  }

  function arrive(msg) {
    if (msg.type === "hello") {
      hello = msg;
      buildForm();
      send({ type: "join", room: roomId, seat: seatToken() });
      return;
    }
    if (msg.type === "state") {
      // when each ply of each game first arrived (benchmarks/room_latency.py)
      const arrivals = window.bingwaArrivals = window.bingwaArrivals || {};
      const key = `${msg.room.game}/${msg.line.length}`;
      if (!(key in arrivals)) arrivals[key] = performance.timeOrigin + performance.now();
      room = msg.room;
      clockAt = performance.now();
      if (room.token) keepSeat(room.token);
      flip = room.you === "north";
      document.body.dataset.roomYou = room.you;
      document.body.classList.toggle("room-help", room.help && room.you !== "watcher");
    }
    receive(msg);
    if (msg.type === "state") renderRoom();
  }

  function keepSeat(token) {
    localStorage.setItem(`bingwa.seat.${roomId}`, token);
    const url = new URL(location.href);
    url.searchParams.set("seat", token);
    history.replaceState(null, "", url);
  }

  function buildPanel() {
    const panel = el("section", { className: "panel room", id: "room-panel" });
    panel.appendChild(el("h2", { id: "room-title" }, "Room"));
    const share = el("div", { className: "share" });
    const link = el("input", { id: "room-link", readOnly: true,
      value: `${location.origin}/?room=${encodeURIComponent(roomId)}` });
    const copy = el("button", { type: "button", id: "room-copy" }, "Copy");
    copy.onclick = () => { link.select(); navigator.clipboard && navigator.clipboard.writeText(link.value); };
    share.append(link, copy);
    panel.append(el("p", { className: "muted", id: "room-invite" },
      "Send this link to your friend (whoever opens it first plays you):"), share,
    el("ul", { id: "room-seats", className: "seats" }),
    el("p", { id: "room-status", className: "room-status", role: "status" }),
    el("div", { id: "room-offer", className: "offer" }));
    const buttons = el("div", { className: "buttons", id: "room-buttons" });
    const actions = [["room-resign", "Resign", () => confirmResign()],
      ["room-draw", "Offer a draw", () => send({ type: "offer", what: "draw" })],
      ["room-rematch", "Rematch", () => send({ type: "offer", what: "rematch" })]];
    for (const [id, text, onclick] of actions) buttons.appendChild(el("button", { type: "button", id, onclick }, text));
    const leave = el("a", { href: "/", id: "room-leave" }, "Leave the room");
    panel.append(buttons, leave);
    const side = document.querySelector("aside.side");
    side.insertBefore(panel, side.firstChild);
  }

  function confirmResign() {
    const button = document.getElementById("room-resign");
    if (button.dataset.sure) { delete button.dataset.sure; button.textContent = "Resign"; return send({ type: "resign" }); }
    button.dataset.sure = "1";
    button.textContent = "Resign: sure?";
    setTimeout(() => { delete button.dataset.sure; button.textContent = "Resign"; }, 4000);
  }

  function sideName(key) { return SIDES[KEYS.indexOf(key)]; }

  function renderRoom() {
    const me = room.you;
    const over = !!state.outcome;
    document.getElementById("room-title").textContent = `Room · game ${room.game}` +
      (me === "watcher" ? " · watching" : ` · you play ${sideName(me)}`);
    document.getElementById("room-invite").hidden = document.querySelector(".share").hidden =
      room.players.south.taken && room.players.north.taken;
    const seats = document.getElementById("room-seats");
    seats.innerHTML = "";
    for (const key of KEYS) {
      const p = room.players[key];
      const where = !p.taken ? "not joined yet" : p.present ? "here" : "away";
      const li = el("li", { className: `seat side-${KEYS.indexOf(key)}` + (p.present ? " present" : "") });
      li.dataset.seat = key;
      li.innerHTML = "<b></b> <span class='who'></span> <span class='where'></span> <span class='clock'></span>";
      li.querySelector("b").textContent = sideName(key);
      li.querySelector(".who").textContent = (key === me ? "you, " : "") + p.seat;
      li.querySelector(".where").textContent = `(${where})`;
      seats.appendChild(li);
    }
    if (room.watchers) seats.appendChild(el("li", { className: "muted" }, `${room.watchers} watching`));
    // who is missing, in one line
    let wait = "";
    for (const key of KEYS) {
      const p = room.players[key];
      if (key === me) continue;
      if (!p.taken) wait = `Waiting for ${sideName(key)} to join: send the link.`;
      else if (!p.present && !over) wait = `Waiting for ${sideName(key)} to reconnect…`;
    }
    document.getElementById("room-status").textContent = wait;
    const offer = document.getElementById("room-offer");
    offer.innerHTML = "";
    if (room.offer) {
      const by = SIDES[room.offer.by];
      const what = room.offer.what === "draw" ? "a draw" : "a rematch (colours swapped)";
      if (me === KEYS[room.offer.by]) offer.appendChild(el("p", {}, `You offered ${what}: waiting for the answer.`));
      else {
        offer.appendChild(el("p", {}, `${by} offers ${what}.`));
        if (me !== "watcher") {
          offer.appendChild(el("button", { type: "button", id: "room-accept", className: "primary",
            onclick: () => send({ type: "accept" }) }, "Accept"));
          offer.appendChild(el("button", { type: "button", id: "room-decline",
            onclick: () => send({ type: "decline" }) }, "Decline"));
        }
      }
    }
    const playing = me !== "watcher";
    const both = room.players.south.taken && room.players.north.taken;
    document.getElementById("room-buttons").hidden = !playing;
    document.getElementById("room-resign").disabled = over || !both;
    document.getElementById("room-draw").disabled = over || !both || !!room.offer;
    document.getElementById("room-rematch").disabled = !over || !!room.offer;
    renderClocks();
  }

  function clockText(ms) {
    const s = Math.ceil(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function renderClocks() {
    if (!room || !room.clock) return;
    const c = room.clock;
    for (const p of document.querySelectorAll(".player")) {
      if (!p.querySelector(".clock")) p.appendChild(el("span", { className: "clock" }));
    }
    KEYS.forEach((key, side) => {
      let left = c.left[side];
      if (c.running === side) left = Math.max(0, left - (performance.now() - clockAt));
      const text = clockText(left);
      for (const node of document.querySelectorAll(`.seat[data-seat='${key}'] .clock, .player.side-${side} .clock`)) {
        node.textContent = text;
        node.classList.toggle("running", c.running === side);
        node.classList.toggle("low", left < 20000);
      }
    });
  }

  return {
    start() {
      if (roomId) enterRoom();
      else { addFriendForm(); connect(); }
    },
  };
})();
