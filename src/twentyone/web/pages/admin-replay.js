// Operators: one round with every card (the hole card and the server seed too, even while it is
// open), replayed step by step with the shared Replay (web/js/replay.js), its fairness record,
// its decisions, and, for an open Online round, a void with a reason (its stakes go back to the
// player through the ledger; the void is recorded with the operator's name).
import { html, useState } from "../js/lib.js";
import { get, post } from "../js/api.js";
import { Replay } from "../js/replay.js";
import { Card } from "../js/cards.js";
import { AdminFrame, Money, Problem, StateBadge, isOperator, money, roundState, useLoad, when } from "./admin.js";
import { _ } from "../js/i18n.js";

function path(kind, id) {
  return kind === "casino" ? `/api/admin/casino/rounds/${encodeURIComponent(id)}` : `/api/admin/rounds/${encodeURIComponent(id)}`;
}

function players(round, kind) {
  if (kind !== "casino") return round.player || "\u2014";
  const names = (round.boxes || []).map((b) => b && b.player).filter(Boolean);
  return round.player || [...new Set(names)].join(", ") || "\u2014";
}

/** The dealer's hole card while it is still face down at the table (the operator sees it). */
function unturnedHoleCard(round) {
  const events = Array.isArray(round.events) ? round.events : [];
  const dealt = events.some((e) => e.type === "card" && e.to === "dealer" && e.face_up === false);
  const turned = events.some((e) => e.type === "hole-card-revealed");
  const cards = (round.dealer && round.dealer.cards) || [];
  return dealt && !turned && cards.length > 1 ? cards[1] : null;
}

/** The round's stake: an Online round's bet, a Casino round's boxes' bets together. */
function betOf(round, kind) {
  if (kind !== "casino") return round.bet;
  if (round.bet !== undefined) return round.bet;
  const boxes = Array.isArray(round.boxes) ? round.boxes : [];
  return boxes.reduce((sum, b) => sum + (Number(b && b.bet) || 0), 0);
}

function VoidForm({ id, onDone }) {
  const [reason, setReason] = useState("");
  const [sure, setSure] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError(new Error(_("Give the reason for the void: players and auditors read it.")));
      return;
    }
    if (!sure) {
      setSure(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onDone(await post(`/api/admin/rounds/${id}/void`, { reason: reason.trim() }));
    } catch (problem) {
      setError(problem);
      setSure(false);
    }
    setBusy(false);
  };
  return html`<form class="adm-void" aria-label=${_("Void this round")} onSubmit=${submit}>
    <h2>${_("Void this round")}</h2>
    <p>${_("The round ends without a result: every stake it holds goes back to the player, and the void is recorded with your name and the reason.")}</p>
    <label for="void-reason">${_("Reason")}</label>
    <textarea id="void-reason" name="reason" rows="2" maxlength="500" aria-required="true" value=${reason}
      onInput=${(e) => (setReason(e.currentTarget.value.replace(/[\r\n\t]+/g, " ")), setSure(false))}
      placeholder=${_("e.g. the table lost its connection mid-round")}></textarea>
    <${Problem} error=${error} />
    <div class="adm-void-actions">
      <button type="submit" class="btn btn-danger" disabled=${busy}>${sure ? _("Confirm: void and refund") : _("Void round")}</button>
      ${sure && html`<button type="button" class="btn btn-secondary" onClick=${() => setSure(false)}>${_("Cancel")}</button>`}
    </div>
  </form>`;
}

function Fairness({ record }) {
  if (!record) return null;
  const rows = [
    [_("Server seed"), record.server_seed ?? _("not revealed yet")],
    [_("Commitment"), record.commitment],
    [_("Client seed"), record.client_seed],
    [_("Nonce"), record.nonce],
    [_("Decks"), record.decks ?? _("infinite")],
    ...(record.shoe !== undefined ? [[_("Shoe"), record.shoe]] : []),
    ...(record.position !== undefined ? [[_("First card at"), record.position]] : []),
    [_("Cards dealt"), Array.isArray(record.cards) ? record.cards.join(" ") : record.cards],
  ];
  return html`<dl class="adm-kv adm-fair">
    ${rows.map(([k, v]) => html`<dt>${k}</dt><dd><code>${String(v ?? "\u2014")}</code></dd>`)}
  </dl>`;
}

export default function AdminReplay({ params }) {
  const operator = isOperator();
  const kind = params.kind === "casino" ? "casino" : "online";
  const [voided, setVoided] = useState(null);
  const round = useLoad(() => (operator ? get(path(kind, params.id)) : Promise.resolve(null)), [operator, kind, params.id, voided]);
  const r = round.data;
  const state = r ? roundState(r.state) : null;
  const hole = r ? unturnedHoleCard(r) : null;
  return html`<link rel="stylesheet" href="/static/css/history.css" />
  <${AdminFrame}
    active="rounds"
    title=${`Round #${params.id}`}
    subtitle=${kind === "casino" ? _("Casino") : _("Online Blackjack")}
    actions=${html`<a class="btn btn-secondary" href="/admin/rounds">${_("\u2190 Rounds")}</a>`}
  >
    <${Problem} error=${round.error} />
    ${round.loading && !r && html`<p class="adm-note">${_("Loading the round\u2026")}</p>`}
    ${voided && html`<p class="adm-ok" role="status" data-testid="void-done">${_("Round #{round} is void: {amount} refunded. Reason: \u201c{reason}\u201d.", { round: voided.id, amount: money(voided.refunded), reason: voided.reason })}</p>`}
    ${r &&
    html`<div class="adm-summary" data-testid="round-summary">
        <div><span>${_("State")}</span><${StateBadge} state=${r.state} /></div>
        <div><span>${_("Player")}</span><strong>${players(r, kind)}</strong></div>
        <div><span>${_("Table")}</span><strong>${r.table || r.table_id || (kind === "online" ? "online" : "\u2014")}</strong></div>
        <div><span>${_("Bet")}</span><strong>${money(betOf(r, kind))}</strong></div>
        <div><span>${kind === "casino" ? _("Players' net") : _("Player net")}</span><strong>${state !== "settled" || r.net === undefined || r.net === null ? "\u2014" : html`<${Money} amount=${r.net} signed />`}</strong></div>
        <div><span>${_("Dealt")}</span><strong>${when(r.created_at)}</strong></div>
        ${hole && html`<div><span>${_("Hole card (face down)")}</span><strong class="adm-hole"><${Card} card=${hole} /><code data-testid="hole-card">${hole}</code></strong></div>`}
        ${r.settled_at && html`<div><span>${_("Ended")}</span><strong>${when(r.settled_at)}</strong></div>`}
      </div>
      ${r.void_reason && html`<p class="adm-void-reason">${_("Voided: \u201c{reason}\u201d", { reason: r.void_reason })}</p>`}
      ${r.error && html`<p class="adm-problem">${_("This round cannot be replayed: {reason}", { reason: r.error })}</p>`}
      <div class="adm-replay-layout">
        <div class="adm-replay-main">
          ${Array.isArray(r.events) && html`<${Replay} round=${r} kind=${kind} />`}
        </div>
        <aside class="adm-replay-side">
          ${kind === "online" && state === "open" && html`<${VoidForm} id=${r.id} onDone=${setVoided} />`}
          ${r.fairness &&
          html`<section class="adm-section">
            <div class="adm-section-head"><h2>${_("Fairness record")}</h2></div>
            <${Fairness} record=${r.fairness} />
          </section>`}
          ${Array.isArray(r.actions) &&
          html`<section class="adm-section">
            <div class="adm-section-head"><h2>${_("Decisions")}</h2></div>
            ${r.actions.length === 0 ? html`<p class="adm-muted">${_("None yet.")}</p>` : html`<ol class="adm-actions">${r.actions.map((a) => html`<li><code>${a}</code></li>`)}</ol>`}
          </section>`}
        </aside>
      </div>`}
  <//>`;
}
