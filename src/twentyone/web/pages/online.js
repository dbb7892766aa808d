// The Online Blackjack table (/online): one player, one box, a fresh provably fair 6-deck shoe
// every round. The felt shows the dealer's hand, the player's hand(s) with their totals, the bet
// on its spot and, under it, either the chip tray and the bet buttons (between rounds) or the
// legal actions (during one). Beside the felt: the balance, the basic-strategy hint, the
// provably fair commitment and client seed, and after a round "What was the best play".
//
// Everything shown comes from the server's round view (GET/POST /api/online/rounds...): the
// page never decides what is legal (`legal_actions`) nor what a hand is worth (`total`,
// `soft`). Money is integer minor units throughout; amounts typed by the player are parsed as
// text, never through floating point.
import { html, useCallback, useEffect, useMemo, useRef, useState } from "../js/lib.js";
import { get, post, put, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { play } from "../js/sound.js";
import { Card, Hand } from "../js/cards.js";
import { Button, Chip, ChipTray, ErrorLine, Money, formatMoney } from "../js/ui.js";
import { useShortcuts } from "../js/keys.js";
import { _, _h, n_, N_, formatNumber } from "../js/i18n.js";

/** Chip values (minor units) a table may offer; the tray shows those its limits make useful. */
const CHIP_VALUES = [50, 100, 500, 2500, 10000, 50000, 100000, 500000, 1000000];
const MOST_CHIPS = 6;
const CHIP_KEYS = ["1", "2", "3", "4", "5", "6"];
const OPEN_STATES = ["insurance", "early-surrender", "play"];
const LAST_BET_KEY = "twentyone.online.lastBet";
const HINT_KEY = "twentyone.online.hint";
const REVIEW_KEY = "twentyone.online.review";

const MOVES = [
  { action: "hit", label: N_("Hit"), key: "h" },
  { action: "stand", label: N_("Stand"), key: "s" },
  { action: "double", label: N_("Double"), key: "d" },
  { action: "split", label: N_("Split"), key: "p" },
  { action: "surrender", label: N_("Surrender"), key: "r" },
];
const ACTION_WORDS = {
  hit: N_("Hit"),
  stand: N_("Stand"),
  double: N_("Double"),
  split: N_("Split"),
  surrender: N_("Surrender"),
  insurance: N_("Take insurance"),
  "no-insurance": N_("No insurance"),
  "no-surrender": N_("Play on"),
};
const RESULT_WORDS = {
  win: N_("Win"),
  lose: N_("Lose"),
  push: N_("Push"),
  blackjack: N_("Blackjack"),
  surrender: N_("Surrendered"),
  bust: N_("Bust"),
};
/** An action or result word in the current language (the engine's own word when unknown). */
const word = (words, key) => (words[key] ? _(words[key]) : key);

/** The chips of the tray for a table's limits: up to the maximum, from the largest one that
 * still makes the minimum (so every legal bet can be built), at most MOST_CHIPS of them. */
export function denominationsFor(minBet, maxBet) {
  const usable = CHIP_VALUES.filter((value) => value <= maxBet);
  let first = 0;
  for (let i = 0; i < usable.length; i++) if (usable[i] <= minBet) first = i;
  return usable.slice(first, first + MOST_CHIPS);
}

/** The chips a stack of `amount` is drawn with, largest first (at most `limit`). */
export function chipsFor(amount, denominations, limit = 8) {
  const out = [];
  let left = amount;
  for (const value of [...denominations].sort((a, b) => b - a)) {
    while (left >= value && out.length < limit) {
      out.push(value);
      left -= value;
    }
  }
  if (left > 0 && out.length < limit && denominations.length) out.push(denominations[0]);
  return out;
}

/** "12.50" (or "12,50", "12") as minor units, by string arithmetic; null if not an amount. */
export function parseAmount(text) {
  const cleaned = String(text ?? "").trim().replace(/[\s,](?=\d{3}\b)/g, "").replace(",", ".");
  const found = /^(\d{1,12})(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!found) return null;
  return Number(found[1]) * 100 + Number((found[2] || "").padEnd(2, "0"));
}

/** An EV per initial bet as a signed percentage: -0.54253 -> "−54.25%". */
export function formatEv(value) {
  const percent = (value * 100).toFixed(2);
  const text = percent.replace("-", "−");
  return value > 0 ? `+${text}%` : `${text}%`;
}

/** The index of the hand to act from the view's `to_act` ("box 0 hand 1"), else -1. */
function actingHand(view) {
  const found = view && view.state === "play" && /hand (\d+)/.exec(view.to_act || "");
  return found ? Number(found[1]) : -1;
}

function readStored(key, fallback) {
  try {
    const text = window.localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage refused: the setting lasts for this page only
  }
}

/** Tell the header (and whoever listens) the balance after a step. */
function announceBalance(balance) {
  if (typeof balance !== "number") return;
  if (me.value) me.value = { ...me.value, balance };
  window.dispatchEvent(new CustomEvent("balance", { detail: balance }));
}

function rulesLine(rules) {
  if (!rules) return "";
  const [win, stake] = String(rules.blackjack_pays || "3:2").split(":");
  return [
    _("Blackjack pays {win} to {stake}", { win, stake }),
    rules.dealer_hits_soft_17 ? _("Dealer hits soft 17") : _("Dealer stands on all 17s"),
    rules.insurance ? _("Insurance pays 2 to 1") : null,
  ]
    .filter(Boolean)
    .join(" · ");
}

// ------------------------------------------------------------------------ pieces
function ChipStack({ amount, denominations, label }) {
  if (!amount) return null;
  const chips = chipsFor(amount, denominations);
  return html`<div class="ol-stack" role="img" aria-label=${label || _("Bet {amount}", { amount: formatMoney(amount) })}>
    ${chips.map(
      (value, index) => html`<span class="ol-stack-chip" key=${`${index}-${value}`} style=${`--i:${index}`}>
        <${Chip} value=${value} size=${46} index=${denominations.indexOf(value)} />
      </span>`,
    )}
  </div>`;
}

function HandResult({ hand }) {
  if (!hand.result) return null;
  const words = word(RESULT_WORDS, hand.result);
  return html`<div class=${`ol-result ol-result-${hand.result}`}>
    <span>${words}</span>
    ${hand.net !== null && hand.net !== undefined && hand.net !== 0 && html`<${Money} amount=${hand.net} signed=${true} />`}
  </div>`;
}

function Banner({ view }) {
  if (!view || view.state !== "settled") return null;
  const net = view.net || 0;
  const blackjack = view.hands.some((hand) => hand.result === "blackjack");
  const title = net > 0 ? (blackjack ? _("Blackjack!") : _("You win")) : net < 0 ? _("Dealer wins") : _("Push");
  const tone = net > 0 ? "gain" : net < 0 ? "loss" : "push";
  return html`<div class=${`ol-banner ol-banner-${tone}`} role="status" aria-live="polite">
    <strong>${title}</strong>
    <span class="ol-banner-net">${_("Net")} <${Money} amount=${net} signed=${true} /></span>
  </div>`;
}

function InsurancePrompt({ view, most, onInsure, onDecline, busy }) {
  const [text, setText] = useState(formatMoney(most).replace(/,/g, ""));
  const amount = parseAmount(text);
  const valid = amount !== null && amount >= 1 && amount <= most;
  const hand = view.hands[0];
  const blackjack = hand && hand.total === 21 && hand.cards.length === 2;
  return html`<div class="ol-prompt" role="group" aria-labelledby="ol-insurance-title">
    <div class="ol-prompt-text">
      <h2 id="ol-insurance-title">${blackjack ? _("Even money?") : _("Insurance?")}</h2>
      ${valid
        ? html`<p>${_h("Up to {amount}, half your bet; pays 2 to 1 if the dealer has blackjack.", { amount: html`<${Money} amount=${most} />` })}</p>`
        : html`<p class="ol-prompt-note" role="alert">${_("An amount from {low} to {high}.", { low: formatMoney(1), high: formatMoney(most) })}</p>`}
    </div>
    <div class="ol-prompt-row">
      <label class="ol-amount">
        <span class="sr-only">${_("Insurance amount")}</span>
        <input
          type="text"
          inputmode="decimal"
          value=${text}
          aria-label=${_("Insurance amount")}
          aria-invalid=${valid ? "false" : "true"}
          onInput=${(event) => setText(event.currentTarget.value)}
          onKeyDown=${(event) => {
            if (event.key === "Enter" && valid) onInsure(amount);
          }}
        />
      </label>
      <${Button} variant="primary" kbd="i" disabled=${!valid} busy=${busy} onClick=${() => onInsure(amount)}
        label=${valid ? _("Insure {amount}", { amount: formatMoney(amount) }) : _("Insure")}>
        ${valid ? _("Insure {amount}", { amount: formatMoney(amount) }) : _("Insure")}
      <//>
      <${Button} kbd="n" disabled=${busy} onClick=${onDecline} label=${_("No insurance")}><span class="ol-narrow">${_("No")}</span><span class="ol-wide">${_("No insurance")}</span><//>
    </div>
  </div>`;
}

function SurrenderPrompt({ onSurrender, onDecline, busy }) {
  return html`<div class="ol-prompt" role="group" aria-labelledby="ol-surrender-title">
    <div class="ol-prompt-text">
      <h2 id="ol-surrender-title">${_("Surrender?")}</h2>
      <p>${_("Give up half your bet now, before the dealer checks for blackjack.")}</p>
    </div>
    <div class="ol-prompt-row">
      <${Button} variant="danger" kbd="r" busy=${busy} onClick=${onSurrender}>${_("Surrender")}<//>
      <${Button} kbd="n" disabled=${busy} onClick=${onDecline}>${_("Play on")}<//>
    </div>
  </div>`;
}

function Review({ review, loading, error }) {
  if (loading) return html`<p class="loading">${_("Working out the exact values…")}</p>`;
  if (error) return html`<${ErrorLine} error=${error} />`;
  if (!review) return null;
  if (!review.decisions.length) return html`<p class="muted">${_("No decisions in this round: it was settled on the deal.")}</p>`;
  return html`<div class="ol-review">
    <p class=${`ol-review-summary ${review.mistakes ? "loss" : "gain"}`}>
      ${review.mistakes
        ? n_(
            "{n} decision off the best play, costing {cost} of the bet on average",
            "{n} decisions off the best play, costing {cost} of the bet on average",
            review.mistakes,
            { cost: formatNumber(review.total_cost, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }) },
          )
        : _("Every decision was the best play.")}
    </p>
    <ol class="ol-review-list">
      ${review.decisions.map(
        (decision) => html`<li class=${`ol-decision ${decision.correct ? "right" : "wrong"}`} key=${decision.step}>
          <div class="ol-decision-head">
            <div class="ol-decision-cards" aria-label=${_("Your hand {cards} against {up}", { cards: decision.cards.join(" "), up: decision.up })}>
              ${decision.cards.map((card) => html`<${Card} card=${card} small=${true} />`)}
              <span class="ol-vs">${_("vs")}</span>
              <${Card} card=${decision.up} small=${true} />
            </div>
            <span class="ol-mark" aria-label=${decision.correct ? _("the best play") : _("not the best play")}>${decision.correct ? "✓" : "✗"}</span>
          </div>
          <p class="ol-decision-verdict">
            ${_h("You: {action}", { action: html`<strong>${word(ACTION_WORDS, decision.taken)}</strong>` })}
            ${!decision.correct && html`<span class="ol-sep" aria-hidden="true"> · </span>${_h("Best: {action}", { action: html`<strong>${word(ACTION_WORDS, decision.best)}</strong>` })}`}
          </p>
          <table class="ol-ev-table">
            <caption class="sr-only">${_("Exact EV of each choice, per initial bet")}</caption>
            <tbody>
              ${Object.entries(decision.options).map(
                ([name, value]) => html`<tr
                  class=${`${name === decision.best ? "best" : ""} ${name === decision.taken ? "taken" : ""}`}
                  key=${name}
                >
                  <th scope="row">${word(ACTION_WORDS, name)}</th>
                  <td class=${value >= 0 ? "gain" : "loss"}>${formatEv(value)}</td>
                  <td class="ol-tags">
                    ${name === decision.best && html`<span class="ol-tag best">${_("best")}</span>`}
                    ${name === decision.taken && html`<span class="ol-tag taken">${_("yours")}</span>`}
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        </li>`,
      )}
    </ol>
    <p class="ol-basis">${review.basis[0].toUpperCase()}${review.basis.slice(1)}.</p>
  </div>`;
}

function Fairness({ view, fairness, onSaveSeed, saving, message }) {
  const open = view && OPEN_STATES.includes(view.state);
  const [draft, setDraft] = useState(fairness ? fairness.client_seed : "");
  const seen = useRef(fairness && fairness.client_seed);
  if (fairness && fairness.client_seed !== seen.current) {
    seen.current = fairness.client_seed;
    setDraft(fairness.client_seed);
  }
  const commitmentNow = open ? view.commitment : fairness && fairness.commitment;
  return html`<section class="panel ol-side-panel ol-fair" aria-label=${_("Provably fair")}>
    <h2>${_("Provably fair")}</h2>
    <p class="ol-fair-label">${open ? _("This round's commitment") : _("Next round's commitment")}</p>
    <code class="ol-hash" title=${commitmentNow || ""} data-testid="commitment">${commitmentNow || "…"}</code>
    <p class="muted ol-fair-note">
      ${open
        ? _("SHA-256 of the server seed that shuffles this shoe, shown before you bet. The seed itself is revealed when the round ends.")
        : _("SHA-256 of the server seed that shuffles your next shoe, shown before you bet. The seed itself is revealed when the round ends.")}
    </p>
    <form
      class="ol-seed"
      onSubmit=${(event) => {
        event.preventDefault();
        onSaveSeed(draft);
      }}
    >
      <label for="ol-client-seed">${_("Your client seed")}</label>
      <div class="ol-seed-row">
        <input
          id="ol-client-seed"
          type="text"
          value=${draft}
          maxlength="64"
          disabled=${open}
          onInput=${(event) => setDraft(event.currentTarget.value)}
        />
        <button class="btn btn-secondary" type="submit" disabled=${open || saving || !draft || (fairness && draft === fairness.client_seed)}>
          ${_("Save")}
        </button>
      </div>
      <small>${open ? _("Change it between rounds.") : _("Nonce {nonce}: rounds played with this seed.", { nonce: fairness ? fairness.nonce : "…" })}</small>
      ${message && html`<p class="ol-seed-message" role="status">${message}</p>`}
    </form>
    ${view &&
    view.state === "settled" &&
    view.fairness &&
    html`<div class="ol-revealed">
      <p class="ol-fair-label">${_("Round {round}: server seed revealed", { round: view.id })}</p>
      <code class="ol-hash" title=${view.fairness.server_seed}>${view.fairness.server_seed}</code>
      <a href=${`/history/online/${view.id}`}>${_("Replay and verify this round →")}</a>
    </div>`}
  </section>`;
}

// ------------------------------------------------------------------------ the table
function Table({ user }) {
  const [table, setTable] = useState(null);
  const [fairness, setFairness] = useState(null);
  const [view, setView] = useState(null);
  const [balance, setBalance] = useState(user.balance);
  const [bet, setBet] = useState(0);
  const [lastBet, setLastBet] = useState(() => readStored(LAST_BET_KEY, 0));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [loadError, setLoadError] = useState(null);
  const [hintOn, setHintOn] = useState(() => readStored(HINT_KEY, false));
  const [hint, setHint] = useState(null);
  const [reviewOpen, setReviewOpen] = useState(() => readStored(REVIEW_KEY, false));
  const [review, setReview] = useState({ id: null, data: null, error: null, loading: false });
  const [seedSaving, setSeedSaving] = useState(false);
  const [seedMessage, setSeedMessage] = useState(null);

  const open = view && OPEN_STATES.includes(view.state);
  const denominations = useMemo(() => (table ? denominationsFor(table.min_bet, table.max_bet) : []), [table]);
  const legal = view && open ? view.legal_actions : [];
  const legalKinds = legal.map((text) => text.split(" ")[0]);
  const insuranceMost = (() => {
    const found = legal.find((text) => text.startsWith("insurance "));
    return found ? Number(found.split(" ")[1]) : 0;
  })();

  // The table, the commitment, and a round left open (a reload mid-round resumes it).
  useEffect(() => {
    let live = true;
    Promise.all([get("/api/online/table"), get("/api/fairness"), get("/api/online/rounds?limit=1")]).then(
      ([tableView, fair, rounds]) => {
        if (!live) return;
        setTable(tableView);
        setFairness(fair);
        const latest = rounds.rounds[0];
        if (latest && OPEN_STATES.includes(latest.state)) {
          setView(latest);
          setBalance(latest.balance);
          announceBalance(latest.balance);
        }
      },
      (failure) => live && setLoadError(failure),
    );
    return () => {
      live = false;
    };
  }, []);

  // The hint for the decision now, when asked for.
  const hintKey = view && open && hintOn ? `${view.id}:${view.step}` : null;
  useEffect(() => {
    if (!hintKey) {
      setHint(null);
      return undefined;
    }
    let live = true;
    setHint({ key: hintKey, loading: true });
    get(`/api/online/rounds/${view.id}/hint`).then(
      (found) => live && setHint({ key: hintKey, ...found }),
      (failure) => live && setHint({ key: hintKey, error: failure }),
    );
    return () => {
      live = false;
    };
  }, [hintKey]);

  // The review of a settled round, when the panel is open.
  const reviewId = view && view.state === "settled" && reviewOpen ? view.id : null;
  useEffect(() => {
    if (!reviewId || review.id === reviewId) return undefined;
    let live = true;
    setReview({ id: reviewId, data: null, error: null, loading: true });
    get(`/api/online/rounds/${reviewId}/review`).then(
      (data) => live && setReview({ id: reviewId, data, error: null, loading: false }),
      (failure) => live && setReview({ id: reviewId, data: null, error: failure, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [reviewId]);

  const cardsSeen = useRef(0);
  const show = useCallback((next) => {
    const count = next.hands.reduce((n, hand) => n + hand.cards.length, 0) + next.dealer.cards.length;
    if (count > cardsSeen.current) play("card");
    cardsSeen.current = count;
    setView(next);
    setBalance(next.balance);
    announceBalance(next.balance);
    if (next.state === "settled") {
      if (next.net > 0) play("win");
      else if (next.net < 0) play("lose");
      get("/api/fairness").then(setFairness, () => {});
    }
  }, []);

  const limitsError = (amount) => {
    if (!table) return _("the table is loading");
    if (amount < table.min_bet) return _("the minimum bet is {amount}", { amount: formatMoney(table.min_bet) });
    if (amount > table.max_bet) return _("the maximum bet is {amount}", { amount: formatMoney(table.max_bet) });
    if (amount > balance) return _("that is more than your balance");
    return null;
  };

  const deal = async (amount) => {
    if (busy || open) return;
    const problem = limitsError(amount);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      cardsSeen.current = 0;
      const dealt = await post("/api/online/rounds", { bet: amount });
      setLastBet(amount);
      store(LAST_BET_KEY, amount);
      setBet(0);
      setReview({ id: null, data: null, error: null, loading: false });
      show(dealt);
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiError && failure.status === 409) {
        const rounds = await get("/api/online/rounds?limit=1").catch(() => null);
        if (rounds && rounds.rounds[0]) show(rounds.rounds[0]);
      }
    } finally {
      setBusy(false);
    }
  };

  const act = async (action) => {
    if (busy || !view || !open) return;
    setBusy(true);
    setError(null);
    try {
      show(await post(`/api/online/rounds/${view.id}/actions`, { action, step: view.step }));
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiError && failure.status === 409) {
        const again = await get(`/api/online/rounds/${view.id}`).catch(() => null);
        if (again) show(again);
      }
    } finally {
      setBusy(false);
    }
  };

  const addChip = (value) => {
    if (open) return;
    setError(null);
    const most = table ? Math.min(table.max_bet, balance) : balance;
    if (bet + value > most) {
      setError(bet + value > (table ? table.max_bet : Infinity) ? _("the maximum bet is {amount}", { amount: formatMoney(table.max_bet) }) : _("that is more than your balance"));
      return;
    }
    setBet(bet + value);
  };
  const doubleBet = () => {
    if (open || !bet) return;
    const most = table ? Math.min(table.max_bet, balance) : balance;
    setError(bet * 2 > most ? _("doubled, the bet would be over the limit or your balance") : null);
    if (bet * 2 <= most) setBet(bet * 2);
  };
  const rebet = () => {
    if (open || !lastBet) return;
    setError(limitsError(lastBet));
    setBet(lastBet);
  };
  const toggleHint = () => {
    setHintOn(!hintOn);
    store(HINT_KEY, !hintOn);
  };
  const toggleReview = () => {
    setReviewOpen(!reviewOpen);
    store(REVIEW_KEY, !reviewOpen);
  };
  const saveSeed = async (seed) => {
    setSeedSaving(true);
    setSeedMessage(null);
    try {
      setFairness(await put("/api/fairness", { client_seed: seed }));
      setSeedMessage(_("Saved: your next round uses this seed, nonce 0."));
    } catch (failure) {
      setSeedMessage(failure.message);
    } finally {
      setSeedSaving(false);
    }
  };

  const dealAmount = bet || lastBet;
  const canDeal = !open && !busy && table && dealAmount > 0 && !limitsError(dealAmount);
  const betting = !open;
  const shortcuts = {
    space: canDeal ? () => deal(dealAmount) : undefined,
    enter: canDeal ? () => deal(dealAmount) : undefined,
    c: betting && bet ? () => setBet(0) : undefined,
    b: betting && lastBet ? rebet : undefined,
    x: betting && bet ? doubleBet : undefined,
    t: toggleHint,
  };
  if (betting) denominations.forEach((value, i) => (shortcuts[CHIP_KEYS[i]] = () => addChip(value)));
  for (const move of MOVES) {
    if (view && view.state === "play" && legalKinds.includes(move.action)) shortcuts[move.key] = () => act(move.action);
  }
  if (view && view.state === "insurance") {
    shortcuts.n = () => act("no-insurance");
    if (insuranceMost) shortcuts.i = () => act(`insurance ${insuranceMost}`);
  }
  if (view && view.state === "early-surrender") {
    shortcuts.n = () => act("no-surrender");
    shortcuts.r = () => act("surrender");
  }
  useShortcuts(shortcuts);

  if (loadError) return html`<div class="panel notice"><${ErrorLine} error=${loadError} /></div>`;
  if (!table) return html`<p class="loading">${_("Opening the table…")}</p>`;

  const acting = actingHand(view);
  const surrenderOffered = table.effective_rules && table.effective_rules.surrender !== "none";
  const inPlay = view && open ? view.hands.reduce((n, hand) => n + hand.stake, 0) + (view.insurance || 0) : 0;
  const hinted = hint && hint.key === hintKey && hint.action;
  const insuranceNet =
    view && view.state === "settled" && view.insurance
      ? view.net - view.hands.reduce((n, hand) => n + (hand.net || 0), 0)
      : null;
  const spotAmount = betting ? bet : view.hands.reduce((n, hand) => n + hand.stake, 0);

  return html`<div class="ol-page">
    <section class=${`felt ol-felt${view ? " has-round" : ""}`} aria-label=${_("Online Blackjack table")}>
      <div class="ol-dealer">
        ${view
          ? html`<${Hand}
              label=${_("Dealer")}
              cards=${view.dealer.cards}
              hidden=${view.dealer.hidden}
              total=${view.dealer.hidden ? view.dealer.total : undefined}
              soft=${false}
            />`
          : html`<div class="ol-empty-hand"><span class="hand-label">${_("Dealer")}</span><div class="ol-card-slot"></div></div>`}
      </div>

      <div class="ol-middle">
        <p class="ol-rules-arc">${rulesLine(table.effective_rules)}</p>
        <${Banner} view=${view} />
        ${view && view.state === "settled" && insuranceNet !== null &&
        html`<p class="ol-insurance-line">
          ${insuranceNet > 0
            ? _h("Insurance {stake} paid {net}", { stake: html`<${Money} amount=${view.insurance} />`, net: html`<${Money} amount=${insuranceNet} signed=${true} />` })
            : _h("Insurance {stake} lost {net}", { stake: html`<${Money} amount=${view.insurance} />`, net: html`<${Money} amount=${insuranceNet} signed=${true} />` })}
        </p>`}
        ${view && view.state === "insurance" && html`<p class="ol-message">${_("The dealer shows an ace.")}</p>`}
        ${!view && html`<p class="ol-welcome">${_("Place your bet: click the chips, then Deal.")}</p>`}
        ${open && hintOn && hinted &&
        html`<p class="ol-hint-felt" aria-hidden="true">${_h("Basic strategy: {action}", { action: html`<strong>${word(ACTION_WORDS, hinted)}</strong>` })}</p>`}
      </div>

      <div class="ol-player">
        ${view
          ? view.hands.map(
              (hand, index) => html`<div class="ol-hand" key=${index}>
                <${Hand}
                  label=${view.hands.length > 1 ? _("Hand {hand}", { hand: index + 1 }) : user.name}
                  cards=${hand.cards}
                  total=${hand.total}
                  soft=${hand.soft}
                  result=${hand.result}
                  active=${index === acting}
                />
                ${hand.doubled && html`<span class="ol-doubled">${_("doubled")}</span>`}
                <${HandResult} hand=${hand} />
              </div>`,
            )
          : html`<div class="ol-empty-hand"><div class="ol-card-slot"></div><span class="hand-label">${user.name}</span></div>`}
      </div>

      <div class="ol-spot-row">
        <div class=${`ol-spot${spotAmount ? " has-bet" : ""}`}>
          <${ChipStack} amount=${spotAmount} denominations=${denominations} />
          <span class="ol-spot-label">${spotAmount ? formatMoney(spotAmount) : _("Bet")}</span>
        </div>
        ${view && open && view.insurance > 0 && html`<div class="ol-insured">${_h("Insured {amount}", { amount: html`<${Money} amount=${view.insurance} />` })}</div>`}
      </div>

      <div class="ol-controls">
        ${betting
          ? html`<div class="ol-betting">
              <${ChipTray} denominations=${denominations} onChip=${addChip} disabled=${busy} keys=${CHIP_KEYS} />
              <div class="ol-bet-buttons btn-row">
                <${Button} kbd="c" disabled=${!bet || busy} onClick=${() => setBet(0)} label=${_("Clear the bet")}>${_("Clear")}<//>
                <${Button} kbd="b" disabled=${!lastBet || busy} onClick=${rebet} label=${_("Rebet {amount}", { amount: formatMoney(lastBet || 0) })}>${_("Rebet")}<//>
                <${Button} kbd="x" disabled=${!bet || busy} onClick=${doubleBet} label=${_("Double the bet")}>×2<//>
                <${Button}
                  variant="primary"
                  kbd="space"
                  disabled=${!canDeal}
                  busy=${busy}
                  onClick=${() => deal(dealAmount)}
                  label=${dealAmount ? _("Deal {amount}", { amount: formatMoney(dealAmount) }) : _("Deal")}
                >${dealAmount ? _("Deal {amount}", { amount: formatMoney(dealAmount) }) : _("Deal")}<//>
              </div>
            </div>`
          : view.state === "insurance"
          ? html`<${InsurancePrompt}
              key=${view.id}
              view=${view}
              most=${insuranceMost}
              busy=${busy}
              onInsure=${(amount) => act(`insurance ${amount}`)}
              onDecline=${() => act("no-insurance")}
            />`
          : view.state === "early-surrender"
          ? html`<${SurrenderPrompt} busy=${busy} onSurrender=${() => act("surrender")} onDecline=${() => act("no-surrender")} />`
          : html`<div class="ol-actions btn-row" role="group" aria-label=${_("Actions")}>
              ${MOVES.filter((move) => move.action !== "surrender" || surrenderOffered).map(
                (move) => html`<${Button}
                  key=${move.action}
                  kbd=${move.key}
                  variant=${hinted === move.action ? "primary" : "secondary"}
                  class=${hinted === move.action ? "ol-hinted" : ""}
                  disabled=${busy || view.state !== "play" || !legalKinds.includes(move.action)}
                  onClick=${() => act(move.action)}
                >${_(move.label)}<//>`,
              )}
            </div>`}
      </div>
      <${ErrorLine} error=${error} />
    </section>

    <aside class="ol-side">
      <section class="panel ol-side-panel ol-wallet" aria-label=${_("Your money")}>
        <div class="ol-wallet-row">
          <span class="ol-wallet-label">${_("Balance")}</span>
          <${Money} amount=${balance} class="ol-balance" />
        </div>
        <div class="ol-wallet-row">
          <span class="ol-wallet-label">${_("In play")}</span>
          <${Money} amount=${inPlay} />
        </div>
        <p class="muted ol-limits">${_("Bets {low} to {high}", { low: formatMoney(table.min_bet), high: formatMoney(table.max_bet) })}</p>
      </section>

      <section class="panel ol-side-panel ol-hint-panel" aria-label=${_("Basic strategy")}>
        <label class="toggle">
          <input
            type="checkbox"
            checked=${hintOn}
            onChange=${(event) => {
              toggleHint();
              // Clicked with a pointer: give the keys back to the table (keys.js ignores them
              // while a form field has focus); the keyboard's focus stays where it is.
              if (!event.currentTarget.matches(":focus-visible")) event.currentTarget.blur();
            }}
          />
          <span class="toggle-track"><span class="toggle-thumb"></span></span>
          <span class="toggle-text">${_("Strategy hint")} <small>${_("The basic strategy's play (T)")}</small></span>
        </label>
        ${hintOn &&
        html`<p class="ol-hint" role="status" aria-live="polite">
          ${!open
            ? html`<span class="muted">${_("The hint shows during a round.")}</span>`
            : !hint || hint.loading
            ? html`<span class="muted">${_("Basic strategy: working it out…")}</span>`
            : hint.error
            ? html`<span class="muted">${_("No hint: {reason}", { reason: hint.error.message })}</span>`
            : _h("Basic strategy: {action}", { action: html`<strong>${word(ACTION_WORDS, hint.action)}</strong>` })}
        </p>`}
      </section>

      ${view &&
      view.state === "settled" &&
      html`<section class="panel ol-side-panel ol-review-panel" aria-label=${_("What was the best play")}>
        <button class="ol-review-toggle" type="button" aria-expanded=${reviewOpen ? "true" : "false"} onClick=${toggleReview}>
          <span>${_("What was the best play?")}</span><span aria-hidden="true">${reviewOpen ? "▾" : "▸"}</span>
        </button>
        ${reviewOpen &&
        html`<${Review} review=${review.id === view.id ? review.data : null} loading=${review.loading} error=${review.error} />`}
      </section>`}

      <${Fairness} view=${view} fairness=${fairness} onSaveSeed=${saveSeed} saving=${seedSaving} message=${seedMessage} />
    </aside>
  </div>`;
}

export default function OnlinePage() {
  const user = me.value;
  return html`<link rel="stylesheet" href="/static/css/online.css" />
    <div class="ol-wrap">
      <header class="ol-head">
        <div>
          <p class="eyebrow">${_("Provably fair · 6 decks, shuffled every round")}</p>
          <h1>${_("Online Blackjack")}</h1>
        </div>
        <a class="ol-rules-link" href="/rules/online">${_("Rules and payouts")}</a>
      </header>
      ${user === undefined && html`<p class="loading">${_("Loading…")}</p>`}
      ${user === null &&
      html`<section class="panel notice ol-signin">
        <h2>${_("Sign in to play")}</h2>
        <p>${_("The Online table plays for your play-money balance: sign in, or open an account in a minute.")}</p>
        <div class="btn-row ol-signin-buttons">
          <a class="btn btn-primary" href="/login">${_("Sign in")}</a>
          <a class="btn btn-secondary" href="/register">${_("Register")}</a>
        </div>
      </section>`}
      ${user && html`<${Table} user=${user} />`}
    </div>`;
}
