// One of your rounds (/history/:kind/:id): replayed step by step from its events, with its
// provably fair record and "Verify in the browser", which recomputes the shoe here from the
// revealed seeds (web/js/fairness.js) and shows a tick, or the first card that differs.
import { html, useState, useEffect } from "../js/lib.js";
import { get } from "../js/api.js";
import { me } from "../js/session.js";
import { Money, ErrorLine, Button, useAsync, capitalise } from "../js/ui.js";
import { Card, cardName } from "../js/cards.js";
import { Replay, eventCards } from "../js/replay.js";
import { verifyRecord } from "../js/fairness.js";
import { casinoTableNames, tableName } from "./history.js";
import { _, _h, N_, formatDateTime } from "../js/i18n.js";

const GAME = { online: N_("Online Blackjack"), casino: N_("Casino Blackjack") };

function roundPath(kind, id) {
  return kind === "casino" ? `/api/casino/rounds/${encodeURIComponent(id)}` : `/api/online/rounds/${encodeURIComponent(id)}`;
}

function formatWhen(seconds) {
  if (seconds === null || seconds === undefined) return "";
  return formatDateTime(seconds, {
    day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
}

function Verdict({ result, record }) {
  if (!result) return null;
  if (result.error) {
    return html`<div class="verdict bad" role="status" data-testid="verdict" data-ok="false">
      <span class="verdict-mark" aria-hidden="true">\u2717</span>
      <div><strong>${_("Not verified")}</strong><p>${capitalise(_(result.error))}.</p></div>
    </div>`;
  }
  if (result.ok) {
    return html`<div class="verdict good" role="status" data-testid="verdict" data-ok="true">
      <span class="verdict-mark" aria-hidden="true">\u2713</span>
      <div><strong>${_("Verified in your browser")}</strong>
        <p>${record.position
          ? _("The server seed hashes to the commitment shown before the round, and the seeds give exactly these {count} cards from shoe position {position}.", { count: record.cards.length, position: record.position })
          : _("The server seed hashes to the commitment shown before the round, and the seeds give exactly these {count} cards.", { count: record.cards.length })}</p></div>
    </div>`;
  }
  const diff = result.firstDifference;
  return html`<div class="verdict bad" role="status" data-testid="verdict" data-ok="false">
    <span class="verdict-mark" aria-hidden="true">\u2717</span>
    <div><strong>${_("Not verified")}</strong>
      ${!result.commitmentOk && html`<p>${_h("The server seed does not hash to the published commitment (it hashes to {hash}).", { hash: html`<code>${result.computedCommitment}</code>` })}</p>`}
      ${result.eventsDiffer && html`<p data-testid="events-differ">${_h("The replay's card {index} is {shown}, but the record has {recorded}.", {
        index: result.eventsDiffer.index + 1,
        shown: result.eventsDiffer.shown ? html`<strong>${cardName(result.eventsDiffer.shown)}</strong>` : _("missing"),
        recorded: result.eventsDiffer.recorded ? html`<strong>${cardName(result.eventsDiffer.recorded)}</strong>` : _("no such card"),
      })}</p>`}
      ${diff && html`<p data-testid="first-difference">${_h("Card {index} (shoe position {position}) is {got} in the record, but the seeds give {expected}.", {
        index: diff.index + 1,
        position: diff.position,
        got: html`<strong>${cardName(diff.got)}</strong>`,
        expected: html`<strong>${cardName(diff.expected)}</strong>`,
      })}</p>`}
    </div>
  </div>`;
}

function FairnessPanel({ round }) {
  const record = round.fairness;
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setResult(null), [round]);
  const revealed = record && typeof record.server_seed === "string";
  const verify = async () => {
    setBusy(true);
    try {
      const checked = await verifyRecord(record);
      // The replay must show the record's cards too: the first card where they part.
      const shown = eventCards(round);
      const parted = shown.findIndex((card, i) => card !== null && card !== record.cards[i]);
      if (parted >= 0 || shown.length !== record.cards.length) {
        const index = parted >= 0 ? parted : Math.min(shown.length, record.cards.length);
        checked.eventsDiffer = { index, shown: shown[index] ?? null, recorded: record.cards[index] ?? null };
        checked.ok = false;
      }
      setResult(checked);
    } catch (error) {
      setResult({ ok: false, error: _("the check could not run: {reason}", { reason: error.message }) });
    } finally {
      setBusy(false);
    }
  };
  const download = () => {
    const blob = new Blob([JSON.stringify(record, null, 2) + "\n"], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `round-${round.id}-fairness.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  };
  const differing = result && result.firstDifference ? result.firstDifference.index : -1;
  const commitment = (record && record.commitment) || round.commitment;
  return html`<section class="panel fairness" aria-label=${_("Fairness record")}>
    <header class="panel-head"><h2>${_("Provably fair")}</h2>${revealed && html`<span class="badge live">${_("seed revealed")}</span>`}</header>
    <dl class="fair-fields">
      <div><dt>${_("Server seed")}</dt><dd><code data-testid="server-seed">${revealed ? record.server_seed : _("revealed when the round settles")}</code></dd></div>
      <div><dt>${_("Commitment (SHA-256)")}</dt><dd><code>${commitment || "\u2014"}</code></dd></div>
      <div><dt>${_("Client seed")}</dt><dd><code>${(record && record.client_seed) ?? round.client_seed ?? "\u2014"}</code></dd></div>
      <div class="pair"><div><dt>${_("Nonce")}</dt><dd><code>${(record && record.nonce) ?? round.nonce ?? "\u2014"}</code></dd></div>
        <div><dt>${_("Decks")}</dt><dd><code>${record ? record.decks ?? _("infinite") : "\u2014"}</code></dd></div>
        <div><dt>${_("Position")}</dt><dd><code>${record ? record.position : "\u2014"}</code></dd></div></div>
    </dl>
    ${record && Array.isArray(record.cards) &&
    html`<div class="fair-cards">
      <h3>${_("Cards dealt, in order")}</h3>
      <ol aria-label=${_("The record's cards")}>
        ${record.cards.map((card, i) => html`<li key=${i} class=${i === differing ? "differs" : result && result.ok ? "checked" : ""}>
          <${Card} card=${card} small />
          <small>${(record.position || 0) + i}</small>
        </li>`)}
      </ol>
    </div>`}
    ${revealed
      ? html`<div class="fair-actions">
          <${Button} variant="primary" onClick=${verify} busy=${busy} label=${_("Verify in the browser")}>${_("Verify in the browser")}</${Button}>
          <${Button} onClick=${download} label=${_("Download the record as JSON")}>${_("Download record")}</${Button}>
        </div>
        <${Verdict} result=${result} record=${record} />
        <p class="fair-note">${_h("The check runs here, with your browser's own SHA-256 and HMAC: HMAC-SHA256(server seed, \"client seed:nonce:i\") drives a Fisher-Yates shuffle of the shoe in its canonical order. Or check it offline: {command}.", {
          command: html`<code>twentyone verify round-${round.id}-fairness.json</code>`,
        })}</p>`
      : html`<p class="fair-note">${round.state === "void"
        ? _("This round was voided: its stakes were refunded.")
        : round.kind === "casino" || round.table
          ? _("The server seed is revealed when the round settles and its shoe is retired: then you can verify every card here.")
          : _("The server seed is revealed when the round settles: then you can verify every card here.")}</p>`}
  </section>`;
}

function Summary({ round, kind }) {
  const net = round.net;
  const [names, setNames] = useState({});
  useEffect(() => {
    if (kind === "casino") casinoTableNames().then(setNames);
  }, [kind]);
  return html`<div class="replay-summary">
    <div><span>${_("Table")}</span><strong>${kind === "casino" ? tableName(round.table, names) : _("Online Blackjack")}</strong></div>
    <div><span>${_("Dealt")}</span><strong>${formatWhen(round.created_at)}</strong></div>
    <div><span>${_("Bet")}</span><strong><${Money} amount=${kind === "casino" ? (round.boxes || []).reduce((s, b) => s + (b.bet || 0), 0) : round.bet || 0} /></strong></div>
    <div><span>${_("Net")}</span><strong>${net === undefined || net === null ? "\u2014" : html`<${Money} amount=${net} signed />`}</strong></div>
  </div>`;
}

export default function ReplayPage({ params }) {
  const kind = params.kind === "casino" ? "casino" : "online";
  const user = me.value;
  const { data: round, error, loading } = useAsync(
    () => (user ? get(roundPath(kind, params.id)) : Promise.resolve(null)),
    [kind, params.id, user && user.name],
  );
  const head = html`<link rel="stylesheet" href="/static/css/history.css" />
    <nav class="crumbs" aria-label=${_("Breadcrumb")}><a href="/history">${_("\u2190 History")}</a></nav>
    <header class="page-head replay-head">
      <div>
        <p class="eyebrow">${_(GAME[kind])} \u00b7 ${_("round #{round}", { round: params.id })}</p>
        <h1>${_("Replay")}</h1>
      </div>
      ${round && html`<${Summary} round=${round} kind=${kind} />`}
    </header>`;
  if (user === null) {
    return html`${head}<section class="panel"><p>${_("Sign in to replay your rounds.")}</p><a class="btn btn-primary" href="/login">${_("Sign in")}</a></section>`;
  }
  return html`${head}
    <${ErrorLine} error=${error} />
    ${loading && !round && html`<p class="loading">${_("Loading the round")}</p>`}
    ${round && round.error && html`<p class="error-line" role="alert">${_("This round cannot be replayed: {reason}", { reason: round.error })}</p>`}
    ${round && Array.isArray(round.events) &&
    html`<div class="replay-layout">
      <div class="replay-main"><${Replay} round=${round} kind=${kind} /></div>
      <aside class="replay-side"><${FairnessPanel} round=${round} /></aside>
    </div>`}
  `;
}
