// Operators: the audit (GET /api/admin/audit) in full: every check it makes and whether it
// passed, the totals, every ledger account's balance, the open rounds with what they hold,
// and every void with its reason, who made it and when (GET /api/admin/voids).
import { html, useState } from "../js/lib.js";
import { get } from "../js/api.js";
import { AdminFrame, DataTable, Problem, Section, Stat, VOID_COLUMNS, isOperator, money, useLoad } from "./admin.js";

// The checks the ledger's audit makes (storage/ledger.py audit()): each fails with a problem
// that names it, so a problem's words say which check it belongs to.
const CHECKS = [
  { name: "Every stored balance equals the sum of its transfers", fails: (p) => /stored balance|derived balance/.test(p) },
  { name: "All balances sum to zero (double entry)", fails: (p) => /sum to/.test(p) },
  { name: "No customer or hold account is below zero", fails: (p) => /below zero/.test(p) },
  { name: "Every settled or void round's hold account is empty", fails: (p) => /hold account carries/.test(p) },
];

const KINDS = ["all", "customer", "hold", "house", "external"];

export default function AdminAudit() {
  const operator = isOperator();
  const audit = useLoad(() => (operator ? get("/api/admin/audit") : Promise.resolve(null)), [operator]);
  const voids = useLoad(() => (operator ? get("/api/admin/voids?limit=100") : Promise.resolve(null)), [operator]);
  const [kind, setKind] = useState("all");
  const a = audit.data;
  const accounts = a ? a.accounts.filter((x) => kind === "all" || x.kind === kind) : [];
  const reload = () => (audit.reload(), voids.reload());
  return html`<${AdminFrame}
    active="audit"
    title="Audit"
    subtitle="Every balance recomputed from the transfers"
    actions=${html`<button type="button" class="btn btn-secondary" onClick=${reload}>Run again</button>`}
  >
    <${Problem} error=${audit.error} />
    ${audit.loading && !a && html`<p class="adm-note">Recomputing every balance\u2026</p>`}
    ${a &&
    html`<div class=${`adm-verdict ${a.balanced ? "good" : "bad"}`} role="status" data-testid="audit-verdict">
        <span class="adm-verdict-mark" aria-hidden="true">${a.balanced ? "\u2713" : "\u2717"}</span>
        <div>
          <strong>${a.balanced ? "The books balance" : "The books do not balance"}</strong>
          <span>${a.balanced ? "Every check passed." : `${a.problems.length} problem${a.problems.length === 1 ? "" : "s"} found.`}</span>
        </div>
      </div>
      <${Section} title="Checks" id="audit-checks">
        <ul class="adm-checks">
          ${CHECKS.map((check) => {
            const failed = a.problems.filter(check.fails);
            return html`<li class=${failed.length ? "bad" : "good"}>
              <span class="adm-check-mark" aria-label=${failed.length ? "failed" : "passed"}>${failed.length ? "\u2717" : "\u2713"}</span>
              <span>${check.name}${failed.map((p) => html`<span class="adm-check-problem">${p}</span>`)}</span>
            </li>`;
          })}
          ${a.problems
            .filter((p) => !CHECKS.some((c) => c.fails(p)))
            .map((p) => html`<li class="bad"><span class="adm-check-mark" aria-label="failed">\u2717</span><span>${p}</span></li>`)}
        </ul>
      <//>
      <div class="adm-stats">
        <${Stat} label="Sum of all balances" value=${money(a.total)} tone=${a.total === 0 ? "good" : "bad"} note="must be 0.00" />
        <${Stat} label="Held by open rounds" value=${money(a.held)} note=${`${a.open_rounds.length} open round${a.open_rounds.length === 1 ? "" : "s"}`} />
        <${Stat} label="Ledger accounts" value=${a.accounts.length} />
        <${Stat} label="Voids" value=${a.voids.length} />
        <${Stat} label="Operator actions" value=${a.operator_actions.toLocaleString("en-US")} note="recorded" />
      </div>
      <div class="adm-grid-2">
        <${Section} title="Open rounds" id="audit-open">
          <${DataTable}
            label="Open rounds"
            phoneColumns=${3}
            rows=${a.open_rounds}
            empty="No round is open."
            columns=${[
              { key: "id", label: "Round", render: (r) => html`<a href=${`/admin/rounds/online/${r.id}`}>#${r.id}</a>` },
              { key: "steps", label: "Steps", num: true },
              { key: "held", label: "Held", num: true, render: (r) => money(r.held) },
            ]}
          />
        <//>
        <${Section}
          title="Balances"
          id="audit-balances"
          actions=${html`<label class="adm-inline">Kind
            <select value=${kind} onChange=${(e) => setKind(e.currentTarget.value)} aria-label="Account kind">
              ${KINDS.map((k) => html`<option value=${k}>${k === "all" ? "All" : k}</option>`)}
            </select>
          </label>`}
        >
          <${DataTable}
            label="Balances"
            phoneColumns=${3}
            rows=${accounts}
            rowKey=${(x) => x.account}
            columns=${[
              { key: "account", label: "Account", render: (x) => html`<code class="adm-account">${x.account}</code>` },
              { key: "kind", label: "Kind" },
              { key: "balance", label: "Balance", num: true, render: (x) => money(x.balance) },
            ]}
          />
        <//>
      </div>`}
    <div id="voids">
      <${Section} title="Voids" id="audit-voids">
        <${Problem} error=${voids.error} />
        ${voids.data &&
        html`<${DataTable} label="Voids" rows=${voids.data.voids} columns=${VOID_COLUMNS} empty="No round has been voided." />
          ${voids.data.next !== null && html`<p class="adm-note">The 100 latest voids are shown.</p>`}`}
      <//>
    </div>
  <//>`;
}
