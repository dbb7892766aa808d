// Short sounds for the table (made with sox by tools/make_sounds.sh), silent unless the sound
// setting is on. Each is loaded on its first use, so a page that never plays one fetches nothing.
import { sound } from "./settings.js";

/** The sounds there are: /static/sounds/<name>.wav. */
export const SOUNDS = ["card", "chip", "win", "lose", "tick"];

const cache = new Map();

/** Play a sound by name (one of SOUNDS); does nothing while sound is off or the name is unknown. */
export function play(name) {
  if (!sound.value || !SOUNDS.includes(name)) return;
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(`/static/sounds/${name}.wav`);
    audio.preload = "auto";
    cache.set(name, audio);
  }
  try {
    // A copy, so that two cards dealt in quick succession both click.
    const voice = audio.paused ? audio : audio.cloneNode();
    voice.volume = 0.6;
    voice.currentTime = 0;
    const started = voice.play();
    if (started && started.catch) started.catch(() => {}); // autoplay refused: stay quiet
  } catch {
    // no audio in this browser
  }
}
