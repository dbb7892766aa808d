// The shared components of every page: money, buttons with their shortcut, casino chips, panels,
// error lines, a loader hook and a countdown driven by the server's clock.
import { html, useState, useEffect, useRef, useCallback } from "./lib.js";
import { play } from "./sound.js";
import { _, n_, N_, language } from "./i18n.js";

// Each language's decimal mark, signs and whole-number format, found once (Intl's own data).
const NOTATIONS = new Map();
function notation(code) {
  if (!NOTATIONS.has(code)) {
    const part = (number, type, fallback) =>
      (new Intl.NumberFormat(code, { signDisplay: "always" }).formatToParts(number).find((item) => item.type === type) || {}).value || fallback;
    NOTATIONS.set(code, {
      whole: new Intl.NumberFormat(code, { maximumFractionDigits: 0 }),
      decimal: part(1.5, "decimal", "."),
      minus: part(-1, "minusSign", "-"),
      plus: part(1, "plusSign", "+"),
    });
  }
  return NOTATIONS.get(code);
}

/**
 * Minor units as money in the current language's notation, with two decimals: in English
 * formatMoney(123450) === "1,234.50", formatMoney(-5) === "-0.05"; in Finnish "1 234,50".
 * `signed` adds a "+". Integer arithmetic only (money is never a float here): the whole units
 * (an integer) are formatted by Intl, the cents are two digits after the language's decimal mark.
 */
export function formatMoney(amount, { signed = false } = {}) {
  const value = Number(amount) || 0;
  const negative = value < 0;
  const units = Math.abs(Math.trunc(value));
  const marks = notation(language.value);
  const whole = marks.whole.format(Math.floor(units / 100));
  const cents = String(units % 100).padStart(2, "0");
  const sign = negative ? marks.minus : signed && units > 0 ? marks.plus : "";
  return `${sign}${whole}${marks.decimal}${cents}`;
}

/** An amount of play money (minor units); `signed` shows +/- and colours it. */
export function Money({ amount, signed = false, class: extra = "" }) {
  const tone = signed ? (amount > 0 ? " gain" : amount < 0 ? " loss" : "") : "";
  return html`<span class=${`money${tone}${extra ? ` ${extra}` : ""}`}>${formatMoney(amount, { signed })}</span>`;
}

const KEY_NAMES = { " ": "Space", space: "Space", enter: "Enter", escape: "Esc" };

/** How a shortcut key is written on a button ("h" -> "H", "space" -> "Space"). */
export function keyLabel(key) {
  return KEY_NAMES[key] || (key.length === 1 ? key.toUpperCase() : key);
}

/**
 * A button. `variant` is "primary", "secondary" (the default) or "danger"; `kbd` the key of its
 * shortcut, shown on the button (register the key itself with keys.js `useShortcuts`).
 */
export function Button({ onClick, disabled = false, kbd, children, variant = "secondary", type = "button", label, class: extra = "", busy = false }) {
  return html`<button
    type=${type}
    class=${`btn btn-${variant}${busy ? " busy" : ""}${extra ? ` ${extra}` : ""}`}
    onClick=${onClick}
    disabled=${disabled || busy}
    aria-label=${label}
    aria-keyshortcuts=${kbd ? keyLabel(kbd) : undefined}
    aria-busy=${busy ? "true" : undefined}
    data-kbd=${kbd}
  >
    <span class="btn-text">${children}</span>
    ${kbd && html`<kbd aria-hidden="true">${keyLabel(kbd)}</kbd>`}
  </button>`;
}

// Casino chip colours by value (minor units): the usual casino scheme, then by position.
const CHIP_COLOURS = {
  50: ["#e8e3d6", "#6b5e45"], // 0.50: cream
  100: ["#f4f1ea", "#2a5db0"], // 1: white and blue
  200: ["#f2c53d", "#1d232a"], // 2: yellow
  500: ["#c62f2f", "#f7f5f0"], // 5: red
  1000: ["#2a5db0", "#f7f5f0"], // 10: blue
  2500: ["#22864a", "#f7f5f0"], // 25: green
  10000: ["#1d1d1f", "#e9c46a"], // 100: black
  50000: ["#6a3fa0", "#f7f5f0"], // 500: purple
  100000: ["#e58a1f", "#1d232a"], // 1,000: orange
  500000: ["#c9a227", "#1d232a"], // 5,000: gold
};
const CHIP_FALLBACK = [["#4a6b8a", "#f7f5f0"], ["#8a4a6b", "#f7f5f0"], ["#6b8a4a", "#f7f5f0"]];

/** A chip's face value in few characters: 100 -> "1", 2500 -> "25", 100000 -> "1K", 50 -> ".50". */
export function chipLabel(value) {
  if (value % 100 !== 0) return value < 100 ? `.${String(value).padStart(2, "0")}` : formatMoney(value);
  const whole = value / 100;
  if (whole >= 1000000 && whole % 1000000 === 0) return `${whole / 1000000}M`;
  if (whole >= 1000 && whole % 1000 === 0) return `${whole / 1000}K`;
  return String(whole);
}

/** A casino chip (SVG) for a value in minor units; `size` in pixels. */
export function Chip({ value, size = 48, index = 0 }) {
  const [face, ink] = CHIP_COLOURS[value] || CHIP_FALLBACK[index % CHIP_FALLBACK.length];
  const label = chipLabel(value);
  const spots = Array.from({ length: 6 }, (_, i) => {
    const angle = (i * 60 * Math.PI) / 180;
    const x = 50 + Math.cos(angle) * 40;
    const y = 50 + Math.sin(angle) * 40;
    return html`<rect x=${x - 5} y=${y - 9} width="10" height="18" rx="2" fill=${ink}
      transform=${`rotate(${i * 60 + 90} ${x} ${y})`} />`;
  });
  return html`<svg class="chip" width=${size} height=${size} viewBox="0 0 100 100" role="img" aria-label=${_("chip {amount}", { amount: formatMoney(value) })}>
    <circle cx="50" cy="52" r="47" fill="rgba(0,0,0,0.35)" />
    <circle cx="50" cy="50" r="47" fill=${face} stroke="rgba(0,0,0,0.35)" stroke-width="1.5" />
    ${spots}
    <circle cx="50" cy="50" r="31" fill=${face} stroke=${ink} stroke-width="2" stroke-dasharray="4 3" />
    <circle cx="50" cy="50" r="26" fill="rgba(255,255,255,0.12)" />
    <text x="50" y="50" dy="0.35em" text-anchor="middle" fill=${ink}
      font-family="Georgia, 'DejaVu Serif', serif" font-weight="bold"
      font-size=${label.length > 3 ? 19 : label.length > 2 ? 23 : 28}>${label}</text>
  </svg>`;
}

/**
 * The chip tray: one button per denomination (minor units); a click calls onChip(value).
 * `keys` (optional) are the shortcut keys shown on the chips, in order (e.g. ["1", "2", ...]).
 */
export function ChipTray({ denominations = [], onChip, disabled = false, keys = [], selected }) {
  return html`<div class="chip-tray" role="group" aria-label=${_("Chips")}>
    ${denominations.map(
      (value, i) => html`<button
        type="button"
        class=${`chip-button${selected === value ? " selected" : ""}`}
        disabled=${disabled}
        onClick=${() => {
          play("chip");
          onChip && onChip(value);
        }}
        aria-label=${_("Add a {amount} chip", { amount: formatMoney(value) })}
        aria-keyshortcuts=${keys[i] ? keyLabel(keys[i]) : undefined}
        data-kbd=${keys[i]}
      >
        <${Chip} value=${value} index=${i} />
        ${keys[i] && html`<kbd aria-hidden="true">${keyLabel(keys[i])}</kbd>`}
      </button>`,
    )}
  </div>`;
}

/** The chips that make up an amount, largest first (greedy, as a dealer stacks a bet). */
export function chipsFor(amount, denominations = [100, 500, 2500, 10000, 50000]) {
  const values = [...denominations].sort((a, b) => b - a);
  const out = [];
  let left = Math.max(0, Math.trunc(amount));
  for (const value of values) {
    while (left >= value && out.length < 40) {
      out.push(value);
      left -= value;
    }
  }
  return out;
}

/** A bet as a stack of chips (at most `max` drawn) with its amount below. */
export function ChipStack({ amount, denominations, size = 40, max = 8, showAmount = true }) {
  if (!amount) return null;
  const chips = chipsFor(amount, denominations).slice(0, max); // the first (biggest) at the bottom
  return html`<div class="chip-stack-box" role="img" aria-label=${_("bet {amount}", { amount: formatMoney(amount) })}>
    <div class="chip-stack" style=${`--chip-size: ${size}px`}>
      ${chips.map((value, i) => html`<${Chip} key=${i} value=${value} size=${size} index=${i} />`)}
    </div>
    ${showAmount && html`<span class="chip-stack-amount">${formatMoney(amount)}</span>`}
  </div>`;
}

/** A card-like box with an optional heading. */
export function Panel({ title, children, class: extra = "", actions }) {
  return html`<section class=${`panel${extra ? ` ${extra}` : ""}`} aria-label=${typeof title === "string" ? title : undefined}>
    ${(title || actions) &&
    html`<header class="panel-head">
      ${title && html`<h2>${title}</h2>`}
      ${actions && html`<div class="panel-actions">${actions}</div>`}
    </header>`}
    ${children}
  </section>`;
}

/** An error shown in place (an Error, an ApiError or a string); nothing when there is none. */
export function ErrorLine({ error }) {
  if (!error) return null;
  const text = typeof error === "string" ? error : error.message || String(error);
  return html`<p class="error-line" role="alert"><span aria-hidden="true">!</span> ${capitalise(text)}</p>`;
}

/** The first letter in upper case (the API's messages are sentences without it), by the
 * language's own rule (Turkish "i" becomes "İ"). */
export function capitalise(text) {
  return text ? text[0].toLocaleUpperCase(language.value) + text.slice(1) : text;
}

/**
 * Run an async function when the deps change: {data, error, loading, reload}. A result that
 * arrives after the deps changed again (or after unmount) is dropped.
 */
export function useAsync(fn, deps = []) {
  const [state, setState] = useState({ data: undefined, error: null, loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((old) => ({ ...old, loading: true, error: null }));
    Promise.resolve()
      .then(fn)
      .then(
        (data) => mine === generation.current && setState({ data, error: null, loading: false }),
        (error) => mine === generation.current && setState((old) => ({ data: old.data, error, loading: false })),
      );
  }, deps);
  useEffect(() => {
    run();
    return () => {
      generation.current += 1;
    };
  }, [run]);
  return { ...state, reload: run };
}

/**
 * Time left until a server deadline: a shrinking bar and the seconds. `deadline` and `now` are
 * the server's epoch seconds from the same state message; the difference between the server's
 * `now` and this browser's clock is measured when `now` changes, so a browser whose clock is
 * wrong still counts the server's time. `total` is the full duration (for the bar); without it
 * the time left when the deadline was first seen. `tick` plays the tick sound in the last seconds.
 */
export function Countdown({ deadline, now, total, label = _("Time left"), tick = false, onExpire }) {
  const offset = useRef(0);
  const seenNow = useRef(null);
  const first = useRef({ deadline: null, left: 0 });
  const [, redraw] = useState(0);
  const lastWhole = useRef(null);
  if (now !== undefined && now !== null && now !== seenNow.current) {
    seenNow.current = now; // measured once per server message, not on every redraw
    offset.current = now - Date.now() / 1000;
  }
  useEffect(() => {
    if (!deadline) return undefined;
    const timer = setInterval(() => redraw((n) => n + 1), 200);
    return () => clearInterval(timer);
  }, [deadline]);
  if (!deadline) return null;
  const serverNow = Date.now() / 1000 + offset.current;
  const left = Math.max(0, deadline - serverNow);
  if (first.current.deadline !== deadline) first.current = { deadline, left };
  const full = total || first.current.left || 1;
  const whole = Math.ceil(left);
  if (whole !== lastWhole.current) {
    if (tick && whole > 0 && whole <= 5 && lastWhole.current !== null) play("tick");
    if (whole === 0 && lastWhole.current > 0 && onExpire) setTimeout(onExpire, 0);
    lastWhole.current = whole;
  }
  const fraction = Math.min(1, left / full);
  return html`<div class=${`countdown${left <= 5 ? " urgent" : ""}`} role="timer" aria-label=${n_("{label}: {n} second", "{label}: {n} seconds", whole, { label })}>
    <div class="countdown-bar"><div class="countdown-fill" style=${`width: ${(fraction * 100).toFixed(1)}%`}></div></div>
    <span class="countdown-text">${_("{n} s", { n: whole })}</span>
  </div>`;
}

/** A date and time from epoch seconds, in the page's language ("1 Dec 2026, 19:40"). */
export function formatTime(seconds) {
  if (seconds === null || seconds === undefined) return "";
  return new Date(seconds * 1000).toLocaleString(language.value, {
    day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
  });
}

/** A duration in words, for waits: 59 -> "59 s", 3540 -> "59 min", 5400 -> "1 h 30 min". */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return _("{n} s", { n: s });
  const minutes = Math.ceil(s / 60);
  if (minutes < 60) return _("{minutes} min", { minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? _("{hours} h {minutes} min", { hours, minutes: rest }) : _("{hours} h", { hours });
}
