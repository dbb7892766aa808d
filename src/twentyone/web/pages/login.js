// Sign in (POST /api/session sets the HttpOnly session cookie), then back to where the visitor
// was going (?next=/path) or the lobby.
import { html, useState } from "../js/lib.js";
import { post } from "../js/api.js";
import { me, refreshMe } from "../js/session.js";
import { navigate } from "../js/app.js";
import { Button, ErrorLine } from "../js/ui.js";
import { AuthLayout, safeNext } from "./register.js";
import { _, _h } from "../js/i18n.js";
import { formatMoney } from "../js/ui.js";

export default function Login({ query }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const next = safeNext(query);

  async function submit(event) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      me.value = await post("/api/session", { name: name.trim(), password });
      await refreshMe().catch(() => {});
      navigate(next, { replace: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return html`<${AuthLayout} title=${_("Welcome back")} intro=${_("Sign in to take a seat, see your balance and replay your rounds.")}>
    ${me.value && html`<p class="success-line">${_h("You are signed in as {name}.", { name: html`<strong>${me.value.name}</strong>` })} <a href="/">${_("Go to the lobby")}</a></p>`}
    <form class="form" onSubmit=${submit} aria-label=${_("Sign in")} novalidate>
      <div class="field">
        <label for="login-name">${_("Name")}</label>
        <input id="login-name" name="username" type="text" autocomplete="username" autocapitalize="off" spellcheck="false"
          value=${name} onInput=${(e) => setName(e.currentTarget.value)} required autofocus />
      </div>
      <div class="field">
        <label for="login-password">${_("Password")}</label>
        <input id="login-password" name="password" type="password" autocomplete="current-password"
          value=${password} onInput=${(e) => setPassword(e.currentTarget.value)} required />
      </div>
      <${ErrorLine} error=${error} />
      <${Button} type="submit" variant="primary" busy=${busy}>${_("Sign in")}</${Button}>
    </form>
    <p class="auth-switch">${_("New here?")} ${_h("{register} and get {amount} in play money.", {
      register: html`<a href=${`/register${next !== "/" ? `?next=${encodeURIComponent(next)}` : ""}`}>${_("Register")}</a>`,
      amount: formatMoney(100000),
    })}</p>
  </${AuthLayout}>`;
}
