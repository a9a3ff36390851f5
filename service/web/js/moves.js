// Composing a move from the commands the service says are legal (`legal` of a view): a card of
// your hand (tap it), then players (tap a seat, or a name), then a name, then a look
// (Chancellor: keep, then the order under the deck; Bishop: redraw or not). Every choice offered
// leads to a legal command, so an illegal one can't be composed. A move is sent as soon as it
// is whole, but one certain to put you out of the round (`puts_you_out`) asks first. The choices
// of a question are one group for the keyboard: Tab reaches it, the arrow keys move along it,
// Enter or Space chooses.

import { arrowKeys, h, listing } from "./dom.js";
import { card, cardsNumbered, named, theCard } from "./cards.js";
import { smallCard } from "./art.js";
import { t } from "./i18n.js";

// The fields a command is chosen by, in order.
const STEPS = ["card", "targets", "guess", "look", "keep", "bottom", "redraw"];
// Asked even when there is one way only: the card played or kept is always the player's tap.
const ALWAYS_ASKED = new Set(["card", "keep", "redraw"]);
// Asked on the cards of the hand rather than in the move's own controls.
const IN_HAND = new Set(["card", "keep"]);

const key = (value) => JSON.stringify(value);

/** The words for one value of a field. */
function label(field, value, { edition, players, you }) {
  const who = (seat) => (seat === you ? t("moves.yourself") : players[seat]);
  switch (field) {
    case "card":
    case "keep": {
      const c = card(edition, value);
      return t("moves.card", { name: c.name, rank: c.rank });
    }
    case "targets":
      return value.length ? listing(value.map(who)) : t("moves.nobody");
    case "guess":
      if (typeof value === "number") {
        const cards = cardsNumbered(edition, value);
        return cards.length ? t("moves.number", { number: value, cards: listing(cards) }) : String(value);
      }
      return t("moves.card", { name: card(edition, value).name, rank: card(edition, value).rank });
    case "look":
      return t("moves.look", { yours: value === you ? "yes" : "no", player: players[value] });
    case "bottom":
      return value.length
        ? t("moves.bottom", { cards: value.map((id) => card(edition, id).name).join(t("moves.bottom.then")) })
        : t("moves.bottom.none");
    case "redraw":
      return t("moves.redraw", { redraw: value ? "yes" : "no" });
    default:
      return String(value);
  }
}

/** The move as a sentence: "Play the Guard on bob, naming the Priest". */
function sentence(command, { edition, players, you }) {
  const who = (seat) => (seat === you ? t("moves.yourself") : players[seat]);
  if (command.type === "play") {
    return t("moves.sentence.play", {
      card: theCard(edition, command.card),
      aimed: command.targets?.length ? "yes" : "no",
      targets: command.targets?.length ? listing(command.targets.map(who)) : "",
      guessed: command.guess !== undefined ? "yes" : "no",
      guess: command.guess !== undefined ? named(edition, command.guess) : "",
      look: command.look !== undefined ? who(command.look) : "",
      looks: command.look === undefined ? "none" : command.look === you ? "yours" : "theirs",
    });
  }
  if (command.type === "chancellor") {
    return t("moves.sentence.chancellor", {
      keep: theCard(edition, command.keep),
      bottom: listing(command.bottom.map((id) => theCard(edition, id))),
      count: command.bottom.length,
    });
  }
  if (command.type === "redraw") return t("moves.sentence.redraw", { redraw: command.redraw ? "yes" : "no" });
  return t("moves.sentence.forfeit");
}

/** The question a field asks. */
function question(field, values, context) {
  const step = field === "guess" && typeof values[0] === "number" ? "guess_number" : field;
  return t("moves.step", { step, bishop: theCard(context.edition, "bishop") });
}

/**
 * The move being composed from `legal`; `send(command)` is called once it is whole (and, for a
 * move of `out`, the positions in `legal` certain to put you out, confirmed). `changed()` is
 * called after each choice, for the table to draw the hand and seats again with `asking()`.
 * Returns {element, asking(), focus()}: `element` holds the question and its choices (those
 * of the hand and the seats excepted), focus() puts the keyboard on the current question.
 */
export function composer(legal, context, { send, changed = () => {}, out = [], root = document }) {
  const chosen = {};
  const risky = new Set(out.map((index) => key(legal[index])));
  let confirming = null; // a whole move that puts you out, waiting for a yes
  let sending = false;
  const element = h("div", { class: "composer", "data-part": "move" });

  function remaining() {
    return legal.filter((command) =>
      Object.entries(chosen).every(([field, value]) => key(command[field]) === key(value)));
  }

  /** The next question {field, values}, choosing at once what has one way only; null when the
   *  move is whole. */
  function next() {
    const left = remaining();
    for (const field of STEPS) {
      if (field in chosen) continue;
      const values = [...new Map(left.filter((c) => field in c).map((c) => [key(c[field]), c[field]])).values()];
      if (!values.length) continue;
      if (values.length === 1 && !ALWAYS_ASKED.has(field)) {
        chosen[field] = values[0];
        continue;
      }
      return { field, values };
    }
    return null;
  }

  function choose(field, value) {
    if (sending || confirming) return;
    chosen[field] = value;
    if (!next()) {
      const [command] = remaining();
      if (risky.has(key(command))) confirming = command;
      else {
        sending = true;
        send(command);
      }
    }
    render(true);
  }

  function restart() {
    for (const field of Object.keys(chosen)) delete chosen[field];
    confirming = null;
    render(true);
  }

  function asking() {
    if (confirming) return { field: null, chosen: { ...chosen }, has: () => false, choose: () => {} };
    const asked = sending ? null : next();
    if (!asked) return null;
    const keys = new Set(asked.values.map(key));
    return { field: asked.field, chosen: { ...chosen }, has: (value) => keys.has(key(value)), choose: (value) => choose(asked.field, value) };
  }

  function choiceButtons(field, values) {
    return h("div", { class: "choices", onkeydown: arrowKeys }, values.map((value) => {
      const words = label(field, value, context);
      const named = field === "guess" && typeof value === "string"; // a card: its face
      return h("button", {
        type: "button", class: named ? "face-choice" : undefined, "data-choice": field, "data-value": key(value),
        "aria-label": named ? words : undefined, onclick: () => choose(field, value),
      }, named ? smallCard(card(context.edition, value), { label: null }) : words);
    }));
  }

  function render(focusing, telling = true) {
    const asked = sending || confirming ? null : next();
    const parts = [];
    if (sending) parts.push(h("p", { class: "muted", "data-sending": "" }, t("moves.sending")));
    else if (confirming) {
      parts.push(h("div", { class: "confirm-out", role: "group", "aria-labelledby": "out-warning", "data-out": "" },
        h("p", { class: "notice warning", id: "out-warning", role: "alert" }, t("moves.out.warning", { move: sentence(confirming, context) })),
        h("div", { class: "choices", onkeydown: arrowKeys },
          h("button", { type: "button", "data-cancel": "", onclick: restart }, t("moves.out.no")),
          h("button", {
            type: "button", class: "primary", "data-confirm": "",
            onclick: (event) => {
              event.currentTarget.disabled = true;
              const command = confirming;
              confirming = null;
              sending = true;
              send(command);
              render(false);
            },
          }, t("moves.out.yes")))));
    } else if (asked && IN_HAND.has(asked.field)) {
      parts.push(h("p", { class: "prompt", "data-prompt": asked.field }, question(asked.field, asked.values, context), " ",
        h("span", { class: "muted" }, t("moves.hint.hand"))));
    } else if (asked) {
      if ("card" in chosen) {
        parts.push(h("p", { class: "so-far", "data-so-far": "" }, t("moves.so_far", { move: sentence({ type: "play", ...chosen }, context) })));
      }
      parts.push(h("fieldset", { "data-step": asked.field },
        h("legend", {}, question(asked.field, asked.values, context)),
        asked.field === "targets" && asked.values.some((value) => value.length === 1)
          ? h("p", { class: "muted small" }, t("moves.hint.seat")) : null,
        choiceButtons(asked.field, asked.values)));
    }
    if (Object.keys(chosen).length && !sending && !confirming) {
      parts.push(h("p", {}, h("button", { type: "button", class: "link", "data-restart": "", onclick: restart }, t("moves.restart"))));
    }
    element.replaceChildren(...parts);
    if (telling) changed();
    if (focusing) focus();
  }

  /** The keyboard on the current question: its first choice (in the hand or here). */
  function focus(options) {
    const asked = sending || confirming ? null : next();
    const target = confirming ? element.querySelector("[data-cancel]")
      : asked ? root.querySelector(`[data-choice="${asked.field}"]`) : null;
    target?.focus(options);
  }

  render(false, false);
  return { element, asking, focus };
}
