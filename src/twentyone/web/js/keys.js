// Keyboard shortcuts. A page calls `useShortcuts({h: hit, s: stand})` and the keys work while it
// is mounted; keys are single characters ("h", "1", "?") or names ("enter", "space", "escape",
// "arrowleft"). A value is a function, or {run, label} to name it in the "?" overlay (without a
// label the overlay takes the name of the button showing that key, data-kbd). Keys are ignored
// while typing in a field, and with Ctrl, Alt or Meta held (the browser's own shortcuts), and
// while the button showing the key is disabled (so a key never does what its button cannot).
import { signal, useEffect, useRef } from "./lib.js";

const registered = []; // {map: ref} in mount order; the newest wins a key
/** Bumped when the set of shortcuts changes (the overlay redraws). */
export const shortcutsVersion = signal(0);

/** The name of a key event as the maps spell keys. */
export function keyName(event) {
  const key = event.key;
  if (key === " ") return "space";
  return key.length === 1 ? key.toLowerCase() : key.toLowerCase();
}

function typing(target) {
  if (!target || !target.closest) return false;
  // Text fields take the keys; a focused switch, checkbox or button does not.
  const fields = "textarea, select, [contenteditable='true'], input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])";
  return Boolean(target.closest(fields));
}

/** Register keys while the calling component is mounted (the map may change every render). */
export function useShortcuts(map) {
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    const entry = { map: ref };
    registered.push(entry);
    shortcutsVersion.value += 1;
    return () => {
      registered.splice(registered.indexOf(entry), 1);
      shortcutsVersion.value += 1;
    };
  }, []);
}

function action(value) {
  if (!value) return null;
  if (typeof value === "function") return value;
  return value.disabled ? null : value.run;
}

/** An element's text without the key hints (<kbd>) it shows. */
function textWithoutKeys(element) {
  const copy = element.cloneNode(true);
  copy.querySelectorAll("kbd").forEach((kbd) => kbd.remove());
  return copy.textContent.replace(/\s+/g, " ").trim();
}

/** Every registered key with its label, newest registration first (for the overlay). */
export function currentShortcuts() {
  const seen = new Map();
  for (let i = registered.length - 1; i >= 0; i--) {
    for (const [key, value] of Object.entries(registered[i].map.current || {})) {
      if (seen.has(key) || !value) continue;
      let label = typeof value === "object" ? value.label : undefined;
      if (!label) {
        const button = document.querySelector(`[data-kbd="${CSS.escape(key)}"]`);
        if (button) label = button.getAttribute("aria-label") || textWithoutKeys(button);
      }
      seen.set(key, label || key);
    }
  }
  return [...seen.entries()].map(([key, label]) => ({ key, label }));
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
  const name = keyName(event);
  if (typing(event.target) && name !== "escape") return;
  for (let i = registered.length - 1; i >= 0; i--) {
    const map = registered[i].map.current || {};
    if (!(name in map)) continue;
    const run = action(map[name]);
    if (!run) continue; // not available here now: an older registration may take it
    // The button showing this key is disabled (not a legal action now): the key is too.
    const button = document.querySelector(`button[data-kbd="${CSS.escape(name)}"]`);
    if (button && button.disabled) return;
    // A focused button would also be "clicked" by Enter/Space: the shortcut wins instead.
    event.preventDefault();
    run(event);
    return;
  }
});
