// Operators: search every round, Online and Casino, by player, table, time dealt and state.
// The filters live in the address (/admin/rounds?player=pat&state=open), so a search can be
// linked and the back button returns to it. Online rounds come from /api/admin/search/rounds,
// Casino rounds from /api/admin/casino/rounds (when the server has the Casino; otherwise the
// page says so and shows the Online ones), merged newest first.
import { html, useState, useEffect } from "../js/lib.js";
import { get } from "../js/api.js";
import { navigate } from "../js/app.js";
import { _, _h, n_ } from "../js/i18n.js";
import {
  AdminFrame,
  DataTable,
  Money,
  Problem,
  StateBadge,
  epochOf,
  getOptional,
  isOperator,
  localValue,
  money,
  queryString,
  roundState,
  useLoad,
  when,
} from "./admin.js";

const PAGE = 50;
const FIELDS = ["player", "table", "kind", "state", "since", "until"];

function filtersOf(query) {
  const out = {};
  for (const field of FIELDS) out[field] = (query && query.get(field)) || "";
  return out;
}

/** A Casino round of the contract as a row of this page (its players are its boxes'). */
function casinoRow(r) {
  const boxes = Array.isArray(r.boxes) ? r.boxes : [];
  const players = [...new Set(boxes.map((b) => b && b.player).filter(Boolean))];
  const stake = (b) => b.bet ?? (b.hands || []).reduce((sum, h) => sum + (h.stake || 0), 0);
  const state = r.state ? roundState(r.state) : r.void_reason ? "void" : r.settled_at ? "settled" : "open";
  return {
    key: `casino-${r.id}`,
    kind: "casino",
    id: r.id,
    player: r.player ?? players.join(", "),
    table: r.table,
    state,
    bet: r.bet ?? boxes.reduce((sum, b) => sum + stake(b), 0),
    net: state === "settled" ? r.net ?? null : null,
    created_at: r.created_at,
    settled_at: r.settled_at ?? null,
  };
}

function onlineRow(r) {
  return { ...r, key: `online-${r.id}` };
}

async function searchPage(filters, cursors) {
  const common = {
    player: filters.player.trim(),
    table: filters.table,
    since: filters.since,
    until: filters.until,
    limit: PAGE,
  };
  const wantOnline = filters.kind !== "casino" && cursors.online !== null;
  const wantCasino = filters.kind !== "online" && cursors.casino !== null;
  const [online, casino] = await Promise.all([
    wantOnline ? get(`/api/admin/search/rounds${queryString({ ...common, state: filters.state, before: cursors.online })}`) : null,
    wantCasino ? getOptional(`/api/admin/casino/rounds${queryString({ ...common, before: cursors.casino })}`) : null,
  ]);
  let rows = online ? online.rounds.map(onlineRow) : [];
  let casinoMissing = false;
  if (wantCasino && casino === null) casinoMissing = true;
  if (casino) {
    const found = casino.rounds.map(casinoRow).filter((r) => !filters.state || r.state === filters.state);
    rows = rows.concat(found);
  }
  return {
    rows,
    casinoMissing,
    next: {
      online: online ? online.next : null,
      casino: casino ? casino.next ?? null : null,
    },
  };
}

const newestFirst = (a, b) => (b.created_at ?? 0) - (a.created_at ?? 0) || String(b.key).localeCompare(String(a.key));

export default function AdminRounds({ query }) {
  const operator = isOperator();
  const filters = filtersOf(query);
  const key = FIELDS.map((f) => filters[f]).join("|");
  const [draft, setDraft] = useState(filters);
  const [results, setResults] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const tables = useLoad(async () => {
    if (!operator) return [];
    const [online, casino] = await Promise.all([get("/api/admin/tables"), getOptional("/api/admin/casino/tables").catch(() => null)]);
    const casinoList = Array.isArray(casino) ? casino : (casino && casino.tables) || [];
    return [...online.map((t) => ({ id: t.id, kind: "online" })), ...casinoList.map((t) => ({ id: t.id, kind: "casino", name: t.name }))];
  }, [operator]);

  useEffect(() => setDraft(filters), [key]);
  useEffect(() => {
    if (!operator) return;
    let live = true;
    setBusy(true);
    setError(null);
    setResults(null); // never the last search's rows under the new filters
    searchPage(filters, { online: undefined, casino: undefined }).then(
      (page) => live && (setResults({ ...page, rows: page.rows.sort(newestFirst) }), setBusy(false)),
      (problem) => live && (setError(problem), setResults(null), setBusy(false)),
    );
    return () => {
      live = false;
    };
  }, [key, operator]);

  const more = async () => {
    setBusy(true);
    try {
      const page = await searchPage(filters, results.next);
      setResults({ ...page, casinoMissing: results.casinoMissing || page.casinoMissing, rows: results.rows.concat(page.rows).sort(newestFirst) });
    } catch (problem) {
      setError(problem);
    }
    setBusy(false);
  };

  const submit = (event) => {
    event.preventDefault();
    const since = draft.sinceLocal !== undefined ? epochOf(draft.sinceLocal) : draft.since;
    const until = draft.untilLocal !== undefined ? epochOf(draft.untilLocal) : draft.until;
    navigate(`/admin/rounds${queryString({ player: draft.player.trim(), table: draft.table, kind: draft.kind, state: draft.state, since, until })}`);
  };
  const set = (field) => (event) => setDraft({ ...draft, [field]: event.currentTarget.value });
  const hasMore = results && (results.next.online !== null || results.next.casino !== null);

  return html`<${AdminFrame} active="rounds" title=${_("Rounds")} subtitle=${_("Every round of every table: search, then open one to replay it card by card")}>
    <form class="adm-filters" role="search" aria-label=${_("Search rounds")} onSubmit=${submit}>
      <label>${_("Player")}<input name="player" value=${draft.player} onInput=${set("player")} placeholder=${_("any")} autocomplete="off" spellcheck="false" /></label>
      <label>${_("Table")}
        <select name="table" value=${draft.table} onChange=${set("table")}>
          <option value="">${_("All tables")}</option>
          ${(tables.data || []).map((t) => html`<option value=${t.id}>${t.name ? `${t.name} (${t.id})` : t.id}</option>`)}
        </select>
      </label>
      <label>${_("Game")}
        <select name="kind" value=${draft.kind} onChange=${set("kind")}>
          <option value="">${_("All games")}</option>
          <option value="online">${_("Online")}</option>
          <option value="casino">${_("Casino")}</option>
        </select>
      </label>
      <label>${_("State")}
        <select name="state" value=${draft.state} onChange=${set("state")}>
          <option value="">${_("Any")}</option>
          <option value="open">${_("Open")}</option>
          <option value="settled">${_("Settled")}</option>
          <option value="void">${_("Void")}</option>
        </select>
      </label>
      <label class="adm-when">${_("Dealt from")}<input type="datetime-local" name="since" value=${draft.sinceLocal ?? localValue(draft.since)} onInput=${(e) => setDraft({ ...draft, sinceLocal: e.currentTarget.value })} /></label>
      <label class="adm-when">${_("Until")}<input type="datetime-local" name="until" value=${draft.untilLocal ?? localValue(draft.until)} onInput=${(e) => setDraft({ ...draft, untilLocal: e.currentTarget.value })} /></label>
      <div class="adm-filter-actions">
        <button type="submit" class="btn btn-primary">${_("Search")}</button>
        <a class="btn btn-secondary" href="/admin/rounds">${_("Clear")}</a>
      </div>
    </form>
    <${Problem} error=${error} />
    ${results && results.casinoMissing && html`<p class="adm-note" data-testid="casino-missing">${_h("Casino rounds are not on this server yet (no {route}); showing Online rounds.", { route: html`<code>/api/admin/casino/rounds</code>` })}</p>`}
    ${results &&
    html`<p class="adm-count" aria-live="polite">${hasMore
      ? n_("{n} round (more below)", "{n} rounds (more below)", results.rows.length)
      : n_("{n} round", "{n} rounds", results.rows.length)}</p>
      <${DataTable}
        label=${_("Rounds found")}
        rows=${results.rows}
        rowKey=${(r) => r.key}
        onRow=${(r) => navigate(`/admin/rounds/${r.kind}/${r.id}`)}
        empty=${_("No round matches.")}
        columns=${[
          { key: "id", label: _("Round"), value: (r) => r.created_at, render: (r) => html`<a href=${`/admin/rounds/${r.kind}/${r.id}`} aria-label=${`Round ${r.id} (${r.kind})`}>#${r.id}</a> <span class=${`adm-kind ${r.kind}`}>${r.kind}</span>` },
          { key: "created_at", label: _("Dealt"), render: (r) => when(r.created_at) },
          { key: "player", label: _("Player") },
          { key: "table", label: _("Table") },
          { key: "state", label: _("State"), render: (r) => html`<${StateBadge} state=${r.state} />` },
          { key: "bet", label: _("Bet"), num: true, render: (r) => money(r.bet) },
          { key: "net", label: _("Player net"), num: true, render: (r) => (r.net === null || r.net === undefined ? "\u2014" : html`<${Money} amount=${r.net} signed />`) },
        ]}
      />
      ${hasMore && html`<div class="adm-more"><button type="button" class="btn btn-secondary" disabled=${busy} onClick=${more}>${_("Older rounds")}</button></div>`}`}
    ${busy && !results && html`<p class="adm-note">${_("Searching\u2026")}</p>`}
  <//>`;
}
