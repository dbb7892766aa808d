// Your rounds, newest first: Online Blackjack (GET /api/online/rounds) and the live Casino tables
// (GET /api/casino/rounds; a server without them answers 404, which is "no Casino rounds"),
// merged by time. Each source is paged with its own `before` cursor; a row is shown only once
// no unread page of the other source could still hold a newer round, so the merged order is
// exact however the two interleave. A row opens the round's replay.
import { html, useEffect, useState } from "../js/lib.js";
import { get, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { Money, ErrorLine, formatMoney } from "../js/ui.js";
import { Card } from "../js/cards.js";
import { _, N_, language } from "../js/i18n.js";

const PAGE = 20;
const SOURCES = {
  online: (before) => `/api/online/rounds?limit=${PAGE}${before ? `&before=${before}` : ""}`,
  casino: (before) => `/api/casino/rounds?limit=${PAGE}${before ? `&before=${before}` : ""}`,
};
const RESULT_WORDS = {
  win: N_("Win"), lose: N_("Lose"), bust: N_("Bust"), push: N_("Push"), blackjack: N_("Blackjack"), surrender: N_("Surrender"),
};

// English dates as before (day month year, 24-hour clock); other languages their own way.
const locale = () => (language.value === "en" ? "en-GB" : language.value);

async function readPage(kind, before) {
  try {
    const answer = await get(SOURCES[kind](before));
    return { rounds: answer.rounds || [], next: answer.next ?? null };
  } catch (error) {
    // No live Casino tables on this server (yet): nothing to list from them.
    if (kind === "casino" && error instanceof ApiError && error.status === 404) return { rounds: [], next: null };
    throw error;
  }
}

/** The names of the open Casino tables by id ({} where there are none or no such routes). */
export async function casinoTableNames() {
  try {
    const tables = await get("/api/casino/tables");
    return Object.fromEntries((tables || []).map((table) => [table.id, table.name]));
  } catch {
    return {};
  }
}

/** A Casino table's name: from the open tables, else its id written as words ("casino-1" -> "Casino 1"). */
export function tableName(id, names = {}) {
  if (!id) return "Casino";
  if (names[id]) return names[id];
  const words = String(id).replace(/[-_]+/g, " ");
  return words[0].toUpperCase() + words.slice(1);
}

/** The time a round is listed by (its deal). */
function when(round) {
  return round.created_at ?? round.settled_at ?? 0;
}

/** The player's hands of a round, whatever its game: [{cards, result, net, stake}]. */
export function handsOf(round) {
  if (Array.isArray(round.boxes)) return round.boxes.flatMap((box) => box.hands || []);
  return round.hands || [];
}

/** A row of the list, as the page draws it. */
export function summarise(round, kind, names = {}) {
  const hands = handsOf(round);
  const bet = kind === "casino"
    ? (round.boxes || []).reduce((sum, box) => sum + (box.bet || 0), 0)
    : round.bet;
  const state = round.state;
  let result;
  if (state === "void") result = _("Void");
  else if (kind === "online" && state && state !== "settled") result = _("In play");
  else {
    const words = hands.map((hand) => (RESULT_WORDS[hand.result] ? _(RESULT_WORDS[hand.result]) : hand.result)).filter(Boolean);
    result = words.length ? [...new Set(words)].join(" \u00b7 ") : "\u2014";
  }
  let net = round.net;
  if ((net === undefined || net === null) && hands.length && hands.every((h) => h.net != null)) {
    net = hands.reduce((sum, hand) => sum + hand.net, 0) + (round.insurance_net || 0);
  }
  const table = kind === "casino" ? tableName(round.table, names) : _("Online Blackjack");
  const boxes = kind === "casino" ? (round.boxes || []).map((box) => box.box).filter(Boolean) : [];
  return {
    key: `${kind}-${round.id}`,
    kind,
    id: round.id,
    at: when(round),
    table,
    boxes,
    bet,
    result,
    net: net ?? null,
    cards: hands.length ? hands[0].cards || [] : [],
    dealer: (round.dealer && round.dealer.cards) || [],
    href: `/history/${kind}/${round.id}`,
  };
}

/**
 * Merge two newest-first lists into one, given how far each source has been read: a round is
 * shown only when it is at least as new as the oldest round read of every source that still has
 * pages (anything older might be preceded by an unread round of that source).
 */
export function merged(state, names = {}) {
  const all = [];
  let frontier = -Infinity;
  for (const kind of Object.keys(state)) {
    const source = state[kind];
    for (const round of source.rounds) all.push(summarise(round, kind, names));
    if (source.next !== null && source.rounds.length) {
      frontier = Math.max(frontier, when(source.rounds[source.rounds.length - 1]));
    }
  }
  all.sort((a, b) => b.at - a.at || (b.id - a.id));
  return { rows: all.filter((row) => row.at >= frontier), more: Object.values(state).some((s) => s.next !== null) };
}

function formatDate(seconds) {
  const date = new Date(seconds * 1000);
  return {
    day: date.toLocaleDateString(locale(), { day: "numeric", month: "short", year: "numeric" }),
    time: date.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
  };
}

function Row({ row }) {
  const date = formatDate(row.at);
  const tone = row.net > 0 ? "gain" : row.net < 0 ? "loss" : "even";
  return html`<li class=${`history-row ${tone}`} data-kind=${row.kind} data-round=${row.id}>
    <a href=${row.href} aria-label=${_("Replay {table} round {round} of {day} {time}: {result}, net {net}", {
      table: row.table, round: row.id, day: date.day, time: date.time, result: row.result,
      net: row.net === null ? _("not settled") : formatMoney(row.net, { signed: true }),
    })}>
      <span class="h-date"><strong>${date.day}</strong><small>${date.time}</small></span>
      <span class="h-table">
        <span class=${`h-game ${row.kind}`}>${row.table}</span>
        <small>#${row.id}${row.boxes.length ? ` \u00b7 ${_("box {boxes}", { boxes: row.boxes.join(", ") })}` : ""}</small>
      </span>
      <span class="h-cards" aria-hidden="true">
        ${row.cards.slice(0, 4).map((card, i) => html`<${Card} key=${i} card=${card} small />`)}
        ${row.dealer.length > 0 && html`<span class="h-vs">${_("vs")}</span>`}
        ${row.dealer.slice(0, 1).map((card, i) => html`<${Card} key=${`d${i}`} card=${card} small />`)}
      </span>
      <span class="h-bet"><small>${_("Bet")}</small><${Money} amount=${row.bet || 0} /></span>
      <span class="h-result">${row.result}</span>
      <span class="h-net">${row.net === null ? html`<span class="muted">\u2014</span>` : html`<${Money} amount=${row.net} signed />`}</span>
      <span class="h-go" aria-hidden="true">\u203a</span>
    </a>
  </li>`;
}

function Totals({ rows }) {
  const settled = rows.filter((row) => row.net !== null);
  const net = settled.reduce((sum, row) => sum + row.net, 0);
  const wins = settled.filter((row) => row.net > 0).length;
  return html`<div class="history-totals" aria-label=${_("These rounds in sum")}>
    <div><span>${_("Rounds")}</span><strong>${rows.length}</strong></div>
    <div><span>${_("Won")}</span><strong>${wins}</strong></div>
    <div><span>${_("Staked")}</span><strong><${Money} amount=${rows.reduce((sum, row) => sum + (row.bet || 0), 0)} /></strong></div>
    <div><span>${_("Net")}</span><strong><${Money} amount=${net} signed /></strong></div>
  </div>`;
}

export default function History() {
  const [state, setState] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [names, setNames] = useState({});
  const user = me.value;
  useEffect(() => {
    casinoTableNames().then(setNames);
  }, []);

  const loadFirst = async () => {
    setBusy(true);
    setError(null);
    try {
      const [online, casino] = await Promise.all([readPage("online"), readPage("casino")]);
      setState({ online, casino });
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (user) loadFirst();
  }, [user && user.name]);

  const loadMore = async () => {
    if (!state) return;
    setBusy(true);
    setError(null);
    try {
      // Read on the source whose oldest read round is the newest: it holds the rows shown next.
      const open = Object.keys(state).filter((kind) => state[kind].next !== null);
      open.sort((a, b) => when(state[b].rounds.at(-1) || {}) - when(state[a].rounds.at(-1) || {}));
      const kind = open[0];
      const page = await readPage(kind, state[kind].next);
      setState({ ...state, [kind]: { rounds: [...state[kind].rounds, ...page.rounds], next: page.next } });
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };

  const head = html`<link rel="stylesheet" href="/static/css/history.css" />
    <header class="page-head history-head">
      <div>
        <p class="eyebrow">${_("Your rounds")}</p>
        <h1>${_("History")}</h1>
        <p class="lead">${_("Every round you played, newest first. Open one to replay it step by step and check its cards against the revealed seed, in your own browser.")}</p>
      </div>
      <div class="history-links"><a class="btn btn-secondary" href="/online">${_("Play Online")}</a><a class="btn btn-secondary" href="/account">${_("Statement")}</a></div>
    </header>`;

  if (user === null) {
    return html`${head}<section class="panel history-empty"><p>${_("Sign in to see your rounds.")}</p><p><a class="btn btn-primary" href="/login">${_("Sign in")}</a></p></section>`;
  }
  const view = state ? merged(state, names) : { rows: [], more: false };
  return html`${head}
    <${ErrorLine} error=${error} />
    ${!state && !error && html`<p class="loading">${_("Loading your rounds")}</p>`}
    ${state && view.rows.length === 0 && !view.more && html`<section class="panel history-empty">
      <p>${_("No rounds yet. Your rounds appear here as soon as they are dealt.")}</p>
      <p><a class="btn btn-primary" href="/online">${_("Play Online Blackjack")}</a> <a class="btn btn-secondary" href="/">${_("Find a Casino table")}</a></p>
    </section>`}
    ${view.rows.length > 0 &&
    html`<${Totals} rows=${view.rows} />
      <div class="history-list-head" aria-hidden="true">
        <span>${_("Date")}</span><span>${_("Table")}</span><span class="h-cards">${_("Cards")}</span><span>${_("Bet")}</span><span>${_("Result")}</span><span>${_("Net")}</span><span></span>
      </div>
      <ol class="history-list" aria-label=${_("Your rounds, newest first")}>
        ${view.rows.map((row) => html`<${Row} key=${row.key} row=${row} />`)}
      </ol>`}
    ${view.more && html`<p class="history-more"><button type="button" class="btn btn-secondary" onClick=${loadMore} disabled=${busy}>${busy ? _("Loading\u2026") : _("Show older rounds")}</button></p>`}
  `;
}
