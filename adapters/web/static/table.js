"use strict";
// The web table: draws the state the server pushes (one seat's view), sends the player's
// taps as the same commands the chat buttons send. It decides nothing: whether chosen cards
// may be played is asked of the server (the engine), which answers in the player's words.
(() => {
  const $ = (role) => document.querySelector(`[data-role="${role}"]`);
  let state = null;
  let receivedAt = 0;
  let chosen = new Set();       // indices into state.board.hand
  let handKey = "";
  let socket = null;
  let credential = null;
  let table = null;
  let checkId = 0;
  let denied = false;
  let retry = 500;
  let connections = 0;          // sockets opened so far: the page's state names the one it came by
  let settlementSeen = "";
  let playable = false;
  let rules = null;             // the rules panel the server sent (its game, its language)
  let rulesAsked = false;       // the player opened it: show it when it comes
  let hintShown = "";           // the hint (hand and turn) whose cards were chosen for the player
  const TAP_STRIP = 24;         // px of each overlapped card left to tap, where rows allow         // the host said the chosen cards may be played (its verdict)

  // ------------------------------------------------------------- who we are
  // A link's token and Telegram's initData come after "#": never sent to a server in a URL.
  function readCredential() {
    const hash = location.hash.slice(1);
    const query = new URLSearchParams(location.search);
    table = query.get("t");
    const telegram = window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData;
    if (telegram) return "tma " + telegram;
    if (hash.includes("tgWebAppData=")) {
      const data = new URLSearchParams(hash).get("tgWebAppData");
      if (data) return "tma " + data;
    }
    if (hash) {
      sessionStorage.setItem("table-link", hash);
      history.replaceState(null, "", location.pathname + location.search);
      return "Link " + hash;
    }
    const kept = sessionStorage.getItem("table-link");
    return kept ? "Link " + kept : null;
  }

  // ------------------------------------------------------------- the connection
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/table/ws`);
    const connection = ++connections;
    socket.onopen = () => {
      retry = 500;
      socket.send(JSON.stringify({ type: "hello", auth: credential || "", table }));
    };
    socket.onmessage = (event) => receive(JSON.parse(event.data), connection);
    socket.onclose = () => {
      if (denied) return;
      banner(state ? state.words.offline : "…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function receive(message, connection) {
    if (message.type === "state") {
      state = message.state;
      receivedAt = performance.now();
      document.body.dataset.moves = String(state.moves);
      // Which connection told it: a frame already on its way when a server died still
      // arrives, but a tap is carried only by the connection that came after (tests wait).
      document.body.dataset.connection = String(connection);
      render();
    } else if (message.type === "verdict") {
      if (message.id === checkId) {
        playable = message.ok === true;
        showVerdict(message.ok, message.text);
        renderControls();
      }
    } else if (message.type === "rules") {
      rules = message.rules;
      if (rules && rulesAsked) showRules();
    } else if (message.type === "said") {
      $("verdict").textContent = "";
      $("refusal").textContent = message.text;
    } else if (message.type === "denied" || message.type === "gone") {
      denied = true;
      sessionStorage.removeItem("table-link");
      // The page's words once a state came (its reader's language), else the frame's own
      // (the server does not know who this is: Chinese and English).
      const words = state ? state.words : null;
      const key = message.type === "gone" ? "over" : "denied";
      banner(words ? words[key] : (message.text || "401"));
    }
  }

  function banner(text) {
    const el = $("banner");
    el.hidden = !text;
    el.textContent = text || "";
  }

  // ------------------------------------------------------------- drawing
  function position(seat) {
    const me = state.you === null ? 0 : state.you;
    return (seat - me + 4) % 4;  // 0 bottom, then the next to act on the right
  }

  function cardOptions(mini) {
    const board = state.board;
    return { mini, byRank: board ? board.by_rank : false, words: state.words };
  }

  function render() {
    const board = state.board;
    banner(state.you === null ? state.words.watching : "");
    $("title").textContent = state.number ? `${state.title} · ${state.number}` : state.title;
    renderSeats();
    renderTrick(board);
    renderFacts(board);
    $("prompt").textContent = state.prompt || "";
    renderHand(board);
    renderHint();
    const last = $("show-last");
    last.hidden = !(board && board.last.length);
    if (board) last.textContent = board.last_title;
    const notice = $("notice");
    notice.hidden = !state.notice;
    notice.textContent = state.notice || "";
    renderSettlement();
    renderControls();
    $("hide-settlement").textContent = state.words.hide;
    $("hide-last").textContent = state.words.hide;
    $("show-rules").textContent = state.words.rules;
    $("show-rules").hidden = false;
    $("hide-rules").textContent = state.words.hide;
    tick();
  }

  // A hint (/hint, the Hint button) shows its line, and chooses its cards once: a player who
  // then changes the choice keeps their own.
  function renderHint() {
    const hint = state.hint || {};
    const line = $("hint");
    line.hidden = !hint.text;
    line.textContent = hint.text || "";
    const key = hint.text ? `${state.number}:${hint.turn}` : "";
    if (!key || key === hintShown) return;
    hintShown = key;
    if (!(hint.chosen && hint.chosen.length)) return;
    chosen = new Set(hint.chosen);
    for (const el of $("hand").children) {
      el.classList.toggle("chosen", chosen.has(Number(el.dataset.index)));
    }
    askVerdict();
  }

  // A new settlement opens by itself; hidden, the bar's button opens it again while the
  // hand is over.
  function renderSettlement() {
    const panel = $("settlement");
    if (!state.settlement) {
      panel.hidden = true;
      settlementSeen = "";
    } else if (state.settlement !== settlementSeen) {
      settlementSeen = state.settlement;
      $("settlement-text").textContent = state.settlement;
      panel.hidden = false;
    }
    const replay = $("replay");
    replay.hidden = !state.replay;
    replay.textContent = state.words.replay;
    const reopen = $("show-settlement");
    reopen.textContent = state.words.settlement;
    reopen.hidden = !state.settlement || !panel.hidden;
  }

  function renderSeats() {
    for (const info of state.seats) {
      const box = document.querySelector(`.seat[data-pos="${position(info.seat)}"]`);
      box.dataset.seat = String(info.seat);
      box.classList.toggle("turn", state.turn === info.seat);
      box.replaceChildren();
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = info.name;
      box.appendChild(name);
      if (info.count !== "") {
        const count = document.createElement("span");
        count.className = "count";
        count.dataset.role = "count";
        count.textContent = "🂠 " + info.count;
        box.appendChild(count);
      }
      const marks = info.marks.slice();
      if (info.ai) marks.unshift(state.words.ai);
      for (const text of marks) box.appendChild(mark(text, ""));
      if (info.auto) box.appendChild(mark(state.words.auto, "auto"));
      if (state.turn === info.seat && state.seconds !== null) {
        const timer = document.createElement("span");
        timer.className = "timer";
        timer.dataset.role = "timer";
        box.appendChild(document.createTextNode(" "));
        box.appendChild(timer);
      }
    }
  }

  function mark(text, extra) {
    const el = document.createElement("span");
    el.className = "mark " + extra;
    el.textContent = text;
    return el;
  }

  function renderTrick(board) {
    for (const spot of document.querySelectorAll(".middle .spot")) spot.replaceChildren();
    if (!board) return;
    const latest = new Map();  // a round may pass a seat several times: its newest play
    for (const play of board.trick) latest.set(play.seat, play);
    for (const play of latest.values()) {
      const spot = document.querySelector(`.middle .spot.pos${position(play.seat)}`);
      spot.appendChild(playEl(play));
    }
  }

  function playEl(play) {
    if (play.pass || play.said) {  // a pass (不要), or a bid in the auction (120, 不叫)
      const el = document.createElement("span");
      el.className = play.pass ? "passed" : "said";
      el.dataset.role = "said";
      el.textContent = play.said || state.words.pass;
      return el;
    }
    return Cards.row(play.cards, cardOptions(true));
  }

  function renderFacts(board) {
    const facts = $("facts");
    facts.replaceChildren();
    if (!board) return;
    for (const line of board.lines) {
      const div = document.createElement("div");
      div.textContent = line;
      facts.appendChild(div);
    }
    for (const shown of board.shown) {
      const div = document.createElement("div");
      div.className = "shown";
      div.appendChild(document.createTextNode(shown.label + " "));
      div.appendChild(Cards.row(shown.cards, cardOptions(true)));
      facts.appendChild(div);
    }
  }

  function renderHand(board) {
    const hand = $("hand");
    const cards = board && state.you !== null ? board.hand : [];
    const key = cards.join(" ");
    if (key !== handKey) {  // the cards changed: a choice made of the old ones is gone
      handKey = key;
      chosen = new Set();
      playable = false;
      showVerdict(null, "");
    }
    hand.replaceChildren();
    cards.forEach((text, index) => {
      const el = Cards.draw(text, cardOptions(false));
      el.dataset.card = text;
      el.dataset.index = String(index);
      el.classList.toggle("chosen", chosen.has(index));
      el.addEventListener("click", () => toggle(index));
      hand.appendChild(el);
    });
    layoutHand();
  }

  // The fan: cards overlap so that every card's index shows; in two or three rows when one
  // row would leave less than a strip a finger can tap (a 39-card 四团 hand on a phone:
  // three rows of 13, about 25 px each at 360 px, where two rows left 16 px).
  function layoutHand() {
    const hand = $("hand");
    const cards = Array.from(hand.children);
    if (!cards.length) { hand.style.height = "0px"; return; }
    const width = hand.clientWidth;
    const cw = cards[0].offsetWidth, ch = cards[0].offsetHeight;
    const strip = Math.max(TAP_STRIP, cw * 0.36);
    let rows = 1;
    while (rows < 3 && cw + strip * (Math.ceil(cards.length / rows) - 1) > width) rows += 1;
    const perRow = Math.ceil(cards.length / rows);
    const step = perRow > 1 ? Math.min(cw + 4, (width - cw) / (perRow - 1)) : 0;
    const rowStep = Math.round(ch * 0.62);
    cards.forEach((el, i) => {
      const row = Math.floor(i / perRow), col = i % perRow;
      el.style.left = `${Math.round(col * step)}px`;
      el.style.top = `${14 + row * rowStep}px`;
      el.style.zIndex = String(i + 1);
    });
    hand.style.height = `${14 + (rows - 1) * rowStep + ch + 4}px`;
  }

  function toggle(index) {
    if (chosen.has(index)) chosen.delete(index); else chosen.add(index);
    for (const el of $("hand").children) {
      el.classList.toggle("chosen", chosen.has(Number(el.dataset.index)));
    }
    askVerdict();
  }

  function chosenCards() {
    const hand = state.board ? state.board.hand : [];
    return Array.from(chosen).sort((a, b) => a - b).map((i) => hand[i]);
  }

  function cardsControl() {
    return (state.controls || []).find((c) => c.cards) || null;
  }

  function askVerdict() {
    $("refusal").textContent = "";
    playable = false;
    const control = cardsControl();
    renderControls();
    if (!control || !chosen.size) { showVerdict(null, ""); return; }
    checkId += 1;
    send({ type: "check", id: checkId, action: control.action, cards: chosenCards() });
  }

  function showVerdict(ok, text) {
    $("verdict").textContent = ok === true ? text : "";
    $("refusal").textContent = ok === false ? text : "";
  }

  // Between hands the open settlement holds the controls (Ready), at its top: they are
  // on screen on a phone, where the page's own row is below the fold.
  function renderControls() {
    const inPanel = state.phase === "between" && !$("settlement").hidden;
    $("controls").replaceChildren();
    $("settlement-controls").replaceChildren();
    const box = $(inPanel ? "settlement-controls" : "controls");
    for (const control of state.controls || []) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = control.action;
      if (control.args.length) button.dataset.args = control.args.join(" ");
      button.textContent = control.label;
      if (control.action === "ready") button.classList.add("primary");
      if (control.cards) {
        button.classList.add("primary");
        button.disabled = !chosen.size;
        const ready = chosen.size > 0 && playable;
        button.classList.toggle("not-ready", !ready);
        button.dataset.ready = String(ready);
      }
      button.addEventListener("click", () => press(control));
      box.appendChild(button);
    }
  }

  function press(control) {
    const args = control.cards ? chosenCards() : control.args;
    $("refusal").textContent = "";
    send({ type: "act", action: control.action, args, stamp: control.stamp });
  }

  // ------------------------------------------------------------- the countdown
  function tick() {
    const timer = document.querySelector('[data-role="timer"]');
    if (!timer || !state || state.seconds === null) return;
    const left = Math.max(0, Math.round(state.seconds - (performance.now() - receivedAt) / 1000));
    timer.textContent = state.words.seconds.replace("{seconds}", String(left));
  }

  function showLast() {
    const board = state && state.board;
    if (!board) return;
    $("last-title").textContent = board.last_title;
    const plays = $("last-plays");
    plays.replaceChildren();
    for (const play of board.last) {
      const div = document.createElement("div");
      div.appendChild(document.createTextNode(state.seats[play.seat].name + " "));
      div.appendChild(playEl(play));
      plays.appendChild(div);
    }
    $("last-line").textContent = board.last_line;
    $("last").hidden = false;
  }

  // ------------------------------------------------------------- the rules panel
  // /rules on the page: the primer's lines, then what beats what with the page's own cards.
  // Asked of the server once (again only if the page's game or language changed).
  function openRules() {
    if (!state) return;
    rulesAsked = true;
    if (rules && rules.game === state.game && rules.lang === state.lang) showRules();
    else send({ type: "rules" });
  }

  function block(tag, className, text) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    el.textContent = text;
    return el;
  }

  function showRules() {
    $("rules-title").textContent = `${state.words.rules} · ${state.title}`;
    $("rules-lines").replaceChildren(
      ...rules.lines.map((line, i) => block(i ? "p" : "div", i ? "" : "rules-lead", line)));
    $("rules-headers").replaceChildren(
      block("div", "rules-picture", rules.title), ...rules.headers.map((h) => block("div", "", h)));
    const options = { byRank: rules.by_rank, words: state.words };
    $("rules-ladder").replaceChildren(...rules.ladder.map((step) => {
      const row = block("div", "rules-step", "");
      row.appendChild(block("span", "rules-label", step.label));
      row.appendChild(Cards.row(step.cards, options));
      return row;
    }));
    $("rules-result").textContent = rules.result;
    $("rules").hidden = false;
  }

  $("show-rules").addEventListener("click", openRules);
  function hideRules() { rulesAsked = false; $("rules").hidden = true; }
  $("hide-rules").addEventListener("click", hideRules);
  // A tap on the dimmed table around the panel closes it too, as Escape does.
  $("rules").addEventListener("click", (event) => { if (event.target === $("rules")) hideRules(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideRules(); });
  $("show-last").addEventListener("click", showLast);
  $("hide-last").addEventListener("click", () => { $("last").hidden = true; });
  $("hide-settlement").addEventListener("click", () => {
    $("settlement").hidden = true;
    if (state) { renderSettlement(); renderControls(); }
  });
  $("show-settlement").addEventListener("click", () => {
    $("settlement").hidden = false;
    if (state) { renderSettlement(); renderControls(); }
  });
  window.addEventListener("resize", () => { if (state) layoutHand(); });
  setInterval(tick, 250);
  credential = readCredential();
  // The replay page (same origin, same tab) asks with this page's credential and table.
  if (credential) sessionStorage.setItem("table-credential", credential);
  if (table) sessionStorage.setItem("table-param", table); else sessionStorage.removeItem("table-param");
  $("replay").addEventListener("click", () => {
    if (state && state.replay) location.href = `/replay?hand=${state.replay}&lang=${state.lang}`;
  });
  connect();
})();
