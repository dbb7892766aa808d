// A round replayed step by step from its stored events: the table drawn as it stood after each
// event (cards appearing, the hole card face down until it is turned, decisions with their
// times, the money each step moved), with first / previous / next / last, the arrow keys and
// autoplay. Used by the player's history (/history/:kind/:id) and the operator's rounds
// (/admin/rounds/:kind/:id): props {round, kind} where `round` is the API's round (its `events`
// are the engine's own: round-started, card, decision, peek, hole-card-revealed, hand-settled,
// insurance-settled, round-settled; each with seq, step and at) and `kind` "online" | "casino".
//
// buildSteps(round) is the pure part (no drawing): one step per event, each the whole table.
import { html, useEffect, useRef, useState } from "./lib.js";
import { Hand, handTotal } from "./cards.js";
import { formatMoney } from "./ui.js";
import { useShortcuts } from "./keys.js";
import { _, N_, language } from "./i18n.js";

const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const RANK_NAME = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RESULT_WORDS = {
  win: N_("Win"),
  lose: N_("Lose"),
  bust: N_("Bust"),
  push: N_("Push"),
  blackjack: N_("Blackjack"),
  surrender: N_("Surrendered"),
};

/** Minor units as "1,234.50"; `signed` writes gains with "+" and losses with a minus sign. */
export function money(amount, { signed = false } = {}) {
  const text = formatMoney(Math.abs(amount));
  if (amount < 0) return signed ? `\u2212${text}` : `-${text}`;
  return signed && amount > 0 ? `+${text}` : text;
}

export { handTotal };

function cardName(card) {
  if (!card) return _("a face-down card");
  return `${RANK_NAME[card[0]] || card[0]}${SUIT_SYMBOL[card[1]] || card[1]}`;
}

// A decision as one whole sentence per action (its subject a placeholder), so that each
// language words it its own way; `late` adds the note that the time ran out.
function describeDecision(who, action, late) {
  let text;
  if (action.startsWith("insurance")) {
    const amount = Number(action.split(" ")[1]);
    text = amount ? _("{who} takes insurance of {amount}", { who, amount: money(amount) }) : _("{who} takes insurance", { who });
  } else {
    const sentence = {
      hit: N_("{who} hits"),
      stand: N_("{who} stands"),
      double: N_("{who} doubles"),
      split: N_("{who} splits"),
      surrender: N_("{who} surrenders"),
      "no-insurance": N_("{who} declines insurance"),
    }[action];
    text = sentence ? _(sentence, { who }) : `${who} ${action}`;
  }
  return late ? _("{decision} (time ran out)", { decision: text }) : text;
}

function clone(table) {
  return {
    dealer: { cards: table.dealer.cards.map((card) => ({ ...card })) },
    boxes: table.boxes.map((box) => ({
      ...box,
      hands: box.hands.map((hand) => ({ ...hand, cards: [...hand.cards] })),
    })),
    staked: table.staked,
    returned: table.returned,
    net: table.net,
    turn: table.turn,
  };
}

/**
 * A round's events as one flat list of engine-level events, each with its time: an Online
 * round's events are already that; a Casino round's are the table's (betting-opened, bet,
 * dealt, decision, settled ...), whose "game" lists carry the engine's events with the
 * table's box numbers (1 to 7) in them.
 */
export function flatEvents(round) {
  const events = (round && round.events) || [];
  const out = [];
  for (const event of events) {
    if (Array.isArray(event.game)) {
      const order = event.type === "dealt" ? event.boxes : null;
      const inner = event.game.length
        ? event.game
        : event.type === "decision" && event.action
          ? [{ type: "decision", box: event.box, hand: event.hand, action: event.action, timed_out: event.timed_out }]
          : [];
      inner.forEach((game, i) => out.push({ ...game, at: event.at, table_event: i === 0 ? event.type : null, order, paid: true }));
      if (!inner.length) out.push(event);
    } else {
      out.push(event);
    }
  }
  return out;
}

/** The cards a round's events deal, in dealing order (null where one is still face down). */
export function eventCards(round) {
  return flatEvents(round)
    .filter((event) => event.type === "card")
    .map((event) => event.card ?? null);
}

/**
 * The table after each event of a round: [{event, at, caption, who, moved, table: {dealer:
 * {cards: [{card, faceDown}]}, boxes: [{key, label, player, mine, bet, insurance, hands:
 * [{cards, stake, doubled, result, net}]}], staked, returned, net, turn}}]. `moved` is the
 * money this step took from (negative) or gave back to (positive) the players; `net` is the
 * settled result so far. Step 0 is the empty table before the first event. Boxes are keyed
 * by the events' own `box` (an Online round's index 0; a Casino table's numbers 1 to 7).
 */
export function buildSteps(round) {
  const events = flatEvents(round);
  const describe = boxDescriber(round);
  let table = { dealer: { cards: [] }, boxes: [], staked: 0, returned: 0, net: 0, turn: null };
  const box = (key) => {
    let found = table.boxes.find((b) => b.key === key);
    if (!found) {
      found = { key, ...describe(key), bet: 0, insurance: 0, hands: [] };
      table.boxes.push(found);
      table.boxes.sort((x, y) => x.key - y.key);
    }
    return found;
  };
  const hand = (key, handIndex) => {
    const b = box(key);
    while (b.hands.length <= handIndex) {
      b.hands.push({ cards: [], stake: b.bet, doubled: false, result: null, net: null });
    }
    return b.hands[handIndex];
  };
  const steps = [{ event: null, at: events.length ? events[0].at : null, caption: _("Before the deal"), moved: 0, table: clone(table) }];
  for (const event of events) {
    table = clone(table);
    let caption = event.type;
    let moved = 0;
    let who = null;
    switch (event.type) {
      case "betting-opened":
        caption = _("Betting opens");
        break;
      case "seated":
        box(event.box).player = event.player;
        caption = _("{player} sits at box {box}", { player: event.player, box: event.box });
        break;
      case "bet": {
        const b = box(event.box);
        if (event.player) b.player = event.player;
        b.bet += event.amount;
        b.hands = [{ cards: [], stake: b.bet, doubled: false, result: null, net: null }];
        moved -= event.amount; // a live table takes the stake when it is placed
        caption = b.player
          ? _("{box} ({player}) bets {amount}", { box: b.label, player: b.player, amount: money(event.amount) })
          : _("{box} bets {amount}", { box: b.label, amount: money(event.amount) });
        break;
      }
      case "round-started": {
        const keys = event.order || (event.bets || []).map((_, index) => index);
        (event.bets || []).forEach((bet, index) => {
          const b = box(keys[index]);
          b.bet = bet;
          b.hands = [{ cards: [], stake: bet, doubled: false, result: null, net: null }];
          if (!event.paid) moved -= bet; // Online: the bet is taken at the deal
        });
        const total = (event.bets || []).reduce((sum, bet) => sum + bet, 0);
        caption = event.paid
          ? _("Betting closes: the deal ({amount} on the table)", { amount: money(total) })
          : _("Bets placed: {amount}", { amount: money(total) });
        break;
      }
      case "card": {
        if (event.to === "dealer") {
          const faceDown = event.face_up === false;
          table.dealer.cards.push({ card: event.card, faceDown });
          caption = faceDown ? _("The dealer takes his hole card, face down") : _("The dealer draws {card}", { card: cardName(event.card) });
          who = "dealer";
        } else {
          hand(event.box, event.hand).cards.push(event.card);
          caption = _("{who} gets {card}", { who: subject(table, event.box, event.hand), card: cardName(event.card) });
          who = `${event.box}:${event.hand}`;
        }
        break;
      }
      case "decision": {
        const b = box(event.box);
        const action = event.action || "";
        const actor = subject(table, event.box, event.hand); // as the hands stood before it
        const noHand = event.hand === null || event.hand === undefined;
        table.turn = noHand ? null : { box: event.box, hand: event.hand };
        if (action === "double") {
          const h = hand(event.box, event.hand);
          h.stake += b.bet;
          h.doubled = true;
          moved -= b.bet;
        } else if (action === "split") {
          const h = hand(event.box, event.hand);
          const second = h.cards.pop();
          b.hands.splice(event.hand + 1, 0, { cards: second ? [second] : [], stake: b.bet, doubled: false, result: null, net: null });
          moved -= b.bet;
        } else if (action.startsWith("insurance ")) {
          const amount = Number(action.split(" ")[1]) || 0;
          b.insurance = amount;
          moved -= amount;
        }
        caption = describeDecision(actor, action, event.timed_out);
        who = noHand ? `${event.box}` : `${event.box}:${event.hand}`;
        break;
      }
      case "peek":
        caption = event.dealer_blackjack ? _("The dealer peeks: blackjack") : _("The dealer peeks: no blackjack");
        who = "dealer";
        break;
      case "hole-card-revealed": {
        const hole = table.dealer.cards.find((card) => card.faceDown);
        if (hole) {
          hole.card = event.card;
          hole.faceDown = false;
        } else {
          table.dealer.cards.push({ card: event.card, faceDown: false });
        }
        table.turn = null;
        caption = _("The dealer turns his hole card: {card}", { card: cardName(event.card) });
        who = "dealer";
        break;
      }
      case "hand-settled": {
        const h = hand(event.box, event.hand);
        h.result = event.result;
        h.net = event.net;
        // What comes back to the player: the stake plus the net (nothing on a loss).
        moved += Math.max(0, h.stake + event.net);
        table.net += event.net;
        caption = _("{who}: {result} {amount}", {
          who: subject(table, event.box, event.hand),
          result: RESULT_WORDS[event.result] ? _(RESULT_WORDS[event.result]) : event.result,
          amount: money(event.net, { signed: true }),
        });
        who = `${event.box}:${event.hand}`;
        break;
      }
      case "insurance-settled": {
        const b = box(event.box);
        moved += Math.max(0, b.insurance + event.net);
        table.net += event.net;
        {
          const amount = money(event.net, { signed: true });
          if (b.solo) caption = event.net > 0 ? _("The insurance pays {amount}", { amount }) : _("The insurance loses {amount}", { amount });
          else caption = event.net > 0 ? _("{box}: insurance pays {amount}", { box: b.label, amount }) : _("{box}: insurance loses {amount}", { box: b.label, amount });
        }
        who = `${event.box}`;
        break;
      }
      case "round-settled":
      case "settled":
        if (event.type === "settled" && steps.some((s) => s.event && s.event.type === "round-settled")) {
          caption = _("The table pays out");
        } else {
          caption = _("Round settled: net {amount}", { amount: money(table.net, { signed: true }) });
        }
        table.turn = null;
        break;
      case "voided":
        caption = event.reason
          ? _("The round is void: {reason}; stakes refunded", { reason: event.reason })
          : _("The round is void; stakes refunded");
        break;
      case "shoe":
      case "reshuffle-pending":
        caption = _("A new shoe is shuffled and committed");
        break;
      default:
        caption = (event.type || "event").replace(/-/g, " ");
        caption = caption[0].toUpperCase() + caption.slice(1);
    }
    if (moved < 0) table.staked -= moved;
    else table.returned += moved;
    steps.push({ event, at: event.at, caption, who, moved, table });
  }
  return steps;
}

// Who a step is about, as the subject of its sentence: "Your hand", "Hand 2" (after a split),
// "Box 3", "Box 3, hand 2"; a decision without a hand (insurance) is the player's or the box's.
function subject(table, key, handIndex) {
  const b = table.boxes.find((x) => x.key === key);
  const noHand = handIndex === null || handIndex === undefined;
  if (!b) return _("Box {box}", { box: key });
  if (b.solo) return noHand ? _("The player") : b.hands.length > 1 ? _("Hand {hand}", { hand: handIndex + 1 }) : _("Your hand");
  return noHand || b.hands.length < 2 ? b.label : _("{box}, hand {hand}", { box: b.label, hand: handIndex + 1 });
}

// An Online round has one box (index 0): the player's own. A Casino round's boxes are the
// table's numbers; the caller's are those in `boxes` (an operator's view lists every box).
function boxDescriber(round) {
  const casino = round && (round.kind === "casino" || Array.isArray(round.table_boxes) || Array.isArray(round.boxes));
  const mine = new Set(((round && round.boxes) || []).map((b) => b && b.box).filter((n) => n != null));
  const players = new Map(
    [...((round && round.table_boxes) || []), ...((round && round.boxes) || [])]
      .filter((b) => b && b.box != null)
      .map((b) => [b.box, b.player || b.name || null]),
  );
  return (key) => {
    if (!casino) return { label: _("Your box"), number: 1, mine: true, solo: true, player: null };
    return { label: _("Box {box}", { box: key }), number: key, mine: mine.has(key), solo: false, player: players.get(key) || null };
  };
}

function formatTime(at) {
  if (at === null || at === undefined) return "";
  const date = new Date(at * 1000);
  return date.toLocaleTimeString(language.value === "en" ? "en-GB" : language.value, { hour12: false });
}

function elapsed(at, start) {
  if (at === null || at === undefined || start === null || start === undefined) return "";
  const seconds = at - start;
  return `+${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
}

// The controls' icons (SVG: every system draws them the same; media glyphs are missing from
// many fonts).
const ICONS = {
  first: "M6 5h2v14H6zM19 5v14L9 12z",
  previous: "M17 5v14L6 12z",
  play: "M7 4.5v15L19.5 12z",
  pause: "M6.5 5h4v14h-4zM13.5 5h4v14h-4z",
  next: "M7 5v14l11-7z",
  last: "M5 5v14l10-7zM16 5h2v14h-2z",
};

function Icon({ name }) {
  return html`<svg class="replay-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d=${ICONS[name]} fill="currentColor" /></svg>`;
}

function TableView({ step, kind }) {
  const { table } = step;
  const dealerCards = table.dealer.cards;
  const up = dealerCards.filter((c) => !c.faceDown).map((c) => c.card);
  const hidden = dealerCards.length - up.length;
  return html`<div class=${`replay-felt felt${kind === "casino" ? " casino" : ""}`} role="group" aria-label=${_("The table at this step")}>
    <div class="replay-dealer">
      ${dealerCards.length
        ? html`<${Hand} label=${_("Dealer")} cards=${up} hidden=${hidden} />`
        : html`<div class="replay-seat-empty"><span class="hand-label">${_("Dealer")}</span><span class="replay-empty">${_("no cards yet")}</span></div>`}
    </div>
    <div class="replay-rule" aria-hidden="true">
      <span>${kind === "casino" ? _("Casino Blackjack") : _("Online Blackjack")} \u00b7 ${_("provably fair")}</span>
    </div>
    <div class=${`replay-boxes boxes-${Math.max(1, table.boxes.length)}`}>
      ${table.boxes.length === 0 && html`<div class="replay-empty">${_("Waiting for bets")}</div>`}
      ${table.boxes.map(
        (b) => html`<div class=${`replay-box${b.mine ? " mine" : ""}`} key=${b.key} data-box=${b.number}>
          <div class="replay-box-label">${b.label}</div>
          ${b.player && html`<div class="replay-player">${b.player}</div>`}
          <div class="replay-hands">
            ${b.hands.map((h, hi) => {
              const active = table.turn && table.turn.box === b.key && table.turn.hand === hi && !h.result;
              return html`<div class="replay-hand" key=${hi}>
                <${Hand}
                  cards=${h.cards}
                  label=${b.hands.length > 1 ? _("Hand {hand}", { hand: hi + 1 }) : undefined}
                  active=${active}
                  result=${h.result === "bust" ? "lose" : h.result}
                />
                <div class="replay-stake">
                  <span class="replay-chip" aria-hidden="true"></span>
                  <span>${money(h.stake)}${h.doubled ? " \u00d72" : ""}</span>
                </div>
                ${h.result &&
                html`<div class=${`replay-result ${h.net > 0 ? "up" : h.net < 0 ? "down" : "even"}`} data-result=${h.result}>
                  ${RESULT_WORDS[h.result] ? _(RESULT_WORDS[h.result]) : h.result} ${money(h.net, { signed: true })}
                </div>`}
              </div>`;
            })}
          </div>
          ${b.insurance > 0 && html`<div class="replay-insurance">${_("Insurance {amount}", { amount: money(b.insurance) })}</div>`}
        </div>`,
      )}
    </div>
  </div>`;
}

/**
 * The step-by-step replay of one round: {round, kind} ("online" | "casino"). `start` picks the
 * first step shown ("first", "last" (the default: the round as it ended) or a step number).
 */
export function Replay({ round, kind = "online", start = "last" }) {
  const steps = buildSteps(round);
  const last = steps.length - 1;
  const initial = start === "first" ? 0 : start === "last" ? last : Math.max(0, Math.min(last, Number(start) || 0));
  const [index, setIndex] = useState(initial);
  const [playing, setPlaying] = useState(false);
  const listRef = useRef(null);
  const go = (to) => setIndex(Math.max(0, Math.min(last, to)));
  const stopAnd = (fn) => () => {
    setPlaying(false);
    fn();
  };
  const toggle = () => {
    if (!playing && index >= last) setIndex(0);
    setPlaying(!playing);
  };

  useEffect(() => {
    if (!playing) return undefined;
    if (index >= last) {
      setPlaying(false);
      return undefined;
    }
    const timer = setTimeout(() => setIndex((i) => Math.min(last, i + 1)), 900);
    return () => clearTimeout(timer);
  }, [playing, index, last]);

  useShortcuts({
    arrowright: { run: stopAnd(() => go(index + 1)), label: _("Next step") },
    arrowleft: { run: stopAnd(() => go(index - 1)), label: _("Previous step") },
    home: { run: stopAnd(() => go(0)), label: _("First step") },
    end: { run: stopAnd(() => go(last)), label: _("Last step") },
    p: { run: toggle, label: _("Play / pause the replay") },
  });

  useEffect(() => {
    const list = listRef.current;
    const row = list && list.querySelector(`[data-step="${index}"]`);
    if (row && list.scrollHeight > list.clientHeight) {
      list.scrollTop = Math.max(0, row.offsetTop - list.clientHeight / 2);
    }
  }, [index]);

  const step = steps[index];
  const begin = steps[0].at;
  return html`<section class="replay" data-kind=${kind} aria-label=${_("Round replay")}>
    <link rel="stylesheet" href="/static/css/history.css" />
    <div class="replay-stage">
      <${TableView} step=${step} kind=${kind} />
      <div class="replay-caption" aria-live="polite">
        <span class="replay-step-no" data-testid="replay-step">${_("Step {step} of {steps}", { step: index, steps: last })}</span>
        <span class="replay-step-text" data-testid="replay-caption">${step.caption}</span>
        ${step.at != null && index > 0 && html`<time class="replay-time">${formatTime(step.at)} <small>${elapsed(step.at, begin)}</small></time>`}
      </div>
      <div class="replay-controls" role="group" aria-label=${_("Replay controls")}>
        <button type="button" class="btn btn-secondary" aria-label=${_("First step")} title=${_("First step (Home)")} disabled=${index === 0} onClick=${stopAnd(() => go(0))}><${Icon} name="first" /></button>
        <button type="button" class="btn btn-secondary" aria-label=${_("Previous step")} title=${_("Previous step (\u2190)")} disabled=${index === 0} onClick=${stopAnd(() => go(index - 1))}><${Icon} name="previous" /></button>
        <button type="button" class="btn btn-primary replay-play" aria-label=${playing ? _("Pause") : _("Play")} title=${_("Play / pause (P)")} onClick=${toggle}><${Icon} name=${playing ? "pause" : "play"} /></button>
        <button type="button" class="btn btn-secondary" aria-label=${_("Next step")} title=${_("Next step (\u2192)")} disabled=${index === last} onClick=${stopAnd(() => go(index + 1))}><${Icon} name="next" /></button>
        <button type="button" class="btn btn-secondary" aria-label=${_("Last step")} title=${_("Last step (End)")} disabled=${index === last} onClick=${stopAnd(() => go(last))}><${Icon} name="last" /></button>
        <input type="range" class="replay-scrub" min="0" max=${last} value=${index} aria-label=${_("Step")}
          onInput=${(e) => {
            setPlaying(false);
            go(Number(e.currentTarget.value));
          }} />
      </div>
      <div class="replay-money" aria-label=${_("Money at this step")}>
        <div><span>${_("Staked")}</span><strong>${money(step.table.staked)}</strong></div>
        <div><span>${_("Paid back")}</span><strong>${money(step.table.returned)}</strong></div>
        <div><span>${_("Net so far")}</span><strong class=${step.table.net > 0 ? "up" : step.table.net < 0 ? "down" : ""} data-testid="replay-net">${money(step.table.net, { signed: true })}</strong></div>
      </div>
    </div>
    <ol class="replay-events" ref=${listRef} aria-label=${_("Events")}>
      ${steps.slice(1).map(
        (s, i) => html`<li key=${i + 1} data-step=${i + 1} class=${i + 1 === index ? "current" : i + 1 < index ? "past" : ""}>
          <button type="button" onClick=${stopAnd(() => go(i + 1))} aria-current=${i + 1 === index ? "step" : undefined}>
            <span class="when">${elapsed(s.at, begin)}</span>
            <span class="what">${s.caption}</span>
            ${s.moved !== 0 && html`<span class=${`moved ${s.moved > 0 ? "up" : "down"}`}>${money(s.moved, { signed: true })}</span>`}
          </button>
        </li>`,
      )}
    </ol>
  </section>`;
}

export default Replay;
