// Register: a name and a password; POST /api/accounts opens the account with the starting grant
// and signs this browser in (it sets the cookie). The rules are checked here as the player types
// and again by the server, whose refusal (a taken name) is shown in place.
import { html, useState } from "../js/lib.js";
import { post } from "../js/api.js";
import { me, refreshMe } from "../js/session.js";
import { navigate } from "../js/app.js";
import { Button, ErrorLine, formatMoney } from "../js/ui.js";
import { Card } from "../js/cards.js";
import { _, _h, n_ } from "../js/i18n.js";

/** The server's name rule (server/context.py NAME_PATTERN). */
export const NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$/;
export const PASSWORD_MIN = 8;

/** Where to go after signing in: ?next= when it is a path of this site, else the lobby. */
export function safeNext(query) {
  const next = query && query.get ? query.get("next") : null;
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/** What is wrong with a name ("" when nothing). */
export function nameProblem(name) {
  if (!name) return "";
  if (name.length < 3) return _("At least 3 characters.");
  if (name.length > 32) return _("At most 32 characters.");
  if (!/^[A-Za-z0-9]/.test(name)) return _("Start with a letter or a digit.");
  if (!NAME_RULE.test(name)) return _("Only letters, digits, '_', '.' and '-'.");
  return "";
}

/** The two-column sign-in / register layout: felt art on the left, the form on the right. */
export function AuthLayout({ title, intro, children }) {
  return html`<div class="panel auth">
    <div class="felt auth-art" aria-hidden="true">
      <div class="hero-cards"><${Card} card="AD" /><${Card} card="JC" /><${Card} card=${null} /></div>
      <p><strong>${_("Blackjack, four ways.")}</strong> ${_("Play money only, every shoe provably fair.")}</p>
    </div>
    <div class="auth-form">
      <h1>${title}</h1>
      <p class="muted">${intro}</p>
      ${children}
    </div>
  </div>`;
}

export default function Register({ query }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [touched, setTouched] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const next = safeNext(query);
  const nameError = nameProblem(name);
  const passwordError = password && password.length < PASSWORD_MIN ? _("At least {min} characters ({count} so far).", { min: PASSWORD_MIN, count: password.length }) : "";
  const ready = name && password && !nameError && !passwordError;

  async function submit(event) {
    event.preventDefault();
    setTouched({ name: true, password: true });
    if (!ready) return;
    setError(null);
    setBusy(true);
    try {
      await post("/api/accounts", { name, password });
      await refreshMe();
      navigate(next, { replace: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  const showName = touched.name && nameError;
  const showPassword = touched.password && passwordError;
  return html`<${AuthLayout} title=${_("Create your account")} intro=${_("Free, with {amount} in play money to start and a top-up every hour.", { amount: formatMoney(100000) })}>
    ${me.value && html`<p class="success-line">${_h("You are signed in as {name}.", { name: html`<strong>${me.value.name}</strong>` })} <a href="/">${_("Go to the lobby")}</a></p>`}
    <form class="form" onSubmit=${submit} aria-label=${_("Register")} novalidate>
      <div class="field">
        <label for="register-name">${_("Name")}</label>
        <input id="register-name" name="username" type="text" autocomplete="username" autocapitalize="off" spellcheck="false"
          maxlength="32" value=${name} aria-invalid=${showName ? "true" : "false"} aria-describedby="register-name-help"
          onInput=${(e) => setName(e.currentTarget.value)} onBlur=${() => setTouched({ ...touched, name: true })} required autofocus />
        ${showName
          ? html`<p class="field-error" id="register-name-help">${nameError}</p>`
          : html`<small id="register-name-help">${_("3 to 32 letters, digits, '_', '.' or '-'. Others at a table see it.")}</small>`}
      </div>
      <div class="field">
        <label for="register-password">${_("Password")}</label>
        <input id="register-password" name="new-password" type="password" autocomplete="new-password"
          value=${password} aria-invalid=${showPassword ? "true" : "false"} aria-describedby="register-password-help"
          onInput=${(e) => setPassword(e.currentTarget.value)} onBlur=${() => setTouched({ ...touched, password: true })} required />
        ${showPassword
          ? html`<p class="field-error" id="register-password-help">${passwordError}</p>`
          : html`<small id="register-password-help">${_("At least {min} characters.", { min: PASSWORD_MIN })}</small>`}
      </div>
      <${ErrorLine} error=${error} />
      <${Button} type="submit" variant="primary" busy=${busy}>${_("Register and sign in")}</${Button}>
    </form>
    <p class="auth-switch">${_("Already have an account?")} <a href=${`/login${next !== "/" ? `?next=${encodeURIComponent(next)}` : ""}`}>${_("Sign in")}</a></p>
  </${AuthLayout}>`;
}
