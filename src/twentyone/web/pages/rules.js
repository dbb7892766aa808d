// The rules of each game in words (/rules/casino, /rules/online, /rules/vinte, /rules/exchange),
// from GET /api/rules/{game}: the play, the table's rules, the payouts and, for the house games,
// the theoretical return of the table's current rules from the exact analysis (the server runs
// it in its analysis worker; the first answer for new rules can take a few seconds).
import { html, useEffect, useRef } from "../js/lib.js";
import { get } from "../js/api.js";
import { ErrorLine, useAsync, Money } from "../js/ui.js";
import { Card } from "../js/cards.js";
import { _, _h, N_, formatNumber, language } from "../js/i18n.js";

const GAMES = [
  { id: "casino", name: N_("Casino Blackjack"), cards: ["AS", "KH"], play: "/casino/casino-1", playText: N_("Sit at a table") },
  { id: "online", name: N_("Online Blackjack"), cards: ["TD", "AC"], play: "/online", playText: N_("Play now") },
  { id: "vinte", name: N_("Vinte-e-um"), cards: [null, "9S"], play: "/vinte", playText: N_("Play at a live table") },
  { id: "exchange", name: N_("Exchange Blackjack"), cards: ["7H", "7H"], play: "/exchange/exchange-1", playText: N_("Bet on the live market") },
];

function percent(fraction, digits = 2) {
  return formatNumber(fraction, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The rules lab's address for these rules (its form opens filled with them). */
export function labLink(lab) {
  if (!lab) return null;
  const query = new URLSearchParams({ preset: lab.preset });
  if (lab.rules && Object.keys(lab.rules).length) query.set("rules", JSON.stringify(lab.rules));
  return `/lab?${query}`;
}

function Figures({ data }) {
  if (data.theoretical_return === null || data.theoretical_return === undefined) {
    const house = data.game === "casino" || data.game === "online";
    return html`<div class="rules-figures">
      <div class="rules-figure wide">
        <span>${_("Theoretical return")}</span>
        <strong>${house ? _("not available") : data.game === "exchange" ? _("set by the market") : _("depends on the play")}</strong>
        <small>${house ? _("The exact analysis could not be run for these rules right now.") : `${data.basis}.`}</small>
      </div>
    </div>`;
  }
  return html`<div class="rules-figures">
    <div class="rules-figure">
      <span>${_("Theoretical return")}</span>
      <strong data-testid="theoretical-return">${percent(data.theoretical_return, 3)}</strong>
      <small>${_("with perfect play")}</small>
    </div>
    <div class="rules-figure">
      <span>${_("House edge")}</span>
      <strong data-testid="house-edge">${percent(data.house_edge, 3)}</strong>
      <small>${_("per unit of the first bet")}</small>
    </div>
    ${data.basic_strategy_return != null &&
    html`<div class="rules-figure">
      <span>${_("With basic strategy")}</span>
      <strong>${percent(data.basic_strategy_return, 3)}</strong>
      <small>${_("the chart's play")}</small>
    </div>`}
  </div>`;
}

function RulesBody({ data, game }) {
  const lab = labLink(data.lab);
  const info = GAMES.find((g) => g.id === game);
  const limits = data.rules && data.rules.min_bet !== undefined;
  return html`<div class="rules-layout">
    <div class="rules-main">
      ${data.sections.map(
        (section) => html`<section class="panel rules-section" aria-label=${section.heading}>
          <h2>${section.heading}</h2>
          <ul>${section.items.map((item, i) => html`<li key=${i}>${item}</li>`)}</ul>
        </section>`,
      )}
    </div>
    <aside class="rules-side">
      <section class="panel rules-payouts" aria-label=${_("Payouts")}>
        <h2>${_("Payouts")}</h2>
        <table class="data-table">
          <thead><tr><th scope="col">${_("Hand")}</th><th scope="col" class="num">${_("Pays")}</th></tr></thead>
          <tbody>
            ${data.payouts.map((p, i) => html`<tr key=${i}><td>${p.hand}</td><td class="num"><strong>${p.pays}</strong></td></tr>`)}
          </tbody>
        </table>
        ${limits && html`<p class="rules-limits">${_h("Bets {low} to {high}", { low: html`<${Money} amount=${data.rules.min_bet} />`, high: html`<${Money} amount=${data.rules.max_bet} />` })}</p>`}
      </section>
      <section class="panel rules-actions" aria-label=${_("Next")}>
        ${info.play ? html`<a class="btn btn-primary" href=${info.play}>${_(info.playText)}</a>` : html`<span class="badge">${_(info.playText)}</span>`}
        ${lab && html`<a class="btn btn-secondary" href=${lab} data-testid="lab-link">${_("Open these rules in the lab")}</a>`}
        ${lab && html`<p class="muted">${_("The lab shows the basic strategy chart of these rules, the edge by dealer up card, a simulation and a hand calculator.")}</p>`}
        ${data.theoretical_return != null && html`<p class="muted rules-basis">${_("Theoretical return: {basis}.", { basis: data.basis })}</p>`}
      </section>
    </aside>
  </div>`;
}

export default function Rules({ params, query }) {
  const game = params.game;
  const info = GAMES.find((g) => g.id === game);
  const table = query && query.get ? query.get("table") : null;
  const base = `/api/rules/${game}${table ? `?table=${encodeURIComponent(table)}&` : "?"}`;
  // The words at once; the exact figures when the analysis worker has them (seconds at most,
  // the first time these rules are asked for; then from its cache).
  // The server words the rules in the page's language (the lang cookie): asked again on a switch.
  const words = useAsync(() => (info ? get(`${base}figures=false`) : Promise.resolve(null)), [game, table, language.value]);
  const house = game === "casino" || game === "online";
  const full = useAsync(() => (info && house ? get(base.slice(0, -1)) : Promise.resolve(null)), [game, table, language.value]);
  const data = full.data || words.data;
  const error = words.error || full.error;
  const loading = house && full.loading;
  const tabsRef = useRef(null);
  useEffect(() => {
    // On a phone the tabs scroll sideways: bring this game's into view.
    const nav = tabsRef.current;
    const current = nav && nav.querySelector("[aria-current=page]");
    if (current && nav.scrollWidth > nav.clientWidth) nav.scrollLeft = current.offsetLeft - 12;
  }, [game]);
  const tabs = html`<nav class="rules-tabs" aria-label=${_("Rules of each game")} ref=${tabsRef}>
    ${GAMES.map((g) => html`<a key=${g.id} href=${`/rules/${g.id}`} aria-current=${g.id === game ? "page" : undefined}>${_(g.name)}</a>`)}
  </nav>`;
  if (!info) {
    return html`<link rel="stylesheet" href="/static/css/rules.css" />${tabs}
      <p class="error-line" role="alert">${_("There is no game called \u201c{game}\u201d: pick one above.", { game })}</p>`;
  }
  return html`<link rel="stylesheet" href="/static/css/rules.css" />
    ${tabs}
    <header class=${`felt rules-hero ${game}`}>
      <div class="rules-hero-text">
        <p class="eyebrow">${_("Rules")}</p>
        <h1>${_(info.name)}</h1>
        <p class="lead">${data ? data.summary : "\u00a0"}</p>
        ${data && !(loading && !full.data) && html`<${Figures} data=${data} />`}
        ${loading && !full.data && html`<p class="loading figures-loading">${_("Working out the exact return of this table's rules")}</p>`}
      </div>
      <div class="rules-hero-cards" aria-hidden="true">
        ${info.cards.map((card, i) => html`<${Card} key=${i} card=${card} />`)}
      </div>
    </header>
    <${ErrorLine} error=${error} />
    ${data && html`<${RulesBody} data=${data} game=${game} />`}
  `;
}
