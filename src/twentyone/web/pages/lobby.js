// The lobby: the four games as tiles (the live Casino tables listed in theirs), your balance,
// and a sign-in prompt for visitors.
import { html, useEffect } from "../js/lib.js";
import { get, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { Money, Chip, useAsync, ErrorLine, formatMoney } from "../js/ui.js";
import { Card } from "../js/cards.js";
import { useShortcuts } from "../js/keys.js";
import { navigate } from "../js/app.js";

/** How often the open tables are read again (their boxes fill and empty). */
const TABLES_REFRESH_MS = 15000;

const PHASES = { waiting: "waiting for players", betting: "betting", playing: "in play", settled: "settling" };

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
      label: "Go to the first Casino table",
    },
  });
  if (loading && !data) return html`<p class="muted">Looking for open tables...</p>`;
  if (error) return html`<${ErrorLine} error=${error} />`;
  if (!data || data.length === 0) return html`<p class="muted">No tables yet: an operator opens them.</p>`;
  return html`<ul class="table-list" aria-label="Open Casino tables">
    ${data.map(
      (table) => html`<li>
        <a href=${`/casino/${encodeURIComponent(table.id)}`} aria-label=${`${table.name}: ${table.taken} of ${table.boxes} boxes taken, bets ${formatMoney(table.min_bet)} to ${formatMoney(table.max_bet)}`}>
          <strong>${table.name}</strong>
          <span class="limits"><${Money} amount=${table.min_bet} /> to <${Money} amount=${table.max_bet} /></span>
          <span class="seats">${table.taken}/${table.boxes} boxes · ${PHASES[table.phase] || table.phase}${table.spectators ? ` · ${table.spectators} watching` : ""}</span>
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
      <p class="eyebrow" style="color: var(--gold-light)">Play money · provably fair</p>
      <h1 id="lobby-title">Blackjack, four ways</h1>
      <p>Sit at a live Casino table with other players, play Online Blackjack on your own against a dealer whose every shoe you can verify, or explore the odds of any rules in the lab.</p>
      ${user &&
      html`<div class="hero-actions">
        <div class="hero-stat"><span>Your balance</span><${Money} amount=${user.balance} /></div>
        <a class="btn btn-primary" href="/online">Play Online now</a>
        <a class="btn btn-ghost" href="/account">Top up</a>
      </div>`}
      ${user === null &&
      html`<div class="hero-actions">
        <a class="btn btn-primary" href="/register">Register: 1,000.00 to start</a>
        <a class="btn btn-ghost" href="/login">Sign in</a>
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
    o: { run: () => navigate("/online"), label: "Play Online Blackjack" },
    l: { run: () => navigate("/lab"), label: "Open the rules lab" },
  });
  return html`
    <${Hero} />
    ${user === null &&
    html`<div class="panel sign-in-prompt" role="note">
      <p style="margin: 0"><strong>Sign in to play.</strong> Anyone may watch a live table; a bet needs an account (free, with play money).</p>
      <div class="btn-row"><a class="btn btn-secondary" href="/login">Sign in</a><a class="btn btn-primary" href="/register">Register</a></div>
    </div>`}
    <div class="section-title"><h2>The games</h2><a href="/lab">Compare the rules in the lab</a></div>
    <div class="games">
      <${GameTile} art="casino" title="Casino Blackjack" badge="Live tables" live=${true} cards=${["AH", "KS"]} chip=${10000}
        foot=${html`<a href="/rules/casino">Rules and payouts</a>`}>
        <p>Seven boxes, six decks, European no-hole-card rules at a shared table: a betting window, then a clock on every decision.</p>
        <${CasinoTables} />
      </${GameTile}>
      <${GameTile} art="online" title="Online Blackjack" badge="Play now" live=${true} cards=${["TD", "AC"]} chip=${500}
        foot=${html`<a class="btn btn-primary" href="/online" data-kbd="o" aria-keyshortcuts="O">Sit down <kbd aria-hidden="true">O</kbd></a><a href="/rules/online">Rules and payouts</a>`}>
        <p>Your own table, dealt at once: every round's shoe committed before your bet and revealed after, with a basic-strategy hint if you want one.</p>
      </${GameTile}>
      <${GameTile} art="vinte" title="Vinte-e-um" badge="Live tables coming" cards=${["7C", null]} chip=${100}
        foot=${html`<a href="/rules/vinte">Read the rules</a>`}>
        <p>The Brazilian home banking game: the banker deals one hidden card to each player and plays against them all; ties go to the bank.</p>
      </${GameTile}>
      <${GameTile} art="exchange" title="Exchange Blackjack" badge="Live tables coming" cards=${["9H", "9S"]} chip=${50000}
        foot=${html`<a href="/rules/exchange">Read the rules</a>`}>
        <p>Nobody plays: four player hands and the dealer's are dealt by fixed rules while you back or lay them against other players, round by timed round.</p>
      </${GameTile}>
    </div>
  `;
}
