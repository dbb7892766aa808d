// Sign in (POST /api/session sets the HttpOnly session cookie), then back to where the visitor
// was going (?next=/path) or the lobby.
import { html, useState } from "../js/lib.js";
import { post } from "../js/api.js";
import { me, refreshMe } from "../js/session.js";
import { navigate } from "../js/app.js";
import { Button, ErrorLine } from "../js/ui.js";
import { AuthLayout, safeNext } from "./register.js";

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

  return html`<${AuthLayout} title="Welcome back" intro="Sign in to take a seat, see your balance and replay your rounds.">
    ${me.value && html`<p class="success-line">You are signed in as <strong>${me.value.name}</strong>. <a href="/">Go to the lobby</a></p>`}
    <form class="form" onSubmit=${submit} aria-label="Sign in" novalidate>
      <div class="field">
        <label for="login-name">Name</label>
        <input id="login-name" name="username" type="text" autocomplete="username" autocapitalize="off" spellcheck="false"
          value=${name} onInput=${(e) => setName(e.currentTarget.value)} required autofocus />
      </div>
      <div class="field">
        <label for="login-password">Password</label>
        <input id="login-password" name="password" type="password" autocomplete="current-password"
          value=${password} onInput=${(e) => setPassword(e.currentTarget.value)} required />
      </div>
      <${ErrorLine} error=${error} />
      <${Button} type="submit" variant="primary" busy=${busy}>Sign in</${Button}>
    </form>
    <p class="auth-switch">New here? <a href=${`/register${next !== "/" ? `?next=${encodeURIComponent(next)}` : ""}`}>Register</a> and get 1,000.00 in play money.</p>
  </${AuthLayout}>`;
}
