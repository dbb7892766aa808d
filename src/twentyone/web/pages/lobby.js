// The lobby: the four games as tiles (the live Casino tables listed in theirs), your balance,
// and a sign-in prompt for visitors.
import { html, useEffect } from "../js/lib.js";
import { get, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { Money, Chip, useAsync, ErrorLine, formatMoney } from "../js/ui.js";
import { Card } from "../js/cards.js";
import { useShortcuts } from "../js/keys.js";
import { navigate } from "../js/app.js";
import { _, _h, N_, n_ } from "../js/i18n.js";

/** How often the open tables are read again (their boxes fill and empty). */
const TABLES_REFRESH_MS = 15000;

const PHASES = { waiting: N_("waiting for players"), betting: N_("betting"), playing: N_("in play"), settled: N_("settling") };

async function casinoTables() {
  try {
    return await get("/api/casino/tables");
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return []; // no live tables on this server yet
    throw error;
  }
}

function CasinoTables() {
  const { data, error, loading, reload } = useAsync(casinoTables, []);
  useEffect(() => {
    const timer = setInterval(reload, TABLES_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  useShortcuts({
    c: {
      run: () => data && data.length > 0 && navigate(`/casino/${encodeURIComponent(data[0].id)}`),
      label: _("Go to the first Casino table"),
    },
  });
  if (loading && !data) return html`<p class="muted">${_("Looking for open tables...")}</p>`;
  if (error) return html`<${ErrorLine} error=${error} />`;
  if (!data || data.length === 0) return html`<p class="muted">${_("No tables yet: an operator opens them.")}</p>`;
  return html`<ul class="table-list" aria-label=${_("Open Casino tables")}>
    ${data.map(
      (table) => html`<li>
        <a href=${`/casino/${encodeURIComponent(table.id)}`} aria-label=${_("{table}: {taken} of {boxes} boxes taken, bets {low} to {high}", {
          table: table.name, taken: table.taken, boxes: table.boxes, low: formatMoney(table.min_bet), high: formatMoney(table.max_bet),
        })}>
          <strong>${table.name}</strong>
          <span class="limits">${_h("{low} to {high}", { low: html`<${Money} amount=${table.min_bet} />`, high: html`<${Money} amount=${table.max_bet} />` })}</span>
          <span class="seats">${_("{taken}/{boxes} boxes", { taken: table.taken, boxes: table.boxes })} · ${PHASES[table.phase] ? _(PHASES[table.phase]) : table.phase}${table.spectators ? ` · ${_("{n} watching", { n: table.spectators })}` : ""}</span>
        </a>
      </li>`,
    )}
  </ul>`;
}

// The Exchange tables (GET /api/exchange/tables): each a link to /exchange/{id} with its game
// and betting round (docs/exchange-live.md).
async function exchangeTables() {
  try {
    return await get("/api/exchange/tables");
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return []; // a server without the exchange
    throw error;
  }
}

function ExchangeTables() {
  const { data, error, loading, reload } = useAsync(exchangeTables, []);
  useEffect(() => {
    const timer = setInterval(reload, TABLES_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  useShortcuts({
    e: {
      run: () => data && data.length > 0 && navigate(`/exchange/${encodeURIComponent(data[0].id)}`),
      label: _("Go to the first Exchange table"),
    },
  });
  if (loading && !data) return html`<p class="muted">${_("Looking for open tables...")}</p>`;
  if (error) return html`<${ErrorLine} error=${error} />`;
  if (!data || data.length === 0) return html`<p class="muted">${_("No markets open right now.")}</p>`;
  return html`<ul class="table-list" aria-label=${_("Exchange tables")}>
    ${data.map(
      (table) => html`<li key=${table.id}>
        <a href=${`/exchange/${encodeURIComponent(table.id)}`}>
          <strong>${table.name}</strong>
          <span class="limits">${table.turbo ? _("Turbo: shorter betting rounds") : _("Standard betting rounds")}</span>
          <span class="seats">${table.phase === "betting"
            ? _("Game {game}: betting round {round} open", { game: table.game, round: table.round })
            : table.phase === "over"
              ? _("Game {game} settled: the next one starts soon", { game: table.game })
              : _("Game {game}: cards being turned", { game: table.game })}</span>
        </a>
      </li>`,
    )}
  </ul>`;
}

function GameTile({ art, cards, chip, title, badge, live, children, foot }) {
  return html`<article class="game-tile" aria-label=${title}>
    <div class=${`felt game-art ${art}`} aria-hidden="true">
      ${cards.map((card, i) => html`<${Card} key=${i} card=${card} />`)}
      ${chip && html`<${Chip} value=${chip} size=${42} />`}
    </div>
    <div class="game-body">
      <div><span class=${`badge${live ? " live" : ""}`}>${badge}</span></div>
      <h2>${title}</h2>
      ${children}
      <div class="game-foot">${foot}</div>
    </div>
  </article>`;
}

function Hero() {
  const user = me.value;
  return html`<section class="felt hero" aria-labelledby="lobby-title">
    <div>
      <p class="eyebrow" style="color: var(--gold-light)">${_("Play money · provably fair")}</p>
      <h1 id="lobby-title">${_("Blackjack, four ways")}</h1>
      <p>${_("Sit at a live Casino table with other players, play Online Blackjack on your own against a dealer whose every shoe you can verify, or explore the odds of any rules in the lab.")}</p>
      ${user &&
      html`<div class="hero-actions">
        <div class="hero-stat"><span>${_("Your balance")}</span><${Money} amount=${user.balance} /></div>
        <a class="btn btn-primary" href="/online">${_("Play Online now")}</a>
        <a class="btn btn-ghost" href="/account">${_("Top up")}</a>
      </div>`}
      ${user === null &&
      html`<div class="hero-actions">
        <a class="btn btn-primary" href="/register">${_("Register: {amount} to start", { amount: formatMoney(100000) })}</a>
        <a class="btn btn-ghost" href="/login">${_("Sign in")}</a>
      </div>`}
    </div>
    <div class="hero-cards" aria-hidden="true">
      <${Card} card="AS" /><${Card} card="KH" /><${Card} card=${null} />
      <${Chip} value=${2500} size=${54} />
    </div>
  </section>`;
}

export default function Lobby() {
  const user = me.value;
  useShortcuts({
    o: { run: () => navigate("/online"), label: _("Play Online Blackjack") },
    l: { run: () => navigate("/lab"), label: _("Open the rules lab") },
  });
  return html`
    <${Hero} />
    ${user === null &&
    html`<div class="panel sign-in-prompt" role="note">
      <p style="margin: 0"><strong>${_("Sign in to play.")}</strong> ${_("Anyone may watch a live table; a bet needs an account (free, with play money).")}</p>
      <div class="btn-row"><a class="btn btn-secondary" href="/login">${_("Sign in")}</a><a class="btn btn-primary" href="/register">${_("Register")}</a></div>
    </div>`}
    <div class="section-title"><h2>${_("The games")}</h2><a href="/lab">${_("Compare the rules in the lab")}</a></div>
    <div class="games">
      <${GameTile} art="casino" title=${_("Casino Blackjack")} badge=${_("Live tables")} live=${true} cards=${["AH", "KS"]} chip=${10000}
        foot=${html`<a href="/rules/casino">${_("Rules and payouts")}</a>`}>
        <p>${_("Seven boxes, six decks, European no-hole-card rules at a shared table: a betting window, then a clock on every decision.")}</p>
        <${CasinoTables} />
      </${GameTile}>
      <${GameTile} art="online" title=${_("Online Blackjack")} badge=${_("Play now")} live=${true} cards=${["TD", "AC"]} chip=${500}
        foot=${html`<a class="btn btn-primary" href="/online" data-kbd="o" aria-keyshortcuts="O">${_("Sit down")} <kbd aria-hidden="true">O</kbd></a><a href="/rules/online">${_("Rules and payouts")}</a>`}>
        <p>${_("Your own table, dealt at once: every round's shoe committed before your bet and revealed after, with a basic-strategy hint if you want one.")}</p>
      </${GameTile}>
      <${GameTile} art="vinte" title=${_("Vinte-e-um")} badge=${_("Live tables")} live=${true} cards=${["7C", null]} chip=${100}
        foot=${html`<a class="btn btn-primary" href="/vinte">${_("Play with friends")}</a><a href="/rules/vinte">${_("Read the rules")}</a>`}>
        <p>${_("The Brazilian home banking game: the banker deals one hidden card to each player and plays against them all; ties go to the bank.")}</p>
      </${GameTile}>
      <${GameTile} art="exchange" title=${_("Exchange Blackjack")} badge=${_("Live markets")} live=${true} cards=${["9H", "9S"]} chip=${50000}
        foot=${html`<a href="/rules/exchange">${_("Read the rules")}</a>`}>
        <p>${_("Nobody plays: four player hands and the dealer's are dealt by fixed rules while you back or lay them against other players, round by timed round.")}</p>
        <${ExchangeTables} />
      </${GameTile}>
    </div>
  `;
}
