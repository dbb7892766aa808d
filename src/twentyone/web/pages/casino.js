// A live Casino Blackjack table (/casino/{id}): seven boxes along the arc of a half-moon felt,
// the dealer and the shoe at the top, a control bar for the player's current box at the bottom.
//
// Everything shown comes from the table's public state (server/casino.py's contract: the first
// frame of the WebSocket, every later frame, or GET /api/casino/tables/{id}); this page never
// guesses game facts. Times too: the countdowns run from the state's `deadline` and `now`
// (server seconds), so a slow or skewed browser clock does not change how long a box has left.
// Private frames (to the signed-in player only) carry his balance, shown here and in the header.
import { html, useEffect, useMemo, useRef, useState } from "../js/lib.js";
import { get, post, del, stream, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { play } from "../js/sound.js";
import { Card } from "../js/cards.js";
import { Button, Chip, ChipTray, Countdown, formatMoney, chipLabel } from "../js/ui.js";
import { useShortcuts } from "../js/keys.js";
import { _, _h, N_, n_ } from "../js/i18n.js";

const BOXES = 7;
const RESULT_WORDS = { win: N_("Win"), lose: N_("Lose"), push: N_("Push"), blackjack: N_("Blackjack"), surrender: N_("Surrender") };
const ACTIONS = [
  { action: "hit", label: N_("Hit"), key: "h" },
  { action: "stand", label: N_("Stand"), key: "s" },
  { action: "double", label: N_("Double"), key: "d" },
  { action: "split", label: N_("Split"), key: "p" },
  { action: "surrender", label: N_("Surrender"), key: "r" },
];

const signed = (amount) => formatMoney(amount, { signed: true });
export { chipLabel };

/** The chips a stack of `amount` is made of, largest first (at most `limit` of them drawn). */
export function chipsFor(amount, denominations, limit = 6) {
  const out = [];
  let left = amount;
  for (const value of [...denominations].sort((a, b) => b - a)) {
    while (left >= value && out.length < limit) {
      out.push(value);
      left -= value;
    }
  }
  if (left > 0 && out.length < limit) out.push(denominations[0] ?? left);
  return out;
}

/** A stack of casino chips on a betting spot (the chips `amount` is made of). */
function ChipStack({ amount, denominations, label, size = 40 }) {
  if (!amount) return null;
  const chips = chipsFor(amount, denominations);
  return html`<div class="ct-stack" role="img" aria-label=${label || `Bet ${formatMoney(amount)}`}
      style=${`--chip:${size}px;--chips:${chips.length}`}>
    ${chips.map(
      (value, index) => html`<span class="ct-stack-chip" style=${`--i:${index}`} key=${index}>
        <${Chip} value=${value} size=${size} index=${denominations.indexOf(value)} /></span>`,
    )}
  </div>`;
}

/** "17", "7/17" for a soft total below 21, "Bust" over 21. */
export function totalText(total, soft, cards) {
  if (total === undefined || total === null || !cards || cards.length === 0) return "";
  if (total > 21) return _("Bust {total}", { total });
  if (soft && total < 21) return `${total - 10}/${total}`;
  return String(total);
}

function Cards({ cards, small }) {
  return html`<div class=${`ct-cards${small ? " small" : ""}`}>
    ${cards.map((card, index) => html`<${Card} key=${index} index=${0} card=${card} small=${small} />`)}
  </div>`;
}

// ------------------------------------------------------------------------- the boxes
/** Where box n sits on the arc (percent of the felt), box 1 on the dealer's left = screen right. */
export function arcPosition(box) {
  // Evenly spaced across the table (room for split hands at the ends), on an elliptic arc.
  const x = 86 - ((box - 1) * 72) / (BOXES - 1);
  const across = (x - 50) / 40;
  return { x, y: 31 + 45 * Math.sqrt(1 - across * across) };
}

function HandView({ hand, index, count, active, small }) {
  const result = hand.result;
  return html`<div class=${`ct-hand${active ? " active" : ""}${result ? ` result-${result}` : ""}`}
    role="group" aria-label=${count > 1
      ? _("Hand {hand} of {hands}: {cards}", { hand: index + 1, hands: count, cards: hand.cards.join(" ") })
      : _("Hand {hand}: {cards}", { hand: index + 1, cards: hand.cards.join(" ") })}>
    <${Cards} cards=${hand.cards} small=${small} />
    <div class="ct-hand-meta">
      ${hand.cards.length > 0 && html`<span class="total">${totalText(hand.total, hand.soft, hand.cards)}</span>`}
      ${hand.doubled && html`<span class="tag">x2</span>`}
      ${result && html`<span class="result" title=${hand.net !== null && hand.net !== undefined ? signed(hand.net) : ""}>${
        RESULT_WORDS[result] ? _(RESULT_WORDS[result]) : result}</span>`}
    </div>
  </div>`;
}

function BoxView({ box, table, mine, current, turn, signedIn, onSit, onSelect, onLeave, busy, pending }) {
  const { x, y } = arcPosition(box.box);
  const empty = !box.player;
  const isTurn = turn && turn.box === box.box;
  const hands = box.hands || [];
  const net = (table.results || []).find((r) => r.box === box.box);
  const classes = ["box"];
  if (empty) classes.push("empty");
  if (mine) classes.push("mine");
  if (current) classes.push("current");
  if (isTurn) classes.push("turn");
  const shownBet = box.bet || (mine && pending) || 0;
  const canLeave = mine && (table.phase !== "playing" || !box.bet) && !(table.phase === "betting" && box.bet);
  return html`<section class=${classes.join(" ")} data-box=${box.box} style=${`--x:${x}%;--y:${y}%`}
      aria-label=${empty
        ? isTurn ? _("Box {box}, empty, to act", { box: box.box }) : _("Box {box}, empty", { box: box.box })
        : isTurn ? _("Box {box}, {player}, to act", { box: box.box, player: box.player }) : _("Box {box}, {player}", { box: box.box, player: box.player })}>
    <div class="box-hands">
      ${isTurn && html`<div class="ct-timer"><${Countdown} deadline=${table.deadline} now=${table.now}
        total=${table.decision_seconds} label=${_("Box {box} decision", { box: box.box })} tick=${mine} /></div>`}
      ${hands.map(
        (hand, index) => html`<${HandView} key=${index} hand=${hand} index=${index} count=${hands.length}
          small=${hands.length > 1} active=${isTurn && turn.hand === index && hands.length > 1} />`,
      )}
    </div>
    <div class="spot" onClick=${mine && onSelect ? () => onSelect(box.box) : undefined}>
      <span class="spot-number">${box.box}</span>
      ${shownBet > 0 && html`<${ChipStack} amount=${shownBet} denominations=${table.denominations}
        label=${box.bet ? _("Bet {amount}", { amount: formatMoney(box.bet) }) : _("Bet to place {amount}", { amount: formatMoney(shownBet) })} />
        <span class=${`ct-bet-amount${box.bet ? "" : " pending"}`} aria-hidden="true">${formatMoney(shownBet)}</span>`}
      ${box.insurance > 0 && html`<span class="insured" title=${_("Insurance")}>${_("Ins {amount}", { amount: formatMoney(box.insurance) })}</span>`}
      ${empty && signedIn && html`<button type="button" class="sit" onClick=${() => onSit(box.box)} disabled=${busy}
        aria-label=${_("Sit at box {box}", { box: box.box })}>${_("Sit here")}</button>`}
    </div>
    <div class="box-label">
      ${empty
        ? !signedIn && html`<span class="player muted">${_("Open")}</span>`
        : html`<span class="player" title=${box.player}>${box.player}${mine ? html` <em>${_("you")}</em>` : ""}</span>`}
      ${net && html`<span class="net ${net.net > 0 ? "up" : net.net < 0 ? "down" : "even"}">${signed(net.net)}</span>`}
      ${mine && canLeave && html`<button type="button" class="leave" onClick=${() => onLeave(box.box)} disabled=${busy}
        aria-label=${_("Leave box {box}", { box: box.box })} title=${_("Leave this box")}>×</button>`}
    </div>
  </section>`;
}

function Shoe({ shoe, decks }) {
  if (!shoe) return null;
  const cut = shoe.cut_card || 1;
  const dealt = shoe.cards_dealt || 0;
  const size = Math.max(cut, dealt, (shoe.decks || decks) * 52);
  const dealtPct = Math.min(100, (dealt / size) * 100);
  const cutPct = Math.min(100, (cut / size) * 100);
  return html`<div class="shoe" aria-label=${_("Shoe {shoe}: {dealt} cards dealt, cut card at {cut}", { shoe: shoe.id, dealt, cut })}>
    <div class="shoe-body"><span class="shoe-cards"></span></div>
    <div class="shoe-meter" title=${_("{dealt} dealt, cut card at {cut}", { dealt, cut })}>
      <span class="shoe-dealt" style=${`width:${dealtPct}%`}></span>
      <span class="shoe-cut" style=${`left:${cutPct}%`}></span>
    </div>
    <div class="shoe-text">${_("{dealt} dealt · cut {cut}", { dealt, cut })}${shoe.reshuffle_after_round ? html` · <b>${_("last round")}</b>` : ""}</div>
  </div>`;
}

function FeltPrint() {
  // The words printed on the felt, along the arc (SVG text on a path).
  return html`<svg class="felt-print" viewBox="0 0 1000 408" aria-hidden="true">
    <defs>
      <path id="arc-outer" d="M 330 150 Q 500 204 670 150" />
      <path id="arc-inner" d="M 330 178 Q 500 230 670 178" />
    </defs>
    <text class="print-big"><textPath href="#arc-outer" startOffset="50%" text-anchor="middle">${_("BLACKJACK PAYS 3 TO 2")}</textPath></text>
    <text class="print-small"><textPath href="#arc-inner" startOffset="50%" text-anchor="middle">
      ${_("Dealer stands on all 17 · Insurance pays 2 to 1")}</textPath></text>
  </svg>`;
}

function Dealer({ dealer, phase }) {
  const cards = (dealer && dealer.cards) || [];
  const busted = dealer && dealer.total > 21;
  return html`<div class="dealer" aria-label=${_("Dealer: {cards}", { cards: cards.join(" ") || _("no cards") })}>
    <div class="dealer-cards">${cards.length ? html`<${Cards} cards=${cards} />` : html`<span class="dealer-empty">${_("Dealer")}</span>`}</div>
    ${cards.length > 0 && html`<div class="dealer-total${busted ? " bust" : ""}">
      ${busted ? _("Dealer busts ({total})", { total: dealer.total }) : _("Dealer {total}", { total: totalText(dealer.total, dealer.soft, cards) })}
      ${phase === "playing" && cards.length === 1 ? html`<span class="muted"> ${_("· no hole card")}</span>` : ""}
    </div>`}
  </div>`;
}

// ---------------------------------------------------------------------- what happened
/** One line for an event of the table's stream (the server's own fields, read defensively). */
export function describeEvent(event, table) {
  if (!event || typeof event !== "object") return null;
  const box = event.box;
  const who = event.player || (box && table ? (table.boxes.find((b) => b.box === box) || {}).player : null);
  const prefix = box ? (who ? _("Box {box} ({player})", { box, player: who }) : _("Box {box}", { box })) : "";
  switch (event.type) {
    case "seated":
      return _("{who} sits down", { who: prefix });
    case "left":
      return _("{who} leaves", { who: prefix });
    case "bet":
      return _("{who} bets {amount}", { who: prefix, amount: formatMoney(event.amount || 0) });
    case "betting-opened":
      return _("Place your bets: the betting window is open");
    case "dealt":
      return _("No more bets: cards dealt");
    case "decision":
      if (!event.action) return null;
      return event.timed_out
        ? _("{who}: {action} (out of time)", { who: prefix, action: event.action })
        : _("{who}: {action}", { who: prefix, action: event.action });
    case "settled":
      return event.new_shoe ? _("Round settled; shoe {shoe} is next", { shoe: event.new_shoe }) : _("Round settled");
    case "shoe":
      return _("A new shoe is shuffled");
    case "reshuffle-pending":
      return _("A new shoe comes after this round");
    case "voided":
      return _("Round voided: {reason}", { reason: event.reason || _("no reason given") });
    case "closing":
      return _("The table closes after this round");
    case "closed":
      return _("The table is closed");
    case "waiting":
    case "resumed":
    case "configured":
      return null;
    default:
      if (event.action) return `${prefix}: ${event.action}`;
      return event.type ? `${prefix ? `${prefix}: ` : ""}${String(event.type).replace(/[_-]/g, " ")}` : null;
  }
}

function phaseLine(table) {
  if (table.phase === "waiting") return _("Waiting for players: take a seat to open the betting");
  if (table.phase === "betting") return _("Place your bets");
  if (table.phase === "playing") {
    if (table.turn) {
      const box = table.boxes.find((b) => b.box === table.turn.box);
      return box && box.player
        ? _("Box {box} · {player} to act", { box: table.turn.box, player: box.player })
        : _("Box {box} to act", { box: table.turn.box });
    }
    return _("Dealing");
  }
  if (table.phase === "settled") return table.deadline ? _("Round over · the next round opens soon") : _("Round over");
  return table.phase;
}

// ------------------------------------------------------------------------- the page
function storedBets(id) {
  try {
    return JSON.parse(localStorage.getItem(`twentyone.casino.${id}.last-bets`) || "{}");
  } catch {
    return {};
  }
}

/** Whether state `a` is not older than `b` (a round's steps only grow; rounds too). */
function notOlder(a, b) {
  if (!b) return true;
  if ((a.round ?? 0) !== (b.round ?? 0)) return (a.round ?? 0) > (b.round ?? 0);
  return (a.step ?? 0) >= (b.step ?? 0);
}

export default function CasinoTable({ params }) {
  const id = params.id;
  const tableUrl = `/api/casino/tables/${encodeURIComponent(id)}`;
  const [table, setTable] = useState(null);
  const [missing, setMissing] = useState(null);
  const [connected, setConnected] = useState(false);
  const [everConnected, setEverConnected] = useState(false);
  const [privateBoxes, setPrivateBoxes] = useState([]);
  const [pending, setPending] = useState({}); // box -> amount being built with chips
  const [selected, setSelected] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [feed, setFeed] = useState([]);
  const [retired, setRetired] = useState(null); // the last retired shoe {id, commitment, server_seed}
  const lastBets = useRef(storedBets(id));
  const seq = useRef(null);
  const previous = useRef(null);
  const feedCount = useRef(0);
  const user = me.value;
  const userRef = useRef(user);
  userRef.current = user;

  /** Show a state: from the stream (in seq order), or from an answer or a GET (if newer). */
  const accept = (state, events, fromStream) => {
    const prior = previous.current;
    if (!fromStream && !notOlder(state, prior)) return;
    if (prior && prior.round === state.round) {
      const count = (t) => t.boxes.reduce((n, b) => n + (b.hands || []).reduce((m, h) => m + h.cards.length, 0), 0)
        + (t.dealer.cards || []).length;
      if (count(state) > count(prior)) play("card");
    }
    if (prior && prior.phase !== "settled" && state.phase === "settled") {
      const name = userRef.current && userRef.current.name;
      const mineNet = (state.results || [])
        .filter((r) => name && (state.boxes.find((b) => b.box === r.box) || {}).player === name)
        .reduce((sum, r) => sum + r.net, 0);
      if (mineNet > 0) play("win");
      else if (mineNet < 0) play("lose");
    }
    const retiredShoe = state.previous_shoe || state.retired_shoe || state.last_shoe;
    if (retiredShoe && retiredShoe.server_seed) setRetired({ ...retiredShoe, fromState: true });
    if (events.some((event) => event && event.type === "settled" && event.new_shoe)) loadRetired();
    const lines = [];
    for (const event of events) {
      const line = describeEvent(event, state);
      if (line) lines.unshift({ line, key: ++feedCount.current });
    }
    if (lines.length) setFeed((old) => [...lines, ...old].slice(0, 6));
    previous.current = state;
    setTable(state);
  };

  // The seed of the last retired shoe: from the state when the server names it there, else
  // from the player's own latest round at this table whose shoe is retired (its fairness record).
  const loadRetired = async () => {
    if (!userRef.current) return;
    try {
      const page = await get("/api/casino/rounds?limit=20");
      const found = (page.rounds || []).find((r) => r.table === id && r.fairness && r.fairness.server_seed);
      if (found) {
        const fairness = found.fairness;
        setRetired((old) => (old && old.fromState ? old : { id: fairness.shoe, commitment: fairness.commitment, server_seed: fairness.server_seed }));
      }
    } catch {
      // not signed in any more, or no rounds: nothing to show
    }
  };

  const resync = async () => {
    try {
      accept(await get(tableUrl), [], false);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setMissing(err.message);
    }
  };

  useEffect(() => {
    if (user) loadRetired();
  }, [user && user.name]);

  useEffect(() => {
    resync();
    const socket = stream(
      `${tableUrl}/stream`,
      (message) => {
        if (message.type === "state") {
          const first = seq.current === null; // a connection's first frame: the whole state
          if (!first && message.seq <= seq.current) return; // already seen
          // One frame may carry several changes (`events`): seq moves by their number.
          const events = message.events || (message.event ? [message.event] : []);
          const gap = !first && message.seq > seq.current + Math.max(1, events.length);
          seq.current = message.seq;
          accept(message.table, events, true);
          if (gap) resync(); // frames were missed: read the whole state again
        } else if (message.type === "private") {
          setPrivateBoxes(message.boxes || []);
          window.dispatchEvent(new CustomEvent("balance", { detail: message.balance }));
        }
      },
      (status) => {
        setConnected(status === "open");
        if (status === "open") setEverConnected(true);
        else seq.current = null; // the next connection starts with the whole state again
      },
    );
    const ping = setInterval(() => socket.send({ type: "ping" }), 25000);
    return () => {
      clearInterval(ping);
      socket.close();
    };
  }, [id]);

  // My boxes: by name in the public state, and the numbers the private frames name.
  const mineSet = useMemo(() => {
    const set = new Set();
    if (!table || !user) return set;
    for (const box of table.boxes) {
      if (box.player && (box.player === user.name || privateBoxes.includes(box.box))) set.add(box.box);
    }
    return set;
  }, [table, user, privateBoxes]);

  const current = useMemo(() => {
    if (!table || mineSet.size === 0) return null;
    if (table.turn && mineSet.has(table.turn.box)) return table.turn.box;
    if (selected && mineSet.has(selected)) return selected;
    const sorted = [...mineSet].sort((a, b) => a - b);
    if (table.phase === "betting" || table.phase === "waiting") {
      const open = sorted.find((n) => !(table.boxes.find((b) => b.box === n) || {}).bet);
      if (open) return open;
    }
    return sorted[0];
  }, [table, mineSet, selected]);

  const box = table && current ? table.boxes.find((b) => b.box === current) : null;
  const myTurn = Boolean(table && table.turn && box && table.turn.box === box.box);
  const legal = myTurn ? table.legal_actions || [] : [];
  const insuranceAction = legal.find((a) => a.startsWith("insurance"));
  const offeredInsurance = Boolean(insuranceAction || legal.includes("no-insurance"));
  // The server names the insurance it takes ("insurance 500": half the bet); else half the bet.
  const named = insuranceAction && insuranceAction.match(/^insurance (\d+)$/);
  const insuranceAmount = named ? Number(named[1]) : box ? Math.floor(box.bet / 2) : 0;
  const amount = box ? pending[box.box] || 0 : 0;
  // A bet is taken in the window, and while the table waits (it opens the next window).
  const canBet = Boolean(table && box && (table.phase === "betting" || table.phase === "waiting") && !box.bet);
  const rebetAmount = box ? lastBets.current[box.box] || 0 : 0;

  const run = async (fn) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const state = await fn();
      if (state && state.boxes) accept(state, [], false);
    } catch (err) {
      setError(err.message);
      if (err instanceof ApiError && err.status === 409) resync();
    } finally {
      setBusy(false);
    }
  };

  const sit = (n) =>
    run(async () => {
      const state = await post(`${tableUrl}/seats`, { box: n });
      setSelected(n);
      return state;
    });
  const leave = (n) => run(() => del(`${tableUrl}/seats/${n}`));
  const setAmount = (value) => {
    if (!canBet) return;
    setPending({ ...pending, [box.box]: Math.max(0, Math.min(table.max_bet, value)) });
  };
  const placeBet = () => {
    if (!canBet || amount < table.min_bet) return;
    const number = box.box;
    const round = table.round;
    run(async () => {
      const state = await post(`${tableUrl}/bets`, { box: number, amount, round });
      lastBets.current = { ...lastBets.current, [number]: amount };
      try {
        localStorage.setItem(`twentyone.casino.${id}.last-bets`, JSON.stringify(lastBets.current));
      } catch {
        // storage refused: rebet lasts for this page only
      }
      setPending((old) => ({ ...old, [number]: 0 }));
      return state;
    });
  };
  const act = (action) => {
    if (!myTurn) return;
    const wanted = action === "insurance" ? insuranceAction : action;
    if (!wanted || !legal.includes(wanted)) return;
    // The most insurance allowed: half the box's bet (the contract's "insurance N").
    const text = wanted === "insurance" ? `insurance ${insuranceAmount}` : wanted;
    const step = table.step;
    run(() => post(`${tableUrl}/actions`, { box: box.box, action: text, step }));
  };
  const rebet = () => rebetAmount && setAmount(rebetAmount);
  const doubleBet = () => setAmount(amount ? amount * 2 : rebetAmount * 2);
  const clear = () => setAmount(0);

  const shortcuts = { enter: placeBet, b: rebet, x: doubleBet, c: clear };
  if (offeredInsurance) Object.assign(shortcuts, { i: () => act("insurance"), n: () => act("no-insurance") });
  else for (const { action, key } of ACTIONS) shortcuts[key] = () => act(action);
  useShortcuts(shortcuts);

  if (missing) {
    return html`<div class="casino-page"><link rel="stylesheet" href="/static/css/casino.css" />
      <div class="casino-missing panel"><h1>${_("No such table")}</h1><p>${missing}</p><p><a href="/">${_("Back to the lobby")}</a></p></div></div>`;
  }
  if (!table) {
    return html`<div class="casino-page"><link rel="stylesheet" href="/static/css/casino.css" />
      <p class="loading">${_("Opening the table...")}</p></div>`;
  }

  const betting = canBet;
  return html`<div class="casino-page" data-phase=${table.phase}>
    <link rel="stylesheet" href="/static/css/casino.css" />
    ${!connected && everConnected && html`<div class="reconnecting" role="status">${_("Connection lost: reconnecting...")}</div>`}
    <header class="table-head">
      <div class="table-title">
        <h1>${table.name}</h1>
        <span class="limits">${_("Bets {low} – {high} · round {round} · {watching} watching", {
          low: formatMoney(table.min_bet), high: formatMoney(table.max_bet), round: table.round, watching: table.spectators ?? 0,
        })}</span>
      </div>
    </header>

    <div class="felt-wrap">
      <div class=${`casino-felt phase-${table.phase}`}>
        <${FeltPrint} />
        <${Dealer} dealer=${table.dealer} phase=${table.phase} />
        <${Shoe} shoe=${table.shoe} decks=${(table.rules && table.rules.decks) || 6} />
        <div class="table-status" role="status" aria-live="polite">
          <span class="phase-line">${phaseLine(table)}</span>
          ${table.phase === "betting" && html`<${Countdown} deadline=${table.deadline} now=${table.now}
            total=${table.betting_seconds} label=${_("Betting closes")} />`}
        </div>
        <div class="boxes">
          ${table.boxes.map(
            (b) => html`<${BoxView} key=${b.box} box=${b} table=${table} mine=${mineSet.has(b.box)}
              current=${b.box === current} turn=${table.turn} signedIn=${Boolean(user)}
              onSit=${sit} onSelect=${setSelected} onLeave=${leave} busy=${busy}
              pending=${pending[b.box] || 0} />`,
          )}
        </div>
      </div>
    </div>

    <div class="control-bar" role="region" aria-label=${_("Your box")}>
      ${!user
        ? html`<div class="controls-note">${_h("You are watching. {signIn} or {register} to take a box.", {
            signIn: html`<a href="/login">${_("Sign in to play")}</a>`,
            register: html`<a href="/register">${_("register")}</a>`,
          })}</div>`
        : !box
          ? html`<div class="controls-note">${_h("Choose an open box on the table and press {button}.", { button: html`<b>${_("Sit here")}</b>` })}</div>`
          : html`
            <div class="controls-box">${_h("Box {box}", { box: html`<b>${box.box}</b>` })}</div>
            ${betting
              ? html`<div class="bet-controls">
                  <${ChipTray} denominations=${table.denominations} disabled=${!canBet || busy}
                    onChip=${(value) => setAmount(amount + value)} />
                  <div class="bet-amount" role="status" aria-label=${_("Bet to place")}>
                    <span class="label">${_("Bet")}</span> <strong>${formatMoney(amount)}</strong></div>
                  <div class="bet-buttons">
                    <${Button} onClick=${rebet} kbd="b" disabled=${!canBet || !rebetAmount || busy}>${_("Rebet")}<//>
                    <${Button} onClick=${doubleBet} kbd="x" label=${_("Double the bet")}
                      disabled=${!canBet || (!amount && !rebetAmount) || busy}>x2<//>
                    <${Button} onClick=${clear} kbd="c" disabled=${!canBet || !amount || busy}>${_("Clear")}<//>
                    <${Button} variant="primary" onClick=${placeBet} kbd="enter"
                      disabled=${!canBet || amount < table.min_bet || busy}>${_("Place bet")}<//>
                  </div>
                </div>`
              : table.phase !== "playing"
                ? html`<span class="controls-note">${waitingNote(table, box)}</span>`
                : html`<div class=${`action-controls${myTurn ? "" : " waiting"}`} role="group" aria-label=${_("Actions")}>
                  ${offeredInsurance
                    ? html`<span class="insurance-offer">${_("Insurance {amount}?", { amount: formatMoney(insuranceAmount) })}</span>
                        <${Button} variant="primary" onClick=${() => act("insurance")} kbd="i"
                          disabled=${!insuranceAction || busy}>${_("Insure")}<//>
                        <${Button} onClick=${() => act("no-insurance")} kbd="n"
                          disabled=${!legal.includes("no-insurance") || busy}>${_("No insurance")}<//>`
                    : ACTIONS.map(
                        ({ action, label, key }) => html`<${Button} key=${action}
                          variant=${action === "hit" || action === "stand" ? "primary" : "secondary"}
                          onClick=${() => act(action)} kbd=${key}
                          disabled=${!legal.includes(action) || busy}>${_(label)}<//>`,
                      )}
                  ${!myTurn && html`<span class="controls-note">${waitingNote(table, box)}</span>`}
                </div>`}
          `}
      ${user && html`<div class="table-balance" aria-live="polite">
        <span class="label">${_("Balance")}</span> <strong data-testid="casino-balance">${formatMoney(user.balance)}</strong></div>`}
      ${error && html`<p class="casino-error" role="alert">${error}</p>`}
    </div>

    <aside class="table-side">
      <section class="side-panel feed" aria-label=${_("Table events")}>
        <h2>${_("At the table")}</h2>
        ${feed.length
          ? html`<ol>${feed.map((item) => html`<li key=${item.key}>${item.line}</li>`)}</ol>`
          : html`<p class="muted">${_("Nothing yet.")}</p>`}
      </section>
      <section class="side-panel fairness" aria-label=${_("Fairness")}>
        <h2>${_("Provably fair shoe")}</h2>
        ${table.shoe && html`<p>${_h("Shoe {shoe}, committed before its first card:", { shoe: html`<b>${table.shoe.id}</b>` })}
          <code class="hash" title=${table.shoe.commitment}>${table.shoe.commitment}</code></p>`}
        ${table.shoe && table.shoe.client_seed && html`<p>${_h("Client seed {seed}, nonce 0", { seed: html`<code class="hash">${table.shoe.client_seed}</code>` })}</p>`}
        ${retired
          ? html`<p>${retired.id ? _("Last retired shoe {shoe}, its seed revealed:", { shoe: retired.id }) : _("Last retired shoe, its seed revealed:")}
              <code class="hash" title=${retired.server_seed}>${retired.server_seed}</code></p>`
          : html`<p class="muted">${_("A shoe's seed is revealed when the shoe is retired; each round in your history can then be verified in the browser.")}</p>`}
      </section>
    </aside>
  </div>`;
}

function waitingNote(table, box) {
  if (table.phase === "playing") return box.bet ? _("Wait for your turn") : _("No bet on this box this round");
  if (table.phase === "betting") return box.bet ? _("Bet {amount} placed: the cards come when betting closes", { amount: formatMoney(box.bet) }) : "";
  if (table.phase === "settled") {
    const result = (table.results || []).find((r) => r.box === box.box);
    if (!result) return _("Round over: the next betting window opens soon");
    if (result.net > 0) return _("Round over: you win {amount}. The next betting window opens soon", { amount: formatMoney(result.net) });
    if (result.net < 0) return _("Round over: you lose {amount}. The next betting window opens soon", { amount: formatMoney(-result.net) });
    return _("Round over: a push. The next betting window opens soon");
  }
  return "";
}
