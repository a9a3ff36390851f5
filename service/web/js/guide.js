// The tutorial's guide: a friendly face and a speech bubble above the table, saying what
// lesson.js works out, one bubble at a time (Next / Back); it points at the table through the
// table's hooks only (`data-part="hand"` with a `data-card` on each card, `data-part="move"`,
// `data-seat`), so it works with any drawing of the table that keeps them (docs/tutorial.md).

import { card, edition as editionOf, editionName, theCard } from "./cards.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { judgeMove, judgeTap, moment } from "./lesson.js";

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The guide's face: a smiling herald with a sealed letter (drawn here, nothing loaded). */
function face() {
  return svg("svg", { viewBox: "0 0 64 64", class: "guide-face", "aria-hidden": "true", focusable: "false" },
    svg("circle", { cx: 32, cy: 32, r: 32, class: "face-back" }),
    svg("path", { d: "M12 64 Q14 47 32 46 Q50 47 52 64 Z", class: "face-coat" }),
    svg("circle", { cx: 32, cy: 30, r: 15, class: "face-skin" }),
    svg("path", { d: "M15 22 Q18 9 33 10 Q47 11 50 21 Q40 17 32 18 Q23 18 15 22 Z", class: "face-cap" }),
    svg("path", { d: "M45 14 Q55 4 60 9 Q53 10 47 17 Z", class: "face-feather" }),
    svg("circle", { cx: 26, cy: 29, r: 1.9, class: "face-eye" }),
    svg("circle", { cx: 38, cy: 29, r: 1.9, class: "face-eye" }),
    svg("circle", { cx: 22.5, cy: 34, r: 2.6, class: "face-cheek" }),
    svg("circle", { cx: 41.5, cy: 34, r: 2.6, class: "face-cheek" }),
    svg("path", { d: "M26.5 35.5 Q32 41 37.5 35.5", class: "face-smile" }),
    svg("rect", { x: 35, y: 44, width: 22, height: 15, rx: 2, class: "face-letter" }),
    svg("path", { d: "M35 45 L46 53 L57 45", class: "face-flap" }),
    svg("path", { d: "M46 50.5 q-2.2 -2.4 -3.4 -0.6 q-1 1.8 3.4 4.6 q4.4 -2.8 3.4 -4.6 q-1.2 -1.8 -3.4 0.6 Z", class: "face-seal" }));
}

// The guide's own sentences (a bubble's or a word's `say`); the story's are its steps.
const SAID = {
  welcome: (words) => t("tutorial.welcome", words),
  face_up: (words) => t("tutorial.face_up", words),
  hand: (words) => t("tutorial.hand", words),
  new_cards: (words) => t("tutorial.new_cards", words),
  waiting: (words) => t("tutorial.waiting", words),
  off_script: (words) => t("tutorial.off_script", words),
  lost: (words) => t("tutorial.lost", words),
  unmet: (words) => t("tutorial.unmet", words),
  end_game: (words) => t("tutorial.end_game", words),
  tap_wait: (words) => t("tutorial.tap.wait", words),
  tap_yes: (words) => t("tutorial.tap.yes", words),
  tap_forced: (words) => t("tutorial.tap.forced", words),
};

/** What a bubble or a word says, in words. */
function saying(story, { say, step }, words) {
  return say ? SAID[say](words) : t(`tutorial_step.${story.name}.${step}`, words);
}

/** Every card of an edition cited in words, as the guide's messages name them ({guard}...). */
function citedCards(editionId) {
  return Object.fromEntries(editionOf(editionId).cards.map((c) => [c.card, theCard(editionId, c.card)]));
}

/** A card the guide introduces: number, name, how it was met, its effect and a tip. */
function cardNote(editionId, { card: id, how }, words) {
  const c = card(editionId, id);
  return h("li", { class: "guide-card", "data-guide-card": id },
    h("div", { class: "card-head" }, h("span", { class: "rank" }, c.rank), h("span", { class: "name" }, c.name),
      h("span", { class: "muted small" }, t("tutorial.met", { how }))),
    h("p", { class: "effect" }, c.effect),
    h("p", { class: "tip" }, t(`tutorial_card.${id}`, words)));
}

/**
 * The guide for `story` (GET /tutorials/<name>). `actions()` gives the final bubble's controls.
 * Returns {element, update(table), vet(command), tapped(event)}: `update` with what the table
 * drew (showTable's onChange), `vet` for the table's vet option, `tapped` for clicks on it.
 */
export function guide(story, { actions }) {
  const editionId = story.edition;
  const deck = editionOf(editionId).cards.map((c) => c.card);
  const title = h("h1", { id: "guide-title", class: "guide-title" }, t("tutorial.title", { edition: editionName(editionId) }));
  const counter = h("p", { class: "muted small guide-count" });
  const bubble = h("div", { class: "guide-bubble", "aria-live": "polite", "data-bubble": "" });
  const word = h("p", { class: "notice guide-word", role: "alert", "data-word": "" });
  const controls = h("div", { class: "row guide-controls" });
  const element = h("section", { class: "panel guide", id: "guide", "data-part": "guide", "aria-labelledby": "guide-title" },
    face(), h("div", { class: "guide-head" }, title, counter), bubble, word, controls);
  let table = null;
  let said = null; // the moment being said
  let at = 0; // the bubble shown

  const words = (extra = {}) => ({
    ...citedCards(editionId),
    edition: editionName(editionId),
    target: table?.data.view?.tokens_to_win ?? 0,
    ...extra,
  });

  function show() {
    const current = said.bubbles[at];
    const last = at === said.bubbles.length - 1;
    bubble.dataset.bubble = current.id;
    bubble.dataset.kind = current.kind || "info";
    replace(bubble,
      h("p", { class: "guide-text" }, saying(story, current, words({ count: current.count ?? 0, tokens: current.tokens ?? 0 }))),
      current.cards.length ? h("ul", { class: "guide-cards" }, current.cards.map((c) => cardNote(editionId, c, words()))) : null,
      current.kind === "instruction" ? h("p", { class: "muted small" }, t("tutorial.how")) : null,
      current.kind === "final" ? actions() : null);
    counter.textContent = t("tutorial.count", { at: at + 1, total: said.bubbles.length });
    replace(controls,
      at > 0 ? h("button", { type: "button", "data-back": "", onclick: () => go(at - 1) }, t("tutorial.back")) : null,
      last ? null : h("button", { type: "button", class: "primary", "data-next": "", onclick: () => go(at + 1) }, t("tutorial.next")));
    point(current);
  }

  function go(index) {
    at = index;
    word.textContent = "";
    show();
    (controls.querySelector("[data-next]") || bubble.querySelector("a, button") || bubble).focus?.();
  }

  /** Mark the parts of the table a bubble is about: the deck (a turn begins with a draw), the
   *  hand, the bot's seat when it has played, and for a move its card, its player and the
   *  move's controls. */
  function point(current) {
    const root = element.parentElement ?? document;
    for (const marked of root.querySelectorAll("[data-coach]")) marked.removeAttribute("data-coach");
    const mark = (selector, what) => root.querySelector(selector)?.setAttribute("data-coach", what);
    const bot = story.moves.find((move) => move.seat !== story.learner)?.seat;
    if (current.say === "welcome") mark('[data-part="deck"]', "deck");
    else if (current.say === "hand") mark('[data-part="hand"]', "hand");
    else if (current.id.startsWith("said-")) mark(`[data-seat="${bot}"]`, "seat");
    else if (current.kind === "instruction") {
      const { card: id, targets = [] } = current.expected;
      mark(`[data-part="hand"] [data-card="${CSS.escape(id)}"]`, "card");
      for (const seat of targets) mark(`[data-seat="${seat}"]`, "seat");
      mark('[data-part="move"]', "move");
    }
  }

  function say(found) {
    word.dataset.said = found.say || found.step;
    word.textContent = saying(story, found, words({
      card: found.card ? theCard(editionId, found.card) : "",
      forced: found.forced ? theCard(editionId, found.forced) : "",
      princess_too: editionId === "classic" || editionId === "premium" ? "yes" : "no",
    }));
  }

  return {
    element,
    update(drawn) {
      table = drawn;
      if (element.isConnected) document.title = t("app.title", { page: title.textContent }); // over the table's
      const now = moment(story, drawn, deck);
      if (said && said.key === now.key) {
        point(said.bubbles[at]); // the table was drawn anew
        return;
      }
      said = now;
      at = 0;
      word.textContent = "";
      show();
    },
    vet(command) {
      const found = table && judgeMove(story, table, command);
      if (!found) return true;
      say(found);
      at = said.bubbles.length - 1; // back to what to play, with why beside it
      show();
      return false;
    },
    tapped(event) {
      const tile = event.target.closest?.('[data-part="hand"] [data-card]');
      const found = tile && table && judgeTap(story, table, tile.dataset.card);
      if (found) say(found);
    },
  };
}
