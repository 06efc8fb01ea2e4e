"use strict";
// Cards drawn as bot/pictures draws them: white, the index top-left (rank, then suit),
// hearts and diamonds red, jokers by their label (小王/大王), the big joker red.
// 四团 cards show the rank only: suits never matter there.
const Cards = (() => {
  const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };

  function parse(text) {
    if (/^[SHCD]/.test(text) && text.length > 1) return { suit: text[0], rank: text.slice(1) };
    return { suit: "", rank: text };
  }

  function draw(text, options) {
    const opts = options || {};
    const { suit, rank } = parse(text);
    const joker = rank === "LJ" || rank === "BJ";
    const el = document.createElement("div");
    el.className = "card" + (opts.mini ? " mini" : "") + (joker ? " joker" : "");
    // 四团's cards print no suit, so no suit colour either: the big joker alone is red.
    if (rank === "BJ" || (!opts.byRank && (suit === "H" || suit === "D"))) el.classList.add("red");
    const index = document.createElement("span");
    index.className = rank === "10" ? "rank ten" : "rank";
    index.textContent = joker ? ((opts.words && opts.words[rank]) || rank) : rank;
    if (joker && /[^\x00-\x7f]/.test(index.textContent)) el.classList.add("upright");
    el.appendChild(index);
    if (joker) {
      const star = document.createElement("span");
      star.className = "pip";
      star.textContent = "★";
      el.appendChild(star);
    } else if (suit && !opts.byRank) {
      const small = document.createElement("span");
      small.className = "suit";
      small.textContent = SUITS[suit];
      el.appendChild(small);
      const pip = document.createElement("span");
      pip.className = "pip";
      pip.textContent = SUITS[suit];
      el.appendChild(pip);
    }
    return el;
  }

  function row(texts, options) {
    const box = document.createElement("span");
    box.className = "cards-row";
    for (const text of texts) box.appendChild(draw(text, Object.assign({ mini: true }, options)));
    return box;
  }

  return { draw, row, parse };
})();
