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
import { _, _h, N_, LANGUAGES, language, setLanguage, startLanguage } from "./i18n.js";
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

// Marked here, translated when the title is set (and again when the language changes).
const TITLES = {
  lobby: N_("Lobby"), login: N_("Sign in"), register: N_("Register"), account: N_("Your account"),
  history: N_("History"), replay: N_("Replay"), rules: N_("Rules"), online: N_("Online Blackjack"),
  casino: N_("Casino Blackjack"), lab: N_("Rules lab"), admin: N_("Operator"),
  exchange: N_("Exchange Blackjack"), vinte: N_("Vinte-e-um"),
};

const loaded = new Map(); // page name -> its module's default export
const current = signal(null); // {Page, params, query} or {error}
const overlayOpen = signal(false);

async function show(path) {
  const url = new URL(path, window.location.origin);
  const found = match(url.pathname);
  if (!found) {
    current.value = { error: N_("There is no such page.") };
    document.title = `${_("Not found")} · twentyone`;
    return;
  }
  const name = found.route.page;
  if (!loaded.has(name)) {
    try {
      loaded.set(name, (await import(`/static/pages/${name}.js`)).default);
    } catch (error) {
      current.value = { error: _("This page could not be loaded ({reason}).", { reason: error.message }) };
      return;
    }
  }
  document.title = `${TITLES[name] ? _(TITLES[name]) : name.startsWith("admin") ? _("Operator") : name} · twentyone`;
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

/** The languages, each in its own name; a choice applies at once and is remembered. */
function LanguageSwitcher({ id = "language-switcher" }) {
  const [busy, setBusy] = useState(false);
  const choose = async (event) => {
    setBusy(true);
    try {
      await setLanguage(event.currentTarget.value);
    } finally {
      setBusy(false);
    }
  };
  // Styled here (the frame's own control): a compact select that reads on the dark footer.
  return html`<span class="language-switcher" style="display: inline-flex; align-items: center; gap: 0.4rem; margin: 0">
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm6.9 6h-3a15.7 15.7 0 0 0-1.4-3.6A8 8 0 0 1 18.9 8zM12 4c.8 1.2 1.5 2.5 1.9 4h-3.8c.4-1.5 1.1-2.8 1.9-4zM4.3 14a8.2 8.2 0 0 1 0-4h3.4a16.5 16.5 0 0 0 0 4H4.3zm.8 2h3a15.7 15.7 0 0 0 1.4 3.6A8 8 0 0 1 5.1 16zm3-8h-3a8 8 0 0 1 4.4-3.6C8.9 5.5 8.4 6.7 8.1 8zM12 20c-.8-1.2-1.5-2.5-1.9-4h3.8c-.4 1.5-1.1 2.8-1.9 4zm2.3-6H9.7a14.7 14.7 0 0 1 0-4h4.6a14.7 14.7 0 0 1 0 4zm.3 5.6c.6-1.1 1.1-2.3 1.4-3.6h3a8 8 0 0 1-4.4 3.6zm1.7-5.6a16.5 16.5 0 0 0 0-4h3.4a8.2 8.2 0 0 1 0 4h-3.4z"/></svg>
    <label for=${id} style="position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap">${_("Language")}</label>
    <select id=${id} value=${language.value} onChange=${choose} disabled=${busy}
      style="width: auto; min-height: 0; height: auto; margin: 0; padding: 0.2rem 0.5rem; font: inherit; color: inherit; background: transparent; border: 1px solid currentColor; border-radius: 6px">
      ${LANGUAGES.map((item) => html`<option value=${item.code} lang=${item.code} style="color: #1d232a">${item.name}</option>`)}
    </select>
  </span>`;
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
    <button type="button" class="icon-button" aria-label=${_("Settings")} aria-expanded=${open} aria-controls="settings-menu" onClick=${() => setOpen(!open)}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M19.4 13a7.7 7.7 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.4 7.4 0 0 0-1.7-1L15 3.2h-4l-.4 2.7c-.6.3-1.2.6-1.7 1l-2.5-1-2 3.5L6.6 11a7.7 7.7 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1c.5.4 1.1.7 1.7 1l.4 2.7h4l.4-2.7c.6-.3 1.2-.6 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z" transform="translate(-1 0)"/></svg>
    </button>
    ${open &&
    html`<div class="menu-panel" id="settings-menu" role="group" aria-label=${_("Settings")}>
      <${Toggle} setting=${sound} label=${_("Sound")} hint=${_("Cards, chips and results")} />
      <${Toggle} setting=${animations} label=${_("Animations")} hint=${reducedMotion.value ? _("Off: your system asks for reduced motion") : _("Dealing and chips")} />
      <${Toggle} setting=${fourColour} label=${_("Four-colour deck")} hint=${_("Clubs green, diamonds blue")} />
      <button type="button" class="menu-link" onClick=${() => { setOpen(false); overlayOpen.value = true; }}>${_("Keyboard shortcuts")} <kbd>?</kbd></button>
    </div>`}
  </div>`;
}

function Header() {
  const user = me.value;
  return html`<header class="topbar">
    <a class="skip" href="#main" onClick=${(event) => { event.preventDefault(); document.getElementById("main").focus(); }}>${_("Skip to the page")}</a>
    <a class="brand" href="/" aria-label=${_("twentyone: the lobby")}><${Logo} /><span>twentyone</span></a>
    <nav aria-label=${_("Main")} class="mainnav">
      <${NavLink} href="/">${_("Lobby")}</${NavLink}>
      <${NavLink} href="/online">${_("Online")}</${NavLink}>
      <${NavLink} href="/lab">${_("Rules lab")}</${NavLink}>
      ${user && html`<${NavLink} href="/history">${_("History")}</${NavLink}>`}
      ${user && user.role === "operator" && html`<${NavLink} href="/admin">${_("Operator")}</${NavLink}>`}
    </nav>
    <div class="who">
      ${user &&
      html`<a class="balance" href="/account" aria-label=${_("Balance {amount}: your account", { amount: formatMoney(user.balance) })} title=${_("Your account")}>
        <span class="balance-label">${_("Balance")}</span>
        <${Money} amount=${user.balance} />
      </a>`}
      <${SettingsMenu} />
      ${user === null &&
      html`<a class="btn btn-ghost" href="/login">${_("Sign in")}</a><a class="btn btn-primary" href="/register">${_("Register")}</a>`}
      ${user &&
      html`<a class="who-name" href="/account" title=${_("Your account")}>${user.name}</a>
        <button type="button" class="btn btn-ghost" onClick=${signOut}>${_("Sign out")}</button>`}
    </div>
  </header>`;
}

function Footer() {
  return html`<footer class="footer">
    <p>
      <strong>twentyone</strong> · ${_("play money only: nothing here is worth anything, and nothing can be bought.")}${" "}${_h("Every deal is {link}.", { link: html`<a href="/history">${_("provably fair")}</a>` })}
    </p>
    <p class="footer-links">
      <a href="/rules/casino">${_("Casino rules")}</a> <a href="/rules/online">${_("Online rules")}</a>
      <a href="/lab">${_("Rules lab")}</a>
      <button type="button" class="linkish" onClick=${() => (overlayOpen.value = true)}>${_("Shortcuts")} <kbd>?</kbd></button>
      <${LanguageSwitcher} />
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
      <h2 id="shortcuts-title">${_("Keyboard shortcuts")}</h2>
      ${keys.length === 0 && html`<p class="muted">${_("This page has no shortcuts of its own.")}</p>`}
      <dl class="shortcut-list">
        ${keys.map((item) => html`<div><dt><kbd>${keyLabel(item.key)}</kbd></dt><dd>${item.label}</dd></div>`)}
        <div><dt><kbd>?</kbd></dt><dd>${_("Show or hide this list")}</dd></div>
      </dl>
      <button type="button" class="btn btn-secondary" onClick=${() => (overlayOpen.value = false)}>${_("Close")} <kbd>${_("Esc")}</kbd></button>
    </div>
  </div>`;
}

function Frame() {
  const page = current.value;
  useEffect(() => {
    show(location$.value);
  }, [location$.value]);
  useShortcuts({
    "?": { run: () => (overlayOpen.value = !overlayOpen.value), label: _("Show or hide this list") },
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
      ${page === null && html`<p class="loading" aria-live="polite">${_("Loading...")}</p>`}
      ${page && page.error && html`<div class="panel notice"><p class="error-line" role="alert">${_(page.error)}</p><p><a href="/">${_("Back to the lobby")}</a></p></div>`}
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

// The page's language first (its catalogue is one small cached request), then the first render.
refreshMe().catch(() => {});
startLanguage().finally(() => render(html`<${Frame} />`, document.getElementById("app")));
