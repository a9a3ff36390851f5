// The editions and their cards in words (GET /editions?lang=, in the page's language), loaded
// once per language, and how to name things.

import { api, NAMED_CARDS } from "./api.js";
import { currentLanguage, formatList, has, t } from "./i18n.js";

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

// The bots from the weakest to the strongest, as the README's tournaments measured them
// (random, then the levels; heuristic plays as medium does, search a little above hard).
const BOT_STRENGTH = ["random", "easy", "medium", "heuristic", "hard", "search"];
const strength = (kind) => (BOT_STRENGTH.includes(kind) ? BOT_STRENGTH.indexOf(kind) : BOT_STRENGTH.length);

/** The bots a seat may be, the weakest first (a bot newer than this page last). */
export function botKinds() {
  return catalog.seatKinds.filter((kind) => kind !== "human").sort((a, b) => strength(a) - strength(b));
}

/** A bot by its level in the page's language ("hard" -> "Bot · hard"). */
export function botName(kind) {
  return has(`bot.${kind}`) ? t(`bot.${kind}`) : kind;
}

/** Whether a table's seat is held by the bot it was opened with (named `<bot>-bot-<n>` by the
 *  service), rather than by a person or by a bot that took a person's seat over. */
export function bornBot(seat) {
  return Boolean(seat.bot) && seat.name === `${seat.bot}-bot-${seat.seat + 1}`;
}

/** Each seat's name for people: a person's own name, a bot's level ("Bot · hard"; two bots
 *  of one level add their seat's number), null for an open seat. `seats`: a table's seats. */
export function seatNames(seats) {
  const levels = seats.filter(bornBot).map((seat) => seat.bot);
  return seats.map((seat) => {
    if (!bornBot(seat)) return seat.open ? null : seat.name;
    const alone = levels.filter((kind) => kind === seat.bot).length === 1;
    return alone ? botName(seat.bot) : t("seat.bot_numbered", { bot: botName(seat.bot), number: seat.seat + 1 });
  });
}

/** The names events carry for a table's bots ("hard-bot-2"), mapped to their names for people. */
export function botAliases(seats) {
  const names = seatNames(seats);
  return new Map(seats.filter(bornBot).map((seat) => [seat.name, names[seat.seat]]));
}

/** A game in words: its edition and who sits there ("Classic · ann, Bot · hard and 1 open
 *  seat"). `game`: anything with `edition` and `seats`. */
export function gameName(game) {
  const names = seatNames(game.seats);
  const open = names.filter((name) => name === null).length;
  const people = names.filter((name) => name !== null);
  if (open) people.push(t("game.open_seats", { count: open }));
  return t("game.name", { edition: editionName(game.edition), players: formatList(people) });
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
