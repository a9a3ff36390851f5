// Composing a move from the commands the service says are legal (`legal` of a view): card,
// then players, then a name, then a look (Chancellor: keep, then the order under the deck;
// Bishop: redraw or not). Every choice offered leads to a legal command, so an illegal one
// can't be composed. The choices of a question are one group for the keyboard: Tab reaches
// it, the arrow keys move along it, Enter or Space chooses.

import { h, listing } from "./dom.js";
import { card, cardsNumbered, named, theCard } from "./cards.js";
import { t } from "./i18n.js";

// The fields a command is chosen by, in order.
const STEPS = ["card", "targets", "guess", "look", "keep", "bottom", "redraw"];

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

/** The arrow keys move the focus along a group of choices (and Home/End to its ends). */
function arrowKeys(event) {
  const buttons = [...event.currentTarget.querySelectorAll("button")];
  const at = buttons.indexOf(document.activeElement);
  const moves = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 };
  if (at < 0 || !(event.key in moves)) return;
  event.preventDefault();
  buttons[(moves[event.key] + buttons.length) % buttons.length].focus();
}

/**
 * The move controls for `legal`; `send(command)` is called once a move is confirmed.
 * Returns {element, focus()}: focus() puts the keyboard on the current question.
 */
export function composer(legal, context, send) {
  const chosen = {};
  const element = h("div", { class: "composer" });

  function remaining() {
    return legal.filter((command) =>
      Object.entries(chosen).every(([field, value]) => key(command[field]) === key(value)));
  }

  function render(focus) {
    const left = remaining();
    const parts = [];
    let asked = null;
    for (const field of STEPS) {
      if (field in chosen) continue;
      const values = [...new Map(left.filter((c) => field in c).map((c) => [key(c[field]), c[field]])).values()];
      if (!values.length) continue;
      if (values.length === 1 && field !== "card" && field !== "redraw") {
        chosen[field] = values[0]; // the only way: nothing to ask
        return render(focus);
      }
      asked = h("fieldset", { "data-step": field },
        h("legend", {}, question(field, values, context)),
        h("div", { class: "choices", onkeydown: arrowKeys }, values.map((value) => h("button", {
          type: "button",
          "data-choice": field,
          "data-value": key(value),
          onclick: () => {
            chosen[field] = value;
            render(true);
          },
        }, label(field, value, context)))));
      break;
    }
    if (asked) parts.push(asked);
    else if (left.length === 1) {
      parts.push(h("p", { class: "summary", "data-summary": "" }, sentence(left[0], context)),
        h("div", { class: "row" },
          h("button", {
            type: "button", class: "primary", "data-confirm": "",
            onclick: (event) => {
              event.currentTarget.disabled = true;
              send(left[0]);
            },
          }, t("moves.confirm"))));
    }
    if (Object.keys(chosen).length) {
      parts.push(h("p", {}, h("button", {
        type: "button", class: "link", "data-restart": "",
        onclick: () => {
          for (const field of Object.keys(chosen)) delete chosen[field];
          render(true);
        },
      }, t("moves.restart"))));
    }
    element.replaceChildren(...parts);
    if (focus) element.querySelector("button")?.focus();
  }

  render(false);
  return { element, focus: () => element.querySelector("button")?.focus() };
}
