// A live Exchange Blackjack table (/exchange/{id}): the five hands on the felt, the market of the
// eight selections as an exchange shows it (the best three prices to back in blue, to lay in
// pink, with their sizes), the bet slip, the player's open and matched bets with cancel, his
// profit or loss per outcome, the progress bar of the betting window, and the table's games
// with their fairness records.
//
// Everything shown comes from the server (docs/exchange-live.md): the table's public state (the
// stream's frames or GET /api/exchange/tables/{id}) and the player's own orders (GET
// /api/exchange/orders?table=). The page never guesses game facts, nor the time: the bar runs
// from the state's `window_closes_at` and `now` (server seconds), so a wrong browser clock, or a
// test server on a manual clock, still shows the server's window. Prices are ladder prices in
// integer hundredths and money integer minor units here: no binary float touches either.
import { html, useEffect, useRef, useState } from "../js/lib.js";
import { get, post, del, stream, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { play } from "../js/sound.js";
import { Card, Hand, cardName, handTotal } from "../js/cards.js";
import { animate } from "../js/settings.js";
import { Button, Countdown, formatMoney, capitalise } from "../js/ui.js";
import { useShortcuts } from "../js/keys.js";
import { navigate } from "../js/app.js";
import { verifyRecord } from "../js/fairness.js";
import { _, language } from "../js/i18n.js";

const PLAYERS = ["Player 1", "Player 2", "Player 3", "Player 4"];

// ------------------------------------------------------------------------ the ladder
// The standard 350-step ladder as integer hundredths: [from, to, step] (spec: exchange-market.md).
const BANDS = [
  [101, 200, 1], [200, 300, 2], [300, 400, 5], [400, 600, 10], [600, 1000, 20],
  [1000, 2000, 50], [2000, 3000, 100], [3000, 5000, 200], [5000, 10000, 500], [10000, 100000, 1000],
];

/** Every ladder price in hundredths, lowest first: LADDER[0] === 101, LADDER[349] === 100000. */
export const LADDER = (() => {
  const out = [];
  for (const [from, to, step] of BANDS) {
    for (let p = from; p < to; p += step) if (out[out.length - 1] !== p) out.push(p);
  }
  out.push(100000);
  return Object.freeze(out);
})();

/**
 * A price's text as integer hundredths, read digit by digit (never through a float):
 * parsePrice("2.5") === 250, parsePrice("1.01") === 101, parsePrice("2.505") === null.
 */
export function parsePrice(text) {
  const match = /^\s*(\d{1,6})(?:\.(\d{1,2}))?\s*$/.exec(String(text ?? ""));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || "").padEnd(2, "0"));
}

/** Hundredths as an exchange writes a price: 250 -> "2.5", 101 -> "1.01", 1000 -> "10". */
export function priceText(hundredths) {
  const whole = Math.floor(hundredths / 100);
  const cents = hundredths % 100;
  if (cents === 0) return String(whole);
  return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${String(cents).padStart(2, "0")}`;
}

/** A decimal text ("2.06", "3.756") as the language writes numbers ("2,06" in Finnish); for
 * showing only (the bet slip and the API keep the dot). */
export function shownDecimal(text) {
  const sign = new Intl.NumberFormat(language.value).formatToParts(1.5).find((part) => part.type === "decimal");
  return sign && sign.value !== "." ? String(text).replace(".", sign.value) : String(text);
}

/** The ladder price `steps` steps from `hundredths` (clamped to the ladder; off-ladder snaps). */
export function stepPrice(hundredths, steps) {
  let index = LADDER.findIndex((p) => p >= hundredths);
  if (index < 0) index = LADDER.length - 1;
  if (LADDER[index] !== hundredths && steps > 0) index -= 1; // between two prices: +1 is the higher
  return LADDER[Math.max(0, Math.min(LADDER.length - 1, index + steps))];
}

/** Whether `hundredths` is on the ladder. */
export const onLadder = (hundredths) => LADDER.includes(hundredths);

/**
 * Money text ("10", "10.5", "2.50") as minor units, digit by digit: parseMoney("10.5") === 1050;
 * null for anything else (a sign, three decimals, letters).
 */
export function parseMoney(text) {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(String(text ?? ""));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || "").padEnd(2, "0"));
}

/**
 * What a matched stake wins (back) or risks (lay) at a price: S x (P - 1), rounded toward zero
 * to the minor unit as the server settles it. profitAt(1000, 250) === 1500 (10.00 at 2.5).
 */
export function profitAt(stake, hundredths) {
  return Math.trunc((stake * (hundredths - 100)) / 100);
}

/** A size as an exchange's price cell shows it: whole units without decimals ("25", "2.50"). */
export function sizeText(minor) {
  return minor % 100 === 0 ? formatMoney(minor).replace(/\.00$/, "") : formatMoney(minor);
}

// ---------------------------------------------------------------------- the state
/** A price level from the server ([price, size] or {price, size}) as {price (hundredths), size}. */
function level(entry) {
  const [price, size] = Array.isArray(entry) ? entry : [entry && entry.price, entry && entry.size];
  const hundredths = parsePrice(price);
  return hundredths === null ? null : { price: hundredths, size: Number(size) || 0 };
}

/** The statuses, as the page names them (the server's words may be the market's or the page's). */
const STATUS = {
  "in play": "open", open: "open", suspended: "suspended", winner: "won", won: "won",
  loser: "lost", lost: "lost", tied: "dead-heat", "dead heat": "dead-heat", "dead-heat": "dead-heat", void: "void",
};

export function statusWord(status) {
  switch (status) {
    case "open": return _("Open");
    case "suspended": return _("Suspended");
    case "won": return _("Won");
    case "lost": return _("Lost");
    case "dead-heat": return _("Dead heat");
    case "void": return _("Void");
    default: return status;
  }
}

/** A selection's name in the player's language (the server's names are the spec's English). */
export function selectionName(name) {
  switch (name) {
    case "Player 1": return _("Player 1");
    case "Player 2": return _("Player 2");
    case "Player 3": return _("Player 3");
    case "Player 4": return _("Player 4");
    case "Dealer": return _("Dealer");
    case "Dealer wins or ties all": return _("Dealer wins or ties all");
    case "One or more has 5 cards": return _("One or more has 5 cards");
    case "All cards unique": return _("All cards unique");
    case "Only one has 21pts": return _("Only one has 21pts");
    default: return name;
  }
}

/** A hand of the state ({cards} or a list of cards) as {cards, faceDown, total, soft, name}. */
function handOf(raw, name) {
  if (!raw) return { name, cards: [], faceDown: 0 };
  if (Array.isArray(raw)) return { name, cards: raw.filter((c) => c), faceDown: raw.filter((c) => !c).length };
  const cards = (raw.cards || []).filter((c) => c);
  const downInList = (raw.cards || []).filter((c) => !c).length;
  const faceDown = Number(raw.face_down ?? raw.hidden ?? downInList) || 0;
  return { ...raw, name: raw.name || name, cards, faceDown };
}

/**
 * The server's table state as the page draws it. The contract is docs/exchange-live.md; this
 * reads it defensively (a missing field is shown as unknown, never invented).
 */
export function normalise(raw) {
  const windowOpen = raw.phase ? raw.phase === "betting" || raw.phase === "open" : Boolean(raw.window_closes_at);
  const handsRaw = raw.hands || [];
  const hands = PLAYERS.map((name, i) => {
    const found = Array.isArray(handsRaw)
      ? handsRaw.find((h) => h && !Array.isArray(h) && h.name === name) || handsRaw[i]
      : handsRaw[name];
    return handOf(found, name);
  });
  const dealer = handOf(raw.dealer, "Dealer");
  // Each game starts with ten cards dealt face down (two a hand); the server sends a card only
  // once it is turned (it does not exist before), so the backs drawn here are the spec's, not data.
  const playing = !(raw.phase === "over" || raw.state === "settled" || raw.state === "void") && raw.game !== null && raw.game !== undefined;
  if (playing) {
    for (const hand of [...hands, dealer]) hand.faceDown = Math.max(hand.faceDown, 2 - hand.cards.length);
  }
  const selections = (raw.selections || []).map((s) => {
    const back = (s.back || s.to_back || []).map(level).filter(Boolean).slice(0, 3);
    const lay = (s.lay || s.to_lay || []).map(level).filter(Boolean).slice(0, 3);
    let status = STATUS[s.status] || s.status || "open";
    if (status === "open" && !windowOpen) status = "suspended";
    return {
      name: s.name,
      status,
      back, // prices available to back (resting lays), best (highest) first
      lay, // prices available to lay (resting backs), best (lowest) first
      fair: s.fair_price === null || s.fair_price === undefined ? null : String(s.fair_price),
      matched: Number(s.matched) || 0,
      settledRound: s.settled_round ?? s.settled_after_round ?? null,
      house: { back: (s.house && s.house.back || []).map(level).filter(Boolean), lay: (s.house && s.house.lay || []).map(level).filter(Boolean) },
    };
  });
  const gameId = raw.game && typeof raw.game === "object" ? raw.game.id : raw.game;
  return {
    raw,
    id: raw.id,
    name: raw.name,
    turbo: Boolean(raw.turbo),
    game: gameId ?? null,
    round: raw.round ?? null,
    phase: raw.phase || (windowOpen ? "betting" : "pause"),
    windowOpen,
    closesAt: raw.window_closes_at ?? null,
    opensAt: raw.window_opened_at ?? null,
    windowSeconds: raw.window_seconds ?? (raw.window_opened_at && raw.window_closes_at ? raw.window_closes_at - raw.window_opened_at : null),
    now: raw.now ?? raw.server_time ?? null,
    hands,
    dealer,
    selections,
    commitment: raw.commitment ?? (raw.game && typeof raw.game === "object" ? raw.game.commitment : null),
    minStake: Number(raw.min_stake ?? 200),
    commission: raw.commission_percent !== undefined && raw.commission_percent !== null ? `${raw.commission_percent}%` : null,
    voided: raw.state === "void" ? raw.void_reason || _("no reason given") : null,
    over: raw.phase === "over" || raw.state === "settled" || raw.state === "void",
    seq: raw.seq ?? null,
  };
}

const RESULT_STATUS = { winner: "won", loser: "lost", tied: "dead heat", void: "void" };

/** `selections` (all or some, as the state has them) merged into the state's by name. */
function mergeSelections(old, changed) {
  if (!changed) return old;
  const byName = new Map((old || []).map((s) => [s.name, s]));
  for (const s of changed) byName.set(s.name, { ...(byName.get(s.name) || {}), ...s });
  const order = (old || []).map((s) => s.name);
  for (const s of changed) if (!order.includes(s.name)) order.push(s.name);
  return order.map((name) => byName.get(name));
}

/**
 * The public state after one message of the stream (docs/exchange-live.md): `window-start`,
 * `book`, `window-end`, `reveal`, `settlement`, `game-end`, `void`, `game-start` or `state`.
 * Returns {state, resync}: `resync` when the message needs the whole state read again (a new
 * game, a type this page does not know).
 */
export function applyMessage(raw, message) {
  const type = message.type;
  if (type === "state") return { state: message.table, resync: false };
  const next = { ...raw, seq: message.seq ?? raw.seq, now: message.at ?? raw.now };
  switch (type) {
    case "window-start":
      Object.assign(next, {
        phase: "betting", round: message.round, window_closes_at: message.window_closes_at,
        window_seconds: message.window_seconds ?? raw.window_seconds, pause_ends_at: null,
        selections: mergeSelections(raw.selections, message.selections),
      });
      return { state: next, resync: false };
    case "book":
      next.selections = mergeSelections(raw.selections, message.selections);
      return { state: next, resync: false };
    case "window-end":
      // The unmatched remainders lapsed: the books are empty until the next window.
      Object.assign(next, { phase: "pause", window_closes_at: null });
      next.selections = (raw.selections || []).map((s) => ({
        ...s, back: [], lay: [], house: { back: [], lay: [] }, status: s.status === "open" ? "suspended" : s.status,
      }));
      return { state: next, resync: false };
    case "reveal":
      if (message.hands) next.hands = message.hands;
      if (message.dealer) next.dealer = message.dealer;
      return { state: next, resync: false };
    case "settlement": {
      let selections = mergeSelections(raw.selections, message.selections);
      if (!message.selections && message.settled) {
        selections = selections.map((s) => (s.name in message.settled
          ? { ...s, result: message.settled[s.name], status: RESULT_STATUS[message.settled[s.name]] || s.status, settled_round: message.after_round, back: [], lay: [] }
          : s));
      }
      next.selections = selections;
      return { state: next, resync: false };
    }
    case "game-end": {
      const results = message.results || {};
      next.selections = (raw.selections || []).map((s) => {
        const result = results[s.name];
        const word = result && typeof result === "object" ? result.result : result;
        return word ? { ...s, result: word, status: RESULT_STATUS[word] || s.status, back: [], lay: [], fair_price: null } : s;
      });
      Object.assign(next, { phase: "over", state: "settled", window_closes_at: null, fairness: message.fairness || null });
      return { state: next, resync: false };
    }
    case "void":
      Object.assign(next, { phase: "over", state: "void", void_reason: message.reason || null, window_closes_at: null });
      next.selections = (raw.selections || []).map((s) => (["won", "lost", "dead heat"].includes(s.status) ? s : { ...s, status: "void", back: [], lay: [] }));
      return { state: next, resync: false };
    case "game-start":
      Object.assign(next, {
        game: message.game, commitment: message.commitment, client_seed: message.client_seed, phase: "pause",
        state: "open", round: 0, window_closes_at: null, void_reason: null, fairness: null,
        hands: PLAYERS.map((name) => ({ name, cards: [], total: 0, soft: false })),
        dealer: { name: "Dealer", cards: [], total: 0, soft: false },
      });
      return { state: next, resync: true };
    default:
      return { state: next, resync: true };
  }
}

/** The player's own orders (GET /api/exchange/orders?table=) as {open, matched, pnl}. */
export function normaliseOrders(raw) {
  if (!raw) return { open: [], matched: [], pnl: {}, pnlNet: null, settledNet: 0, commission: 0, game: null };
  const all = raw.orders || [];
  const open = raw.open || raw.open_orders || all.filter((o) => (o.remaining ?? 0) > 0);
  const matched = raw.matched || raw.matched_bets || raw.bets || [];
  return {
    open,
    matched,
    pnl: raw.pnl || {},
    pnlNet: raw.pnl_after_commission || null,
    settledNet: Number(raw.settled_net) || 0,
    commission: Number(raw.commission) || 0,
    game: raw.game ?? null,
  };
}

/** A P&L cell of the server ({win: 340} or {win: {gross, net}}) as {gross, net}. */
export function pnlPair(entry, netEntry) {
  if (entry === null || entry === undefined) return null;
  if (typeof entry === "number") return { gross: entry, net: typeof netEntry === "number" ? netEntry : null };
  const gross = entry.gross ?? entry.before_commission ?? entry.without_commission ?? entry.pnl;
  const net = entry.net ?? entry.after_commission ?? entry.with_commission ?? null;
  return { gross: Number(gross) || 0, net: net === null ? null : Number(net) };
}

const OUTCOME_KEYS = { win: ["win", "winner", "wins"], lose: ["lose", "loser", "loses"], tie: ["tie", "tied", "dead heat", "dead-heat"] };

/** A selection's P&L per outcome: [{outcome: "win" | "lose" | "tie", gross, net}]. */
export function outcomesOf(pnl, pnlNet, name) {
  const entry = pnl && pnl[name];
  if (!entry) return [];
  const netEntry = pnlNet && pnlNet[name];
  const out = [];
  for (const [outcome, keys] of Object.entries(OUTCOME_KEYS)) {
    const key = keys.find((k) => k in entry);
    if (key === undefined) continue;
    const pair = pnlPair(entry[key], netEntry ? netEntry[key] : undefined);
    if (pair) out.push({ outcome, ...pair });
  }
  return out.some((o) => o.gross !== 0 || (o.net !== null && o.net !== 0)) ? out : [];
}

/** "If Player 2 wins: +3.40" in words. */
export function outcomeLine(name, outcome, amount) {
  const selection = selectionName(name);
  const money = formatMoney(amount, { signed: true });
  if (outcome === "win") return _("If {selection} wins: {amount}", { selection, amount: money });
  if (outcome === "tie") return _("If {selection} ties (dead heat): {amount}", { selection, amount: money });
  return _("If {selection} loses: {amount}", { selection, amount: money });
}

/** A client reference for an order: random, unique per customer (hex from the CSPRNG). */
export function newReference() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** How many cards are face up in a state (a new one plays the card sound and flips). */
const faceUp = (state) => state.hands.reduce((n, h) => n + h.cards.length, 0) + state.dealer.cards.length;

// ------------------------------------------------------------------------- the felt
/** How long a card takes to turn over (exchange.css's ex-flip; 0 without motion). */
const TURN_MS = 600;

/**
 * One card of a hand on the felt. A face-down card that is turned keeps its element and turns
 * over for TURN_MS (the wrapper's class, so a redraw meanwhile, as the settlement that follows a
 * reveal, does not cut the turn short); a card that arrives face up is dealt in.
 */
function TurningCard({ card, index }) {
  const before = useRef(card);
  const [motion, setMotion] = useState("");
  useEffect(() => {
    const was = before.current;
    before.current = card;
    if (was === card || !card || !animate()) return undefined;
    setMotion(was ? "" : "turning");
    const timer = setTimeout(() => setMotion(""), TURN_MS);
    return () => clearTimeout(timer);
  }, [card]);
  return html`<span class=${`ex-card${motion ? ` ${motion}` : ""}`} style=${`--deal-index: ${index}`}>
    <${Card} card=${card || null} index=${index} /></span>`;
}

/** A hand's total in words: "bust (25)", "Blackjack", "five cards, 19", "soft 18", "16". */
export function totalWords(cards, total, soft) {
  if (!cards.length) return "";
  const known = total ? { total, soft: Boolean(soft) } : handTotal(cards);
  if (known.total > 21) return _("bust ({total})", { total: known.total });
  if (cards.length === 2 && known.total === 21) return _("Blackjack");
  if (cards.length >= 5) return _("five cards, {total}", { total: known.total });
  return known.soft ? _("soft {total}", { total: known.total }) : String(known.total);
}

function HandSpot({ hand, selection, dealer }) {
  const status = selection ? selection.status : null;
  const label = dealer ? _("Dealer") : selectionName(hand.name);
  const all = [...hand.cards, ...Array.from({ length: hand.faceDown }, () => null)];
  const words = totalWords(hand.cards, hand.total, hand.soft);
  const bust = hand.cards.length > 0 && (hand.total || handTotal(hand.cards).total) > 21;
  const name = [label, all.map(cardName).join(", "), words].filter(Boolean).join(": ");
  return html`<div class=${`ex-hand${dealer ? " dealer" : ""}${status ? ` st-${status}` : ""}`}
      data-hand=${hand.name} role="group" aria-label=${name}>
    <div class="hand-label">${label}</div>
    <div class="hand-cards">
      ${all.map((card, i) => html`<${TurningCard} key=${i} index=${i} card=${card} />`)}
    </div>
    ${words && html`<div class=${`hand-total${bust ? " bust" : ""}`} aria-hidden="true">${words}</div>`}
    ${status && status !== "open" && status !== "suspended" &&
    html`<span class=${`ex-badge st-${status}`}>${statusWord(status)}</span>`}
  </div>`;
}

function Felt({ state }) {
  const byName = Object.fromEntries(state.selections.map((s) => [s.name, s]));
  return html`<section class="ex-felt" aria-label=${_("The cards")}>
    <div class="ex-dealer-row"><${HandSpot} hand=${state.dealer} dealer=${true} /></div>
    <div class="ex-players">
      ${state.hands.map((hand) => html`<${HandSpot} key=${hand.name} hand=${hand} selection=${byName[hand.name]} />`)}
    </div>
  </section>`;
}

// ----------------------------------------------------------------------- the market
function PriceCell({ side, entry, rank, selection, enabled, onPick }) {
  const kind = side === "back" ? _("Back") : _("Lay");
  const name = selectionName(selection.name);
  // The house market maker's part of this price (the book labels it, as the spec asks).
  const house = entry ? (selection.house[side] || []).find((h) => h.price === entry.price) : null;
  const label = entry
    ? house
      ? _("{side} {selection} at {price}: {size} available, {house} of it from the house market maker", { side: kind, selection: name, price: priceText(entry.price), size: formatMoney(entry.size), house: formatMoney(house.size) })
      : _("{side} {selection} at {price}: {size} available", { side: kind, selection: name, price: priceText(entry.price), size: formatMoney(entry.size) })
    : _("{side} {selection}: no price offered", { side: kind, selection: name });
  return html`<button type="button" class=${`ex-price ${side} rank-${rank}${entry ? "" : " empty"}`}
      disabled=${!enabled} aria-label=${label}
      data-side=${side} data-rank=${rank} data-price=${entry ? priceText(entry.price) : ""}
      onClick=${() => onPick(selection, side, entry ? entry.price : null)}>
    ${entry
      ? html`<span class="odds">${shownDecimal(priceText(entry.price))}</span><span class="size">${sizeText(entry.size)}</span>${
          house ? html`<span class="house-mark" title=${_("Includes the house market maker")} aria-hidden="true">${_("house")}</span>` : ""}`
      : html`<span class="odds">\u00a0</span>`}
  </button>`;
}

function PnlLine({ outcomes }) {
  if (!outcomes.length) return null;
  const words = { win: _("win"), lose: _("lose"), tie: _("tie") };
  return html`<span class="ex-pnl" aria-label=${_("Your profit or loss")}>
    ${outcomes.map(
      (o) => html`<span key=${o.outcome} class=${o.gross > 0 ? "gain" : o.gross < 0 ? "loss" : "even"}>${words[o.outcome]} ${formatMoney(o.gross, { signed: true })}</span>`,
    )}
  </span>`;
}

function Market({ state, orders, onPick, picked }) {
  return html`<section class="ex-market" aria-label=${_("The market")}>
    <div class="ex-market-head" aria-hidden="true">
      <span class="sel">${_("Selection")}</span>
      <span class="head back">${_("Back")}</span>
      <span class="head lay">${_("Lay")}</span>
      <span class="fair">${_("Fair")}</span>
    </div>
    ${state.selections.map((s) => {
      const open = s.status === "open";
      const enabled = open && state.windowOpen;
      const backs = [2, 1, 0].map((i) => ({ entry: s.back[i] || null, rank: i + 1 })); // best nearest the middle
      const lays = [0, 1, 2].map((i) => ({ entry: s.lay[i] || null, rank: i + 1 }));
      const outcomes = outcomesOf(orders.pnl, orders.pnlNet, s.name);
      return html`<div key=${s.name} class=${`ex-row st-${s.status}${picked === s.name ? " picked" : ""}`}
          role="group" aria-label=${`${selectionName(s.name)}: ${statusWord(s.status)}`} data-selection=${s.name}>
        <div class="sel">
          <span class="sel-name">${selectionName(s.name)}</span>
          <span class=${`ex-status st-${s.status}`}>${statusWord(s.status)}${
            s.settledRound && !open && s.status !== "suspended" ? html` <small>${_("after round {round}", { round: s.settledRound })}</small>` : ""}</span>
          <${PnlLine} outcomes=${outcomes} />
        </div>
        ${open || s.status === "suspended"
          ? html`<div class="cells">
              ${backs.map(({ entry, rank }) => html`<${PriceCell} key=${`b${rank}`} side="back" entry=${entry} rank=${rank}
                selection=${s} enabled=${enabled} onPick=${onPick} />`)}
              ${lays.map(({ entry, rank }) => html`<${PriceCell} key=${`l${rank}`} side="lay" entry=${entry} rank=${rank}
                selection=${s} enabled=${enabled} onPick=${onPick} />`)}
            </div>`
          : html`<div class=${`cells settled st-${s.status}`}><span>${statusWord(s.status)}</span></div>`}
        <div class="fair" data-label=${_("Fair")} title=${_("The exact fair price from the cards shown")}>
          ${s.fair ? html`<span>${shownDecimal(s.fair)}</span>` : html`<span class="muted">\u2013</span>`}
          ${s.matched > 0 && html`<small>${_("{amount} matched", { amount: sizeText(s.matched) })}</small>`}
        </div>
      </div>`;
    })}
  </section>`;
}

// ------------------------------------------------------------------------ the slip
function BetSlip({ slip, setSlip, state, onPlace, busy, error, signedIn }) {
  const stakeRef = useRef(null);
  // A picked price moves the focus to the stake, so Enter places the bet at once.
  useEffect(() => {
    if (slip && slip.picked && stakeRef.current) stakeRef.current.focus({ preventScroll: true });
  }, [slip && slip.picked]);
  if (!signedIn) {
    return html`<section class="ex-panel ex-slip" aria-label=${_("Bet slip")}>
      <h2>${_("Bet slip")}</h2>
      <p class="muted">${_("Sign in to back or lay: anyone may watch.")} <a href="/login">${_("Sign in")}</a> \u00b7 <a href="/register">${_("Register")}</a></p>
    </section>`;
  }
  if (!slip) {
    return html`<section class="ex-panel ex-slip" aria-label=${_("Bet slip")}>
      <h2>${_("Bet slip")}</h2>
      <p class="muted">${_("Click a price to back (blue) or lay (pink) a selection.")}</p>
    </section>`;
  }
  const price = parsePrice(slip.priceText);
  const stake = parseMoney(slip.stakeText);
  const priceOk = price !== null && onLadder(price);
  const stakeOk = stake !== null && stake >= state.minStake;
  const amount = priceOk && stake !== null ? profitAt(stake, price) : null;
  const selection = state.selections.find((s) => s.name === slip.selection);
  const open = Boolean(selection && selection.status === "open" && state.windowOpen);
  const back = slip.side === "back";
  const nudge = (steps) => setSlip({ ...slip, priceText: priceText(stepPrice(price ?? 200, steps)) });
  const submit = (event) => {
    event.preventDefault();
    if (priceOk && stakeOk && open) onPlace();
  };
  return html`<section class=${`ex-panel ex-slip ${slip.side} has-slip`} aria-label=${_("Bet slip")}>
    <h2>${_("Bet slip")}</h2>
    <form onSubmit=${submit} data-testid="bet-slip">
      <div class="slip-title">
        <div class="slip-side" role="radiogroup" aria-label=${_("Back or lay")}>
          <button type="button" role="radio" aria-checked=${back} class=${`side back${back ? " on" : ""}`}
            onClick=${() => setSlip({ ...slip, side: "back" })}>${_("Back")}</button>
          <button type="button" role="radio" aria-checked=${!back} class=${`side lay${back ? "" : " on"}`}
            onClick=${() => setSlip({ ...slip, side: "lay" })}>${_("Lay")}</button>
        </div>
        <strong class="slip-selection">${selectionName(slip.selection)}</strong>
      </div>
      <div class="slip-fields">
        <label class="field">
          <span>${_("Price")}</span>
          <div class="stepper">
            <button type="button" aria-label=${_("One step lower")} onClick=${() => nudge(-1)}>\u2212</button>
            <input name="price" inputmode="decimal" autocomplete="off" value=${slip.priceText}
              aria-invalid=${priceOk ? "false" : "true"}
              onInput=${(e) => setSlip({ ...slip, priceText: e.currentTarget.value })}
              onKeyDown=${(e) => {
                if (e.key === "ArrowUp" || e.key === "ArrowDown") {
                  e.preventDefault();
                  nudge(e.key === "ArrowUp" ? 1 : -1);
                }
              }} />
            <button type="button" aria-label=${_("One step higher")} onClick=${() => nudge(1)}>+</button>
          </div>
        </label>
        <label class="field">
          <span>${back ? _("Stake") : _("Backer's stake")}</span>
          <input name="stake" inputmode="decimal" autocomplete="off" value=${slip.stakeText} ref=${stakeRef}
            aria-invalid=${stakeOk ? "false" : "true"}
            onInput=${(e) => setSlip({ ...slip, stakeText: e.currentTarget.value })} />
        </label>
      </div>
      <div class="quick-stakes" role="group" aria-label=${_("Stake")}>
        ${[200, 500, 1000, 2500, 5000].map(
          (v) => html`<button type="button" key=${v} onClick=${() => setSlip({ ...slip, stakeText: formatMoney(v).replace(/,/g, "") })}>${sizeText(v)}</button>`,
        )}
      </div>
      <p class="slip-sum" role="status" data-testid="slip-sum">
        ${amount === null
          ? html`<span class="muted">${priceOk ? _("Enter a stake.") : _("The price must be on the ladder (1.01 to 1000).")}</span>`
          : back
            ? html`${_("Profit if it wins")} <strong class="gain">${formatMoney(amount)}</strong>`
            : html`${_("Liability if it wins")} <strong class="loss">${formatMoney(amount)}</strong>`}
      </p>
      ${stake !== null && !stakeOk && html`<p class="muted small">${_("The minimum stake is {amount}.", { amount: formatMoney(state.minStake) })}</p>`}
      ${!open && html`<p class="muted small">${_("This selection takes no bets now.")}</p>`}
      ${error && html`<p class="ex-error" role="alert">${capitalise(error)}</p>`}
      <div class="slip-buttons">
        <${Button} onClick=${() => setSlip(null)} kbd="escape" label=${_("Clear the bet slip")}>${_("Clear")}<//>
        <button type="submit" class=${`btn btn-primary place ${slip.side}`} disabled=${!priceOk || !stakeOk || !open || busy}
          aria-busy=${busy ? "true" : undefined}>
          ${back
            ? _("Back {selection} at {price}", { selection: selectionName(slip.selection), price: priceOk ? priceText(price) : "?" })
            : _("Lay {selection} at {price}", { selection: selectionName(slip.selection), price: priceOk ? priceText(price) : "?" })}
          <kbd aria-hidden="true">Enter</kbd>
        </button>
      </div>
    </form>
  </section>`;
}

// ----------------------------------------------------------------------- my bets
function orderPrice(order) {
  const p = parsePrice(order.price);
  return p === null ? String(order.price) : priceText(p);
}

function OpenOrder({ order, onCancel, busy, canCancel }) {
  const [part, setPart] = useState("");
  const amount = parseMoney(part);
  const remaining = Number(order.remaining) || 0;
  return html`<li class=${`ex-order ${order.side}`} data-order=${order.id}>
    <span class="what"><b>${order.side === "back" ? _("Back") : _("Lay")}</b> ${selectionName(order.selection)} ${_("at")} <b>${orderPrice(order)}</b></span>
    <span class="amounts">${_("{remaining} unmatched of {size}", { remaining: formatMoney(remaining), size: formatMoney(order.size) })}</span>
    ${canCancel && html`<span class="cancel">
      <input aria-label=${_("Amount to cancel")} inputmode="decimal" placeholder=${formatMoney(remaining)} value=${part}
        onInput=${(e) => setPart(e.currentTarget.value)} />
      <button type="button" class="btn btn-secondary small" disabled=${busy || (part !== "" && (amount === null || amount <= 0))}
        onClick=${() => onCancel(order, part === "" ? null : Math.min(amount, remaining))}>
        ${part === "" ? _("Cancel") : _("Cancel part")}</button>
    </span>`}
  </li>`;
}

/**
 * A matched bet's profit or loss once its selection has settled (exchange-market.md: the backer's
 * side rounded toward zero, the layer's its negation; a dead heat pays S x (P/2 - 1)); null while
 * the selection is in play. betResult("back", 1000, 206, "won") === 1060.
 */
export function betResult(side, stake, hundredths, status) {
  let backer;
  if (status === "won") backer = profitAt(stake, hundredths);
  else if (status === "lost") backer = -stake;
  else if (status === "dead-heat") backer = Math.trunc((stake * (hundredths - 200)) / 200);
  else return null;
  return side === "back" ? backer : -backer || 0;
}

function MyBets({ orders, onCancel, onCancelAll, busy, state }) {
  const open = orders.open.filter((o) => (Number(o.remaining) || 0) > 0);
  const canCancel = state.windowOpen;
  return html`<section class="ex-panel ex-bets" aria-label=${_("Your bets")}>
    <h2>${_("Your bets")}</h2>
    <h3>${_("Unmatched")}</h3>
    ${open.length
      ? html`<ul class="ex-orders" data-testid="open-orders">${open.map(
          (o) => html`<${OpenOrder} key=${o.id} order=${o} onCancel=${onCancel} busy=${busy} canCancel=${canCancel} />`,
        )}</ul>
        ${canCancel && open.length > 1 && html`<button type="button" class="btn btn-secondary small" disabled=${busy} onClick=${onCancelAll}>${_("Cancel all unmatched")}</button>`}`
      : html`<p class="muted">${_("None: an unmatched remainder lapses when the betting round ends.")}</p>`}
    <h3>${_("Matched")}</h3>
    ${orders.matched.length
      ? html`<ul class="ex-orders matched" data-testid="matched-bets">${orders.matched.map((bet, i) => {
          const price = parsePrice(bet.price);
          const size = Number(bet.size ?? bet.stake ?? bet.matched) || 0;
          const win = price === null ? null : profitAt(size, price);
          return html`<li key=${`${bet.order ?? bet.id ?? "b"}-${i}`} class=${`ex-order ${bet.side}${bet.status === "settled" ? " settled" : ""}`}>
            <span class="what"><b>${bet.side === "back" ? _("Back") : _("Lay")}</b> ${selectionName(bet.selection)} ${_("at")} <b>${orderPrice(bet)}</b></span>
            <span class="amounts">${bet.side === "back"
              ? _("stake {stake}, profit {profit}", { stake: formatMoney(size), profit: formatMoney(win ?? 0) })
              : _("backer's stake {stake}, liability {liability}", { stake: formatMoney(size), liability: formatMoney(win ?? 0) })}
              ${bet.house ? html` <span class="house-tag">${_("vs the house")}</span>` : ""}</span>
            ${(() => {
              const settled = state.selections.find((s) => s.name === bet.selection);
              const result = settled && price !== null && bet.status !== "void" ? betResult(bet.side, size, price, settled.status) : null;
              return result === null
                ? bet.status === "void" ? html`<span class="result">${_("void: stake returned")}</span>` : ""
                : html`<span class=${`result ${result > 0 ? "gain" : result < 0 ? "loss" : ""}`}>${
                    _("{result}: {amount}", { result: statusWord(settled.status), amount: formatMoney(result, { signed: true }) })}</span>`;
            })()}
          </li>`;
        })}</ul>`
      : html`<p class="muted">${_("No matched bets in this game yet.")}</p>`}
  </section>`;
}

function Position({ orders, state }) {
  const lines = [];
  for (const s of state.selections) {
    for (const o of outcomesOf(orders.pnl, orders.pnlNet, s.name)) lines.push({ name: s.name, ...o });
  }
  const rate = state.commission;
  const settled = orders.settledNet !== 0 || orders.commission !== 0;
  return html`<section class="ex-panel ex-position" aria-label=${_("Profit and loss")}>
    <h2>${_("Your profit or loss")}</h2>
    ${settled && html`<p class="ex-settled-net" data-testid="settled-net">
      ${_("Settled so far: {amount}", { amount: formatMoney(orders.settledNet, { signed: true }) })}
      ${orders.commission ? html`<br /><small>${_("commission {amount}, net {net}", {
        amount: formatMoney(orders.commission), net: formatMoney(orders.settledNet - orders.commission, { signed: true }) })}</small>` : ""}
    </p>`}
    ${lines.length
      ? html`<ul data-testid="position">${lines.map(
          (l) => html`<li key=${`${l.name}-${l.outcome}`} class=${l.gross > 0 ? "gain" : l.gross < 0 ? "loss" : ""}>
            <span>${outcomeLine(l.name, l.outcome, l.gross)}</span>
            ${l.net !== null && l.net !== l.gross && html`<small>${_("after commission {amount}", { amount: formatMoney(l.net, { signed: true }) })}</small>`}
          </li>`,
        )}</ul>
        <p class="muted small">${rate
          ? _("Commission of {rate} is charged on your net winnings on the game when it is settled.", { rate: rateText(rate) })
          : _("Commission is charged on your net winnings on the game when it is settled.")}</p>`
      : !settled && html`<p class="muted">${_("Your profit or loss on each result shows here once a bet is matched.")}</p>`}
  </section>`;
}

function rateText(rate) {
  const text = String(rate);
  if (/%$/.test(text)) return text;
  const match = /^0?\.(\d+)$/.exec(text);
  if (match) {
    const digits = match[1].padEnd(2, "0");
    const whole = String(Number(digits.slice(0, 2)));
    const rest = digits.slice(2).replace(/0+$/, "");
    return `${whole}${rest ? `.${rest}` : ""}%`;
  }
  return text;
}

// --------------------------------------------------------------------- the games
/** Why a record did not verify, in words (verifyRecord's answer). */
function whyNot(result) {
  if (result.error) return result.error;
  if (result.firstDifference) return _("card {n} differs", { n: result.firstDifference.index + 1 });
  return _("the commitment differs");
}

function GameRecord({ table, game }) {
  const number = game.game ?? game.id;
  const [detail, setDetail] = useState(null);
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(null);
  const path = `/api/exchange/tables/${encodeURIComponent(table)}/games/${encodeURIComponent(number)}`;
  const load = async () => {
    if (detail) return detail;
    try {
      const answer = await get(path);
      setDetail(answer);
      return answer;
    } catch (err) {
      setProblem(err.message);
      return null;
    }
  };
  const verify = async () => {
    setBusy(true);
    try {
      const answer = await load();
      if (answer) setResult(await verifyRecord(answer.fairness));
    } finally {
      setBusy(false);
    }
  };
  const results = game.results || {};
  const entries = Object.entries(results);
  const winners = entries.filter(([, r]) => r === "winner" || r === "tied");
  const record = detail && detail.fairness;
  const voided = game.state === "void";
  return html`<li class=${`ex-game${voided ? " void" : ""}`} data-game=${number}>
    <div class="ex-game-head">
      <strong>${_("Game {game}", { game: number })}</strong>
      ${voided ? html`<span class="ex-badge st-void">${_("Void")}</span>` : ""}
      <span class="ex-game-winners">${voided
        ? game.void_reason || ""
        : winners.length
          ? winners.map(([name, r]) => html`<span key=${name} class=${`st-${STATUS[r]}`}>${selectionName(name)}${r === "tied" ? ` (${_("dead heat")})` : ""}</span>`)
          : _("Nobody won")}</span>
    </div>
    <details onToggle=${(e) => e.currentTarget.open && load()}>
      <summary>${_("Results, cards and fairness")}</summary>
      <ul class="ex-results">${entries.map(([name, r]) => {
        const status = STATUS[r] || "open";
        return html`<li key=${name} class=${`st-${status}`}><span>${selectionName(name)}</span> <b>${statusWord(status)}</b></li>`;
      })}</ul>
      ${detail && html`<div class="ex-game-hands">
        ${[...(detail.hands || []), detail.dealer].filter(Boolean).map(
          (h) => html`<${Hand} key=${h.name} cards=${h.cards || []} label=${selectionName(h.name)} small=${true} />`,
        )}
      </div>`}
      ${problem && html`<p class="ex-error" role="alert">${capitalise(problem)}</p>`}
      <dl class="ex-record">
        <dt>${_("Commitment")}</dt><dd><code>${game.commitment}</code></dd>
        <dt>${_("Server seed")}</dt><dd><code>${game.server_seed || _("revealed when the game is over")}</code></dd>
        ${record && html`<dt>${_("Client seed")}</dt><dd><code>${record.client_seed}</code>, ${_("nonce {nonce}", { nonce: record.nonce })}</dd>`}
      </dl>
      ${game.server_seed && html`<div class="ex-verify">
        <button type="button" class="btn btn-secondary small" onClick=${verify} disabled=${busy}>${_("Verify in the browser")}</button>
        <a href=${path} target="_blank" rel="noopener">${_("The record as JSON (for twentyone verify)")}</a>
        ${result && html`<p role="status" data-testid="verdict" data-ok=${result.ok ? "true" : "false"} class=${result.ok ? "gain" : "loss"}>
          ${result.ok
            ? _("Verified in your browser: the seed hashes to the commitment and gives exactly these {count} cards.", { count: record.cards.length })
            : record && record.scripted
              ? _("Not verified: this was a test game with scripted cards.")
              : _("Not verified: {why}.", { why: whyNot(result) })}
        </p>`}
      </div>`}
    </details>
  </li>`;
}

function Games({ table, games }) {
  return html`<section class="ex-panel ex-games" aria-label=${_("Recent games")}>
    <h2>${_("Recent games")}</h2>
    ${games && games.length
      ? html`<ol class="ex-game-list">${games.slice(0, 8).map((g) => html`<${GameRecord} key=${g.game ?? g.id} table=${table} game=${g} />`)}</ol>`
      : html`<p class="muted">${_("No game has finished at this table yet.")}</p>`}
  </section>`;
}

// ----------------------------------------------------------------------- the feed
/** One line for a message of the stream (unknown types give nothing). */
export function describeEvent(message) {
  if (!message || typeof message !== "object") return null;
  switch (message.type) {
    case "game-start":
      return _("Game {game} starts: ten cards dealt face down", { game: message.game });
    case "window-start":
      return _("Betting round {round} is open", { round: message.round });
    case "window-end":
      return _("Betting round {round} is closed: unmatched bets lapse", { round: message.round });
    case "reveal": {
      const cards = (message.cards || []).map((c) => `${selectionName(c.hand)} ${c.card}`);
      return cards.length ? _("Cards turned: {cards}", { cards: cards.join(", ") }) : null;
    }
    case "settlement": {
      const settled = Object.entries(message.settled || {}).map(([name, r]) => `${selectionName(name)} ${statusWord(STATUS[r] || r)}`);
      if (!settled.length) return null;
      return message.early
        ? _("Early settlement: {settled}", { settled: settled.join(", ") })
        : _("Settled: {settled}", { settled: settled.join(", ") });
    }
    case "game-end":
      return _("Game {game} is settled: the seed is revealed", { game: message.game });
    case "void": {
      const reason = message.reason || _("no reason given");
      return _("The game is void: {reason}", { reason });
    }
    default:
      return null;
  }
}

// ------------------------------------------------------------------------- the page
export default function ExchangeTable({ params }) {
  const id = params.id;
  const tableUrl = `/api/exchange/tables/${encodeURIComponent(id)}`;
  const [state, setState] = useState(null);
  const [missing, setMissing] = useState(null);
  const [connected, setConnected] = useState(false);
  const [everConnected, setEverConnected] = useState(false);
  const [orderView, setOrderView] = useState(normaliseOrders(null));
  const orders = useRef(orderView);
  const setOrderState = (value) => {
    orders.current = value;
    setOrderView(value);
  };
  const rawState = useRef(null);
  const socketRef = useRef(null);
  const [games, setGames] = useState([]);
  const [slip, setSlip] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [feed, setFeed] = useState([]);
  const [flash, setFlash] = useState(null); // the last settlement, shown as it happens
  const seq = useRef(null);
  const previous = useRef(null);
  const feedCount = useRef(0);
  const reference = useRef(null);
  const user = me.value;
  const userRef = useRef(user);
  userRef.current = user;

  const loadOrders = async () => {
    if (!userRef.current) return;
    try {
      const answer = await get(`/api/exchange/orders?table=${encodeURIComponent(id)}`);
      setOrderState(normaliseOrders(answer));
      if (answer && typeof answer.balance === "number") {
        window.dispatchEvent(new CustomEvent("balance", { detail: answer.balance }));
      }
    } catch {
      // signed out meanwhile, or the table is gone: the next state says so
    }
  };

  const loadGames = async () => {
    try {
      const answer = await get(`${tableUrl}/games`);
      // The game in play is on the felt; the history lists the finished ones.
      setGames((Array.isArray(answer) ? answer : answer.games || []).filter((g) => g.state !== "open"));
    } catch {
      setGames([]);
    }
  };

  const refreshBalance = async () => {
    if (!userRef.current) return;
    try {
      const fresh = await get("/api/me");
      window.dispatchEvent(new CustomEvent("balance", { detail: fresh.balance }));
    } catch {
      // not signed in any more
    }
  };

  /**
   * Show a public state (the contract's shape). `message` is the stream's message that made it
   * (null for a GET): its line goes to the feed, a settlement is shown as it happens.
   */
  const show = (raw, message) => {
    const next = normalise(raw);
    const prior = previous.current;
    if (prior && prior.game === next.game && faceUp(next) > faceUp(prior)) play("card");
    const line = message && describeEvent(message);
    if (line) setFeed((old) => [{ line, key: ++feedCount.current }, ...old].slice(0, 8));
    if (message && message.type === "settlement" && message.settled) {
      const names = Object.keys(message.settled);
      const status = (name) => STATUS[message.settled[name]] || message.settled[name];
      setFlash({ items: names.map((name) => ({ name, status: status(name) })), early: Boolean(message.early), key: ++feedCount.current });
    }
    if (message && (message.type === "game-end" || message.type === "void")) {
      setFlash({ items: [], final: true, key: ++feedCount.current });
    }
    const newGame = prior && prior.game !== next.game;
    const ended = prior && !prior.over && next.over && prior.game === next.game;
    rawState.current = raw;
    previous.current = next;
    setState(next);
    if (newGame || ended) {
      loadGames();
      if (newGame) setSlip(null);
    }
  };

  /** Read the whole state (on connect, after a gap, for a new game); an older answer is dropped. */
  const resync = async () => {
    try {
      const raw = await get(tableUrl);
      if (seq.current !== null && raw.seq !== undefined && raw.seq < seq.current) return; // the stream is ahead
      if (raw.seq !== undefined) seq.current = raw.seq;
      show(raw, null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setMissing(err.message);
        if (socketRef.current) socketRef.current.close(); // the table is gone: stop reconnecting
      }
    }
  };

  const onPrivate = (message) => {
    if (typeof message.balance === "number") window.dispatchEvent(new CustomEvent("balance", { detail: message.balance }));
    if (message.position) setOrderState(normaliseOrders(message.position));
  };

  const onPublic = (message) => {
    if (message.type === "state") {
      seq.current = message.seq ?? seq.current;
      show(message.table, null);
      return;
    }
    if (message.seq === undefined || seq.current === null || !rawState.current) {
      resync();
      return;
    }
    if (message.seq <= seq.current) return; // already in the state read
    if (message.seq > seq.current + 1) {
      resync(); // messages were missed: read the whole state again
      return;
    }
    seq.current = message.seq;
    const { state: raw, resync: again } = applyMessage(rawState.current, message);
    show(raw, message);
    if (again) resync();
  };

  useEffect(() => {
    loadOrders();
  }, [user && user.name]);

  useEffect(() => {
    let socket = null;
    let ping = null;
    let gone = false;
    loadGames();
    // The state first; the stream once the table is known to exist (a missing table opens none).
    const connect = () => {
      if (gone) return;
      socket = stream(
        `${tableUrl}/stream`,
        (message) => {
          if (message.type === "private") onPrivate(message);
          else if (message.type === "fill") {
            const fill = message.fill || {};
            const order = message.order || {};
            const [back, lay] = [_("back"), _("lay")];
            const line = _("Matched: {side} {selection} {stake} at {price}", {
              side: order.side === "lay" ? lay : back, selection: selectionName(order.selection || ""),
              stake: formatMoney(fill.stake || 0), price: fill.price ?? order.price,
            });
            setFeed((old) => [{ line, key: ++feedCount.current }, ...old].slice(0, 8));
          } else if (message.type !== "pong") onPublic(message);
        },
        (status) => {
          setConnected(status === "open");
          if (status === "open") setEverConnected(true);
          else seq.current = null; // the next connection starts with the whole state again
        },
      );
      socketRef.current = socket;
      ping = setInterval(() => socket.send({ type: "ping" }), 25000);
    };
    get(tableUrl).then(
      (raw) => {
        if (gone) return;
        seq.current = raw.seq ?? null;
        show(raw, null);
        connect();
      },
      (err) => {
        if (err instanceof ApiError && err.status === 404) setMissing(err.message);
        else connect(); // the server is away: the stream reconnects until it answers
      },
    );
    return () => {
      gone = true;
      clearInterval(ping);
      if (socket) socket.close();
    };
  }, [id]);

  useEffect(() => {
    if (!flash) return undefined;
    const timer = setTimeout(() => setFlash(null), 6000);
    return () => clearTimeout(timer);
  }, [flash && flash.key]);

  const pick = (selection, side, price) => {
    if (!userRef.current) {
      // A visitor who wants to bet signs in first and comes back to this table.
      navigate(`/login?next=${encodeURIComponent(`/exchange/${id}`)}`);
      return;
    }
    // Without a price in the cell: the fair price's nearest ladder price, else evens.
    let hundredths = price;
    if (hundredths === null) {
      const fair = parsePrice(selection.fair && /^\d+(\.\d+)?$/.test(selection.fair) ? Number(selection.fair).toFixed(2) : null);
      hundredths = fair === null ? 200 : stepPrice(Math.max(101, Math.min(100000, fair)), 0);
    }
    reference.current = null;
    setError(null);
    setSlip((old) => ({
      selection: selection.name,
      side,
      priceText: priceText(hundredths),
      stakeText: old ? old.stakeText : formatMoney(Math.max(state ? state.minStake : 200, 500)).replace(/,/g, ""),
      picked: ++feedCount.current, // a new pick (the slip focuses its stake)
    }));
  };

  const editSlip = (next) => {
    reference.current = null; // a changed order is a new order (a retry keeps its reference)
    setSlip(next);
  };

  const place = async () => {
    if (!slip || !state || busy) return;
    const price = parsePrice(slip.priceText);
    const size = parseMoney(slip.stakeText);
    if (price === null || size === null) return;
    if (!reference.current) reference.current = newReference();
    setBusy(true);
    setError(null);
    try {
      const answer = await post("/api/exchange/orders", {
        table: id,
        game: state.game,
        round: state.round,
        selection: slip.selection,
        side: slip.side,
        price: priceText(price),
        size,
        ref: reference.current,
      });
      reference.current = null;
      play("chip");
      if (answer && typeof answer.balance === "number") window.dispatchEvent(new CustomEvent("balance", { detail: answer.balance }));
      setSlip(null);
      await loadOrders();
      refreshBalance();
    } catch (err) {
      // A refusal is final for this reference; a lost connection keeps it for the retry.
      if (err instanceof ApiError) {
        reference.current = null;
        setError(err.message);
        if (err.status === 409) resync();
      } else setError(_("The connection failed: press the button again to retry the same order."));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async (order, amount) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await del(`/api/exchange/orders/${encodeURIComponent(order.id)}${amount ? `?size=${amount}` : ""}`);
      await loadOrders();
      refreshBalance();
    } catch (err) {
      setError(err.message);
      loadOrders();
    } finally {
      setBusy(false);
    }
  };

  const cancelAll = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      for (const order of orders.current.open) {
        if ((Number(order.remaining) || 0) > 0) await del(`/api/exchange/orders/${encodeURIComponent(order.id)}`);
      }
    } catch (err) {
      setError(err.message);
    } finally {
      await loadOrders();
      refreshBalance();
      setBusy(false);
    }
  };

  useShortcuts({ escape: { run: () => setSlip(null), label: _("Clear the bet slip"), disabled: !slip } });

  const pageClass = `exchange-page${state && state.windowOpen ? " window-open" : ""}${slip ? " slip-open" : ""}`;

  if (missing) {
    return html`<div class="exchange-page"><link rel="stylesheet" href="/static/css/exchange.css" />
      <div class="ex-panel ex-missing"><h1>${_("No such table")}</h1><p>${missing}</p><p><a href="/">${_("Back to the lobby")}</a></p></div></div>`;
  }
  if (!state) {
    return html`<div class="exchange-page"><link rel="stylesheet" href="/static/css/exchange.css" />
      <p class="loading">${_("Opening the market...")}</p></div>`;
  }

  const roundLine = state.over
    ? state.voided
      ? _("Game {game} is void", { game: state.game })
      : _("Game {game} is settled: the next game starts soon", { game: state.game })
    : state.windowOpen
      ? _("Betting round {round} of up to 6", { round: state.round })
      : _("Round {round} closed: the cards are turned", { round: state.round });

  return html`<div class=${pageClass} data-phase=${state.phase}>
    <link rel="stylesheet" href="/static/css/exchange.css" />
    ${!connected && everConnected && html`<div class="reconnecting" role="status">${_("Connection lost: reconnecting...")}</div>`}
    <header class="ex-head">
      <div class="ex-title">
        <h1>${state.name || id}</h1>
        <span class="ex-sub">${[
          state.turbo ? _("Turbo") : _("Standard"),
          _("Game {game}", { game: state.game ?? "\u2013" }),
          _("minimum stake {amount}", { amount: formatMoney(state.minStake) }),
          state.commission ? _("commission {rate}", { rate: state.commission }) : null,
        ].filter(Boolean).join(" \u00b7 ")}</span>
      </div>
      ${user && html`<div class="ex-balance" aria-live="polite"><span class="label">${_("Balance")}</span>
        <strong data-testid="exchange-balance">${formatMoney(user.balance)}</strong></div>`}
    </header>

    <div class="ex-window" role="status" aria-live="polite">
      <span class="ex-round" data-testid="round-line">${roundLine}</span>
      <div class="ex-bar" data-testid="window-bar">
        ${state.windowOpen && state.closesAt
          ? html`<${Countdown} deadline=${state.closesAt} now=${state.now} total=${state.windowSeconds}
              label=${_("Betting round {round} closes", { round: state.round })} tick=${Boolean(user)} />`
          : html`<div class="countdown idle"><div class="countdown-bar"><div class="countdown-fill" style="width: 0%"></div></div>
              <span class="countdown-text">${_("closed")}</span></div>`}
      </div>
      <small class="muted">${_("The bar is indicative: the server's clock closes the round.")}</small>
    </div>

    ${flash && html`<div class=${`ex-flash${flash.early ? " early" : ""}${flash.final ? " final" : ""}`} role="status" key=${flash.key}
        data-testid="settlement-flash">
      <strong>${flash.final ? (state.voided ? _("The game is void") : _("Final result")) : flash.early ? _("Early settlement") : _("Settled")}</strong>
      ${flash.final && state.voided
        ? html`<span>${_("Every unsettled stake and hold is returned ({reason}).", { reason: state.voided })}</span>`
        : flash.final
        ? html`<span>${state.selections.filter((s) => s.status === "won" || s.status === "dead-heat").map((s) => `${selectionName(s.name)}: ${statusWord(s.status)}`).join(" \u00b7 ") || _("Nobody won")}</span>`
        : flash.items.map((item) => html`<span key=${item.name} class=${`st-${item.status}`}>${selectionName(item.name)}: ${statusWord(item.status)}</span>`)}
    </div>`}

    <div class="ex-layout">
      <div class="ex-main">
        <${Felt} state=${state} />
        <${Market} state=${state} orders=${orderView} onPick=${pick} picked=${slip && slip.selection} />
      </div>
      <aside class="ex-side">
        <${BetSlip} slip=${slip} setSlip=${editSlip} state=${state} onPlace=${place} busy=${busy}
          error=${error} signedIn=${Boolean(user)} />
        ${user && html`<${MyBets} orders=${orderView} onCancel=${cancel} onCancelAll=${cancelAll} busy=${busy} state=${state} />`}
        ${user && html`<${Position} orders=${orderView} state=${state} />`}
        <section class="ex-panel ex-feed" aria-label=${_("At the table")}>
          <h2>${_("At the table")}</h2>
          ${feed.length
            ? html`<ol>${feed.map((item) => html`<li key=${item.key}>${item.line}</li>`)}</ol>`
            : html`<p class="muted">${_("Nothing yet.")}</p>`}
        </section>
        <section class="ex-panel ex-fair" aria-label=${_("Fairness")}>
          <h2>${_("Provably fair")}</h2>
          ${state.commitment
            ? html`<p>${_("This game's seed was committed before its first betting round:")}
                <code class="hash" title=${state.commitment}>${state.commitment}</code></p>`
            : html`<p class="muted">${_("Each game's seed is committed before its first betting round.")}</p>`}
          <p class="muted small">${_("The seed is revealed when the game is settled: verify any game below.")}</p>
        </section>
      </aside>
    </div>
    <${Games} table=${id} games=${games} />
  </div>`;
}
