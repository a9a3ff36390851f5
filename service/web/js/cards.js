// The editions and their cards in words (GET /editions), loaded once, and how to name things.

import { api } from "./api.js";

let loading = null;
let catalog = null;

/** Load the catalog (once); the page waits for it before its first render. */
export function loadCatalog() {
  loading ??= api.editions().then((data) => {
    const editions = new Map();
    for (const edition of data.editions) {
      editions.set(edition.id, { ...edition, byCard: new Map(edition.cards.map((card) => [card.card, card])) });
    }
    catalog = { editions, seatKinds: data.seat_kinds };
    return catalog;
  });
  return loading;
}

export function editions() {
  return [...catalog.editions.values()];
}

export function edition(id) {
  return catalog.editions.get(id);
}

export function botKinds() {
  return catalog.seatKinds.filter((kind) => kind !== "human");
}

/** A card of an edition: {card, name, rank, copies, effect}. */
export function card(editionId, id) {
  return edition(editionId)?.byCard.get(id) || { card: id, name: id, rank: "?", copies: 0, effect: "" };
}

/** "the Guard". */
export function theCard(editionId, id) {
  return `the ${card(editionId, id).name}`;
}

/** What a Guard or Bishop names: a card ("the Priest") or a number ("3"). */
export function named(editionId, guess) {
  return typeof guess === "number" ? String(guess) : theCard(editionId, guess);
}

/** The cards of an edition that carry a number, e.g. "Baron, Baroness" for 3. */
export function cardsNumbered(editionId, number) {
  return edition(editionId).cards.filter((c) => c.rank === number).map((c) => c.name);
}
