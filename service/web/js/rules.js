// The rules pages: #/rules (the game in a minute and its editions) and #/rules/<edition> (how a
// round and a game go in that edition, and every card with its picture and effect; a card's
// own address is #/rules/<edition>#<card>). Every number, card name and effect comes from
// GET /editions in the page's language; the sentences around them from the catalogue.

import { cardFace } from "./art.js";
import { edition as editionOf, editionName, editions, theCard } from "./cards.js";
import { h, replace } from "./dom.js";
import { formatList, formatNumber, t } from "./i18n.js";
import { tutorialOf } from "./lesson.js";

// An edition that is another one plus cards of its own: those get a section of their own.
const ADDS_TO = { premium: "classic" };
const HERO_EDITION = "2019";
const HERO_CARDS = ["guard", "handmaid", "princess"];

/** An edition's rules page address, or a card's on it. */
export function rulesLink(editionId, cardId) {
  return `#/rules/${encodeURIComponent(editionId)}${cardId ? `#${encodeURIComponent(cardId)}` : ""}`;
}

const deckSize = (found) => found.cards.reduce((sum, c) => sum + c.copies, 0);
const players = (found) => t("rules.players", { min: found.min_players, max: found.max_players });

/** Show the rules: the index (no edition) or an edition's page, scrolled to `cardId`. */
export async function showRules(root, editionId, cardId) {
  if (!editionId) return showIndex(root);
  const found = editionOf(editionId);
  if (!found) {
    replace(root, h("section", { class: "panel" }, h("h1", {}, t("app.not_found")),
      h("p", {}, h("a", { href: "#/rules" }, t("rules.title")))));
    return;
  }
  document.title = t("app.title", { page: t("rules.edition.heading", { edition: editionName(editionId) }) });
  replace(root, editionPage(found));
  if (cardId) {
    const target = root.querySelector(`#card-${CSS.escape(cardId)}`);
    target?.scrollIntoView({ block: "start" });
    target?.focus({ preventScroll: true });
  }
}

function showIndex(root) {
  document.title = t("app.title", { page: t("rules.title") });
  replace(root, h("div", { class: "rules", id: "rules" },
    h("section", { class: "panel", "aria-labelledby": "rules-title" },
      h("h1", { id: "rules-title" }, t("rules.heading")),
      h("div", { class: "rules-intro" },
        h("p", {}, t("rules.intro")),
        hero()),
      h("p", {}, t("rules.index.pick"))),
    h("section", { class: "panel", "aria-labelledby": "editions-title" },
      h("h2", { id: "editions-title" }, t("rules.editions.title")),
      h("ul", { class: "rules-editions" }, editions().map((found) => h("li", { "data-edition": found.id },
        h("a", { href: rulesLink(found.id), class: "rules-edition" },
          h("strong", {}, editionName(found.id)),
          h("span", { class: "muted small" }, t("rules.edition.line", { players: players(found), cards: deckSize(found) })),
          h("span", {}, t("rules.edition.link"))))))),
    h("p", {}, h("a", { href: "#/" }, t("rules.play")))));
}

/** A few cards of the most played edition, each a link to its explanation. */
function hero() {
  const found = editionOf(HERO_EDITION) || editions()[0];
  return h("ul", { class: "rules-hero", "aria-label": t("rules.hero", { edition: editionName(found.id) }) },
    HERO_CARDS.filter((id) => found.byCard.has(id)).map((id) => h("li", {},
      h("a", { href: rulesLink(found.id, id) }, cardFace(found.byCard.get(id))))));
}

function editionPage(found) {
  const id = found.id;
  const base = editionOf(ADDS_TO[id]);
  const extra = base ? found.cards.filter((c) => !base.byCard.has(c.card)) : [];
  const own = found.cards.filter((c) => !extra.includes(c));
  const endsAtOnce = ["bishop", "constable"].filter((card) => found.byCard.has(card));
  return h("div", { class: "rules", id: "rules", "data-edition": id },
    h("section", { class: "panel", "aria-labelledby": "rules-title" },
      h("h1", { id: "rules-title" }, t("rules.edition.heading", { edition: editionName(id) })),
      h("p", {}, t("rules.edition.summary", { edition: editionName(id), players: players(found), cards: deckSize(found) })),
      h("p", {}, t("rules.goal")),
      learnLink(id),
      editionTabs(id)),
    h("section", { class: "panel", "aria-labelledby": "game-rules" },
      h("h2", { id: "game-rules" }, t("rules.game.title")),
      h("p", {}, t("rules.game.text")),
      tokenTable(found),
      endsAtOnce.length ? h("p", {}, t("rules.game.at_once", { cards: formatList(endsAtOnce.map((card) => theCard(id, card)), "disjunction") })) : null),
    h("section", { class: "panel", "aria-labelledby": "round-rules" },
      h("h2", { id: "round-rules" }, t("rules.round.title")),
      h("ol", { class: "rules-steps" },
        h("li", {}, t("rules.round.setup", { cards: deckSize(found) })),
        found.min_players === 2 && found.face_up_with_two_players
          ? h("li", {}, t("rules.round.face_up", { count: found.face_up_with_two_players })) : null,
        h("li", {}, t("rules.round.first"))),
      h("h3", {}, t("rules.turn.title")),
      h("ol", { class: "rules-steps" },
        h("li", {}, t("rules.turn.draw")),
        h("li", {}, t("rules.turn.play")),
        h("li", {}, t("rules.turn.choose", { handmaid: theCard(id, "handmaid") })),
        h("li", {}, t("rules.turn.out"))),
      h("h3", {}, t("rules.end.title")),
      h("ul", {},
        h("li", {}, t("rules.end.last")),
        h("li", {}, t("rules.end.showdown"), " ", t("rules.end.ties", { discards: found.discard_total_breaks_ties ? "yes" : "no" })),
        h("li", {}, t("rules.end.token")))),
    cardSection("cards-title", extra.length ? t("rules.cards.base", { edition: editionName(base.id) }) : t("rules.cards.title"),
      t("rules.cards.intro"), own),
    extra.length
      ? cardSection("extra-title", t("rules.cards.extra", { edition: editionName(id) }),
        t("rules.cards.extra_intro", { edition: editionName(id), base: editionName(base.id), players: players(found) }), extra)
      : null,
    h("p", {}, h("a", { href: "#/" }, t("rules.play"))));
}

/** The tutorial of the edition's family, where it has one: a guided first round. */
function learnLink(editionId) {
  const name = tutorialOf(editionId);
  return name ? h("p", {}, h("a", { class: "button primary", href: `#/tutorial/${name}`, "data-tutorial": name },
    t("tutorial.learn.edition", { edition: editionName(name) }))) : null;
}

/** Links to the other editions' rules (the current one marked). */
function editionTabs(current) {
  return h("nav", { class: "editions", "aria-label": t("rules.editions.title") },
    [h("a", { href: "#/rules" }, t("rules.title")),
      ...editions().map((found) => h("a", {
        href: rulesLink(found.id), "aria-current": found.id === current ? "page" : null,
      }, editionName(found.id)))].flatMap((link, i) => (i ? [" · ", link] : [link])));
}

/** Tokens to win by the number of players. */
function tokenTable(found) {
  return h("table", { class: "rules-tokens" },
    h("caption", {}, t("rules.tokens.caption")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("rules.tokens.players")), h("th", { scope: "col" }, t("rules.tokens.tokens")))),
    h("tbody", {}, found.tokens_to_win.map((row) => h("tr", {},
      h("td", {}, formatNumber(row.players)), h("td", {}, formatNumber(row.tokens))))));
}

/** A section of cards: each with its face, number, copies and effect, at its own address. */
function cardSection(titleId, title, intro, cards) {
  return h("section", { class: "panel", "aria-labelledby": titleId },
    h("h2", { id: titleId }, title),
    h("p", {}, intro),
    h("ul", { class: "rules-cards" }, cards.map((c) => h("li", {
      id: `card-${c.card}`, class: "rules-card", tabindex: "-1", "data-card": c.card,
      "aria-labelledby": `card-${c.card}-name`,
    },
      cardFace(c),
      h("div", {},
        h("h3", { id: `card-${c.card}-name` }, t("rules.card.name", { rank: c.rank, name: c.name })),
        h("p", { class: "muted small" }, t("rules.card.copies", { count: c.copies })),
        h("p", { class: "effect" }, c.effect))))));
}
