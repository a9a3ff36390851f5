// A card's face: every card the table, the hand, the piles and the replay show is drawn by
// `cardFace`, so a change of the cards' look (pictures) is made here alone.

import { card } from "./cards.js";
import { h } from "./dom.js";

/** The face of card `id` of an edition: its number and name (decorative: the element that
 *  holds it carries the card's accessible name). */
export function cardFace(editionId, id) {
  const c = card(editionId, id);
  return h("span", { class: "face", "aria-hidden": "true" },
    h("span", { class: "rank" }, c.rank), h("span", { class: "name" }, c.name));
}
