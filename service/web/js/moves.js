// Composing a move from the commands the service says are legal (`legal` of a view): card,
// then players, then a name, then a look (Chancellor: keep, then the order under the deck;
// Bishop: redraw or not). Every choice offered leads to a legal command, so an illegal one
// can't be composed.

import { h, listing } from "./dom.js";
import { card, cardsNumbered, named, theCard } from "./cards.js";

// The fields a command is chosen by, in order, with the question each one asks.
const STEPS = [
  ["card", "Choose a card to play"],
  ["targets", "Choose who"],
  ["guess", "Name a card"],
  ["look", "Whose hand to look at"],
  ["keep", "Choose the card to keep"],
  ["bottom", "Order the others under the deck"],
  ["redraw", "The Bishop named your card"],
];

const key = (value) => JSON.stringify(value);

/** The words for one value of a field. */
function label(field, value, { edition, players, you }) {
  const who = (seat) => (seat === you ? "yourself" : players[seat]);
  switch (field) {
    case "card":
    case "keep": {
      const c = card(edition, value);
      return `${c.name} (${c.rank})`;
    }
    case "targets":
      return value.length ? listing(value.map(who)) : "No one (no effect)";
    case "guess":
      if (typeof value === "number") {
        const cards = cardsNumbered(edition, value);
        return cards.length ? `${value}: ${cards.join(", ")}` : String(value);
      }
      return `${card(edition, value).name} (${card(edition, value).rank})`;
    case "look":
      return `${who(value) === "yourself" ? "Your" : `${players[value]}'s`} hand`;
    case "bottom":
      return value.length
        ? value.map((id) => card(edition, id).name).join(", then ") + " (last at the bottom)"
        : "Nothing to put back";
    case "redraw":
      return value ? "Discard my hand and draw" : "Keep my hand";
    default:
      return String(value);
  }
}

/** The move as a sentence: "Play the Guard on bob, naming the Priest". */
function sentence(command, { edition, players, you }) {
  const who = (seat) => (seat === you ? "yourself" : players[seat]);
  if (command.type === "play") {
    let text = `Play ${theCard(edition, command.card)}`;
    if (command.targets?.length) text += ` on ${listing(command.targets.map(who))}`;
    if (command.guess !== undefined) text += `, naming ${named(edition, command.guess)}`;
    if (command.look !== undefined) text += `, looking at ${command.look === you ? "your" : `${players[command.look]}'s`} hand`;
    return text;
  }
  if (command.type === "chancellor") {
    const rest = command.bottom.map((id) => theCard(edition, id));
    return `Keep ${theCard(edition, command.keep)}${rest.length ? ` and put ${listing(rest)} under the deck` : ""}`;
  }
  if (command.type === "redraw") return command.redraw ? "Discard your hand and draw a new card" : "Keep your hand";
  return "Give the game up";
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
    let question = null;
    for (const [field, text] of STEPS) {
      if (field in chosen) continue;
      const values = [...new Map(left.filter((c) => field in c).map((c) => [key(c[field]), c[field]])).values()];
      if (!values.length) continue;
      if (values.length === 1 && field !== "card" && field !== "redraw") {
        chosen[field] = values[0]; // the only way: nothing to ask
        return render(focus);
      }
      const legend = field === "guess" && typeof values[0] === "number" ? "Name a number" : text;
      question = h("fieldset", { "data-step": field },
        h("legend", {}, legend),
        h("div", { class: "choices" }, values.map((value) => h("button", {
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
    if (question) parts.push(question);
    else if (left.length === 1) {
      parts.push(h("p", { class: "summary", "data-summary": "" }, sentence(left[0], context)),
        h("div", { class: "row" },
          h("button", {
            type: "button", class: "primary", "data-confirm": "",
            onclick: (event) => {
              event.currentTarget.disabled = true;
              send(left[0]);
            },
          }, "Confirm")));
    }
    if (Object.keys(chosen).length) {
      parts.push(h("p", {}, h("button", {
        type: "button", class: "link", "data-restart": "",
        onclick: () => {
          for (const field of Object.keys(chosen)) delete chosen[field];
          render(true);
        },
      }, "Start over")));
    }
    element.replaceChildren(...parts);
    if (focus) element.querySelector("button")?.focus();
  }

  render(false);
  return { element, focus: () => element.querySelector("button")?.focus() };
}
