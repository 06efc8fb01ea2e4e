"use strict";
// Replay: a hand record (/export) stepped through, every hand shown. The server replays it
// with the engine and sends each step; this page only draws them.
(() => {
  const $ = (role) => document.querySelector(`[data-role="${role}"]`);
  const act = (name) => document.querySelector(`[data-action="${name}"]`);
  let replay = null;
  let at = 0;

  function language() {
    const asked = new URLSearchParams(location.search).get("lang") || navigator.language || "";
    if (/^zh[-_](tw|hk|mo|hant)/i.test(asked)) return "zh-Hant";
    if (/^zh/i.test(asked)) return "zh-Hans";
    return "en";
  }

  async function load() {
    $("refusal").textContent = "";
    const answer = await fetch(`/replay/api?lang=${encodeURIComponent(language())}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: $("record").value,
    });
    show(answer);
  }

  // A stored hand: by its id (a chat's /replay, the settlement's button) or by its number in
  // the match of the table page this tab came from (its Replay button). Asked with the
  // credential the chat's button gave (after "#") or the table page's; the server opens it
  // for who played it and for the chat's members and spectators.
  async function loadStored(which) {
    $("record").hidden = true;
    act("load").hidden = true;
    const query = new URLSearchParams(location.search);
    const credential = miniAppCredential() || sessionStorage.getItem("table-credential") || "";
    const table = query.get("t") || sessionStorage.getItem("table-param");
    const body = { ...which };
    if (table) body.table = table;
    if (query.get("lang")) body.lang = query.get("lang");  // else the chat's language
    const answer = await fetch("/replay/api/hand", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": credential },
      body: JSON.stringify(body),
    });
    show(answer);
  }

  // Opened from a chat's Replay button: a Telegram Mini App's initData, or a link signed for
  // the user (Discord), both after "#" (never sent to a server in a URL).
  function miniAppCredential() {
    const telegram = window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData;
    if (telegram) return "tma " + telegram;
    const hash = location.hash.slice(1);
    if (!hash) return null;
    if (!hash.includes("tgWebAppData=")) {  // a link signed for this user (Discord)
      sessionStorage.setItem("table-credential", "Link " + hash);
      history.replaceState(null, "", location.pathname + location.search);
      return "Link " + hash;
    }
    const data = new URLSearchParams(hash).get("tgWebAppData");
    return data ? "tma " + data : null;
  }

  async function show(answer) {
    let data = {};
    try { data = await answer.json(); } catch (error) { data = {}; }
    if (!answer.ok) {
      document.body.dataset.refused = String(answer.status);
      $("refusal").textContent = data.error || (answer.status === 401 || answer.status === 410
        ? "这个链接无效。Not a replay you may open." : String(answer.status));
      return;
    }
    replay = data;
    at = 0;
    draw();
  }

  function draw() {
    if (!replay) return;
    const frame = replay.frames[at];
    const byRank = frame.board.by_rank;
    $("title").textContent = replay.title;
    $("step").textContent = `${at} / ${replay.frames.length - 1}`;
    document.body.dataset.step = String(at);
    $("said").textContent = frame.said;
    $("outcome").textContent = frame.outcome || "";  // the last step: how the hand ended
    const hands = $("hands");
    hands.replaceChildren();
    frame.hands.forEach((cards, seat) => {
      const div = document.createElement("div");
      div.dataset.seat = String(seat);
      const name = document.createElement("div");  // a line of its own, however short
      name.textContent = `${replay.names[seat]} (${cards.length})`;
      div.appendChild(name);
      div.appendChild(Cards.row(cards, { byRank }));
      hands.appendChild(div);
    });
    const trick = $("trick");
    trick.replaceChildren();
    const title = document.createElement("div");
    title.textContent = frame.board.trick.length ? frame.board.trick_title : frame.board.last_line;
    trick.appendChild(title);
    for (const play of frame.board.trick) {
      const div = document.createElement("div");
      div.appendChild(document.createTextNode(replay.names[play.seat] + " "));
      if (play.pass) div.appendChild(document.createTextNode("—"));
      else div.appendChild(Cards.row(play.cards, { byRank }));
      trick.appendChild(div);
    }
    $("facts").replaceChildren(...frame.board.lines.map((line) => {
      const div = document.createElement("div");
      div.textContent = line;
      return div;
    }));
  }

  function go(step) {
    if (!replay) return;
    at = Math.max(0, Math.min(replay.frames.length - 1, step));
    draw();
  }

  function trickStep(direction) {
    if (!replay) return;
    let step = at + direction;
    while (step > 0 && step < replay.frames.length - 1 && !replay.frames[step].closes) {
      step += direction;
    }
    go(step);
  }

  act("load").addEventListener("click", load);
  const asked = new URLSearchParams(location.search);
  const id = Number(asked.get("id"));
  const stored = Number(asked.get("hand"));
  if (id > 0) loadStored({ id });
  else if (stored > 0) loadStored({ hand: stored });
  act("first").addEventListener("click", () => go(0));
  act("back").addEventListener("click", () => go(at - 1));
  act("next").addEventListener("click", () => go(at + 1));
  act("back-trick").addEventListener("click", () => trickStep(-1));
  act("next-trick").addEventListener("click", () => trickStep(1));
})();
