// The operators' back office: this module is the dashboard (/admin) and also holds what every
// operator page shares (the frame with its tabs and the "operators only" guard, a dense sortable
// table, loading helpers, money and time formats), imported by the other admin-*.js pages.
import { html, useState, useEffect, useCallback, useMemo } from "../js/lib.js";
import { get, ApiError } from "../js/api.js";
import { me } from "../js/session.js";
import { ErrorLine, Money, formatMoney } from "../js/ui.js";
import { _, N_, _h, n_ } from "../js/i18n.js";

const TABS = [
  { path: "/admin", label: N_("Dashboard"), key: "dashboard" },
  { path: "/admin/tables", label: N_("Tables"), key: "tables" },
  { path: "/admin/rounds", label: N_("Rounds"), key: "rounds" },
  { path: "/admin/accounts", label: N_("Accounts"), key: "accounts" },
  { path: "/admin/audit", label: N_("Audit"), key: "audit" },
];

// ------------------------------------------------------------------------------ formats
/** Minor units as "1,234.50" (ui.js's format); a missing amount as a dash. */
export function money(amount, { signed = false } = {}) {
  return amount === null || amount === undefined ? "\u2014" : formatMoney(amount, { signed });
}

/** "12.50" or "12" -> 1250 minor units (a string parsed by its digits: never a float); null if bad. */
export function parseMoney(text) {
  const match = /^\s*(\d{1,12})(?:\.(\d{1,2}))?\s*$/.exec(String(text));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || "0").padEnd(2, "0"));
}

const pad = (n) => String(n).padStart(2, "0");

/** Server epoch seconds as "2027-01-15 08:00:00" in the browser's time zone. */
export function when(at) {
  if (at === null || at === undefined) return "\u2014";
  const d = new Date(at * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A datetime-local input's value ("2027-01-15T08:00") as epoch seconds, or null. */
export function epochOf(localValue) {
  if (!localValue) return null;
  const ms = new Date(localValue).getTime();
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** Epoch seconds as a datetime-local input's value. */
export function localValue(at) {
  if (at === null || at === undefined || at === "") return "";
  const d = new Date(Number(at) * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export { Money };

const STATE_WORDS = { open: N_("Open"), settled: N_("Settled"), void: N_("Void") };

/** An Online round view's state ("player", "insurance", ... while open) as open/settled/void. */
export function roundState(state) {
  return state === "settled" || state === "void" ? state : state ? "open" : "unknown";
}

export function StateBadge({ state }) {
  const plain = roundState(state);
  return html`<span class=${`adm-badge ${plain}`}>${STATE_WORDS[plain] ? _(STATE_WORDS[plain]) : plain}</span>`;
}

// ------------------------------------------------------------------------------ loading
/** Runs `load` (async) when `deps` change: {data, error, loading, reload}. */
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: undefined, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** GET that answers null for a 404 (a part of the API another release adds, e.g. Casino). */
export async function getOptional(path) {
  try {
    return await get(path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** A query string from the set values of an object. */
export function queryString(params) {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

export function Problem({ error }) {
  if (!error) return null;
  const text = error instanceof ApiError && error.status === 403 ? _("Operators only: this account may not see it.") : error.message || String(error);
  return html`<${ErrorLine} error=${text} />`;
}

// ------------------------------------------------------------------------------ the frame
/** Every operator page: the guard (signed in as an operator), the tabs, the title. */
export function AdminFrame({ active, title, subtitle, actions, children }) {
  const user = me.value;
  return html`<link rel="stylesheet" href="/static/css/admin.css" />
    <div class="adm">
      ${user &&
      user.role === "operator" &&
      html`<nav class="adm-tabs" aria-label=${_("Operator pages")}>
        <span class="adm-mark" aria-hidden="true">${_("Back office")}</span>
        ${TABS.map(
          (tab) => html`<a href=${tab.path} class=${tab.key === active ? "current" : ""} aria-current=${tab.key === active ? "page" : undefined}>${_(tab.label)}</a>`,
        )}
      </nav>`}
      ${user === undefined && html`<p class="adm-note">${_("Loading\u2026")}</p>`}
      ${user !== undefined &&
      (!user || user.role !== "operator") &&
      html`<section class="adm-denied" role="alert">
        <h1>${_("Operators only")}</h1>
        <p>${_("These pages are for the casino's operators.")} ${user
          ? _h("The account {name} is a player's.", { name: html`<strong>${user.name}</strong>` })
          : _h("{signIn} with an operator account.", { signIn: html`<a href="/login">${_("Sign in")}</a>` })}</p>
        <p><a href="/">${_("Back to the lobby")}</a></p>
      </section>`}
      ${user &&
      user.role === "operator" &&
      html`<header class="adm-head">
          <div>
            <h1>${title}</h1>
            ${subtitle && html`<p class="adm-sub">${subtitle}</p>`}
          </div>
          ${actions && html`<div class="adm-head-actions">${actions}</div>`}
        </header>
        ${children}`}
    </div>`;
}

/** Is the signed-in user an operator (so a page may start loading)? */
export function isOperator() {
  const user = me.value;
  return Boolean(user && user.role === "operator");
}

// ------------------------------------------------------------------------------ the table
function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

/**
 * A dense back-office table. columns: [{key, label, value?(row) for sorting, render?(row),
 * num?: right-aligned, sort?: false}]; clicking a header sorts by it (again: the other way).
 * `onRow(row)` makes rows clickable (each row's first cell holds its link for the keyboard);
 * on phones each row is a card of `phoneColumns` label/value columns.
 */
export function DataTable({ columns, rows, rowKey = (r) => r.id, onRow, label, empty = _("Nothing to show."), sortable = true, rowClass, phoneColumns = 2 }) {
  const [sort, setSort] = useState({ key: null, down: true });
  const sorted = useMemo(() => {
    if (!sort.key) return rows;
    const column = columns.find((c) => c.key === sort.key);
    const value = column.value || ((r) => r[column.key]);
    const out = [...rows].sort((a, b) => compare(value(a), value(b)));
    return sort.down ? out.reverse() : out;
  }, [rows, sort, columns]);
  const toggle = (key) => setSort((s) => ({ key, down: s.key === key ? !s.down : true }));
  return html`<div class="adm-table-wrap">
    <table class="adm-table" aria-label=${label} style=${`--adm-cols: ${phoneColumns}`}>
      <thead>
        <tr>
          ${columns.map((c) => {
            const on = sort.key === c.key;
            const aria = on ? (sort.down ? "descending" : "ascending") : undefined;
            return html`<th scope="col" class=${c.num ? "num" : ""} aria-sort=${aria}>
              ${sortable && c.sort !== false
                ? html`<button type="button" class="adm-sort" onClick=${() => toggle(c.key)}>${_(c.label)}<span class="adm-arrow" aria-hidden="true">${on ? (sort.down ? "\u25BE" : "\u25B4") : ""}</span></button>`
                : _(c.label)}
            </th>`;
          })}
        </tr>
      </thead>
      <tbody>
        ${sorted.length === 0 && html`<tr class="adm-empty"><td colspan=${columns.length}>${empty}</td></tr>`}
        ${sorted.map(
          (row) => html`<tr
            key=${rowKey(row)}
            class=${`${onRow ? "clickable" : ""} ${rowClass ? rowClass(row) : ""}`}
            onClick=${onRow ? (event) => !event.target.closest("a,button") && onRow(row) : undefined}
          >
            ${columns.map((c) => html`<td class=${c.num ? "num" : ""} data-label=${_(c.label)}>${c.render ? c.render(row) : row[c.key] ?? "\u2014"}</td>`)}
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function Stat({ label, value, tone, href, note }) {
  const body = html`<span class="adm-stat-label">${label}</span><span class="adm-stat-value">${value}</span>${note && html`<span class="adm-stat-note">${note}</span>`}`;
  return href
    ? html`<a class=${`adm-stat ${tone || ""}`} href=${href}>${body}</a>`
    : html`<div class=${`adm-stat ${tone || ""}`}>${body}</div>`;
}

export function Section({ title, children, actions, id }) {
  return html`<section class="adm-section" aria-labelledby=${id}>
    <div class="adm-section-head"><h2 id=${id}>${title}</h2>${actions}</div>
    ${children}
  </section>`;
}

/** The void columns shared by the dashboard and the audit. */
export const VOID_COLUMNS = [
  { key: "at", label: N_("Voided"), render: (v) => when(v.at) },
  {
    key: "round",
    label: N_("Round"),
    value: (v) => v.round ?? v.target,
    render: (v) =>
      v.round && v.kind !== "other"
        ? html`<a href=${`/admin/rounds/${v.kind}/${v.round}`}>#${v.round}</a> <span class=${`adm-kind ${v.kind}`}>${v.kind}</span>`
        : html`<code>${v.target}</code>`,
  },
  { key: "player", label: N_("Player") },
  { key: "table", label: N_("Table") },
  { key: "reason", label: N_("Reason"), render: (v) => html`<span class="adm-reason">${v.reason || "\u2014"}</span>` },
  { key: "by", label: N_("By"), render: (v) => v.by || html`<em class="adm-muted">${_("the server")}</em>` },
  { key: "refunded", label: N_("Refunded"), num: true, render: (v) => money(v.refunded) },
];

// ------------------------------------------------------------------------------ the dashboard
export default function AdminDashboard() {
  const operator = isOperator();
  const audit = useLoad(() => (operator ? get("/api/admin/audit") : Promise.resolve(null)), [operator]);
  const voids = useLoad(() => (operator ? get("/api/admin/voids?limit=5") : Promise.resolve(null)), [operator]);
  const casino = useLoad(() => (operator ? getOptional("/api/admin/casino/tables") : Promise.resolve(null)), [operator]);
  const a = audit.data;
  const customers = a ? a.accounts.filter((x) => x.kind === "customer") : [];
  const inAccounts = customers.reduce((sum, x) => sum + x.balance, 0);
  const house = a ? a.accounts.find((x) => x.kind === "house") : null;
  // Every open round, Online and Casino, as the money held counts both.
  const openRounds = a
    ? [
        ...a.open_rounds.map((r) => ({ ...r, kind: "online" })),
        ...(a.casino_open_rounds || []).map((r) => ({ ...r, kind: "casino", steps: null })),
      ]
    : [];
  const casinoTables = Array.isArray(casino.data) ? casino.data : casino.data && casino.data.tables;
  return html`<${AdminFrame}
    active="dashboard"
    title=${_("Operations")}
    subtitle=${_("The state of the books at a glance")}
    actions=${html`<button type="button" class="btn btn-secondary" onClick=${() => (audit.reload(), voids.reload())}>${_("Refresh")}</button>`}
  >
    <${Problem} error=${audit.error} />
    ${audit.loading && !a && html`<p class="adm-note">${_("Checking the books\u2026")}</p>`}
    ${a &&
    html`<div class="adm-stats" data-testid="dashboard-stats">
        <${Stat}
          label=${_("Books")}
          value=${a.balanced ? _("\u2713 Balanced") : `\u2717 ${n_("{n} problem", "{n} problems", a.problems.length)}`}
          tone=${a.balanced ? "good" : "bad"}
          href="/admin/audit"
          note=${a.balanced ? _("all four checks pass") : a.problems[0]}
        />
        <${Stat} label=${_("Open rounds")} value=${openRounds.length} href="/admin/rounds?state=open" note=${`${money(a.held)} held`} tone=${openRounds.length ? "warn" : ""} />
        <${Stat} label=${_("Voids")} value=${a.voids.length} href="/admin/audit#voids" note=${_("with their reasons")} />
        <${Stat} label=${_("Players' money")} value=${money(inAccounts)} href="/admin/accounts" note=${`${customers.length} accounts`} />
        <${Stat} label=${_("House result")} value=${house ? money(house.balance, { signed: true }) : "\u2014"} note=${_("play money, all games")} />
        <${Stat} label=${_("Operator actions")} value=${a.operator_actions.toLocaleString("en-US")} note=${_("every request recorded")} />
      </div>
      <div class="adm-grid-2">
        <${Section} title=${_("Open rounds")} id="dash-open" actions=${html`<a href="/admin/rounds?state=open">${_("Search \u2192")}</a>`}>
          <${DataTable}
            label=${_("Open rounds")}
            phoneColumns=${3}
            rows=${openRounds.slice(0, 8)}
            empty=${_("No round is open.")}
            columns=${[
              {
                key: "id",
                label: _("Round"),
                render: (r) => html`<a href=${`/admin/rounds/${r.kind}/${r.id}`}>${r.kind === "casino" ? "Casino " : ""}#${r.id}</a>`,
              },
              { key: "steps", label: _("Steps"), num: true, render: (r) => (r.steps === null ? "\u2014" : r.steps) },
              { key: "held", label: _("Held"), num: true, render: (r) => money(r.held) },
            ]}
          />
        <//>
        <${Section} title=${_("Latest voids")} id="dash-voids" actions=${html`<a href="/admin/audit#voids">${_("All \u2192")}</a>`}>
          <${Problem} error=${voids.error} />
          ${voids.data && html`<${DataTable} label=${_("Latest voids")} rows=${voids.data.voids} columns=${VOID_COLUMNS.filter((c) => c.key !== "by" && c.key !== "table")} empty=${_("No void yet.")} />`}
        <//>
      </div>
      <${Section} title=${_("Go to")} id="dash-links">
        <div class="adm-links">
          <a href="/admin/tables"><strong>${_("Tables")}</strong><span>${casinoTables ? n_("Online configuration, {n} Casino table", "Online configuration, {n} Casino tables", casinoTables.length) : _("Online configuration")}</span></a>
          <a href="/admin/rounds"><strong>${_("Rounds")}</strong><span>${_("Search by player, table, time, state; replay any round")}</span></a>
          <a href="/admin/accounts"><strong>${_("Accounts")}</strong><span>${_("Balances, holds, statements")}</span></a>
          <a href="/admin/audit"><strong>${_("Audit")}</strong><span>${_("Every check, every balance, voids")}</span></a>
        </div>
      <//>`}
  <//>`;
}
