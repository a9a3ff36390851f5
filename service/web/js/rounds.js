// Round summaries: who won each round and how, every hand that was revealed, the tokens
// gained, and whether the deal opens the commitment published before play.

import { append, h, listing } from "./dom.js";
import { chip } from "./board.js";
import { canVerify, opens } from "./fairness.js";
import { roundEnd, tokenReason } from "./words.js";

const verdicts = new Map(); // "commitment salt" -> Promise<boolean>
const opened = new Map(); // "game round" -> whether the reader opened (true) or closed it

function verdict(round) {
  const key = `${round.commitment} ${round.salt}`;
  if (!verdicts.has(key)) verdicts.set(key, opens(round.commitment, round.salt, round.dealt));
  return verdicts.get(key);
}

/** The commitment's state: verified, not matching, or sealed until the round ends. */
function commitmentStatus(round, upTo = Infinity) {
  const element = h("span", { "data-commitment": round.commitment });
  if (round.ended === null || round.ended > upTo) {
    element.className = "sealed";
    element.dataset.verified = "sealed";
    element.textContent = "deal sealed: it opens when the round ends";
  } else if (!canVerify()) {
    element.className = "sealed";
    element.dataset.verified = "unchecked";
    element.textContent = "this browser can check deals only over https or on localhost";
  } else {
    element.textContent = "checking the deal…";
    verdict(round).then((good) => {
      element.className = good ? "verified" : "unverified";
      element.dataset.verified = String(good);
      element.textContent = good ? "✓ deal verified against its commitment" : "✗ the deal does not match its commitment";
    });
  }
  return element;
}

/** One round's summary. */
function summary(round, { edition, names, upTo, open }) {
  const who = (seat) => names[seat] || `seat ${seat + 1}`;
  const ended = round.ended !== null && round.ended <= upTo;
  const title = ended
    ? `Round ${round.round}: ${round.winners.length ? `${listing(round.winners.map(who))} won` : "no winner"} ${roundEnd(round.reason)}`
    : `Round ${round.round}: being played`;
  const revealed = [
    ...(ended ? round.showdown.map(([seat, id]) => ({ seat, cards: [id], how: "showdown" })) : []),
    ...round.eliminated.filter((e) => e.version <= upTo).map((e) => ({ seat: e.seat, cards: e.hand, how: "out" })),
  ];
  const key = `${round.game} ${round.round}`;
  const details = h("details", { "data-round": round.round, "data-game": round.game, open: opened.get(key) ?? open });
  const heading = h("summary", { onclick: () => opened.set(key, !details.open) }, title);
  return append(details, [heading,
    revealed.length
      ? h("ul", { class: "small" }, revealed.map((r) => h("li", {},
        r.how === "showdown" ? `${who(r.seat)} showed ` : `${who(r.seat)} was knocked out${r.cards.length ? " holding " : " with no card in hand"}`,
        r.cards.map((id) => chip(edition, id)))))
      : null,
    ended && round.tokens.length
      ? h("p", { class: "small" }, "Tokens: ", round.tokens.map((t) => `${who(t.seat)} ${tokenReason(t.reason)}`).join("; "))
      : null,
    ended && round.setAside ? h("p", { class: "small" }, "Set aside face down: ", chip(edition, round.setAside)) : null,
    h("p", { class: "small" },
      h("span", { class: "commitment", title: "SHA-256 published when the round was dealt" }, `${round.commitment.slice(0, 16)}… `),
      commitmentStatus(round, upTo))]);
}

/** The rounds panel; `upTo`: only what had happened by that version. */
export function roundsPanel(rounds, { edition, names, upTo = Infinity }) {
  const shown = rounds.filter((round) => round.started <= upTo);
  return h("section", { class: "panel rounds", "aria-labelledby": "rounds-title" },
    h("h2", { id: "rounds-title" }, "Rounds"),
    shown.length
      ? shown.map((round, index) => summary(round, { edition, names, upTo, open: index === shown.length - 1 }))
      : h("p", { class: "muted" }, "No round dealt yet."));
}
