// The editions and their cards in words (GET /editions?lang=, in the page's language), loaded
// once per language, and how to name things.

import { api, NAMED_CARDS } from "./api.js";
import { currentLanguage, has, t } from "./i18n.js";

const loading = new Map(); // language -> Promise of the catalog
let catalog = null;

/** Load the catalog in the page's language (once); the page waits for it before it renders. */
export function loadCatalog() {
  const language = currentLanguage();
  if (!loading.has(language)) {
    loading.set(language, api.editions(language).then((data) => {
      const editions = new Map();
      for (const edition of data.editions) {
        editions.set(edition.id, { ...edition, byCard: new Map(edition.cards.map((card) => [card.card, card])) });
      }
      return { editions, seatKinds: data.seat_kinds, language: data.language };
    }).catch((error) => {
      loading.delete(language);
      throw error;
    }));
  }
  return loading.get(language).then((found) => (catalog = found));
}

export function editions() {
  return [...catalog.editions.values()];
}

export function edition(id) {
  return catalog.editions.get(id);
}

/** An edition's name in the page's language ("classic" -> "Classic", "クラシック"). */
export function editionName(id) {
  return has(`edition.${id}`) ? t(`edition.${id}`) : id; // an edition newer than this page
}

export function botKinds() {
  return catalog.seatKinds.filter((kind) => kind !== "human");
}

/** A bot's name in the page's language ("heuristic" -> "heuristic bot"). */
export function botName(kind) {
  return has(`bot.${kind}`) ? t(`bot.${kind}`) : kind;
}

/** A card of an edition: {card, name, rank, copies, effect}. */
export function card(editionId, id) {
  return edition(editionId)?.byCard.get(id) || { card: id, name: id, rank: "?", copies: 0, effect: "" };
}

/** A card cited in a sentence: "the Guard", 「兵士」. */
export function theCard(editionId, id) {
  return t("card.cited", { name: card(editionId, id).name });
}

/** The cards a refusal may name, cited in this edition's words (for api.says). */
export function cardWords(editionId) {
  return Object.fromEntries(NAMED_CARDS
    .filter((id) => edition(editionId)?.byCard.has(id)).map((id) => [id, theCard(editionId, id)]));
}

/** What a Guard or Bishop names: a card ("the Priest") or a number ("3"). */
export function named(editionId, guess) {
  return typeof guess === "number" ? String(guess) : theCard(editionId, guess);
}

/** The cards of an edition that carry a number, e.g. "Baron, Baroness" for 3. */
export function cardsNumbered(editionId, number) {
  return edition(editionId).cards.filter((c) => c.rank === number).map((c) => c.name);
}
