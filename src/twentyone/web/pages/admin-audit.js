// Operators: the audit (GET /api/admin/audit) in full: every check it makes and whether it
// passed, the totals, every ledger account's balance, the open rounds with what they hold,
// and every void with its reason, who made it and when (GET /api/admin/voids).
import { html, useState } from "../js/lib.js";
import { get } from "../js/api.js";
import { AdminFrame, DataTable, Problem, Section, Stat, VOID_COLUMNS, isOperator, money, useLoad } from "./admin.js";
import { _, N_, n_ } from "../js/i18n.js";

// The checks the ledger's audit makes (storage/ledger.py audit()): each fails with a problem
// that names it, so a problem's words say which check it belongs to.
const CHECKS = [
  { name: N_("Every stored balance equals the sum of its transfers"), fails: (p) => /stored balance|derived balance/.test(p) },
  { name: N_("All balances sum to zero (double entry)"), fails: (p) => /sum to/.test(p) },
  { name: N_("No customer or hold account is below zero"), fails: (p) => /below zero/.test(p) },
  { name: N_("Every settled or void round's hold account is empty"), fails: (p) => /hold account carries/.test(p) },
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
    title=${_("Audit")}
    subtitle=${_("Every balance recomputed from the transfers")}
    actions=${html`<button type="button" class="btn btn-secondary" onClick=${reload}>${_("Run again")}</button>`}
  >
    <${Problem} error=${audit.error} />
    ${audit.loading && !a && html`<p class="adm-note">${_("Recomputing every balance\u2026")}</p>`}
    ${a &&
    html`<div class=${`adm-verdict ${a.balanced ? "good" : "bad"}`} role="status" data-testid="audit-verdict">
        <span class="adm-verdict-mark" aria-hidden="true">${a.balanced ? "\u2713" : "\u2717"}</span>
        <div>
          <strong>${a.balanced ? _("The books balance") : _("The books do not balance")}</strong>
          <span>${a.balanced ? _("Every check passed.") : n_("{n} problem found.", "{n} problems found.", a.problems.length)}</span>
        </div>
      </div>
      <${Section} title=${_("Checks")} id="audit-checks">
        <ul class="adm-checks">
          ${CHECKS.map((check) => {
            const failed = a.problems.filter(check.fails);
            return html`<li class=${failed.length ? "bad" : "good"}>
              <span class="adm-check-mark" aria-label=${failed.length ? "failed" : "passed"}>${failed.length ? "\u2717" : "\u2713"}</span>
              <span>${_(check.name)}${failed.map((p) => html`<span class="adm-check-problem">${p}</span>`)}</span>
            </li>`;
          })}
          ${a.problems
            .filter((p) => !CHECKS.some((c) => c.fails(p)))
            .map((p) => html`<li class="bad"><span class="adm-check-mark" aria-label=${_("failed")}>\u2717</span><span>${p}</span></li>`)}
        </ul>
      <//>
      <div class="adm-stats">
        <${Stat} label=${_("Sum of all balances")} value=${money(a.total)} tone=${a.total === 0 ? "good" : "bad"} note=${_("must be 0.00")} />
        <${Stat} label=${_("Held by open rounds")} value=${money(a.held)} note=${n_("{n} open round", "{n} open rounds", a.open_rounds.length)} />
        <${Stat} label=${_("Ledger accounts")} value=${a.accounts.length} />
        <${Stat} label=${_("Voids")} value=${a.voids.length} />
        <${Stat} label=${_("Operator actions")} value=${a.operator_actions.toLocaleString("en-US")} note=${_("recorded")} />
      </div>
      <div class="adm-grid-2">
        <${Section} title=${_("Open rounds")} id="audit-open">
          <${DataTable}
            label=${_("Open rounds")}
            phoneColumns=${3}
            rows=${a.open_rounds}
            empty=${_("No round is open.")}
            columns=${[
              { key: "id", label: _("Round"), render: (r) => html`<a href=${`/admin/rounds/online/${r.id}`}>#${r.id}</a>` },
              { key: "steps", label: _("Steps"), num: true },
              { key: "held", label: _("Held"), num: true, render: (r) => money(r.held) },
            ]}
          />
        <//>
        <${Section}
          title=${_("Balances")}
          id="audit-balances"
          actions=${html`<label class="adm-inline">${_("Kind")}
            <select value=${kind} onChange=${(e) => setKind(e.currentTarget.value)} aria-label=${_("Account kind")}>
              ${KINDS.map((k) => html`<option value=${k}>${k === "all" ? _("All") : k}</option>`)}
            </select>
          </label>`}
        >
          <${DataTable}
            label=${_("Balances")}
            phoneColumns=${3}
            rows=${accounts}
            rowKey=${(x) => x.account}
            columns=${[
              { key: "account", label: _("Account"), render: (x) => html`<code class="adm-account">${x.account}</code>` },
              { key: "kind", label: _("Kind") },
              { key: "balance", label: _("Balance"), num: true, render: (x) => money(x.balance) },
            ]}
          />
        <//>
      </div>`}
    <div id="voids">
      <${Section} title=${_("Voids")} id="audit-voids">
        <${Problem} error=${voids.error} />
        ${voids.data &&
        html`<${DataTable} label=${_("Voids")} rows=${voids.data.voids} columns=${VOID_COLUMNS} empty=${_("No round has been voided.")} />
          ${voids.data.next !== null && html`<p class="adm-note">${_("The 100 latest voids are shown.")}</p>`}`}
      <//>
    </div>
  <//>`;
}
