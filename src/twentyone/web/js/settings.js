// The player's settings, kept in this browser (localStorage): sound (off until turned on),
// animations (on, unless the system asks for reduced motion) and the four-colour deck.
// Each is a signal: read `.value` in a component and it redraws when the setting changes.
import { signal, effect } from "./lib.js";

const PREFIX = "twentyone.";

function stored(name, fallback) {
  try {
    const text = window.localStorage.getItem(PREFIX + name);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback; // private mode or a corrupt value: the default
  }
}

function persisted(name, fallback) {
  const value = signal(stored(name, fallback));
  effect(() => {
    try {
      window.localStorage.setItem(PREFIX + name, JSON.stringify(value.value));
    } catch {
      // storage full or refused: the setting lasts for this page only
    }
  });
  return value;
}

const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** The system asks for reduced motion (a signal: it follows the system setting live). */
export const reducedMotion = signal(Boolean(motionQuery && motionQuery.matches));
if (motionQuery && motionQuery.addEventListener) {
  motionQuery.addEventListener("change", (event) => (reducedMotion.value = event.matches));
}

/** Sounds on (false until the player turns them on). */
export const sound = persisted("sound", false);
/** Animations wanted by the player (they also stay off while the system asks for reduced motion). */
export const animations = persisted("animations", true);
/** Clubs green and diamonds blue, so the four suits differ by colour. */
export const fourColour = persisted("fourColour", false);

/** Whether to animate now: the player's switch and the system's reduced-motion setting. */
export const animate = () => animations.value && !reducedMotion.value;

// The document's classes follow the settings, so CSS alone switches the deck and the motion.
effect(() => {
  const root = document.documentElement;
  root.classList.toggle("four-colour", fourColour.value);
  root.classList.toggle("no-motion", !animations.value || reducedMotion.value);
});
