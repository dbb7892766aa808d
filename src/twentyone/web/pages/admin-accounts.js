// Operators: accounts (search by a part of the name), each with its balance, the money its open
// rounds hold and when it was opened; pick one for its statement (every transfer, newest first,
// page by page). The address keeps the search and the account shown:
// /admin/accounts?name=pat&account=pat_one.
import { html, useState, useEffect } from "../js/lib.js";
import { get } from "../js/api.js";
import { navigate } from "../js/app.js";
import { AdminFrame, DataTable, Money, Problem, isOperator, money, queryString, when } from "./admin.js";
import { _, _h } from "../js/i18n.js";

const PAGE = 50;

/** Pages of a cursor-paged list: {items, next, error, busy, more()}. */
function usePaged(load, deps, pick) {
  const [state, setState] = useState({ items: [], next: null, error: null, busy: true, extra: null });
  useEffect(() => {
    let live = true;
    setState({ items: [], next: null, error: null, busy: true, extra: null });
    load(null).then(
      (page) => live && setState({ items: pick(page), next: page.next, error: null, busy: false, extra: page }),
      (error) => live && setState({ items: [], next: null, error, busy: false, extra: null }),
    );
    return () => {
      live = false;
    };
  }, deps);
  const more = async () => {
    setState((s) => ({ ...s, busy: true }));
    try {
      const page = await load(state.next);
      setState((s) => ({ ...s, items: s.items.concat(pick(page)), next: page.next, busy: false }));
    } catch (error) {
      setState((s) => ({ ...s, error, busy: false }));
    }
  };
  return { ...state, more };
}

function Statement({ name }) {
  const statement = usePaged(
    (before) => get(`/api/admin/accounts/${encodeURIComponent(name)}/statement${queryString({ limit: PAGE, before })}`),
    [name],
    (page) => page.transfers,
  );
  return html`<section class="adm-section adm-statement" aria-labelledby="statement-title">
    <div class="adm-section-head">
      <h2 id="statement-title">${_("Statement of {name}", { name })}</h2>
      <a href=${`/admin/rounds?player=${encodeURIComponent(name)}`}>${_("Rounds \u2192")}</a>
    </div>
    <${Problem} error=${statement.error} />
    ${statement.extra && html`<p class="adm-balance">${_h("Balance {amount}", { amount: html`<strong><${Money} amount=${statement.extra.balance} /></strong>` })}</p>`}
    <${DataTable}
      label=${_("Transfers of {name}", { name })}
      rows=${statement.items}
      empty=${statement.busy ? _("Loading\u2026") : _("No transfer.")}
      columns=${[
        { key: "at", label: _("When"), render: (t) => when(t.at) },
        { key: "reason", label: _("What") },
        { key: "round", label: _("Round"), render: (t) => (t.round ? html`<a href=${`/admin/rounds/online/${t.round}`}>#${t.round}</a>` : "\u2014") },
        { key: "counterparty", label: _("With"), render: (t) => html`<code class="adm-account">${t.counterparty}</code>` },
        { key: "amount", label: _("Amount"), num: true, render: (t) => html`<${Money} amount=${t.amount} signed />` },
      ]}
    />
    ${statement.next !== null && html`<div class="adm-more"><button type="button" class="btn btn-secondary" disabled=${statement.busy} onClick=${statement.more}>${_("Older transfers")}</button></div>`}
  </section>`;
}

export default function AdminAccounts({ query }) {
  const operator = isOperator();
  const name = (query && query.get("name")) || "";
  const shown = (query && query.get("account")) || "";
  const [draft, setDraft] = useState(name);
  useEffect(() => setDraft(name), [name]);
  const accounts = usePaged(
    (before) => (operator ? get(`/api/admin/accounts${queryString({ name, limit: PAGE, before })}`) : Promise.resolve({ accounts: [], next: null })),
    [name, operator],
    (page) => page.accounts,
  );
  const open = (account) => navigate(`/admin/accounts${queryString({ name, account })}`, { replace: true });
  const submit = (event) => {
    event.preventDefault();
    navigate(`/admin/accounts${queryString({ name: draft.trim() })}`);
  };
  return html`<${AdminFrame} active="accounts" title=${_("Accounts")} subtitle=${_("Balances, money held by open rounds, statements")}>
    <form class="adm-filters adm-filters-inline" role="search" aria-label=${_("Search accounts")} onSubmit=${submit}>
      <label>${_("Name contains")}<input name="name" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} placeholder=${_("any")} autocomplete="off" spellcheck="false" /></label>
      <div class="adm-filter-actions"><button type="submit" class="btn btn-primary">${_("Search")}</button></div>
    </form>
    <${Problem} error=${accounts.error} />
    <div class=${shown ? "adm-split" : ""}>
      <div>
        <${DataTable}
          label=${_("Accounts")}
          rows=${accounts.items}
          rowKey=${(a) => a.name}
          onRow=${(a) => open(a.name)}
          rowClass=${(a) => (a.name === shown ? "selected" : "")}
          empty=${accounts.busy ? _("Loading\u2026") : _("No account matches.")}
          columns=${[
            { key: "name", label: _("Name"), render: (a) => html`<a href=${`/admin/accounts${queryString({ name, account: a.name })}`} onClick=${(e) => (e.preventDefault(), open(a.name))}>${a.name}</a>` },
            { key: "role", label: _("Role"), render: (a) => html`<span class=${`adm-role ${a.role}`}>${a.role}</span>` },
            { key: "balance", label: _("Balance"), num: true, render: (a) => money(a.balance) },
            { key: "held", label: _("Held"), num: true, render: (a) => (a.held ? money(a.held) : html`<span class="adm-muted">0.00</span>`) },
            { key: "created_at", label: _("Opened"), render: (a) => when(a.created_at) },
          ]}
        />
        ${accounts.next !== null && html`<div class="adm-more"><button type="button" class="btn btn-secondary" disabled=${accounts.busy} onClick=${accounts.more}>${_("More accounts")}</button></div>`}
      </div>
      ${shown && html`<${Statement} key=${shown} name=${shown} />`}
    </div>
  <//>`;
}
