// Round summaries: who won each round and how, every hand that was revealed, the tokens
// gained, and whether the deal opens the commitment published before play.

import { append, h, listing } from "./dom.js";
import { chip } from "./board.js";
import { canVerify, fairnessDetails, opens } from "./fairness.js";
import { t } from "./i18n.js";
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
    element.textContent = t("rounds.deal.sealed");
  } else if (!canVerify()) {
    element.className = "sealed";
    element.dataset.verified = "unchecked";
    element.textContent = t("rounds.deal.unchecked");
  } else {
    element.textContent = t("rounds.deal.checking");
    verdict(round).then((good) => {
      element.className = good ? "verified" : "unverified";
      element.dataset.verified = String(good);
      element.textContent = t("rounds.deal.verdict", { good: good ? "yes" : "no" });
    });
  }
  return element;
}

/** One round's summary, and a link beside it (`href(round)`: the replay, from its deal). */
function summary(round, { edition, names, upTo, open, href, go }) {
  const who = (seat) => names[seat] || t("seat.number", { number: seat + 1 });
  const ended = round.ended !== null && round.ended <= upTo;
  const title = ended
    ? t("rounds.ended", { round: round.round, count: round.winners.length, winners: listing(round.winners.map(who)), how: roundEnd(round.reason) })
    : t("rounds.playing", { round: round.round });
  const revealed = [
    ...(ended ? round.showdown.map(([seat, id]) => ({ seat, cards: [id], how: "showdown" })) : []),
    ...round.eliminated.filter((e) => e.version <= upTo).map((e) => ({ seat: e.seat, cards: e.hand, how: "out" })),
  ];
  const key = `${round.game} ${round.round}`;
  const details = h("details", { "data-round": round.round, "data-game": round.game, open: opened.get(key) ?? open });
  const heading = h("summary", { onclick: () => opened.set(key, !details.open) }, title);
  const link = href
    ? h("a", {
      class: "round-link small", href: href(round), "data-round-link": round.round, "data-game": round.game,
      onclick: go ? (event) => { event.preventDefault(); go(round); } : undefined,
    }, t("rounds.replay", { round: round.round }))
    : null;
  append(details, [heading,
    revealed.length
      ? h("ul", { class: "small" }, revealed.map((r) => h("li", {},
        t("rounds.revealed", { player: who(r.seat), how: r.how, held: r.cards.length ? "yes" : "no" }), " ",
        r.cards.map((id) => chip(edition, id)))))
      : null,
    ended && round.tokens.length
      ? h("p", { class: "small" }, t("rounds.tokens", {
        tokens: listing(round.tokens.map((token) => t("rounds.token", { player: who(token.seat), reason: tokenReason(token.reason, edition) }))),
      }))
      : null,
    ended && round.setAside ? h("p", { class: "small" }, t("rounds.set_aside"), " ", chip(edition, round.setAside)) : null,
    h("div", { class: "small fair-deal" }, commitmentStatus(round, upTo), fairnessDetails(round.commitment))]);
  return h("div", { class: "round-summary" }, details, link);
}

/** The rounds panel; `upTo`: only what had happened by that version; `href(round)`: each
 *  round's link, and `go(round)`: what a click on it does instead of following it. */
export function roundsPanel(rounds, { edition, names, upTo = Infinity, href = null, go = null }) {
  const shown = rounds.filter((round) => round.started <= upTo);
  return h("section", { class: "panel rounds", "aria-labelledby": "rounds-title" },
    h("h2", { id: "rounds-title" }, t("rounds.title")),
    shown.length
      ? shown.map((round, index) => summary(round, { edition, names, upTo, open: index === shown.length - 1, href, go }))
      : h("p", { class: "muted" }, t("rounds.none")));
}
