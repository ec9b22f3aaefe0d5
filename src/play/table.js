"use strict";
// The playtest table: the game (decks, pictures, deal table) is the JSON in #game, written
// by `deckpress play`. The deal is src/play/deal.rs line for line (mulberry32, Fisher–Yates
// from the last card down, each dealt or piled deck in game order, hands round the table
// one card at a time, then the table), so Rust deals the same cards for the same seed.
(function () {
  const G = JSON.parse(document.getElementById("game").textContent);
  const MM = G.scale; // pixels per millimetre
  const GAP = 8;

  // ---- The seeded deal (the same as deal.rs) ----
  function below(state, n) {
    state.a = (state.a + 0x6d2b79f5) | 0;
    let t = Math.imul(state.a ^ (state.a >>> 15), 1 | state.a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const u = (t ^ (t >>> 14)) >>> 0;
    return Math.floor((u * n) / 4294967296); // exact: u × n < 2^53
  }
  function shuffle(items, state) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = below(state, i + 1);
      const x = items[i];
      items[i] = items[j];
      items[j] = x;
    }
  }

  // Every physical card: its deck and row; copies of a row are alike.
  const CARDS = {};
  function cardsOf(d) {
    const out = [];
    G.decks[d].qty.forEach((q, row) => {
      for (let c = 0; c < q; c++) {
        const uid = d + "." + out.length;
        CARDS[uid] = { deck: d, row: row };
        out.push(uid);
      }
    });
    return out;
  }

  const params = new URLSearchParams(location.search);
  const allowed = G.counts;
  let note = G.warning || "";
  let players = parseInt(params.get("players") || "", 10);
  if (!allowed.includes(players)) {
    if (params.has("players")) {
      note = "This game deals for " + allowed.join(", ") + " players, not " + params.get("players") + ": dealt for " + G.players + ". " + note;
    }
    players = G.players;
  }
  let seed = parseInt(params.get("seed") || "", 10);
  if (!(seed >= 0 && seed <= 4294967295)) seed = G.seed;
  const parts = G.parts[String(players)];

  // The shown seat, whether every hand is shown, where each card is (zone lists, top or
  // first card first), which cards are face up, where the table's cards and pieces lie,
  // the generator's state (a reshuffle draws on it) and the log.
  let S = { rng: { a: seed | 0 }, seat: 1, all: players === 1, zones: {}, up: {}, pos: {}, log: [] };
  const history = [];
  let layout; // sizes of the surface, set by build()

  function deal() {
    for (let s = 1; s <= players; s++) S.zones["seat:" + s] = [];
    S.zones.table = [];
    S.zones.pieces = [];
    G.decks.forEach((deck, d) => {
      const part = parts[d];
      if (part === "pieces") {
        cardsOf(d).forEach((uid) => {
          S.zones.pieces.push(uid);
          S.up[uid] = true;
        });
        return;
      }
      if (part !== "dealt" && part !== "pile") return;
      const pile = cardsOf(d);
      shuffle(pile, S.rng);
      let top = 0;
      G.deals.filter((r) => r.players === players && r.deck === d).forEach((r) => {
        for (let h = 0; h < r.hand; h++) {
          for (let s = 1; s <= players; s++) {
            if (top < pile.length) S.zones["seat:" + s].push(pile[top++]);
          }
        }
        for (let t = 0; t < r.table && top < pile.length; t++) {
          const uid = pile[top++];
          S.zones.table.push(uid);
          S.up[uid] = true;
        }
      });
      S.zones["draw:" + d] = pile.slice(top);
      S.zones["discard:" + d] = [];
    });
  }

  // ---- Where things are ----
  function zoneOf(uid) {
    for (const z in S.zones) if (S.zones[z].includes(uid)) return z;
    return null;
  }
  function take(uid) {
    const z = zoneOf(uid);
    if (z) S.zones[z].splice(S.zones[z].indexOf(uid), 1);
    return z;
  }
  function name(uid) {
    const c = CARDS[uid];
    return G.decks[c.deck].rows[c.row];
  }
  function size(uid) {
    const deck = G.decks[CARDS[uid].deck];
    return [deck.w * MM, deck.h * MM];
  }
  function seatName(s) {
    return "Seat " + s;
  }
  function shownSeat() {
    return S.seat;
  }
  // The first free place on the table for a card: slots in rows right of the board.
  function freeSlot(uid) {
    const [w, h] = size(uid);
    const cols = Math.max(1, Math.floor((layout.width - layout.left - GAP) / (w + GAP)));
    const taken = new Set(S.zones.table.filter((u) => u !== uid).map((u) => S.pos[u] && S.pos[u].join(",")));
    for (let k = 0; ; k++) {
      const p = [layout.left + GAP + (k % cols) * (w + GAP), GAP + Math.floor(k / cols) * (h + GAP)];
      if (!taken.has(p.join(","))) return p;
    }
  }
  function visible(uid, zone) {
    if (zone.startsWith("seat:")) return S.all || zone === "seat:" + shownSeat();
    return !!S.up[uid];
  }

  // ---- Moves: each one undoable and logged ----
  function act(text, change) {
    history.push(JSON.stringify(S));
    change();
    S.log.push(text);
    render();
  }
  function toTable(uid) {
    const from = take(uid);
    S.zones.table.push(uid);
    S.up[uid] = true;
    S.pos[uid] = freeSlot(uid);
    return from;
  }
  function toSeat(uid, s) {
    take(uid);
    S.zones["seat:" + s].push(uid);
  }
  const moves = {
    // Enter: what a card in its place is most often for.
    primary(uid) {
      const z = zoneOf(uid);
      if (z.startsWith("draw:")) return moves.draw(uid);
      if (z.startsWith("seat:")) return moves.play(uid);
      if (z === "table" || z.startsWith("discard:")) return moves.hand(uid);
      return moves.flip(uid);
    },
    // The top card of the selected card's deck's draw pile, to the shown seat.
    draw(uid) {
      const pile = S.zones["draw:" + CARDS[uid].deck];
      if (!pile || pile.length === 0) return;
      const top = pile[0];
      const s = shownSeat();
      act(seatName(s) + " drew a card", () => toSeat(top, s));
      return top;
    },
    play(uid) {
      const from = zoneOf(uid);
      const who = from.startsWith("seat:") ? seatName(from.slice(5)) : "moved";
      act(who + (from.startsWith("seat:") ? " played " : " ") + name(uid) + " to the table", () => toTable(uid));
    },
    hand(uid) {
      const s = shownSeat();
      act(seatName(s) + " took " + (visible(uid, zoneOf(uid)) ? name(uid) : "a card") + " into the hand", () => toSeat(uid, s));
    },
    flip(uid) {
      const z = zoneOf(uid);
      if (z.startsWith("seat:")) return;
      act(name(uid) + " turned face " + (S.up[uid] ? "down" : "up"), () => {
        S.up[uid] = !S.up[uid];
      });
    },
    discard(uid) {
      const d = CARDS[uid].deck;
      if (!S.zones["discard:" + d]) return; // pieces have no discard pile
      act(name(uid) + " discarded", () => {
        take(uid);
        S.zones["discard:" + d].unshift(uid);
        S.up[uid] = true;
      });
    },
    pass(uid, to) {
      const from = zoneOf(uid);
      if (from === "pieces") return;
      const s = from.startsWith("seat:") ? parseInt(from.slice(5), 10) : shownSeat();
      const target = to || (s % players) + 1;
      const what = visible(uid, from) && !from.startsWith("seat:") ? name(uid) : "a card";
      const by = from.startsWith("seat:") ? seatName(s) + " passed " : "Gave ";
      act(by + what + " to " + seatName(target), () => toSeat(uid, target));
    },
    reshuffle(uid) {
      const d = CARDS[uid].deck;
      const discards = S.zones["discard:" + d];
      if (!discards || discards.length === 0) return;
      act(G.decks[d].name + ": the discards shuffled into the draw pile", () => {
        const cards = discards.splice(0);
        shuffle(cards, S.rng);
        cards.forEach((u) => {
          S.up[u] = false;
        });
        S.zones["draw:" + d] = S.zones["draw:" + d].concat(cards);
      });
    },
    nudge(uid, dx, dy) {
      const z = zoneOf(uid);
      if (z !== "table" && z !== "pieces") return;
      act(name(uid) + " moved", () => {
        const p = S.pos[uid];
        S.pos[uid] = [Math.max(0, p[0] + dx), Math.max(0, p[1] + dy)];
      });
    },
  };
  function undo() {
    if (!history.length) return;
    S = JSON.parse(history.pop());
    render();
  }
  function nextSeat() {
    S.seat = (S.seat % players) + 1;
    render();
  }
  function allHands() {
    S.all = !S.all;
    render();
  }

  // ---- The page ----
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const $ = (sel) => document.querySelector(sel);
  let selected = null;

  function build() {
    const root = document.documentElement;
    root.dataset.players = players;
    root.dataset.seed = seed;
    $("#players").value = String(players);
    $("#seed").value = String(seed);
    if (note) {
      const n = $("#note");
      n.textContent = note;
      n.hidden = false;
    }
    // The surface: the board at its size on the left, the table's cards beside it.
    const card = G.decks.find((d, i) => parts[i] === "dealt" || parts[i] === "pile") || G.decks[0] || { w: 63, h: 88 };
    const board = G.board;
    const left = board ? board.w * MM : 0;
    const cw = card.w * MM;
    const ch = card.h * MM;
    const width = left + GAP + 8 * (cw + GAP);
    const piecesTop = 2 * (ch + GAP) + 2 * GAP;
    layout = { left: left, width: width, piecesTop: piecesTop };
    const surface = $("#surface");
    const pieceDecks = G.decks.map((d, i) => i).filter((i) => parts[i] === "pieces");
    let x = left + GAP;
    let y = piecesTop;
    let rowHeight = 0;
    pieceDecks.forEach((d) => {
      const deck = G.decks[d];
      let stack = null;
      S.zones.pieces.filter((u) => CARDS[u].deck === d).forEach((uid) => {
        const row = CARDS[uid].row;
        if (!stack || stack.row !== row) {
          if (stack) x += deck.w * MM + GAP + 12;
          if (x + deck.w * MM > width) {
            x = left + GAP;
            y += rowHeight + GAP;
            rowHeight = 0;
          }
          stack = { row: row, n: 0 };
        }
        const off = Math.min(stack.n++, 8) * 3;
        S.pos[uid] = [x + off, y + off];
        rowHeight = Math.max(rowHeight, deck.h * MM + 24);
      });
      if (stack) x += deck.w * MM + GAP + 12;
    });
    const height = Math.max(board ? board.h * MM : 0, y + rowHeight + GAP, piecesTop);
    surface.style.width = width + "px";
    surface.style.height = height + "px";
    if (board) {
      const b = el("img", { class: "board", src: board.file, alt: board.name, draggable: "false" });
      b.style.width = board.w * MM + "px";
      b.style.height = board.h * MM + "px";
      surface.prepend(b);
    }
    S.zones.table.forEach((uid) => {
      S.pos[uid] = freeSlot(uid);
    });
    // A pile (draw and discards) for each shuffled deck.
    const piles = $("#piles");
    G.decks.forEach((deck, d) => {
      if (parts[d] !== "dealt" && parts[d] !== "pile") return;
      const box = el("section", { class: "pile", "data-deck": deck.id });
      box.append(el("h2", {}, deck.name));
      const row = el("div", { class: "pile-row" });
      ["draw", "discard"].forEach((area) => {
        const stack = el("div", { "data-area": area, "data-deck": deck.id, "aria-label": deck.name + ": " + (area === "draw" ? "draw pile" : "discards"), class: "stack" });
        stack.style.width = deck.w * MM + 8 + "px";
        stack.style.height = deck.h * MM + 4 + "px";
        row.append(stack);
      });
      box.append(row);
      const button = el("button", { type: "button", "data-action": "reshuffle", "data-deck-index": d, title: "R" }, "Shuffle the discards in (R)");
      box.append(button);
      piles.append(box);
    });
    const seats = $("#seats");
    for (let s = 1; s <= players; s++) {
      const seat = el("section", { class: "seat", "data-seat": s });
      const head = el("h2", {}, seatName(s) + " ");
      head.append(el("button", { type: "button", "data-action": "show", "data-seat-index": s }, "Show"));
      seat.append(head);
      seat.append(el("div", { class: "hand", "aria-label": seatName(s) + ": hand" }));
      seats.append(seat);
    }
  }

  function picture(uid, zone) {
    const c = CARDS[uid];
    const deck = G.decks[c.deck];
    const up = visible(uid, zone);
    const src = up ? deck.faces[c.row] : deck.backs.length > 1 ? deck.backs[c.row] : deck.backs[0];
    const e = el("div", {
      class: "card " + deck.shape,
      tabindex: "0",
      role: "button",
      "data-card": deck.rows[c.row],
      "data-uid": uid,
      "data-deck": deck.id,
      "data-face": up ? "up" : "down",
      "aria-label": up ? deck.rows[c.row] : deck.name + " (face down)",
    });
    e.style.width = deck.w * MM + "px";
    e.style.height = deck.h * MM + "px";
    if (deck.shape === "rect") e.style.borderRadius = deck.corner * MM + "px";
    e.append(el("img", { src: src, alt: "", draggable: "false" }));
    return e;
  }

  function fill(area, zone, placed) {
    area.replaceChildren();
    const uids = S.zones[zone] || [];
    uids.forEach((uid, i) => {
      const card = picture(uid, zone);
      if (placed) {
        card.style.left = S.pos[uid][0] + "px";
        card.style.top = S.pos[uid][1] + "px";
      } else if (area.classList.contains("stack")) {
        card.style.zIndex = String(uids.length - i);
        card.style.left = Math.min(uids.length - 1 - i, 12) * 0.5 + "px";
      }
      area.append(card);
    });
    if (area.classList.contains("stack")) area.dataset.count = uids.length;
  }

  function render() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.uid : null;
    fill($('[data-area="table"]'), "table", true);
    fill($('[data-area="pieces"]'), "pieces", true);
    G.decks.forEach((deck, d) => {
      if (parts[d] !== "dealt" && parts[d] !== "pile") return;
      fill($('[data-area="draw"][data-deck="' + deck.id + '"]'), "draw:" + d, false);
      fill($('[data-area="discard"][data-deck="' + deck.id + '"]'), "discard:" + d, false);
    });
    for (let s = 1; s <= players; s++) {
      const seat = $('[data-seat="' + s + '"]');
      seat.classList.toggle("shown", S.all || s === S.seat);
      fill(seat.querySelector(".hand"), "seat:" + s, false);
    }
    $("#all").setAttribute("aria-pressed", String(S.all));
    $("#shown").textContent = S.all ? "every hand shown" : seatName(S.seat) + "'s hand shown";
    const log = $("#log");
    log.replaceChildren(...S.log.map((t) => el("li", {}, t)));
    log.scrollTop = log.scrollHeight;
    $("#undo").disabled = history.length === 0;
    const again = focused && document.querySelector('[data-uid="' + focused + '"]');
    if (again) again.focus();
    describe();
  }

  // The action bar: what can be done with the selected card.
  function describe() {
    const card = selected && document.querySelector('[data-uid="' + selected + '"]');
    $("#selected").textContent = card ? card.getAttribute("aria-label") + " · " + where(zoneOf(selected)) : "no card selected";
    document.querySelectorAll("#actions button").forEach((b) => {
      b.disabled = !card;
    });
  }
  function where(zone) {
    if (!zone) return "";
    if (zone.startsWith("seat:")) return seatName(zone.slice(5)) + "'s hand";
    if (zone.startsWith("draw:")) return "draw pile";
    if (zone.startsWith("discard:")) return "discards";
    return zone;
  }

  // ---- Keyboard: every move from the keys ----
  function areas() {
    return Array.from(document.querySelectorAll("[data-area], .hand")).filter((a) => a.querySelector("[data-uid]"));
  }
  function moveFocus(card, key) {
    const area = card.parentElement;
    const cards = Array.from(area.querySelectorAll("[data-uid]"));
    const i = cards.indexOf(card);
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const next = cards[i + (key === "ArrowLeft" ? -1 : 1)];
      if (next) next.focus();
      return;
    }
    const list = areas();
    const a = list.indexOf(area) + (key === "ArrowUp" ? -1 : 1);
    if (list[a]) list[a].querySelector("[data-uid]").focus();
  }
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select")) return;
    const key = e.key;
    if (key === "u" || (key === "z" && (e.ctrlKey || e.metaKey))) return done(e, undo());
    if (key === "n") return done(e, nextSeat());
    if (key === "a") return done(e, allHands());
    const card = e.target.closest && e.target.closest("[data-uid]");
    if (!card) return;
    const uid = card.dataset.uid;
    if (key.startsWith("Arrow")) {
      if (!e.shiftKey) return done(e, moveFocus(card, key));
      const step = 8;
      const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[key];
      return done(e, moves.nudge(uid, d[0], d[1]));
    }
    const byKey = {
      Enter: () => moves.primary(uid),
      " ": () => moves.primary(uid),
      f: () => moves.flip(uid),
      d: () => moves.discard(uid),
      Delete: () => moves.discard(uid),
      p: () => moves.pass(uid),
      t: () => moves.play(uid),
      h: () => moves.hand(uid),
      r: () => moves.reshuffle(uid),
    };
    if (byKey[key]) return done(e, byKey[key]());
    if (/^[1-9]$/.test(key) && parseInt(key, 10) <= players) return done(e, moves.pass(uid, parseInt(key, 10)));
  });
  function done(e) {
    e.preventDefault();
  }

  // ---- Mouse: select, double-click for Enter, drag on the table ----
  document.addEventListener("focusin", (e) => {
    const card = e.target.closest && e.target.closest("[data-uid]");
    if (card) {
      selected = card.dataset.uid;
      describe();
    }
  });
  document.addEventListener("dblclick", (e) => {
    const card = e.target.closest("[data-uid]");
    if (card) moves.primary(card.dataset.uid);
  });
  let drag = null;
  document.addEventListener("pointerdown", (e) => {
    const card = e.target.closest("[data-uid]");
    if (!card || !card.closest("#surface")) return;
    const uid = card.dataset.uid;
    drag = { uid: uid, x: e.clientX, y: e.clientY, from: S.pos[uid].slice(), card: card, moved: false };
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
    drag.moved = true;
    drag.card.style.left = drag.from[0] + dx + "px";
    drag.card.style.top = drag.from[1] + dy + "px";
  });
  document.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    const to = [Math.max(0, d.from[0] + e.clientX - d.x), Math.max(0, d.from[1] + e.clientY - d.y)];
    act(name(d.uid) + " moved", () => {
      S.pos[d.uid] = to;
    });
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-action]");
    if (!b) return;
    const a = b.dataset.action;
    if (a === "undo") return undo();
    if (a === "next") return nextSeat();
    if (a === "all") return allHands();
    if (a === "show") {
      S.seat = parseInt(b.dataset.seatIndex, 10);
      S.all = false;
      return render();
    }
    if (a === "reshuffle") {
      const d = parseInt(b.dataset.deckIndex, 10);
      const any = S.zones["discard:" + d][0];
      return any && moves.reshuffle(any);
    }
    if (!selected || !zoneOf(selected)) return;
    if (a === "pass") return moves.pass(selected);
    if (moves[a]) moves[a](selected);
  });
  $("#players").addEventListener("change", (e) => {
    location.search = "?players=" + e.target.value + "&seed=" + seed;
  });
  $("#seed").addEventListener("change", (e) => {
    location.search = "?players=" + players + "&seed=" + (parseInt(e.target.value, 10) >>> 0);
  });
  $("#deal").addEventListener("click", () => {
    location.search = "?players=" + players + "&seed=" + ((seed + 1) >>> 0);
  });

  deal();
  build();
  render();
  // Ready once the first deal is drawn with its pictures: tests and timings wait for this.
  const pictures = Array.from(document.images).map((i) => i.decode().catch(() => undefined));
  Promise.all(pictures).then(() => {
    document.documentElement.dataset.ready = String(Math.round(performance.now()));
  });
})();
