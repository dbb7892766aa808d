// The rules lab (/lab): pick any rules (the command line's rule options as a form, over a
// preset), see the exact house edge, the EV by up card and the basic strategy drawn as the
// coloured grid of a strategy card; simulate with a progress bar streamed from the server; and
// the hand calculator (the exact EV of every option of one hand from the shoe that remains).
//
// Everything is computed by the server (server/lab.py: the exact analysis and the simulator in
// a worker process, cached per rules); this page only draws it. It works signed out.
// Optional query: ?preset=online&rules={"decks":"2"} opens it with those rules (the rules
// pages link here).
import { html, useEffect, useMemo, useRef, useState } from "../js/lib.js";
import { get, post, del } from "../js/api.js";
import { Card } from "../js/cards.js";
import { Button, ErrorLine } from "../js/ui.js";
import { useShortcuts } from "../js/keys.js";
import { _, n_, N_, formatNumber } from "../js/i18n.js";

const PRESET_NAMES = { casino: N_("Casino"), online: N_("Online") };
const PRESET_WORDS = {
  casino: N_("7 boxes, no hole card, cut-card shoe"),
  online: N_("1 box, dealer peeks, fresh shoe each round"),
};
const CODE_WORDS = {
  H: N_("Hit"),
  S: N_("Stand"),
  D: N_("Double"),
  Dh: N_("Double, else hit"),
  Ds: N_("Double, else stand"),
  P: N_("Split"),
  Ph: N_("Split if DAS, else hit"),
  Rh: N_("Surrender, else hit"),
  Rs: N_("Surrender, else stand"),
  Rp: N_("Surrender, else split"),
};
const UP_WORDS = { T: "10", A: "A" };
const ACTION_WORDS = {
  stand: N_("Stand"),
  hit: N_("Hit"),
  double: N_("Double"),
  split: N_("Split"),
  surrender: N_("Surrender"),
  blackjack: N_("Blackjack (paid at once)"),
};
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"];
const SUITS = ["S", "H", "D", "C"];
// The calculator's keys: 1 for the ace, 0 for a ten, the others their own digit.
const RANK_KEYS = { A: "1", T: "0", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9" };
const ROUND_CHOICES = [1_000_000, 10_000_000, 30_000_000, 100_000_000];

/** 0.004353 -> "0.435%" (`digits` decimals); `signed` adds "+" to positive values. */
export function percent(value, digits = 3, signed = false) {
  if (value === null || value === undefined || Number.isNaN(value)) return "";
  // Intl's percent in the page's language ("0.460%" in English, "0,460 %" in Finnish).
  const text = formatNumber(value, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
  return signed && value > 0 ? `+${text}` : text.replace("-", "\u2212");
}

const upLabel = (up) => UP_WORDS[up] || up;
/** The name of the button (and shortcut) adding a card of a rank to the calculator. */
const addLabel = (rank) => (rank === "T" ? _("Add a ten") : rank === "A" ? _("Add an ace") : _("Add a {rank}", { rank }));

/** The CSS class of a chart code: its first move (h, s, d, p, r) and its fallback. */
export function cellClass(code) {
  const first = { H: "hit", S: "stand", D: "double", P: "split", R: "surrender" }[code[0]];
  const fallback = code.length > 1 ? { h: "hit", s: "stand", p: "split" }[code[1]] : null;
  return `cell cell-${first}${fallback ? ` else-${fallback}` : ""}`;
}

/** The command line's rule flags of `values` (those that differ from the preset's). */
export function commandFlags(options, preset, presetValues, values) {
  const flags = [`--preset ${preset}`];
  for (const option of options) {
    const value = values[option.name];
    if (value === undefined || String(value) === String(presetValues[option.name])) continue;
    if (option.kind === "bool") {
      const [on, off] = option.flag.split("/");
      flags.push(value ? on : off);
    } else flags.push(`${option.flag} ${value}`);
  }
  return flags.join(" ");
}

function readQuery(query) {
  const preset = query && query.get("preset");
  let rules = {};
  const raw = query && query.get("rules");
  if (raw) {
    try {
      const parsed = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) rules = parsed;
    } catch {
      rules = {};
    }
  }
  return { preset: PRESET_NAMES[preset] ? preset : null, rules };
}

// ------------------------------------------------------------------ the rules form

function Field({ option, value, onChange }) {
  const id = `rule-${option.name}`;
  if (option.kind === "bool") {
    return html`<label class="lab-switch" for=${id} title=${option.help}>
      <input id=${id} type="checkbox" checked=${Boolean(value)} onChange=${(e) => onChange(e.target.checked)} />
      <span class="toggle-track" aria-hidden="true"><span class="toggle-thumb"></span></span>
      <span class="lab-switch-text">${option.label}</span>
    </label>`;
  }
  if (option.kind === "int") {
    return html`<div class="lab-field" title=${option.help}>
      <label for=${id}>${option.label}</label>
      <select id=${id} value=${String(value)} onChange=${(e) => onChange(Number(e.target.value))}>
        ${Array.from({ length: option.max - option.min + 1 }, (_, i) => option.min + i).map(
          (n) => html`<option value=${String(n)}>${n === 1 ? _("no split") : _("{n} hands", { n })}</option>`,
        )}
      </select>
    </div>`;
  }
  const choices = [...(option.choices || [])];
  if (value !== undefined && !choices.includes(String(value))) choices.push(String(value));
  const words = (choice) => {
    if (option.name === "decks") return choice === "inf" ? _("Infinite shoe") : n_("{n} deck", "{n} decks", Number(choice));
    if (option.name === "shuffle") {
      if (choice.startsWith("cut:")) return _("Cut at {percent}", { percent: formatNumber(Math.round(Number(choice.slice(4)) * 100) / 100, { style: "percent" }) });
      return choice === "round" ? _("Every round") : _("Continuous");
    }
    if (option.name === "peek") return { "ace-ten": _("Ace and ten"), ace: _("Ace only"), none: _("No hole card") }[choice] || choice;
    if (option.name === "double") return { any: _("Any two cards"), "9-11": "9, 10, 11", "10-11": "10, 11", none: _("Never") }[choice] || choice;
    if (option.name === "enhc_loses") return { all: _("All bets"), original: _("Original bet only") }[choice] || choice;
    if (option.name === "surrender") return { none: _("None"), late: _("Late"), early: _("Early") }[choice] || choice;
    return choice;
  };
  return html`<div class="lab-field" title=${option.help}>
    <label for=${id}>${option.label}</label>
    <select id=${id} value=${String(value)} onChange=${(e) => onChange(e.target.value)}>
      ${choices.map((choice) => html`<option value=${choice}>${words(choice)}</option>`)}
    </select>
  </div>`;
}

function RulesForm({ options, preset, values, onPreset, onChange, onAnalyse, busy, stale }) {
  return html`<section class="panel lab-rules" aria-label=${_("Rules")}>
    <header class="panel-head"><h2>${_("Rules")}</h2></header>
    <div class="lab-presets" role="radiogroup" aria-label=${_("Preset")}>
      ${options.presetNames.map(
        (name) => html`<button
          type="button"
          role="radio"
          aria-checked=${preset === name ? "true" : "false"}
          class=${`lab-preset${preset === name ? " on" : ""}`}
          onClick=${() => onPreset(name)}
        >
          <strong>${PRESET_NAMES[name] ? _(PRESET_NAMES[name]) : name}</strong>
          <small>${PRESET_WORDS[name] ? _(PRESET_WORDS[name]) : ""}</small>
        </button>`,
      )}
    </div>
    <div class="lab-fields">
      ${options.options
        .filter((option) => option.kind !== "bool")
        .map((option) => html`<${Field} key=${option.name} option=${option} value=${values[option.name]} onChange=${(v) => onChange(option.name, v)} />`)}
    </div>
    <div class="lab-switches">
      ${options.options
        .filter((option) => option.kind === "bool")
        .map((option) => html`<${Field} key=${option.name} option=${option} value=${values[option.name]} onChange=${(v) => onChange(option.name, v)} />`)}
    </div>
    <div class="lab-analyse">
      <${Button} variant="primary" onClick=${onAnalyse} busy=${busy} kbd="a" disabled=${!stale && !busy}>
        ${stale ? _("Analyse these rules") : _("Up to date")}
      <//>
    </div>
  </section>`;
}

// ------------------------------------------------------------------ the results

function Headline({ analysis, stale }) {
  const edge = analysis.house_edge;
  const player = edge < 0;
  return html`<section class=${`felt lab-headline${stale ? " stale" : ""}`} aria-label=${_("House edge")}>
    <div class="lab-edge">
      <span class="lab-edge-label">${player ? _("Player edge") : _("House edge")}</span>
      <strong class="lab-edge-value" data-testid="house-edge">${percent(Math.abs(edge))}</strong>
      <span class="lab-edge-note">${_("optimal play, exact")}</span>
    </div>
    <div class="lab-figures">
      <div><span>${_("Return")}</span><strong data-testid="return">${percent(analysis.return)}</strong></div>
      <div><span>${_("Basic strategy")}</span><strong>${percent(analysis.basic_strategy.house_edge)}</strong></div>
      ${analysis.insurance_ev !== null &&
      html`<div><span>${_("Insurance")}</span><strong>${percent(analysis.insurance_ev, 2, true)}</strong></div>`}
    </div>
  </section>`;
}

/** The EV given each dealer up card, as bars up (player ahead) or down (house ahead), the up
 * cards across the top as on the strategy chart. */
function UpCardBars({ entries }) {
  const width = 560;
  const height = 230;
  const head = 30; // the row of up cards
  const room = 18; // for the value under or over a bar
  const most = Math.max(0.05, ...entries.map((e) => Math.abs(e.ev)));
  const highest = Math.max(0, ...entries.map((e) => e.ev));
  const lowest = Math.min(0, ...entries.map((e) => e.ev));
  const span = Math.max(highest - lowest, most);
  const scale = (height - head - 2 * room) / span;
  const zero = head + room + highest * scale;
  const step = width / entries.length;
  return html`<figure class="lab-bars">
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${_("Player's EV by dealer up card")}>
      <line x1="0" x2=${width} y1=${zero} y2=${zero} class="axis" />
      ${entries.map((entry, i) => {
        const x = i * step + step * 0.16;
        const barWidth = step * 0.68;
        const size = Math.max(1.5, Math.abs(entry.ev) * scale);
        const y = entry.ev >= 0 ? zero - size : zero;
        const labelY = entry.ev >= 0 ? y - 5 : y + size + 13;
        return html`<g class=${entry.ev >= 0 ? "up" : "down"}>
          <title>${`Dealer ${upLabel(entry.up)}: ${percent(entry.ev, 2, true)} (${percent(entry.probability, 1)} of rounds)`}</title>
          <rect x=${i * step + 2} y="2" width=${step - 4} height=${head - 6} rx="4" class="head" />
          <text x=${i * step + step / 2} y=${head - 10} class="up-label">${upLabel(entry.up)}</text>
          <rect x=${x} y=${y} width=${barWidth} height=${size} rx="3" class="bar" />
          <text x=${x + barWidth / 2} y=${labelY} class="value">${percent(entry.ev, 1, true)}</text>
        </g>`;
      })}
    </svg>
    <figcaption>${_("Your EV per unit bet by the dealer's up card (optimal play).")}</figcaption>
  </figure>`;
}

function ChartTable({ title, rows, upCards, table }) {
  return html`<table class="lab-chart" data-table=${table} aria-label=${`${title} hands`}>
    <thead>
      <tr>
        <th scope="col" class="corner">${title}</th>
        ${upCards.map((up) => html`<th scope="col">${upLabel(up)}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        ([label, codes]) => html`<tr>
          <th scope="row">${label}</th>
          ${codes.map(
            (code, i) => html`<td
              class=${cellClass(code)}
              data-row=${label}
              data-up=${upCards[i]}
              data-code=${code}
              title=${_("{table} {hand} against {up}: {play}", { table: title, hand: label, up: upLabel(upCards[i]), play: CODE_WORDS[code] ? _(CODE_WORDS[code]) : code })}
            >${code}</td>`,
          )}
        </tr>`,
      )}
    </tbody>
  </table>`;
}

function StrategyChart({ chart, stale }) {
  const used = new Set();
  for (const name of ["hard", "soft", "pairs"]) for (const [, codes] of chart[name]) codes.forEach((c) => used.add(c));
  const legend = Object.keys(CODE_WORDS).filter((code) => used.has(code));
  return html`<section class=${`panel lab-strategy${stale ? " stale" : ""}`} aria-label=${_("Basic strategy")}>
    <header class="panel-head">
      <h2>${_("Basic strategy")}</h2>
      <span class="muted">${_("Dealer's up card across, your hand down")}</span>
    </header>
    <div class="lab-charts">
      <div class="lab-chart-hard"><${ChartTable} title=${_("Hard")} table="hard" rows=${chart.hard} upCards=${chart.up_cards} /></div>
      <div class="lab-charts-side">
        <${ChartTable} title=${_("Soft")} table="soft" rows=${chart.soft} upCards=${chart.up_cards} />
        <${ChartTable} title=${_("Pairs")} table="pairs" rows=${chart.pairs} upCards=${chart.up_cards} />
      </div>
      <ul class="lab-legend" aria-label=${_("Legend")}>
        ${legend.map((code) => html`<li><span class=${cellClass(code)}>${code}</span> ${_(CODE_WORDS[code])}</li>`)}
      </ul>
    </div>
  </section>`;
}

// ------------------------------------------------------------------ simulation

function Simulation({ preset, values, analysis, stale, flags }) {
  const [rounds, setRounds] = useState(10_000_000);
  const [seed, setSeed] = useState("");
  const [run, setRun] = useState(null); // the latest message of the run
  const [error, setError] = useState(null);
  const socket = useRef(null);
  const closeSocket = () => {
    if (socket.current) {
      socket.current.onclose = null;
      socket.current.close();
      socket.current = null;
    }
  };
  useEffect(() => closeSocket, []);
  const running = run && run.type === "progress";
  const start = async () => {
    setError(null);
    closeSocket();
    const body = { preset, rules: values, rounds };
    if (seed.trim() !== "") {
      if (!/^\d+$/.test(seed.trim())) {
        setError(_("The seed is a whole number (or leave it empty for a fresh one)."));
        return;
      }
      body.seed = Number(seed.trim());
    }
    try {
      const started = await post("/api/lab/simulations", body);
      setRun(started);
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${scheme}//${location.host}/api/lab/simulations/${started.id}/stream`);
      socket.current = ws;
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type === "error") setError(message.error);
        else setRun(message);
        if (message.type === "result") closeSocket();
      };
      ws.onclose = () => {
        socket.current = null;
        setRun((old) => (old && old.type === "progress" ? { ...old, type: "result", state: "cancelled" } : old));
      };
    } catch (failure) {
      setError(failure);
    }
  };
  const stop = async () => {
    if (!run) return;
    try {
      await del(`/api/lab/simulations/${run.id}`);
    } catch (failure) {
      setError(failure);
    }
  };
  useShortcuts({ m: { run: () => !running && !stale && start(), label: _("Simulate") } });
  const share = run ? run.done / run.total : 0;
  const exact = analysis ? analysis.basic_strategy.ev : null;
  const z = run && run.ev !== null && run.stderr > 0 && exact !== null ? (run.ev - exact) / run.stderr : null;
  return html`<section class="panel lab-sim" aria-label=${_("Simulation")}>
    <header class="panel-head"><h2>${_("Simulate")}</h2><span class="muted">${_("Basic strategy, real shoes")}</span></header>
    <div class="lab-sim-form">
      <div class="lab-field">
        <label for="sim-rounds">${_("Rounds")}</label>
        <select id="sim-rounds" value=${String(rounds)} onChange=${(e) => setRounds(Number(e.target.value))} disabled=${running}>
          ${ROUND_CHOICES.map((n) => html`<option value=${String(n)}>${n_("{n} million", "{n} million", n / 1_000_000)}</option>`)}
        </select>
      </div>
      <div class="lab-field">
        <label for="sim-seed">${_("Seed")}</label>
        <input id="sim-seed" type="text" inputmode="numeric" placeholder=${_("fresh")} value=${seed} onInput=${(e) => setSeed(e.target.value)} disabled=${running} />
      </div>
      ${running
        ? html`<${Button} variant="danger" onClick=${stop}>${_("Stop")}<//>`
        : html`<${Button} variant="primary" onClick=${start} kbd="m" disabled=${stale}>${_("Simulate")}<//>`}
    </div>
    ${stale && !running && html`<p class="muted lab-hint">${_("Analyse the rules first: the run is compared with their exact figure.")}</p>`}
    <${ErrorLine} error=${error} />
    ${run &&
    html`<div class="lab-progress" data-state=${run.state}>
      <div class="lab-progress-bar" role="progressbar" aria-label=${_("Simulation progress")}
        aria-valuemin="0" aria-valuemax=${run.total} aria-valuenow=${run.done}>
        <div class="lab-progress-fill" style=${`width: ${(share * 100).toFixed(1)}%`}></div>
      </div>
      <div class="lab-progress-text">
        <span>${_("{done} / {total} rounds", { done: formatNumber(run.done), total: formatNumber(run.total) })}</span>
        <span>${run.state === "running" ? formatNumber(Math.floor(share * 100) / 100, { style: "percent" }) : run.state}</span>
      </div>
      ${run.ev !== null &&
      html`<dl class="lab-sim-result" data-testid="simulation-ev">
        <div class="main"><dt>${_("Simulated EV")}</dt><dd>${percent(run.ev, 3, true)} <small>\u00b1 ${percent(run.stderr, 3)}</small></dd></div>
        <div><dt>${_("Exact, basic strategy")}</dt><dd>${percent(exact, 3, true)}</dd></div>
        ${z !== null &&
        html`<div><dt>${_("Difference")}</dt><dd class=${Math.abs(z) <= 2 ? "agree" : "differ"}>${_("{z} standard errors", { z: `${z >= 0 ? "+" : "\u2212"}${formatNumber(Math.abs(z), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}` })}</dd></div>`}
      </dl>`}
      ${run.type === "result" && run.state === "done" &&
      html`<p class="muted lab-hint">${_("The same figures on the command line:")}
        <code>twentyone simulate ${flags} --seed ${run.seed} --rounds ${run.total}</code></p>`}
      ${run.error && html`<${ErrorLine} error=${run.error} />`}
    </div>`}
  </section>`;
}

// ------------------------------------------------------------------ hand calculator

function HandCalculator({ preset, values, decks }) {
  const [hand, setHand] = useState([]);
  const [up, setUp] = useState(null);
  const [removed, setRemoved] = useState([]);
  const [target, setTarget] = useState("hand");
  const [answer, setAnswer] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const all = [...hand, ...(up ? [up] : []), ...removed];
  const suited = (rank) => `${rank}${SUITS[all.filter((card) => card[0] === rank).length % 4]}`;
  const add = (rank) => {
    const card = suited(rank);
    if (target === "up") {
      setUp(card);
      setTarget("hand");
    } else if (target === "hand") setHand((cards) => [...cards, card]);
    else setRemoved((cards) => [...cards, card]);
  };
  const key = JSON.stringify([preset, values, hand, up, removed]);
  useEffect(() => {
    setAnswer(null);
    setError(null);
    if (hand.length < 2 || !up) return undefined;
    let current = true;
    setBusy(true);
    post("/api/lab/hand", { preset, rules: values, cards: hand, up, removed })
      .then((data) => current && setAnswer(data))
      .catch((failure) => current && setError(failure))
      .finally(() => current && setBusy(false));
    return () => {
      current = false;
    };
  }, [key]);
  const clear = () => {
    setHand([]);
    setUp(null);
    setRemoved([]);
    setTarget("hand");
  };
  const rankKeys = Object.fromEntries(
    RANKS.map((rank) => [RANK_KEYS[rank], { run: () => add(rank), label: addLabel(rank) }]),
  );
  useShortcuts({
    ...rankKeys,
    y: { run: () => setTarget("hand"), label: _("Cards go to your hand") },
    u: { run: () => setTarget("up"), label: _("Next card is the dealer's") },
    ...(decks !== "inf" ? { e: { run: () => setTarget("removed"), label: _("Cards go to the seen cards") } } : {}),
    c: { run: clear, label: _("Clear the hand calculator") },
  });
  const actions = answer ? Object.entries(answer.actions) : [];
  const best = answer ? answer.best : null;
  const low = Math.min(-1, ...actions.map(([, ev]) => ev));
  const high = Math.max(0.5, ...actions.map(([, ev]) => ev));
  const targets = [
    ["hand", _("Your hand"), "y"],
    ["up", _("Dealer's card"), "u"],
    ...(decks !== "inf" ? [["removed", _("Seen cards"), "e"]] : []),
  ];
  return html`<section class="panel lab-calc" aria-label=${_("Hand calculator")}>
    <header class="panel-head"><h2>${_("Hand calculator")}</h2><span class="muted">${_("Exact EV of every option")}</span></header>
    <div class="lab-targets" role="radiogroup" aria-label=${_("Cards go to")}>
      ${targets.map(
        ([name, words, kbd]) => html`<button type="button" role="radio" aria-checked=${target === name ? "true" : "false"}
          aria-keyshortcuts=${kbd.toUpperCase()} data-kbd=${kbd}
          class=${`lab-target${target === name ? " on" : ""}`} onClick=${() => setTarget(name)}>${words}</button>`,
      )}
    </div>
    <div class="lab-ranks" role="group" aria-label=${_("Add a card")}>
      ${RANKS.map(
        (rank) => html`<button type="button" class="lab-rank" onClick=${() => add(rank)} data-kbd=${RANK_KEYS[rank]}
          aria-keyshortcuts=${RANK_KEYS[rank]} aria-label=${addLabel(rank)}>
          ${rank === "T" ? "10" : rank}
        </button>`,
      )}
    </div>
    <div class="lab-table felt">
      <div class="lab-spot">
        <span class="lab-spot-label">${_("Dealer")}</span>
        <div class="lab-spot-cards">
          ${up ? html`<${Card} card=${up} small=${true} />` : html`<span class="lab-empty">${_("up card")}</span>`}
        </div>
      </div>
      <div class="lab-spot">
        <span class="lab-spot-label">${!answer
          ? _("You")
          : answer.blackjack
            ? _("You \u00b7 blackjack")
            : answer.soft
              ? _("You \u00b7 soft {total}", { total: answer.total })
              : _("You \u00b7 {total}", { total: answer.total })}</span>
        <div class="lab-spot-cards">
          ${hand.length ? hand.map((card, i) => html`<${Card} key=${i} card=${card} small=${true} index=${i} />`) : html`<span class="lab-empty">${_("two cards or more")}</span>`}
        </div>
      </div>
      ${removed.length > 0 &&
      html`<div class="lab-spot">
        <span class="lab-spot-label">${_("Seen")}</span>
        <div class="lab-spot-cards seen">${removed.map((card, i) => html`<${Card} key=${i} card=${card} small=${true} />`)}</div>
      </div>`}
    </div>
    <div class="btn-row lab-calc-actions">
      <${Button} onClick=${clear} disabled=${all.length === 0} kbd="c">${_("Clear")}<//>
      ${busy && html`<span class="muted">${_("Computing...")}</span>`}
    </div>
    <${ErrorLine} error=${error} />
    ${answer &&
    html`<table class="lab-evs" aria-label=${_("EV of each option")}>
      <tbody>
        ${actions.map(
          ([name, ev]) => html`<tr class=${name === best ? "best" : ""} data-action=${name}>
            <th scope="row">${ACTION_WORDS[name] ? _(ACTION_WORDS[name]) : name}${name === best ? html` <span class="badge">${_("best")}</span>` : ""}</th>
            <td class="bar-cell"><span class=${`ev-bar ${ev >= 0 ? "plus" : "minus"}`}
              style=${`left: ${(((Math.min(ev, 0) - low) / (high - low)) * 100).toFixed(1)}%; width: ${((Math.abs(ev) / (high - low)) * 100).toFixed(1)}%`}></span></td>
            <td class="num">${percent(ev, 2, true)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <p class="muted lab-hint">
      ${answer.conditioned_on_no_dealer_blackjack ? `${_("Given the dealer has no blackjack (he peeked).")} ` : ""}
      ${answer.insurance !== null ? `${_("Insurance: {ev} per unit insured.", { ev: percent(answer.insurance, 2, true) })} ` : ""}
      ${answer.remaining
        ? _("From the {count} cards left in the shoe.", { count: Object.values(answer.remaining).reduce((a, b) => a + b, 0) })
        : _("Infinite shoe.")}
    </p>`}
  </section>`;
}

// ------------------------------------------------------------------ the page

export default function Lab({ query }) {
  const wanted = useMemo(() => readQuery(query), []);
  const [options, setOptions] = useState(null);
  const [preset, setPreset] = useState(wanted.preset || "casino");
  const [values, setValues] = useState(null);
  const [analysis, setAnalysis] = useState(null);
  const [analysed, setAnalysed] = useState(null); // the rules of `analysis`, as sent
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const generation = useRef(0);

  const analyse = async (presetName, rules) => {
    const mine = ++generation.current;
    setBusy(true);
    setError(null);
    try {
      const data = await post("/api/lab/analysis", { preset: presetName, rules });
      if (mine !== generation.current) return;
      setAnalysis(data);
      setValues(data.rules);
      setAnalysed(JSON.stringify([presetName, data.rules]));
    } catch (failure) {
      if (mine === generation.current) setError(failure);
    } finally {
      if (mine === generation.current) setBusy(false);
    }
  };

  useEffect(() => {
    get("/api/lab/options")
      .then((data) => {
        const presetNames = Object.keys(data.presets);
        setOptions({ ...data, presetNames });
        const start = { ...data.presets[preset], ...wanted.rules };
        setValues(start);
        analyse(preset, wanted.rules);
      })
      .catch(setError);
  }, []);

  const pickPreset = (name) => {
    setPreset(name);
    const fresh = { ...options.presets[name] };
    setValues(fresh);
    analyse(name, fresh);
  };
  const change = (name, value) => setValues((old) => ({ ...old, [name]: value }));
  const stale = values && analysed !== JSON.stringify([preset, values]);
  useShortcuts({ a: () => stale && !busy && analyse(preset, values) });

  useEffect(() => {
    if (!values) return;
    const url = new URL(window.location.href);
    url.searchParams.set("preset", preset);
    url.searchParams.set("rules", JSON.stringify(values));
    history.replaceState(null, "", url.pathname + url.search);
  }, [preset, values && JSON.stringify(values)]);

  return html`<link rel="stylesheet" href="/static/css/lab.css" />
    <div class="lab">
      <div class="page-head lab-head">
        <div>
          <p class="eyebrow">${_("Rules lab")}</p>
          <h1>${_("What the rules are worth")}</h1>
          <p class="lead">${_("Change any rule and see the exact house edge, the basic strategy card for those rules, a simulation to check it, and the best play of any hand.")}</p>
        </div>
      </div>
      <${ErrorLine} error=${error} />
      ${!options || !values
        ? !error && html`<p class="loading">${_("Loading the rule options...")}</p>`
        : html`<div class="lab-layout">
            <aside class="lab-side">
              <${RulesForm}
                options=${options}
                preset=${preset}
                values=${values}
                onPreset=${pickPreset}
                onChange=${change}
                onAnalyse=${() => analyse(preset, values)}
                busy=${busy}
                stale=${stale}
              />
            </aside>
            <div class="lab-main">
              ${!analysis && busy && html`<section class="panel"><p class="loading">${_("Computing the exact analysis (the first time for new rules takes a few seconds)...")}</p></section>`}
              ${analysis &&
              html`<div class="lab-top">
                  <${Headline} analysis=${analysis} stale=${stale} />
                  <section class=${`panel lab-upcards${stale ? " stale" : ""}`} aria-label=${_("EV by up card")}>
                    <header class="panel-head"><h2>${_("EV by up card")}</h2></header>
                    <${UpCardBars} entries=${analysis.ev_by_up_card} />
                  </section>
                </div>
                <${StrategyChart} chart=${analysis.chart} stale=${stale} />
                <div class="lab-tools">
                  <${Simulation}
                    preset=${preset}
                    values=${analysis.rules}
                    analysis=${analysis}
                    stale=${stale}
                    flags=${commandFlags(options.options, analysis.preset, options.presets[analysis.preset] || {}, analysis.rules)}
                  />
                  <${HandCalculator} preset=${preset} values=${analysis.rules} decks=${analysis.rules.decks} />
                </div>`}
            </div>
          </div>`}
    </div>`;
}
