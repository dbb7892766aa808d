// Operators: the tables. The Online table's configuration (GET/PUT /api/admin/tables/{id}:
// preset, rule overrides, limits, decision time; rounds already dealt keep their rules) and the
// live Casino tables (/api/admin/casino/tables: create, configure, close). A server without the
// Casino answers 404 there, and the page says so instead of failing.
import { html, useState } from "../js/lib.js";
import { get, post, put, del } from "../js/api.js";
import { AdminFrame, DataTable, Problem, Section, getOptional, isOperator, money, parseMoney, useLoad } from "./admin.js";
import { _, N_, _h } from "../js/i18n.js";

const PRESETS = ["online", "casino"];
const RULE_WORDS = {
  decks: N_("Decks"),
  dealer_hits_soft_17: N_("Dealer hits soft 17"),
  blackjack_pays: N_("Blackjack pays"),
  double: N_("Double"),
  double_after_split: N_("Double after split"),
  surrender: N_("Surrender"),
  peek: N_("Peek"),
  insurance: N_("Insurance"),
  max_hands: N_("Hands after splits"),
  resplit_aces: N_("Resplit aces"),
  hit_split_aces: N_("Hit split aces"),
};

function ruleValue(value) {
  if (value === true) return _("yes");
  if (value === false) return _("no");
  return String(value);
}

/** The money fields of a form as minor units; a wrong one is an Error naming it. */
function amounts(form, fields) {
  const out = {};
  for (const [field, label] of fields) {
    const value = parseMoney(form[field]);
    if (value === null) throw new Error(_("{field}: write an amount such as 10 or 12.50", { field: label }));
    out[field] = value;
  }
  return out;
}

function seconds(text, label) {
  const value = Number(text);
  if (!String(text).trim() || !Number.isFinite(value) || value < 1 || value > 3600) throw new Error(`${label}: 1 to 3600 seconds`);
  return value;
}

const asText = (minor) => (minor === null || minor === undefined ? "" : (minor / 100).toFixed(2));

function OnlineTable({ table, onSaved }) {
  const [form, setForm] = useState({
    preset: table.preset,
    min_bet: asText(table.min_bet),
    max_bet: asText(table.max_bet),
    decision_seconds: table.decision_seconds ?? "",
    rules: JSON.stringify(table.rules || {}, null, 1),
  });
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  const set = (field) => (e) => (setForm({ ...form, [field]: e.currentTarget.value }), setSaved(false));
  const save = async (event) => {
    event.preventDefault();
    setError(null);
    try {
      let rules;
      try {
        rules = JSON.parse(form.rules || "{}");
      } catch {
        throw new Error(_("Rule overrides: not valid JSON (e.g. {\"dealer_hits_soft_17\": true})"));
      }
      if (!rules || typeof rules !== "object" || Array.isArray(rules)) throw new Error(_("Rule overrides: an object of rule names and values"));
      const body = {
        preset: form.preset,
        rules,
        ...amounts(form, [["min_bet", _("Minimum bet")], ["max_bet", _("Maximum bet")]]),
        decision_seconds: String(form.decision_seconds).trim() === "" ? null : seconds(form.decision_seconds, _("Decision time")),
      };
      onSaved(await put(`/api/admin/tables/${encodeURIComponent(table.id)}`, body));
      setSaved(true);
    } catch (problem) {
      setError(problem);
    }
  };
  const effective = table.effective_rules || {};
  return html`<form class="adm-config" aria-label=${_("Configure table {table}", { table: table.id })} onSubmit=${save}>
    <div class="adm-config-head">
      <h3>${table.id} <span class="adm-kind online">${table.game}</span></h3>
      <span class="adm-muted">${money(table.min_bet)} \u2013 ${money(table.max_bet)}</span>
    </div>
    <div class="adm-config-grid">
      <label>${_("Preset")}
        <select name="preset" value=${form.preset} onChange=${set("preset")}>
          ${PRESETS.map((p) => html`<option value=${p}>${p}</option>`)}
        </select>
      </label>
      <label>${_("Minimum bet")}<input name="min_bet" inputmode="decimal" value=${form.min_bet} onInput=${set("min_bet")} /></label>
      <label>${_("Maximum bet")}<input name="max_bet" inputmode="decimal" value=${form.max_bet} onInput=${set("max_bet")} /></label>
      <label>${_("Decision time (s)")}<input name="decision_seconds" inputmode="numeric" value=${form.decision_seconds} onInput=${set("decision_seconds")} placeholder=${_("none")} /></label>
      <label class="adm-wide">${_("Rule overrides (JSON, the scenario names)")}
        <textarea name="rules" rows="3" spellcheck="false" value=${form.rules} onInput=${set("rules")}></textarea>
      </label>
    </div>
    <dl class="adm-rules" aria-label=${_("Rules in force")}>
      ${Object.entries(RULE_WORDS)
        .filter(([key]) => key in effective)
        .map(([key, words]) => html`<div><dt>${_(words)}</dt><dd>${ruleValue(effective[key])}</dd></div>`)}
    </dl>
    <${Problem} error=${error} />
    <div class="adm-config-actions">
      <button type="submit" class="btn btn-primary">${_("Save")}</button>
      ${saved && html`<span class="adm-ok-inline" role="status">${_("Saved. New rounds use it; rounds already dealt keep their rules.")}</span>`}
    </div>
  </form>`;
}

const NEW_CASINO = { name: "", min_bet: "1.00", max_bet: "500.00", betting_seconds: "15", decision_seconds: "20" };

function casinoBody(form) {
  const name = form.name.trim();
  if (!name) throw new Error(_("Name: the table needs a name players see"));
  return {
    name,
    ...amounts(form, [["min_bet", _("Minimum bet")], ["max_bet", _("Maximum bet")]]),
    betting_seconds: seconds(form.betting_seconds, _("Betting window")),
    decision_seconds: seconds(form.decision_seconds, _("Decision time")),
  };
}

function CasinoForm({ initial, submitLabel, onSubmit, onCancel }) {
  const [form, setForm] = useState(initial);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const set = (field) => (e) => setForm({ ...form, [field]: e.currentTarget.value });
  const submit = async (event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await onSubmit(casinoBody(form));
    } catch (problem) {
      setError(problem);
    }
    setBusy(false);
  };
  return html`<form class="adm-config adm-casino-form" aria-label=${submitLabel} onSubmit=${submit}>
    <div class="adm-config-grid">
      <label>${_("Name")}<input name="name" value=${form.name} onInput=${set("name")} maxlength="64" placeholder=${_("Casino 2")} /></label>
      <label>${_("Minimum bet")}<input name="min_bet" inputmode="decimal" value=${form.min_bet} onInput=${set("min_bet")} /></label>
      <label>${_("Maximum bet")}<input name="max_bet" inputmode="decimal" value=${form.max_bet} onInput=${set("max_bet")} /></label>
      <label>${_("Betting window (s)")}<input name="betting_seconds" inputmode="numeric" value=${form.betting_seconds} onInput=${set("betting_seconds")} /></label>
      <label>${_("Decision time (s)")}<input name="decision_seconds" inputmode="numeric" value=${form.decision_seconds} onInput=${set("decision_seconds")} /></label>
    </div>
    <${Problem} error=${error} />
    <div class="adm-config-actions">
      <button type="submit" class="btn btn-primary" disabled=${busy}>${submitLabel}</button>
      ${onCancel && html`<button type="button" class="btn btn-secondary" onClick=${onCancel}>${_("Cancel")}</button>`}
    </div>
  </form>`;
}

function CasinoTables() {
  const tables = useLoad(() => getOptional("/api/admin/casino/tables"), []);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState(null);
  const [closing, setClosing] = useState(null);
  const [error, setError] = useState(null);
  const [message, setMessage] = useState(null);
  if (tables.loading && tables.data === undefined) return html`<p class="adm-note">${_("Loading the Casino tables\u2026")}</p>`;
  if (tables.error) return html`<${Problem} error=${tables.error} />`;
  if (tables.data === null) {
    return html`<p class="adm-note" data-testid="casino-unavailable">${_h("Live Casino tables are not on this server yet: {route} answers 404. Once the Casino runs, its tables are created, configured and closed here.", { route: html`<code>/api/admin/casino/tables</code>` })}</p>`;
  }
  const rows = Array.isArray(tables.data) ? tables.data : tables.data.tables || [];
  const close = async (table, voidRound) => {
    setError(null);
    try {
      await del(`/api/admin/casino/tables/${encodeURIComponent(table.id)}${voidRound ? "?void=true" : ""}`);
      const name = table.name || table.id;
      setMessage(voidRound ? _("{table}: the round in play is void and the table closed.", { table: name }) : _("{table} closes (after the round in play, if any).", { table: name }));
      setClosing(null);
      tables.reload();
    } catch (problem) {
      setError(problem);
    }
  };
  return html`
    ${message && html`<p class="adm-ok" role="status">${message}</p>`}
    <${Problem} error=${error} />
    <${DataTable}
      label=${_("Casino tables")}
      rows=${rows}
      empty=${_("No Casino table is open.")}
      columns=${[
        { key: "name", label: _("Table"), render: (t) => html`<a href=${`/casino/${t.id}`}>${t.name || t.id}</a> <code class="adm-muted">${t.id}</code>` },
        {
          key: "phase",
          label: _("State"),
          value: (t) => (t.status === "closed" ? "~closed" : t.phase),
          render: (t) =>
            t.status && t.status !== "open"
              ? html`<span class=${`adm-badge status-${t.status}`}>${t.status}</span>`
              : html`<span class=${`adm-badge phase-${t.phase}`}>${t.phase || "open"}</span>`,
        },
        { key: "taken", label: _("Boxes"), num: true, render: (t) => `${t.taken ?? 0} / ${t.boxes ?? 7}` },
        { key: "spectators", label: _("Watching"), num: true, render: (t) => t.spectators ?? 0 },
        { key: "min_bet", label: _("Limits"), num: true, render: (t) => `${money(t.min_bet)} \u2013 ${money(t.max_bet)}` },
        { key: "decision_seconds", label: _("Timing"), render: (t) => (t.betting_seconds || t.decision_seconds ? _("bet {bet} s, act {act} s", { bet: t.betting_seconds ?? "?", act: t.decision_seconds ?? "?" }) : "\u2014") },
        {
          key: "actions",
          label: "",
          sort: false,
          render: (t) =>
            t.status && t.status !== "open"
              ? html`<span class="adm-muted">${t.status}</span>`
              : closing === t.id
              ? html`<span class="adm-row-actions">
                  <button type="button" class="btn btn-danger btn-small" onClick=${() => close(t, false)}>${_("Close after the round")}</button>
                  ${t.phase === "playing" && html`<button type="button" class="btn btn-danger btn-small" onClick=${() => close(t, true)}>${_("Void the round and close")}</button>`}
                  <button type="button" class="btn btn-secondary btn-small" onClick=${() => setClosing(null)}>${_("Keep open")}</button>
                </span>`
              : html`<span class="adm-row-actions"><button type="button" class="btn btn-secondary btn-small" aria-label=${_("Configure {table}", { table: t.name || t.id })} onClick=${() => (setEditing(t.id), setCreating(false))}>${_("Configure")}</button><button type="button" class="btn btn-secondary btn-small" aria-label=${_("Close {table}", { table: t.name || t.id })} onClick=${() => setClosing(t.id)}>${_("Close")}</button></span>`,
        },
      ]}
    />
    ${editing &&
    (() => {
      const t = rows.find((row) => row.id === editing);
      if (!t) return null;
      return html`<div class="adm-panel"><h3>${_("Configure {table}", { table: t.name || t.id })}</h3>
        <${CasinoForm}
          key=${t.id}
          submitLabel=${_("Save table")}
          initial=${{ name: t.name || "", min_bet: asText(t.min_bet), max_bet: asText(t.max_bet), betting_seconds: String(t.betting_seconds ?? 15), decision_seconds: String(t.decision_seconds ?? 20) }}
          onSubmit=${async (body) => {
            await put(`/api/admin/casino/tables/${encodeURIComponent(t.id)}`, body);
            setEditing(null);
            setMessage(_("{table} saved.", { table: body.name }));
            tables.reload();
          }}
          onCancel=${() => setEditing(null)}
        />
      </div>`;
    })()}
    ${creating
      ? html`<div class="adm-panel"><h3>${_("New Casino table")}</h3>
          <${CasinoForm}
            initial=${NEW_CASINO}
            submitLabel=${_("Create table")}
            onSubmit=${async (body) => {
              const made = await post("/api/admin/casino/tables", body);
              setCreating(false);
              setMessage(_("{table} is open.", { table: (made && made.name) || body.name }));
              tables.reload();
            }}
            onCancel=${() => setCreating(false)}
          />
        </div>`
      : html`<div class="adm-more"><button type="button" class="btn btn-primary" onClick=${() => (setCreating(true), setEditing(null))}>${_("New Casino table")}</button></div>`}
  `;
}

export default function AdminTables() {
  const operator = isOperator();
  const online = useLoad(() => (operator ? get("/api/admin/tables") : Promise.resolve(null)), [operator]);
  const [list, setList] = useState(null);
  const shown = list || online.data || [];
  const saved = (table) => setList(shown.map((t) => (t.id === table.id ? table : t)));
  return html`<${AdminFrame} active="tables" title=${_("Tables")} subtitle=${_("Configure the Online table; open, configure and close live Casino tables")}>
    <${Section} title=${_("Online Blackjack")} id="tables-online">
      <${Problem} error=${online.error} />
      ${online.loading && !online.data && html`<p class="adm-note">${_("Loading\u2026")}</p>`}
      <div class="adm-configs">${shown.map((t) => html`<${OnlineTable} key=${t.id} table=${t} onSaved=${saved} />`)}</div>
    <//>
    ${operator && html`<${Section} title=${_("Live Casino tables")} id="tables-casino"><${CasinoTables} /><//>`}
  <//>`;
}
