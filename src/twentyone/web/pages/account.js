// Your account: the balance, the hourly top-up (a refusal says how long to wait), and the
// statement of every transfer, newest first, a page at a time (GET /api/me/statement, `next`).
import { html, useState, useEffect } from "../js/lib.js";
import { get, post, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { Money, Button, ErrorLine, Panel, formatMoney, formatTime, formatDuration } from "../js/ui.js";
import { play } from "../js/sound.js";
import { useShortcuts } from "../js/keys.js";
import { _, N_ } from "../js/i18n.js";

export const PAGE = 20;

const REASONS = {
  grant: N_("Welcome grant"),
  "top-up": N_("Top-up"),
  stake: N_("Bet placed"),
  "stake returned": N_("Stake returned"),
  winnings: N_("Winnings"),
  "void refund": N_("Refund (round voided)"),
};

/** A transfer's reason in words ("stake returned" -> "Stake returned"). */
export function reasonLabel(reason) {
  if (REASONS[reason]) return _(REASONS[reason]);
  return reason ? reason[0].toUpperCase() + reason.slice(1) : _("Transfer");
}

/** The round page of a transfer's round, from its counterparty account (null: no link). */
function roundLink(item) {
  if (item.round === null || item.round === undefined) return null;
  const kind = String(item.counterparty || "").includes("casino") ? "casino" : "online";
  return `/history/${kind}/${item.round}`;
}

/** The server's top-up refusal ("... wait 3540 s more", in any language: the wait is its last
 * number) as a friendly sentence. */
export function topUpWait(message) {
  const found = /(\d+(?:\.\d+)?)\D*$/.exec(message || "");
  if (!found) return message;
  return _("You have had this hour's top-up. The next one is possible in {wait}.", { wait: formatDuration(Number(found[1])) });
}

function Statement({ version }) {
  const [rows, setRows] = useState([]);
  const [next, setNext] = useState(null);
  const [error, setError] = useState(null);
  const [loading, setLoading] = useState(true);

  async function load(before) {
    setLoading(true);
    setError(null);
    try {
      const query = `?limit=${PAGE}${before ? `&before=${before}` : ""}`;
      const page = await get(`/api/me/statement${query}`);
      setRows((old) => (before ? [...old, ...page.transfers] : page.transfers));
      setNext(page.next);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  }
  useEffect(() => {
    load(null);
  }, [version]);
  useShortcuts({ n: { run: () => next !== null && !loading && load(next), label: _("Show older transfers") } });

  return html`<${Panel} title=${_("Statement")} class="statement">
    <${ErrorLine} error=${error} />
    ${rows.length === 0 && loading && html`<p class="loading">${_("Loading the statement...")}</p>`}
    ${rows.length === 0 && !loading && !error && html`<p class="muted">${_("No transfers yet.")}</p>`}
    ${rows.length > 0 &&
    html`<table class="data-table" aria-label=${_("Statement, newest first")}>
      <thead><tr><th scope="col">${_("Date")}</th><th scope="col">${_("What")}</th><th scope="col" class="hide-narrow">${_("Round")}</th><th scope="col" class="num">${_("Amount")}</th></tr></thead>
      <tbody>
        ${rows.map((item) => {
          const link = roundLink(item);
          return html`<tr key=${item.id} data-reason=${item.reason}>
            <td>${formatTime(item.at)}</td>
            <td><span class="reason"><span class=${`reason-dot ${item.amount > 0 ? "in" : "out"}`} aria-hidden="true"></span>${reasonLabel(item.reason)}</span></td>
            <td class="hide-narrow">${link ? html`<a href=${link}>#${item.round}</a>` : html`<span class="muted">-</span>`}</td>
            <td class="num"><${Money} amount=${item.amount} signed=${true} /></td>
          </tr>`;
        })}
      </tbody>
    </table>`}
    ${next !== null &&
    html`<div class="pager"><${Button} kbd="n" onClick=${() => load(next)} busy=${loading}>${_("Show older transfers")}</${Button}></div>`}
  </${Panel}>`;
}

export default function Account() {
  const user = me.value;
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);
  useShortcuts({ t: { run: () => !busy && me.value && topUp(), label: _("Top up") } });

  if (user === undefined) return html`<p class="loading">${_("Loading...")}</p>`;
  if (user === null) {
    return html`<div class="panel notice">
      <h1>${_("Your account")}</h1>
      <p>${_("Sign in to see your balance and statement.")}</p>
      <div class="btn-row" style="justify-content: center"><a class="btn btn-primary" href="/login?next=/account">${_("Sign in")}</a><a class="btn btn-secondary" href="/register?next=/account">${_("Register")}</a></div>
    </div>`;
  }

  async function topUp() {
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      const out = await post("/api/me/topup");
      me.value = { ...me.value, balance: out.balance };
      window.dispatchEvent(new CustomEvent("balance", { detail: out.balance }));
      play("chip");
      setDone(_("Added {amount} to your balance.", { amount: formatMoney(out.balance - user.balance) }));
      setVersion((n) => n + 1);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 429 ? topUpWait(failure.message) : failure);
    } finally {
      setBusy(false);
    }
  }

  return html`
    <div class="page-head">
      <div><p class="eyebrow">${_("Your account")}</p><h1>${user.name}</h1></div>
      <a href="/history">${_("Your rounds")}</a>
    </div>
    <div class="account-grid">
      <section class="felt balance-card" aria-labelledby="balance-title">
        <h2 id="balance-title">${_("Balance")}</h2>
        <span class="big" data-testid="account-balance"><${Money} amount=${user.balance} /></span>
        <${Button} variant="primary" kbd="t" onClick=${topUp} busy=${busy}>${_("Top up")}</${Button}>
        <p class="muted" style="margin: 0.75rem 0 0">${_("Play money, once an hour. Money in an open round is not counted here.")}</p>
        ${done && html`<p class="success-line" role="status">${done}</p>`}
        <${ErrorLine} error=${error} />
      </section>
      <${Statement} version=${version} />
    </div>
  `;
}
