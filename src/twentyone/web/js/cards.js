// Playing cards drawn from one SVG sprite (/static/img/cards.svg, made by tools/make_cards.py):
// `Card` is one card ("AS", "TD", ... or null face down), `Hand` a fanned row of them with its
// label and total. The four-colour deck and the deal/flip animations are CSS (settings.js sets
// the document's classes), so a card never redraws for a setting.
import { html, useRef } from "./lib.js";
import { _, N_ } from "./i18n.js";

export const SPRITE = "/static/img/cards.svg";

const RANKS = {
  A: N_("Ace"), 2: N_("Two"), 3: N_("Three"), 4: N_("Four"), 5: N_("Five"), 6: N_("Six"), 7: N_("Seven"),
  8: N_("Eight"), 9: N_("Nine"), T: N_("Ten"), J: N_("Jack"), Q: N_("Queen"), K: N_("King"),
};
const SUITS = { S: N_("spades"), H: N_("hearts"), D: N_("diamonds"), C: N_("clubs") };

/** "AS" -> "Ace of spades"; null -> "face-down card". */
export function cardName(card) {
  if (!card) return _("face-down card");
  const rank = RANKS[card[0]];
  const suit = SUITS[card[1]];
  // One template, so that a language can put the suit first or join the words.
  return rank && suit ? _("{rank} of {suit}", { rank: _(rank), suit: _(suit) }) : String(card);
}

/** The blackjack total of some cards: {total, soft} (an ace counted 11 where that does not bust). */
export function handTotal(cards) {
  let total = 0;
  let aces = 0;
  for (const card of cards) {
    if (!card) continue;
    const rank = card[0];
    if (rank === "A") {
      aces += 1;
      total += 1;
    } else total += "TJQK".includes(rank) ? 10 : Number(rank);
  }
  const soft = aces > 0 && total + 10 <= 21;
  return { total: soft ? total + 10 : total, soft };
}

/**
 * One card. `card` is the engine's spelling ("AS", "TD") or null for a face-down card; `small`
 * draws it smaller (history rows, the strategy calculator). A card that turns face up flips.
 */
export function Card({ card, small = false, index = 0 }) {
  const wasDown = useRef(card === null || card === undefined);
  const down = card === null || card === undefined;
  const flipping = wasDown.current && !down;
  wasDown.current = down;
  const id = down ? "card-back" : `card-${card}`;
  const suit = down ? "" : ` suit-${card[1]}`;
  return html`<svg
    class=${`card${small ? " small" : ""}${flipping ? " flip" : ""}${suit}`}
    style=${`--deal-index: ${index}`}
    viewBox="0 0 240 336"
    role="img"
    aria-label=${cardName(card)}
    data-card=${down ? "back" : card}
  ><use href=${`${SPRITE}#${id}`} /></svg>`;
}

/**
 * A hand: its cards fanned in a row, then `hidden` more face-down cards (a dealer's hole card),
 * with an optional label above and the total below ("soft 17", "bust" past 21). When `total` is
 * not given it is worked out from the face-up cards.
 */
export function Hand({ cards = [], hidden = 0, label, total, soft, small = false, result, active = false }) {
  const all = [...cards, ...Array.from({ length: hidden }, () => null)];
  const known = total === undefined || total === null ? handTotal(cards) : { total, soft: Boolean(soft) };
  const shown = cards.some((card) => card) ? known : null;
  const bust = shown && shown.total > 21;
  const blackjack = result === "blackjack";
  const words = shown
    ? blackjack
      ? _("Blackjack")
      : bust
        ? _("bust ({total})", { total: shown.total })
        : shown.soft
          ? _("soft {total}", { total: shown.total })
          : String(shown.total)
    : "";
  const name = [label, all.map(cardName).join(", "), words && _("total {total}", { total: words })].filter(Boolean).join(": ");
  return html`<div
    class=${`hand${small ? " small" : ""}${active ? " active" : ""}${result ? ` result-${result}` : ""}`}
    role="group"
    aria-label=${name}
  >
    ${label && html`<div class="hand-label">${label}</div>`}
    <div class="hand-cards" style=${`--cards: ${Math.max(all.length, 1)}`}>
      ${all.map((card, i) => html`<${Card} key=${i} index=${i} card=${card} small=${small} />`)}
    </div>
    ${shown &&
    html`<div class=${`hand-total${bust ? " bust" : ""}${shown.soft ? " soft" : ""}`} aria-hidden="true">
      ${words}
    </div>`}
  </div>`;
}
