// The interface's languages: English (the source) and the catalogues the server sends.
//
//   _("Place {amount} on box {box}", { amount: formatMoney(500), box: 3 })
//   n_("{n} seat left", "{n} seats left", seats)           // {n} is the count
//   const TITLE = N_("Lobby");  ...  _(TITLE)                // marked here, translated when shown
//
// The English text is the message id (gettext style): `make i18n` extracts every _("..."),
// n_("...", "...") and N_("...") of the .js files (tools/babel_htm.py reads the htm templates)
// into src/twentyone/locale/messages.pot, and translators fill each language's .po. Write the
// whole sentence as one literal inside the call so it can be extracted and translated; never
// build a sentence from pieces, never pass a variable as the message. Placeholders are {name}.
//
// _() reads a signal, so a component that calls it while drawing is redrawn when the language
// changes: the switcher applies a language without a reload. Text computed once outside a
// component (a module-level constant) must be marked with N_() and translated where it is shown.
import { signal, batch } from "./lib.js";

/** The languages, each named in its own language (the server's /api/i18n says the same). */
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "fi", name: "Suomi" },
  { code: "tr", name: "Türkçe" },
  { code: "nb", name: "Norsk bokmål" },
  { code: "pt-BR", name: "Português (Brasil)" },
];

/** The language in use (a BCP 47 tag: "en", "fi", "tr", "nb", "pt-BR"). */
export const language = signal("en");

// msgid -> translation (a string, or an array of plural forms keyed by the singular msgid).
const messages = signal({});

/** {name} placeholders filled from params (an unknown one stays as written). */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The translation of `message` in the current language, with {name} placeholders filled. */
export function _(message, params) {
  const found = messages.value[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

/**
 * A sentence with elements inside it (a link, a <kbd>): the translation split at its {name}
 * placeholders, each replaced by params[name] (a string or an html`` element), as an array
 * htm draws as children. _h("Every deal is {link}.", { link: html`<a href="/history">${_("provably fair")}</a>` })
 */
export function _h(message, params = {}) {
  const found = messages.value[message];
  const text = typeof found === "string" && found ? found : message;
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    parts.push(text.slice(last, match.index), match[1] in params ? params[match[1]] : match[0]);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

/**
 * The form of a message for the count `n` ({n} is filled with it unless params says otherwise).
 * Every language here has at most two forms (Turkish one): form 0 is CLDR's "one", form 1 the rest.
 */
export function n_(singular, plural, n, params) {
  const values = { n: formatNumber(n), ...(params || {}) };
  const forms = messages.value[singular];
  if (Array.isArray(forms) && forms.length > 0 && forms.every(Boolean)) {
    const index = forms.length === 1 ? 0 : new Intl.PluralRules(language.value).select(n) === "one" ? 0 : 1;
    return fill(forms[Math.min(index, forms.length - 1)], values);
  }
  return fill(n === 1 ? singular : plural, values);
}

/** Marks a message for extraction without translating it (translate it with _() where shown). */
export function N_(message) {
  return message;
}

/** A number in the current language's notation. */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(language.value, options).format(value);
}

/** A date and time (epoch seconds) in the current language's notation. */
export function formatDateTime(epochSeconds, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(language.value, options).format(new Date(epochSeconds * 1000));
}

const KEY = "lang";
const known = (code) => LANGUAGES.some((item) => item.code === code);

function stored() {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null; // storage refused (private mode): the server's choice stands
  }
}

async function fetchMessages(code) {
  if (code === "en") return {};
  const response = await fetch(`/api/i18n/${encodeURIComponent(code)}`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no catalogue for ${code}`);
  return (await response.json()).messages || {};
}

function apply(code, table) {
  batch(() => {
    messages.value = table;
    language.value = code;
  });
  document.documentElement.lang = code;
}

/** The server reads the cookie (API errors and rules texts in this language). */
function remember(code) {
  document.cookie = `${KEY}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  try {
    window.localStorage.setItem(KEY, code);
  } catch {
    // the cookie alone still carries the choice
  }
}

/** Switch to a language (from the switcher): fetched, applied without a reload, remembered. */
export async function setLanguage(code) {
  if (!known(code)) return;
  const table = await fetchMessages(code);
  apply(code, table);
  remember(code);
}

/**
 * Before the first render (app.js): the language chosen in this browser before, else the
 * server's choice (the `lang` cookie, else the browser's Accept-Language), else English. The
 * server wrote its choice into the page's <html lang> (server/web.py), so no request is needed
 * for it; /api/i18n is asked only when the page came from elsewhere without one of ours.
 */
export async function startLanguage() {
  let code = stored();
  if (known(code)) {
    remember(code); // the cookie may have expired: the server follows the stored choice again
  } else if (known(document.documentElement.lang) && document.documentElement.dataset.langFrom === "server") {
    code = document.documentElement.lang;
  } else {
    try {
      const response = await fetch("/api/i18n", { credentials: "same-origin" });
      code = response.ok ? (await response.json()).language : "en";
    } catch {
      code = "en";
    }
  }
  if (!known(code)) code = "en";
  try {
    apply(code, await fetchMessages(code));
  } catch {
    apply("en", {}); // no catalogue: the source language rather than no page
  }
}
