// The single-page application: the router, the frame every page shares, and the start-up.
// A page is a module under /static/pages/ whose default export is a component taking
// {params, query}; links are plain <a href="/..."> and are caught here (no reloads).
//
// The frame: a header (brand, navigation, the balance whenever someone is signed in, the
// settings menu, sign in / sign out), the page, a footer, and the "?" overlay listing the
// shortcuts of the page. A page that learns a new balance (a bet, a payout) tells the header
// with `window.dispatchEvent(new CustomEvent("balance", {detail: n}))`.
import { html, render, signal, useEffect, useRef, useState } from "./lib.js";
import { match } from "./routes.js";
import { me, refreshMe } from "./session.js";
import { del } from "./api.js";
import { Money, formatMoney, keyLabel } from "./ui.js";
import { useShortcuts, currentShortcuts, shortcutsVersion } from "./keys.js";
import { sound, animations, fourColour, reducedMotion } from "./settings.js";

export const location$ = signal(window.location.pathname + window.location.search);

export function navigate(to, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  location$.value = to;
  window.scrollTo(0, 0);
}

/** Sign out of this browser, then show the lobby. */
export async function signOut() {
  try {
    await del("/api/session");
  } finally {
    me.value = null;
    navigate("/");
  }
}

const TITLES = {
  lobby: "Lobby", login: "Sign in", register: "Register", account: "Your account",
  history: "History", replay: "Replay", rules: "Rules", online: "Online Blackjack",
  casino: "Casino Blackjack", lab: "Rules lab", admin: "Operator",
};

const loaded = new Map(); // page name -> its module's default export
const current = signal(null); // {Page, params, query} or {error}
const overlayOpen = signal(false);

async function show(path) {
  const url = new URL(path, window.location.origin);
  const found = match(url.pathname);
  if (!found) {
    current.value = { error: "There is no such page." };
    document.title = "Not found · twentyone";
    return;
  }
  const name = found.route.page;
  if (!loaded.has(name)) {
    try {
      loaded.set(name, (await import(`/static/pages/${name}.js`)).default);
    } catch (error) {
      current.value = { error: `This page could not be loaded (${error.message}).` };
      return;
    }
  }
  document.title = `${TITLES[name] || (name.startsWith("admin") ? "Operator" : name)} · twentyone`;
  current.value = { Page: loaded.get(name), name, params: found.params, query: url.searchParams };
}

window.addEventListener("balance", (event) => {
  const balance = Number(event.detail);
  if (me.value && Number.isFinite(balance)) me.value = { ...me.value, balance };
});

function Logo() {
  return html`<svg class="logo" viewBox="0 0 40 40" aria-hidden="true" width="30" height="30">
    <rect x="4" y="6" width="20" height="28" rx="3" fill="#fffdf8" stroke="#b8892b" stroke-width="1.5" transform="rotate(-12 14 20)" />
    <rect x="15" y="5" width="20" height="28" rx="3" fill="#fffdf8" stroke="#b8892b" stroke-width="1.5" transform="rotate(10 25 19)" />
    <text x="25" y="24" text-anchor="middle" font-family="Georgia, serif" font-weight="bold" font-size="12" fill="#c0142b" transform="rotate(10 25 19)">21</text>
  </svg>`;
}

function NavLink({ href, children }) {
  const path = location$.value.split("?")[0];
  const here = href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`);
  return html`<a href=${href} aria-current=${here ? "page" : undefined}>${children}</a>`;
}

function Toggle({ setting, label, hint }) {
  return html`<label class="toggle">
    <input type="checkbox" role="switch" checked=${setting.value} onChange=${(event) => (setting.value = event.currentTarget.checked)} />
    <span class="toggle-track" aria-hidden="true"><span class="toggle-thumb"></span></span>
    <span class="toggle-text">${label}${hint && html`<small>${hint}</small>`}</span>
  </label>`;
}

function SettingsMenu() {
  const [open, setOpen] = useState(false);
  const box = useRef(null);
  useEffect(() => {
    if (!open) return undefined;
    const away = (event) => box.current && !box.current.contains(event.target) && setOpen(false);
    const escape = (event) => event.key === "Escape" && setOpen(false);
    document.addEventListener("pointerdown", away);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", away);
      document.removeEventListener("keydown", escape);
    };
  }, [open]);
  return html`<div class="menu" ref=${box}>
    <button type="button" class="icon-button" aria-label="Settings" aria-expanded=${open} aria-controls="settings-menu" onClick=${() => setOpen(!open)}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M19.4 13a7.7 7.7 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.4 7.4 0 0 0-1.7-1L15 3.2h-4l-.4 2.7c-.6.3-1.2.6-1.7 1l-2.5-1-2 3.5L6.6 11a7.7 7.7 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1c.5.4 1.1.7 1.7 1l.4 2.7h4l.4-2.7c.6-.3 1.2-.6 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z" transform="translate(-1 0)"/></svg>
    </button>
    ${open &&
    html`<div class="menu-panel" id="settings-menu" role="group" aria-label="Settings">
      <${Toggle} setting=${sound} label="Sound" hint="Cards, chips and results" />
      <${Toggle} setting=${animations} label="Animations" hint=${reducedMotion.value ? "Off: your system asks for reduced motion" : "Dealing and chips"} />
      <${Toggle} setting=${fourColour} label="Four-colour deck" hint="Clubs green, diamonds blue" />
      <button type="button" class="menu-link" onClick=${() => { setOpen(false); overlayOpen.value = true; }}>Keyboard shortcuts <kbd>?</kbd></button>
    </div>`}
  </div>`;
}

function Header() {
  const user = me.value;
  return html`<header class="topbar">
    <a class="skip" href="#main" onClick=${(event) => { event.preventDefault(); document.getElementById("main").focus(); }}>Skip to the page</a>
    <a class="brand" href="/" aria-label="twentyone: the lobby"><${Logo} /><span>twentyone</span></a>
    <nav aria-label="Main" class="mainnav">
      <${NavLink} href="/">Lobby</${NavLink}>
      <${NavLink} href="/online">Online</${NavLink}>
      <${NavLink} href="/lab">Rules lab</${NavLink}>
      ${user && html`<${NavLink} href="/history">History</${NavLink}>`}
      ${user && user.role === "operator" && html`<${NavLink} href="/admin">Operator</${NavLink}>`}
    </nav>
    <div class="who">
      ${user &&
      html`<a class="balance" href="/account" aria-label=${`Balance ${formatMoney(user.balance)}: your account`} title="Your account">
        <span class="balance-label">Balance</span>
        <${Money} amount=${user.balance} />
      </a>`}
      <${SettingsMenu} />
      ${user === null &&
      html`<a class="btn btn-ghost" href="/login">Sign in</a><a class="btn btn-primary" href="/register">Register</a>`}
      ${user &&
      html`<a class="who-name" href="/account" title="Your account">${user.name}</a>
        <button type="button" class="btn btn-ghost" onClick=${signOut}>Sign out</button>`}
    </div>
  </header>`;
}

function Footer() {
  return html`<footer class="footer">
    <p>
      <strong>twentyone</strong> · play money only: nothing here is worth anything, and nothing can be bought.
      Every deal is <a href="/history">provably fair</a>.
    </p>
    <p class="footer-links">
      <a href="/rules/casino">Casino rules</a> <a href="/rules/online">Online rules</a>
      <a href="/lab">Rules lab</a>
      <button type="button" class="linkish" onClick=${() => (overlayOpen.value = true)}>Shortcuts <kbd>?</kbd></button>
    </p>
  </footer>`;
}

function ShortcutsOverlay() {
  shortcutsVersion.value; // redraw when the page's shortcuts change
  const dialog = useRef(null);
  useEffect(() => {
    if (overlayOpen.value && dialog.current) dialog.current.focus();
  }, [overlayOpen.value]);
  if (!overlayOpen.value) return null;
  const keys = currentShortcuts().filter((item) => item.key !== "?" && item.key !== "escape");
  return html`<div class="overlay" onClick=${(event) => event.target === event.currentTarget && (overlayOpen.value = false)}>
    <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" tabindex="-1" ref=${dialog}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      ${keys.length === 0 && html`<p class="muted">This page has no shortcuts of its own.</p>`}
      <dl class="shortcut-list">
        ${keys.map((item) => html`<div><dt><kbd>${keyLabel(item.key)}</kbd></dt><dd>${item.label}</dd></div>`)}
        <div><dt><kbd>?</kbd></dt><dd>Show or hide this list</dd></div>
      </dl>
      <button type="button" class="btn btn-secondary" onClick=${() => (overlayOpen.value = false)}>Close <kbd>Esc</kbd></button>
    </div>
  </div>`;
}

function Frame() {
  const page = current.value;
  useEffect(() => {
    show(location$.value);
  }, [location$.value]);
  useShortcuts({
    "?": { run: () => (overlayOpen.value = !overlayOpen.value), label: "Show or hide this list" },
    escape: {
      run: () => (overlayOpen.value = false),
      get disabled() {
        return !overlayOpen.peek(); // read at the key press: Escape stays the page's otherwise
      },
    },
  });
  return html`
    <${Header} />
    <main id="main" tabindex="-1">
      ${page === null && html`<p class="loading" aria-live="polite">Loading...</p>`}
      ${page && page.error && html`<div class="panel notice"><p class="error-line" role="alert">${page.error}</p><p><a href="/">Back to the lobby</a></p></div>`}
      ${page && page.Page && html`<${page.Page} key=${page.name} params=${page.params} query=${page.query} />`}
    </main>
    <${Footer} />
    <${ShortcutsOverlay} />
  `;
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download") || event.metaKey || event.ctrlKey) return;
  const url = new URL(link.href, window.location.origin);
  if (url.origin !== window.location.origin || !match(url.pathname)) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("popstate", () => {
  location$.value = window.location.pathname + window.location.search;
});

refreshMe().catch(() => {});
render(html`<${Frame} />`, document.getElementById("app"));
