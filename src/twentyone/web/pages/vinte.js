// Vinte-e-um, live (/vinte and /vinte/{id}): the open tables with a form that creates one, and
// a table: seats around an oval felt, one of them the banker, each with his name, chips, bet and
// cards (the first card face down, except your own, shown to you with a "hidden" marker).
//
// Everything shown comes from the server (server/vinte.py, contract in docs/vinte-live.md): the
// seat's own view, built on the server by the engine's per-seat views, arrives in the first frame
// of the table's WebSocket and in every later one; the page never guesses game facts, never
// decides what is legal (the view's `legal` actions) and never sees a card its seat may not.
// Countdowns run from the view's `deadline` and the frame's `now` (server seconds).
//
// All text goes through _() (js/i18n.js) as whole sentences with {name} placeholders.
import { html, useEffect, useRef, useState } from "../js/lib.js";
import { get, post, stream, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { play } from "../js/sound.js";
import { Card, cardName, handTotal } from "../js/cards.js";
import { Button, Chip, Countdown, ErrorLine, Panel, formatMoney, useAsync } from "../js/ui.js";
import { useShortcuts } from "../js/keys.js";
import { animate } from "../js/settings.js";
import { navigate } from "../js/app.js";
import { _, n_, formatNumber } from "../js/i18n.js";

const API = "/api/vinte/tables";
const STYLE = html`<link rel="stylesheet" href="/static/css/vinte.css" />`;
/** How often the list of open tables is read again (seats fill, matches start). */
const LIST_REFRESH_MS = 10000;
/** How long a showdown, a natural or a bust stays highlighted. */
const HIGHLIGHT_MS = 3200;
const HINT_KEY = "twentyone.vinte.hint";

// ------------------------------------------------------------------------ the state
/** The number of chips in words ("1 chip", "12 chips"). */
export function chipsText(count) {
  return n_("{n} chip", "{n} chips", count);
}

/**
 * The table as the page draws it, from a table answer (`{table: summary, seat, step, now, invite,
 * view}`) or a stream frame (the same with `seq`): one flat shape for the components. The seats
 * are the summary's (who sits where, before the start too) with the view's chips and flags.
 */
export function normalise(raw) {
  if (!raw || typeof raw !== "object" || !raw.table) return null;
  const summary = raw.table;
  const view = raw.view && typeof raw.view === "object" ? raw.view : {};
  const settings = summary.settings || {};
  const listed = summary.seats || [];
  const viewSeats = view.seats || [];
  const count = Math.max(listed.length, viewSeats.length, settings.seats || 0);
  const viewer = raw.seat ?? view.viewer ?? null;
  const seats = [];
  for (let index = 0; index < count; index++) {
    const seen = viewSeats.find((s) => s.seat === index) || {};
    const taken = listed.find((s) => s.seat === index) || {};
    const bot = Boolean(seen.bot ?? taken.bot);
    seats.push({
      seat: index,
      name: botName(seen.name ?? (taken.empty ? null : taken.name) ?? null, bot),
      bot,
      stack: seen.stack ?? taken.stack ?? settings.stack ?? null,
      in_game: seen.in_game ?? true,
      away: Boolean(seen.away),
    });
  }
  const status = summary.status || "waiting";
  return {
    id: summary.id,
    name: summary.name || _("Vinte-e-um table"),
    status,
    voidReason: summary.void_reason || null,
    settings,
    creator: summary.creator ?? null,
    invite: raw.invite || null,
    now: raw.now ?? null,
    seq: raw.seq ?? raw.step ?? null,
    hints: settings.hints,
    viewer,
    phase: view.phase || (status === "waiting" ? "open" : status),
    banker: view.banker ?? settings.first_banker ?? null,
    roundBanker: view.round_banker ?? view.banker ?? null,
    bankRoundsLeft: view.bank_rounds_left ?? null,
    roundsPlayed: view.rounds_played ?? 0,
    round: view.round ?? summary.round ?? null,
    seats,
    hands: view.hands || [],
    bankerCards: view.banker_cards || [],
    turn: view.turn ?? null,
    toAct: view.to_act || [],
    deadline: view.deadline ?? null,
    legal: view.legal || [],
    history: view.history || [],
    winners: view.winners || [],
  };
}

/** The legal actions of the view, parsed: {bets: [chips], hit, stand, draw, calls: [seat], comeBack}. */
export function parseLegal(legal) {
  const out = { bets: [], hit: false, stand: false, draw: false, calls: [], comeBack: false };
  for (const text of legal || []) {
    const parts = String(text).split(" ");
    if (parts[0] === "bet") out.bets.push(Number(parts[parts.length - 1]));
    else if (parts[0] === "hit") out.hit = true;
    else if (parts[0] === "stand") out.stand = true;
    else if (parts[0] === "draw") out.draw = true;
    else if (parts[0] === "call") out.calls.push(Number(parts[parts.length - 1]));
    else if (parts[0] === "back" || parts[0] === "come-back") out.comeBack = true;
  }
  out.bets.sort((a, b) => a - b);
  return out;
}

/** The Vinte-e-um total of some cards (an ace 1 or 11 at its best unless `acesHigh` is false). */
export function vinteTotal(cards, acesHigh = true) {
  const known = cards.filter(Boolean);
  if (!known.length) return null;
  if (acesHigh) return handTotal(known).total;
  return known.reduce((sum, card) => sum + (card[0] === "A" ? 1 : "TJQK".includes(card[0]) ? 10 : Number(card[0])), 0);
}

/** Where seat n sits on the oval (percent of the felt): you at the bottom, the others clockwise. */
export function ovalPosition(seat, count, viewer) {
  const from = viewer === null || viewer === undefined ? 0 : viewer;
  const k = (seat - from + count) % count;
  const angle = Math.PI / 2 + (k * 2 * Math.PI) / count; // screen y grows downwards
  // On the rail: the seats' plates overlap the felt's edge as chairs do a real table's. A seat's
  // cards lie on the felt's side of its plate: above it at the bottom, below it at the top,
  // beside it on the left and right.
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const side = cos <= -0.5 ? "left" : cos >= 0.5 ? "right" : sin > 0 ? "bottom" : "top";
  return { x: 50 + 47 * cos, y: 50 + 45 * sin, side };
}

/** The server names its bots "Bot 1", "Bot 2"...: shown in the reader's language. */
function botName(name, bot) {
  const found = bot && typeof name === "string" ? /^Bot (\d+)$/.exec(name) : null;
  return found ? _("Bot {number}", { number: found[1] }) : name;
}

function seatName(table, seat) {
  const found = table.seats.find((s) => s.seat === seat);
  return (found && found.name) || _("Seat {number}", { number: seat + 1 });
}

/** One line for an event of the round's history (the engine's event kinds). */
export function describeEvent(event, table) {
  if (!event || typeof event !== "object") return null;
  const name = event.seat !== undefined && event.seat !== null ? seatName(table, event.seat) : "";
  switch (event.kind) {
    case "round":
      return _("Round {number}: {name} holds the bank", { number: event.number, name: seatName(table, event.banker) });
    case "bets-shown":
      return _("Every bet is in: the bets are shown");
    case "up-card":
      return _("{name}, the banker, turns up {card}", { name, card: cardName(event.card) });
    case "natural":
      return _("{name} has 21 with two cards: the bank takes every bet", { name });
    case "player-21":
      return _("{name} declares 21 with two cards", { name });
    case "paid":
      return _("{name} is paid {chips}", { name, chips: chipsText(event.chips) });
    case "stand":
      return _("{name} stands", { name });
    case "bust":
      return _("{name} busts with {total} and loses {chips}", { name, total: event.total, chips: chipsText(event.lost) });
    case "reveal":
      return _("{name}, the banker, shows the hidden card: {total}", { name, total: event.total });
    case "draw":
      return _("The banker draws {card}: {total}", { card: cardName(event.card), total: event.total });
    case "banker-bust":
      return _("The banker busts and pays every player not yet called");
    case "call":
      return event.result === "win"
        ? _("{name} is called: {total} beats the banker's {banker} and wins {chips}", {
          name, total: event.total, banker: event.banker_total, chips: chipsText(event.net) })
        : _("{name} is called: {total} against the banker's {banker} loses {chips}", {
          name, total: event.total, banker: event.banker_total, chips: chipsText(-event.net) });
    case "timeout":
      return _("{name} ran out of time", { name });
    case "away":
      return _("{name} is away: a bot plays the seat until he returns", { name });
    case "left":
      return _("{name} has no chips left and leaves the game", { name });
    case "bank":
      return _("The bank passes to {name}", { name });
    case "match-over":
      return _("The match is over");
    default:
      return null;
  }
}

/** The highlight of an event worth a moment of attention: a natural, a showdown or a bust. */
export function highlightOf(event, table) {
  if (!event) return null;
  const name = event.seat !== undefined && event.seat !== null ? seatName(table, event.seat) : "";
  if (event.kind === "natural") return { tone: "bank", seat: event.seat, title: _("The banker's 21!"), text: _("Two cards make 21: the bank takes every bet.") };
  if (event.kind === "call") {
    const win = event.result === "win";
    return {
      tone: win ? "player" : "bank",
      seat: event.seat,
      title: _("{name} against the bank: {total} to {banker}", { name, total: event.total, banker: event.banker_total }),
      text: win ? _("{name} wins {chips}.", { name, chips: chipsText(event.net) }) : _("The bank takes {chips}.", { chips: chipsText(-event.net) }),
    };
  }
  if (event.kind === "banker-bust") return { tone: "player", seat: event.seat, title: _("The banker busts!"), text: _("Every player not yet called is paid.") };
  if (event.kind === "bust") return { tone: "bank", seat: event.seat, title: _("{name} busts", { name }), text: _("{total}: the bank takes {chips}.", { total: event.total, chips: chipsText(event.lost) }) };
  if (event.kind === "player-21") return { tone: "player", seat: event.seat, title: _("{name} has 21!", { name }), text: _("Two cards make 21.") };
  return null;
}

// ------------------------------------------------------------------------ the list
async function openTables() {
  try {
    return await get(API);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return []; // no live tables on this server
    throw error;
  }
}

function statusText(status) {
  if (status === "waiting") return _("waiting for players");
  if (status === "playing") return _("in play");
  if (status === "over") return _("finished");
  return status || "";
}

function TableList() {
  const { data, error, loading, reload } = useAsync(openTables, []);
  useEffect(() => {
    const timer = setInterval(reload, LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  if (loading && !data) return html`<p class="loading">${_("Looking for open tables...")}</p>`;
  if (error) return html`<${ErrorLine} error=${error} />`;
  const tables = (Array.isArray(data) ? data : (data && data.tables) || []);
  if (!tables.length) return html`<p class="muted vt-none">${_("No open tables right now: create one and send the link to your friends.")}</p>`;
  return html`<ul class="vt-list" aria-label=${_("Open Vinte-e-um tables")}>
    ${tables.map((table) => {
      const settings = table.settings || {};
      const seats = table.seats || [];
      const size = settings.seats || seats.length;
      const taken = seats.filter((s) => s && s.name && !s.empty).length;
      return html`<li key=${table.id}>
        <a href=${`/vinte/${encodeURIComponent(table.id)}`} class="vt-list-item">
          <strong>${table.name || _("Table {id}", { id: table.id })}</strong>
          <span>${_("{taken} of {seats} seats taken", { taken, seats: size })} · ${statusText(table.status)}</span>
          <span class="muted">${_("Bets {min} to {max} chips, stacks of {stack}", {
            min: settings.min_bet ?? 1, max: settings.max_bet ?? 5, stack: settings.stack ?? 50 })}</span>
        </a>
      </li>`;
    })}
  </ul>`;
}

const DEFAULTS = {
  name: "",
  seats: 4,
  stack: 50,
  min_bet: 1,
  max_bet: 5,
  bank_rounds: 3,
  round_limit: 100,
  decision_seconds: 30,
  player_21_pays_double: false,
  player_21_takes_bank: false,
  first_banker: "drawn",
  aces_one_only: false,
  for_balance: false,
  chip_value: "1.00",
  hints: "auto",
};

/** "1.50" as minor units (string arithmetic, never a float); null when it is not an amount. */
export function parseMinor(text) {
  const found = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(String(text ?? "").trim());
  if (!found) return null;
  return Number(found[1]) * 100 + Number((found[2] || "").padEnd(2, "0"));
}

/** The form's problems, by field (checked again by the server, whose refusal is shown). */
export function formProblems(form) {
  const problems = {};
  const whole = (name, low, high) => {
    const value = Number(form[name]);
    if (!Number.isInteger(value) || value < low || value > high) problems[name] = _("A whole number from {low} to {high}.", { low, high });
  };
  whole("seats", 2, 8);
  whole("min_bet", 1, 1000);
  whole("max_bet", 1, 1000);
  whole("bank_rounds", 0, 1000000);
  whole("round_limit", 0, 1000000);
  whole("decision_seconds", 5, 3600);
  whole("stack", 1, 1000000000);
  if (!problems.min_bet && !problems.max_bet && Number(form.max_bet) < Number(form.min_bet)) {
    problems.max_bet = _("At least the minimum bet.");
  }
  if (!problems.seats && !problems.max_bet && !problems.stack) {
    const needed = (Number(form.seats) - 1) * Number(form.max_bet);
    if (Number(form.stack) < needed) {
      problems.stack = _("With {seats} seats and a maximum bet of {max}, every stack needs at least {needed} chips, so that some seat can always cover the bank.", {
        seats: form.seats, max: form.max_bet, needed });
    }
  }
  if (form.first_banker !== "drawn" && !problems.seats && Number(form.first_banker) >= Number(form.seats)) {
    problems.first_banker = _("Choose one of the table's seats.");
  }
  if (form.for_balance && (parseMinor(form.chip_value) === null || parseMinor(form.chip_value) < 1)) {
    problems.chip_value = _("An amount such as 1.00.");
  }
  return problems;
}

/** The settings the server is sent (numbers as numbers; the first banker null when drawn). */
export function settingsBody(form) {
  const body = {
    seats: Number(form.seats),
    stack: Number(form.stack),
    min_bet: Number(form.min_bet),
    max_bet: Number(form.max_bet),
    bank_rounds: Number(form.bank_rounds),
    round_limit: Number(form.round_limit),
    decision_seconds: Number(form.decision_seconds),
    player_21_pays_double: Boolean(form.player_21_pays_double),
    player_21_takes_bank: Boolean(form.player_21_takes_bank),
    first_banker: form.first_banker === "drawn" ? null : Number(form.first_banker),
    aces_one_only: Boolean(form.aces_one_only),
    for_balance: Boolean(form.for_balance),
    // "auto": on when one person plays with bots, off when several people sit (the server decides at the start).
    hints: form.hints === "auto" ? null : form.hints === "on",
  };
  if (form.name.trim()) body.name = form.name.trim();
  if (form.for_balance) body.chip_value = parseMinor(form.chip_value);
  return body;
}

function Field({ name, label, help, problem, children }) {
  return html`<div class=${`field vt-field vt-field-${name}`}>
    <label for=${`vt-${name}`}>${label}</label>
    ${children}
    ${problem ? html`<p class="field-error" id=${`vt-${name}-help`}>${problem}</p>` : help && html`<small id=${`vt-${name}-help`}>${help}</small>`}
  </div>`;
}

function CreateForm() {
  const [form, setForm] = useState(DEFAULTS);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const problems = formProblems(form);
  const set = (name) => (event) => {
    const target = event.currentTarget;
    setForm({ ...form, [name]: target.type === "checkbox" ? target.checked : target.value });
  };
  const number = (name, min, max, step = 1) => html`<input id=${`vt-${name}`} name=${name} type="number" inputmode="numeric"
    min=${min} max=${max} step=${step} value=${form[name]} onInput=${set(name)}
    aria-invalid=${touched && problems[name] ? "true" : undefined} aria-describedby=${`vt-${name}-help`} />`;
  const check = (name, label, help) => html`<label class="vt-check">
    <input type="checkbox" name=${name} checked=${form[name]} onChange=${set(name)} />
    <span><strong>${label}</strong><small>${help}</small></span>
  </label>`;
  const submit = async (event) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(problems).length || busy) return;
    setBusy(true);
    setError(null);
    try {
      const created = await post(API, settingsBody(form));
      const path = created.invite ? new URL(created.invite, location.origin) : null;
      const id = created.table && created.table.id;
      navigate(path && path.pathname.startsWith("/vinte/") ? path.pathname + path.search : `/vinte/${encodeURIComponent(id)}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const seatsCount = Math.min(8, Math.max(2, Number(form.seats) || 2));
  // The stack rule is shown as soon as it is broken (it ties three fields together).
  const show = (name) => (touched || name === "stack" ? problems[name] : null);
  return html`<form class="form vt-form" onSubmit=${submit} novalidate aria-label=${_("Create a table")}>
    <${Field} name="name" label=${_("Table name")} help=${_("Optional: shown in the list of open tables.")}>
      <input id="vt-name" name="name" type="text" maxlength="40" value=${form.name} onInput=${set("name")}
        placeholder=${_("Friday night")} aria-describedby="vt-name-help" />
    <//>
    <div class="vt-form-grid">
      <${Field} name="seats" label=${_("Seats")} help=${_("2 to 8, the banker included; bots fill the empty ones.")} problem=${show("seats")}>
        ${number("seats", 2, 8)}<//>
      <${Field} name="stack" label=${_("Chips per seat")} help=${_("Every seat starts with the same stack.")} problem=${show("stack")}>
        ${number("stack", 1, 1000000000)}<//>
      <${Field} name="min_bet" label=${_("Minimum bet")} help=${_("Whole chips.")} problem=${show("min_bet")}>
        ${number("min_bet", 1, 1000)}<//>
      <${Field} name="max_bet" label=${_("Maximum bet")} help=${_("Whole chips.")} problem=${show("max_bet")}>
        ${number("max_bet", 1, 1000)}<//>
      <${Field} name="bank_rounds" label=${_("Rounds per banker")} help=${_("Then the bank passes to the left; 0 keeps one banker.")} problem=${show("bank_rounds")}>
        ${number("bank_rounds", 0, 1000000)}<//>
      <${Field} name="round_limit" label=${_("Round limit")} help=${_("Most chips after this many rounds wins; 0 plays until one seat has every chip.")} problem=${show("round_limit")}>
        ${number("round_limit", 0, 1000000)}<//>
      <${Field} name="decision_seconds" label=${_("Seconds per decision")} help=${_("Out of time: a player stands, the banker calls, a bet is the minimum.")} problem=${show("decision_seconds")}>
        ${number("decision_seconds", 5, 3600)}<//>
      <${Field} name="first_banker" label=${_("First banker")} help=${_("Drawn at random when the match starts, or a seat you choose.")} problem=${show("first_banker")}>
        <select id="vt-first_banker" name="first_banker" value=${form.first_banker} onChange=${set("first_banker")} aria-describedby="vt-first_banker-help">
          <option value="drawn">${_("Drawn at random")}</option>
          ${Array.from({ length: seatsCount }, (unused, i) => html`<option key=${i} value=${String(i)}>${
            i === 0 ? _("Seat 1 (yours)") : _("Seat {number}", { number: i + 1 })}</option>`)}
        </select>
      <//>
    </div>
    <fieldset class="vt-options">
      <legend>${_("A player's 21 with two cards")}</legend>
      ${check("player_21_pays_double", _("Pays double"), _("Declared and shown at once, paid twice the bet by the bank."))}
      ${check("player_21_takes_bank", _("Takes the bank"), _("The first such player from the banker's left becomes the banker after the round, if he covers."))}
      ${check("aces_one_only", _("Aces count 1 only"), _("Without it an ace counts 1 or 11, whichever is better; with it nobody can make 21 with two cards."))}
    </fieldset>
    <fieldset class="vt-options">
      <legend>${_("Stakes and help")}</legend>
      ${check("for_balance", _("Play for my balance"), _("Each seat buys in with its chips from the account balance and the result is paid back to it; otherwise the chips are play chips of this match only."))}
      ${form.for_balance && html`<${Field} name="chip_value" label=${_("Value of a chip")} help=${_("In balance money, for example 1.00.")} problem=${show("chip_value")}>
        <input id="vt-chip_value" name="chip_value" type="text" inputmode="decimal" value=${form.chip_value} onInput=${set("chip_value")}
          aria-invalid=${touched && problems.chip_value ? "true" : undefined} aria-describedby="vt-chip_value-help" />
      <//>`}
      <${Field} name="hints" label=${_("The bots' hint")} help=${_("What the bot would do in a person's place, with its chance to win; each person turns it on for himself.")}>
        <select id="vt-hints" name="hints" value=${form.hints} onChange=${set("hints")} aria-describedby="vt-hints-help">
          <option value="auto">${_("When only one person plays")}</option>
          <option value="on">${_("Offered")}</option>
          <option value="off">${_("Not offered")}</option>
        </select>
      <//>
    </fieldset>
    <${ErrorLine} error=${error} />
    <div class="btn-row">
      <${Button} type="submit" variant="primary" busy=${busy}>${_("Create the table")}<//>
      <span class="muted">${_("You take seat 1 and get a link to send to your friends.")}</span>
    </div>
  </form>`;
}

function Lobby() {
  const user = me.value;
  return html`<div class="vinte-lobby">
    ${STYLE}
    <header class="page-head">
      <div>
        <p class="eyebrow">${_("Live tables")}</p>
        <h1>Vinte-e-um</h1>
        <p class="lead">${_("The Brazilian home banking game: the banker deals one hidden card to each player and plays against them all. Ties go to the bank.")}</p>
      </div>
      <a href="/rules/vinte">${_("Read the rules")}</a>
    </header>
    <div class="vt-lobby-grid">
      <${Panel} title=${_("Open tables")} class="vt-tables"><${TableList} /><//>
      <${Panel} title=${_("Create a table")} class="vt-create">
        ${user ? html`<${CreateForm} />` : user === null
          ? html`<p>${_("Sign in to create a table or take a seat; anyone may watch.")}</p>
            <div class="btn-row"><a class="btn btn-primary" href="/login?next=/vinte">${_("Sign in")}</a><a class="btn btn-secondary" href="/register">${_("Register")}</a></div>`
          : html`<p class="loading">${_("Loading...")}</p>`}
      <//>
    </div>
  </div>`;
}

// ------------------------------------------------------------------------ the table
function HandCards({ cards, own, small }) {
  return html`<div class=${`vt-cards${small ? " small" : ""}`}>
    ${cards.map((card, index) => html`<span key=${index} class=${`vt-card${index === 0 && own ? " own-hidden" : ""}`}>
      <${Card} card=${card} index=${index} small=${small} />
      ${index === 0 && own && html`<span class="vt-hidden-tag" title=${_("Only you see this card")}>${_("hidden")}</span>`}
    </span>`)}
  </div>`;
}

function resultWords(hand) {
  if (!hand.result) return null;
  const net = hand.net || 0;
  if (hand.result === "bust") return _("Bust");
  if (hand.result === "bank-natural") return _("Lost to the bank's 21");
  if (hand.result === "natural") return _("21 paid double");
  return net > 0 ? _("Won {chips}", { chips: chipsText(net) }) : _("Lost {chips}", { chips: chipsText(-net) });
}

function BetChips({ bet }) {
  if (!bet) return null;
  // One chip per five bet, then the rest as ones, at most six drawn (a bet is up to the table's maximum).
  const chips = [];
  let left = bet;
  while (left >= 5 && chips.length < 6) {
    chips.push(500);
    left -= 5;
  }
  while (left > 0 && chips.length < 6) {
    chips.push(100);
    left -= 1;
  }
  return html`<span class="vt-bet" role="img" aria-label=${_("Bet {chips}", { chips: chipsText(bet) })}>
    <span class="vt-bet-chips" style=${`--chips:${chips.length}`}>${chips.map((value, i) => html`<span key=${i} style=${`--i:${i}`}><${Chip} value=${value} size=${24} /></span>`)}</span>
    <b>${bet}</b>
  </span>`;
}

function SeatView({ seat, table, hand, position, callable, onCall, highlight, phone }) {
  const isBanker = table.roundBanker === seat.seat || (table.phase === "open" && table.banker === seat.seat);
  const isTurn = table.turn === seat.seat || (table.phase === "banker" && isBanker);
  const betting = table.phase === "betting" && table.toAct.includes(seat.seat);
  const own = table.viewer === seat.seat;
  const cards = isBanker ? table.bankerCards : (hand && hand.cards) || [];
  // The total of the cards this viewer sees; "8 showing" while a hidden card is not among them.
  const total = vinteTotal(cards, !table.settings.aces_one_only);
  const partial = cards.some((card) => !card);
  // Your first card is marked "hidden" while the others cannot see it: a player's until he busts,
  // is called or declares a 21; the banker's until his turn (or his natural) shows it.
  const shownToAll = isBanker
    ? table.phase === "banker" || table.history.some((e) => e.kind === "reveal" || e.kind === "natural")
    : Boolean(hand && (hand.status === "bust" || hand.called || hand.declared_21));
  const classes = ["vt-seat"];
  if (own) classes.push("mine");
  if (isBanker) classes.push("banker");
  if (isTurn || betting) classes.push("turn");
  if (!seat.in_game) classes.push("out");
  if (callable) classes.push("callable");
  if (highlight) classes.push(`flash flash-${highlight.tone}`);
  if (hand && hand.result) classes.push(`result-${hand.net > 0 ? "win" : "lose"}`);
  const label = [
    seat.name || _("Empty seat"),
    isBanker ? _("the banker") : null,
    seat.bot ? _("a bot") : null,
    seat.away ? _("away") : null,
    seat.stack !== null ? chipsText(seat.stack) : null,
    own ? _("you") : null,
  ].filter(Boolean).join(", ");
  const body = html`
    <div class="vt-seat-cards">
      ${cards.length > 0 && html`<${HandCards} cards=${cards} own=${own && !shownToAll} small=${phone || cards.length > 3} />`}
      ${total !== null && html`<span class=${`vt-total${total > 21 ? " bust" : ""}${partial ? " partial" : ""}`}>${
        partial ? _("{total} showing", { total }) : total}</span>`}
    </div>
    <div class="vt-seat-plate">
      <span class="vt-seat-name">${seat.name || html`<em>${_("Open seat")}</em>`}${own ? html` <em class="vt-you">${_("you")}</em>` : ""}</span>
      <span class="vt-badges">
        ${isBanker && html`<span class="vt-badge banker-badge" title=${_("The banker")}>${_("Bank")}</span>`}
        ${seat.bot && html`<span class="vt-badge bot-badge">${_("Bot")}</span>`}
        ${seat.away && html`<span class="vt-badge away-badge" title=${_("A bot plays this seat until its person returns")}>${_("Away")}</span>`}
        ${!seat.in_game && html`<span class="vt-badge out-badge">${_("Out")}</span>`}
      </span>
      <span class="vt-seat-line">
        <span class="vt-stack">${seat.stack !== null && seat.stack !== undefined ? chipsText(seat.stack) : ""}</span>
        ${hand && hand.bet ? html`<${BetChips} bet=${hand.bet} />` : hand && hand.bet_placed && table.phase === "betting"
          ? html`<span class="vt-bet-placed">${_("bet placed")}</span>` : ""}
      </span>
      ${hand && hand.result && html`<span class=${`vt-result ${hand.net > 0 ? "up" : "down"}`}>${resultWords(hand)}</span>`}
      ${hand && !hand.result && hand.status === "stood" && html`<span class="vt-status">${_("stands")}</span>`}
      ${callable && html`<span class="vt-call-tag" aria-hidden="true">${_("Call")}</span>`}
      ${(isTurn || betting) && table.deadline && html`<div class="vt-seat-timer"><${Countdown} deadline=${table.deadline} now=${table.now}
        total=${table.settings.decision_seconds} label=${_("{name} to decide", { name: seat.name || "" })} tick=${own} /></div>`}
    </div>`;
  classes.push(`at-${position.side}`);
  const style = `--x:${position.x}%;--y:${position.y}%`;
  if (callable) {
    return html`<button type="button" class=${classes.join(" ")} style=${style} data-seat=${seat.seat}
      onClick=${() => onCall(seat.seat)} aria-label=${_("Call {name}", { name: seat.name })}>${body}</button>`;
  }
  return html`<section class=${classes.join(" ")} style=${style} data-seat=${seat.seat} aria-label=${label}>${body}</section>`;
}

function phaseLine(table) {
  const banker = seatName(table, table.roundBanker ?? table.banker);
  const mine = table.viewer;
  switch (table.phase) {
    case "open":
      return _("Waiting for players: the creator starts the match, bots fill the empty seats");
    case "deal":
      return _("Dealing the next round");
    case "betting":
      return table.toAct.includes(mine) ? _("Your bet: choose how many chips") : _("Bets are being placed");
    case "players":
      if (table.turn === null || table.turn === undefined) return _("Dealing");
      return table.turn === mine ? _("Your turn: hit or stand") : _("{name} to play", { name: seatName(table, table.turn) });
    case "banker":
      return table.roundBanker === mine ? _("Your turn as the banker: draw, or call a player by clicking his seat") : _("{name}, the banker, draws or calls", { name: banker });
    case "over":
      return _("The match is over");
    default:
      return "";
  }
}

/**
 * The hint of the bots' search in words, "The bot would draw here: 62% to win." (the server's
 * `{action, chips?, target?, ev, win_chance?}`; whole sentences, one per action, for translation).
 */
export function hintText(hint, table) {
  if (!hint || !hint.action) return "";
  const action = String(hint.action).split(" ")[0];
  const chance = hint.win_chance ?? null;
  const percent = chance === null ? null : Math.round(chance * 100);
  // The expected chips with their sign, to two places ("+0.42", "-1.00").
  const ev = typeof hint.ev === "number" ? `${hint.ev > 0 ? "+" : ""}${hint.ev.toFixed(2)}` : null;
  const target = hint.target ?? Number(String(hint.action).split(" ")[1]);
  const name = table ? seatName(table, target) : String(target);
  if (action === "bet") {
    const chips = hint.chips ?? Number(String(hint.action).split(" ").pop());
    if (ev === null) return _("The bot would bet {chips} here.", { chips: chipsText(chips) });
    return _("The bot would bet {chips} here: {ev} chips expected for each chip bet.", { chips: chipsText(chips), ev });
  }
  if (percent !== null) {
    if (action === "draw") return _("The bot would draw here: {percent}% to win.", { percent });
    if (action === "hit") return _("The bot would hit here: {percent}% to win.", { percent });
    if (action === "stand") return _("The bot would stand here: {percent}% to win.", { percent });
    if (action === "call") return _("The bot would call {name} here: {percent}% to win.", { name, percent });
  }
  if (action === "draw") return ev === null ? _("The bot would draw here.") : _("The bot would draw here: {ev} chips expected.", { ev });
  if (action === "hit") return ev === null ? _("The bot would hit here.") : _("The bot would hit here: {ev} chips expected.", { ev });
  if (action === "stand") return ev === null ? _("The bot would stand here.") : _("The bot would stand here: {ev} chips expected.", { ev });
  if (action === "call") return ev === null ? _("The bot would call {name} here.", { name }) : _("The bot would call {name} here: {ev} chips expected.", { name, ev });
  return "";
}

/** How long the banker keeps the bank, when the table passes it on. */
function bankLine(table) {
  if (!table.settings.bank_rounds || !table.bankRoundsLeft || table.phase === "over") return "";
  return n_("{n} round left for this banker", "{n} rounds left for this banker", table.bankRoundsLeft);
}

function Standings({ table }) {
  const rows = [...table.seats].filter((s) => s.name).sort((a, b) => (b.stack ?? 0) - (a.stack ?? 0) || a.seat - b.seat);
  return html`<table class="data-table vt-standings">
    <thead><tr><th scope="col">${_("Seat")}</th><th scope="col" class="num">${_("Chips")}</th></tr></thead>
    <tbody>${rows.map((s) => html`<tr key=${s.seat} class=${`${table.winners.includes(s.seat) ? "winner" : ""}${s.in_game ? "" : " out"}`}>
      <td>${s.name}${s.bot ? html` <span class="vt-badge bot-badge">${_("Bot")}</span>` : ""}${table.viewer === s.seat ? html` <em class="vt-you">${_("you")}</em>` : ""}</td>
      <td class="num">${s.stack === null || s.stack === undefined ? "" : formatNumber(s.stack)}</td></tr>`)}</tbody>
  </table>`;
}

function WinnerScreen({ table }) {
  const names = table.winners.map((seat) => seatName(table, seat));
  const mine = table.winners.includes(table.viewer);
  return html`<div class=${`vt-winner${animate() ? " animated" : ""}`} role="status" aria-live="polite">
    <p class="eyebrow">${_("The match is over")}</p>
    <h2>${names.length === 1 ? _("{name} wins the match!", { name: names[0] }) : _("A shared win: {names}", { names: names.join(", ") })}</h2>
    <p>${mine ? _("Congratulations: you hold the most chips.") : _("After {rounds} rounds.", { rounds: table.roundsPlayed })}</p>
    <${Standings} table=${table} />
    <div class="btn-row"><a class="btn btn-primary" href="/vinte">${_("Back to the tables")}</a></div>
  </div>`;
}

function storedHint() {
  try {
    return JSON.parse(localStorage.getItem(HINT_KEY) || "null");
  } catch {
    return null;
  }
}

function InviteLink({ link }) {
  const [copied, setCopied] = useState(false);
  if (!link) return null;
  const full = new URL(link, location.origin).href;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(full);
    } catch {
      // No clipboard permission (an http page, a test browser): select the text for Ctrl+C.
      const field = document.getElementById("vt-invite");
      if (field) field.select();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return html`<div class="vt-invite">
    <label for="vt-invite">${_("Invite link")}</label>
    <input id="vt-invite" type="text" readonly value=${full} onFocus=${(e) => e.currentTarget.select()} />
    <${Button} onClick=${copy}>${copied ? _("Copied") : _("Copy")}<//>
    <span class="sr-only" role="status">${copied ? _("The invite link is copied.") : ""}</span>
  </div>`;
}

function Table({ id, query }) {
  const tableUrl = `${API}/${encodeURIComponent(id)}`;
  const invite = query ? query.get("invite") : null;
  const [table, setTable] = useState(null);
  const [missing, setMissing] = useState(null);
  const [connected, setConnected] = useState(false);
  const [everConnected, setEverConnected] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [feed, setFeed] = useState([]);
  const [highlight, setHighlight] = useState(null);
  const [hintOn, setHintOn] = useState(null); // null: the table's default
  const [hint, setHint] = useState(null);
  const seq = useRef(null);
  const previous = useRef(null);
  const feedCount = useRef(0);
  const highlightTimer = useRef(null);
  const user = me.value;

  /**
   * Show a state (a table answer or a stream frame). `events` are the step's events of a stream
   * frame (as this seat may know them): they go to the feed, and a showdown is highlighted. An
   * answer to a request carries none: its events come in the stream's frame of the same step.
   */
  const accept = (raw, events = []) => {
    const state = normalise(raw);
    if (!state) return;
    const prior = previous.current;
    // The invite comes with the answers to a seated caller (not in the stream's frames): it stays.
    if (!state.invite && prior && prior.viewer === state.viewer) state.invite = prior.invite;
    if (!prior) {
      // The first state: the round so far, from the view's history.
      setFeed(state.history.map((event) => ({ line: describeEvent(event, state), key: ++feedCount.current, kind: event.kind }))
        .filter((item) => item.line).reverse().slice(0, 14));
    } else if (events.length) {
      const lines = [];
      let last = null;
      for (const event of events) {
        const line = describeEvent(event, state);
        if (line) lines.unshift({ line, key: ++feedCount.current, kind: event.kind });
        const lit = highlightOf(event, state);
        if (lit) last = lit;
      }
      if (events.some((e) => e.kind === "card" || e.kind === "up-card" || e.kind === "draw" || e.kind === "hidden-card")) play("card");
      if (lines.length) setFeed((old) => [...lines, ...old].slice(0, 14));
      if (last) {
        setHighlight({ ...last, key: feedCount.current });
        if (last.seat === state.viewer) play(last.tone === "player" ? "win" : "lose");
        clearTimeout(highlightTimer.current);
        highlightTimer.current = setTimeout(() => setHighlight(null), HIGHLIGHT_MS);
      }
    }
    // For balance, the buy-in (at the start) and the payout (at the end) move the account's
    // money: the header is told the new balance.
    if (prior && prior.status !== state.status && state.settings.for_balance && state.viewer !== null) {
      get("/api/me").then(
        (who) => who && window.dispatchEvent(new CustomEvent("balance", { detail: who.balance })),
        () => {},
      );
    }
    previous.current = state;
    setTable(state);
  };

  /** Whether an answer is not older than what is shown (the table's step only grows). */
  const current = (raw) => {
    const shown = previous.current;
    const step = raw.seq ?? raw.step;
    return !shown || shown.seq === null || step === undefined || step === null || step >= shown.seq;
  };

  const resync = async () => {
    try {
      const answer = await get(tableUrl);
      if (current(answer)) accept(answer);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setMissing(err.message);
    }
  };

  useEffect(() => {
    previous.current = null;
    seq.current = null;
    resync();
    const socket = stream(
      `${tableUrl}/stream`,
      (message) => {
        if (message.type !== "state") return;
        const first = seq.current === null; // a connection's first frame: the whole state
        if (!first && message.seq <= seq.current) return; // already seen
        const events = message.events || [];
        const gap = !first && message.seq > seq.current + Math.max(1, events.length);
        seq.current = message.seq;
        accept(message, first ? [] : events);
        if (gap) resync(); // frames were missed: read the whole state again
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
      clearTimeout(highlightTimer.current);
      socket.close();
    };
  }, [id]);

  const legal = parseLegal(table ? table.legal : []);
  const people = table ? table.seats.filter((s) => s.name && !s.bot).length : 0;
  const hintsOffered = Boolean(table && table.hints);
  const hintWanted = hintsOffered && (hintOn !== null ? hintOn : storedHint() ?? people <= 1);
  const deciding = Boolean(table && table.viewer !== null && (legal.hit || legal.draw || legal.bets.length || legal.calls.length));
  // One question per decision: the table's step names it.
  const hintKey = hintWanted && deciding ? `${table.seq}:${table.legal.join(",")}` : null;
  useEffect(() => {
    if (!hintKey) return undefined;
    let live = true;
    setHint({ key: hintKey, loading: true });
    get(`${tableUrl}/hint`).then(
      (found) => live && setHint({ key: hintKey, ...found }),
      (failure) => live && setHint({ key: hintKey, error: failure }),
    );
    return () => {
      live = false;
    };
  }, [hintKey]);

  const run = async (fn) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await fn();
      if (answer && answer.table && current(answer)) accept(answer);
    } catch (err) {
      setError(err.message);
      if (err instanceof ApiError && err.status === 409) resync();
    } finally {
      setBusy(false);
    }
  };
  // The table's step is quoted: a decision made on a state the server has moved past is refused (409).
  const act = (body) => run(() => post(`${tableUrl}/actions`, { ...body, step: table.seq }));
  const bet = (chips) => legal.bets.includes(chips) && act({ action: "bet", chips });
  const hit = () => legal.hit && act({ action: "hit" });
  const stand = () => legal.stand && act({ action: "stand" });
  const draw = () => legal.draw && act({ action: "draw" });
  const call = (seat) => legal.calls.includes(seat) && act({ action: "call", target: seat });
  const comeBack = () => legal.comeBack && act({ action: "back" });
  const join = () => run(() => post(`${tableUrl}/seats`, { invite }));
  const start = () => run(() => post(`${tableUrl}/start`));
  const toggleHint = () => {
    const next = !hintWanted;
    setHintOn(next);
    try {
      localStorage.setItem(HINT_KEY, JSON.stringify(next));
    } catch {
      // storage refused: the choice lasts for this page only
    }
  };

  const betKeys = legal.bets.length <= 9 ? legal.bets : [];
  // Only the keys of what can be done now (the "?" list names them by their buttons).
  const shortcuts = {};
  if (legal.hit) shortcuts.h = hit;
  if (legal.stand) shortcuts.s = stand;
  if (legal.draw) shortcuts.d = draw;
  if (legal.comeBack) shortcuts.b = comeBack;
  betKeys.forEach((chips, i) => (shortcuts[String(i + 1)] = () => bet(chips)));
  if (!legal.bets.length) legal.calls.forEach((seat, i) => i < 9 && (shortcuts[String(i + 1)] = () => call(seat)));
  useShortcuts(shortcuts);

  if (missing) {
    return html`<div class="vinte-page">${STYLE}<div class="panel notice"><h1>${_("No such table")}</h1><p>${missing}</p>
      <p><a href="/vinte">${_("Back to the tables")}</a></p></div></div>`;
  }
  if (!table) return html`<div class="vinte-page">${STYLE}<p class="loading">${_("Opening the table...")}</p></div>`;

  // The hint's choice marks its button too (only while the hint shown is this decision's).
  const hinted = hintWanted && hint && hint.key === hintKey && !hint.loading && !hint.error ? String(hint.action).split(" ")[0] : null;
  const phone = window.matchMedia && window.matchMedia("(max-width: 700px)").matches;
  const settings = table.settings;
  const handOf = (seat) => table.hands.find((h) => h.seat === seat);
  const seatedHere = table.viewer !== null;
  const open = table.status === "waiting";
  const emptySeats = table.seats.filter((s) => !s.name).length;
  const canJoin = open && user && !seatedHere && emptySeats > 0;
  const canStart = Boolean(open && user && table.creator === user.name && table.viewer === 0);
  const mySeat = seatedHere ? table.seats.find((s) => s.seat === table.viewer) : null;
  const litSeat = highlight ? highlight.seat : null;
  const roundText = table.round
    ? settings.round_limit ? _("Round {round} of {limit}", { round: table.round, limit: settings.round_limit }) : _("Round {round}", { round: table.round })
    : "";

  return html`<div class="vinte-page" data-phase=${table.phase || table.status}>
    ${STYLE}
    ${!connected && everConnected && html`<div class="reconnecting vt-reconnecting" role="status">${_("Connection lost: reconnecting...")}</div>`}
    <header class="vt-head">
      <div class="vt-title">
        <h1>${table.name}</h1>
        <span class="muted">${_("Bets {min} to {max} chips · {stack} chips each · {seconds} s a decision", {
          min: settings.min_bet ?? 1, max: settings.max_bet ?? 5, stack: settings.stack ?? 50, seconds: settings.decision_seconds ?? 30 })}${
          settings.for_balance ? ` · ${_("played for balance: a chip is worth {value}", { value: formatMoney(settings.chip_value ?? 100) })}` : ""}</span>
      </div>
      ${table.invite && table.status !== "over" && table.status !== "void" && html`<${InviteLink} link=${table.invite} />`}
      ${table.status === "void" && html`<p class="error-line vt-void" role="alert">${
        _("This match was voided and its stakes returned: {reason}", { reason: table.voidReason || _("no reason given") })}</p>`}
    </header>

    <div class="vt-main">
      <div class="vt-felt-wrap">
        <div class=${`vt-felt phase-${table.phase}${table.seats.length >= 6 ? " many" : ""}`} style=${`--seats:${table.seats.length}`}>
          <div class="vt-centre" role="status" aria-live="polite">
            <span class="vt-print" aria-hidden="true">VINTE-E-UM</span>
            <span class="vt-round">${roundText}</span>
            <span class="vt-phase">${phaseLine(table)}</span>
            ${table.phase === "betting" && table.deadline && html`<${Countdown} deadline=${table.deadline} now=${table.now}
              total=${settings.decision_seconds} label=${_("Betting closes")} tick=${table.toAct.includes(table.viewer)} />`}
          </div>
          ${highlight && html`<div key=${highlight.key} class=${`vt-highlight tone-${highlight.tone}${animate() ? " animated" : ""}`} role="alert">
            <strong>${highlight.title}</strong><span>${highlight.text}</span></div>`}
          ${table.seats.map((seat) => html`<${SeatView} key=${seat.seat} seat=${seat} table=${table} hand=${handOf(seat.seat)}
            position=${ovalPosition(seat.seat, table.seats.length, table.viewer)} callable=${legal.calls.includes(seat.seat) && !busy}
            onCall=${call} phone=${phone} highlight=${litSeat === seat.seat ? highlight : null} />`)}
        </div>
      </div>

      ${table.phase !== "over" && html`<div class="vt-controls" role="region" aria-label=${_("Your controls")}>
        ${!user && user !== undefined && html`<p class="muted">${_("You are watching.")} <a href=${`/login?next=${encodeURIComponent(location.pathname + location.search)}`}>${_("Sign in to take a seat.")}</a></p>`}
        ${user && !seatedHere && !canJoin && html`<p class="muted">${open ? _("Every seat is taken.") : _("You are watching this match.")}</p>`}
        ${open && html`<div class="vt-open-controls">
          ${canJoin && html`<${Button} variant="primary" onClick=${join} busy=${busy}>${_("Take a seat")}<//>`}
          ${open && seatedHere && !canStart && html`<p class="muted">${_("You are seated. The match begins when the creator starts it.")}</p>`}
          ${canStart && html`<${Button} variant="primary" onClick=${start} busy=${busy}>${
            emptySeats ? n_("Start: a bot takes the empty seat", "Start: bots take the {n} empty seats", emptySeats) : _("Start the match")}<//>`}
          ${canStart && html`<p class="muted">${_("Send the invite link to your friends; each takes a seat with it.")}</p>`}
        </div>`}
        ${legal.comeBack && html`<div class="vt-away-note"><p>${_("You were away: a bot has been playing your seat.")}</p>
          <${Button} variant="primary" onClick=${comeBack} kbd="b" disabled=${busy}>${_("I am back")}<//></div>`}
        ${legal.bets.length > 0 && html`<div class="vt-bet-controls" role="group" aria-label=${_("Your bet")}>
          <span class="vt-label">${_("Bet")}</span>
          ${legal.bets.length <= 9
            ? html`<div class="vt-chip-buttons">${legal.bets.map((chips, i) => html`<button type="button" key=${chips} class="chip-button vt-chip-button"
                onClick=${() => bet(chips)} disabled=${busy} data-kbd=${String(i + 1)} aria-keyshortcuts=${String(i + 1)}
                aria-label=${_("Bet {chips}", { chips: chipsText(chips) })}>
                <${Chip} value=${chips * 100} index=${i} size=${phone ? 40 : 46} /><kbd aria-hidden="true">${i + 1}</kbd></button>`)}</div>`
            : html`<${BetInput} bets=${legal.bets} onBet=${bet} busy=${busy} />`}
        </div>`}
        ${(legal.hit || legal.stand) && html`<div class="vt-actions" role="group" aria-label=${_("Your move")}>
          <${Button} variant="primary" onClick=${hit} kbd="h" disabled=${!legal.hit || busy} class=${hinted === "hit" ? "vt-hinted" : ""}>${_("Hit")}<//>
          <${Button} variant="primary" onClick=${stand} kbd="s" disabled=${!legal.stand || busy} class=${hinted === "stand" ? "vt-hinted" : ""}>${_("Stand")}<//>
        </div>`}
        ${(legal.draw || legal.calls.length > 0) && html`<div class="vt-actions vt-banker-actions" role="group" aria-label=${_("The banker's move")}>
          <${Button} variant="primary" onClick=${draw} kbd="d" disabled=${!legal.draw || busy} class=${hinted === "draw" ? "vt-hinted" : ""}>${_("Draw a card")}<//>
          ${legal.calls.map((seat, i) => html`<${Button} key=${seat} onClick=${() => call(seat)} kbd=${i < 9 ? String(i + 1) : undefined}
            disabled=${busy}>${_("Call {name}", { name: seatName(table, seat) })}<//>`)}
          <span class="muted vt-call-help">${_("Or click a player's seat to call him.")}</span>
        </div>`}
        ${seatedHere && !open && table.phase !== "over" && !deciding && !legal.comeBack && html`<p class="muted vt-wait">${
          mySeat && !mySeat.in_game ? _("You are out of chips: you watch the rest of the match.") : _("Wait for your turn.")}</p>`}
        ${error && html`<${ErrorLine} error=${error} />`}
      </div>`}
      ${table.phase === "over" && error && html`<${ErrorLine} error=${error} />`}
    </div>

    ${table.phase === "over" && html`<${WinnerScreen} table=${table} />`}

    <aside class="vt-side">
      <section class="panel vt-side-panel" aria-label=${_("Standings")}>
        <h2>${_("Standings")}</h2>
        <p class="muted">${roundText || _("The match has not started.")}${bankLine(table) ? ` · ${bankLine(table)}` : ""}</p>
        <${Standings} table=${table} />
      </section>
      <section class="panel vt-side-panel vt-feed" aria-label=${_("At the table")}>
        <h2>${_("At the table")}</h2>
        ${feed.length ? html`<ol>${feed.map((item) => html`<li key=${item.key} class=${`kind-${item.kind}`}>${item.line}</li>`)}</ol>`
          : html`<p class="muted">${_("Nothing yet.")}</p>`}
      </section>
      ${hintsOffered && seatedHere && html`<section class="panel vt-side-panel vt-hint" aria-label=${_("The bot's hint")}>
        <label class="toggle">
          <input type="checkbox" role="switch" checked=${hintWanted} onChange=${toggleHint} />
          <span class="toggle-track"><span class="toggle-thumb"></span></span>
          <span class="toggle-text">${_("Show the bot's hint")}<small>${_("What the bots' exact search would do in your place.")}</small></span>
        </label>
        ${hintWanted && deciding && hint && hint.key === hintKey && html`<p class="vt-hint-text" role="status">${
          hint.loading ? _("Thinking...") : hint.error ? hint.error.message : hintText(hint, table)}</p>`}
      </section>`}
    </aside>
  </div>`;
}

function BetInput({ bets, onBet, busy }) {
  const [value, setValue] = useState(String(bets[0]));
  const chips = Number(value);
  const ok = bets.includes(chips);
  return html`<form class="vt-bet-input" onSubmit=${(e) => {
    e.preventDefault();
    if (ok) onBet(chips);
  }}>
    <label for="vt-bet-amount" class="sr-only">${_("Chips to bet")}</label>
    <input id="vt-bet-amount" type="number" min=${bets[0]} max=${bets[bets.length - 1]} value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
    <${Button} type="submit" variant="primary" disabled=${!ok || busy}>${_("Bet")}<//>
  </form>`;
}

export default function VintePage({ params, query }) {
  if (!params || !params.id) return html`<${Lobby} />`;
  return html`<${Table} key=${params.id} id=${params.id} query=${query} />`;
}

