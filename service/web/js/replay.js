// Replay: any game you may see, a turn at a time (the draw, the play and all it caused are one
// step), as your seat or as a spectator (after the end, your seat sees every card), with the
// log so far and every deal checked. The address names the round and turn
// (#/games/<id>/replay/r2/t5); an older one naming a version (replay/57) shows that version.

import { allEvents, api, says } from "./api.js";
import { board, reference } from "./board.js";
import { botAliases, editionName, gameName, seatNames } from "./cards.js";
import { arrowKeys, h, listing, replace } from "./dom.js";
import { t } from "./i18n.js";
import { logPanel } from "./logview.js";
import { roundsPanel } from "./rounds.js";
import { seatAt } from "./seats.js";
import { findStep, stepAddress, stepAt, turnSteps } from "./turns.js";
import { logLines, roundSummaries } from "./words.js";

/** Show the replay of `gameId` at `start`: a round and turn ("r2/t5"), a version ("57"), or
 *  nothing (the first deal). */
export async function showReplay(root, gameId, start) {
  const held = seatAt(gameId);
  let token = held?.token ?? null;
  let head = await api.game(gameId, token).catch(async (problem) => {
    if (!token) throw problem;
    token = null; // a token this game does not know
    return api.game(gameId, null);
  });
  let events = await allEvents(gameId, token);
  let steps = turnSteps(events);
  const views = new Map(); // "token version" -> the view then
  let asked = 0;
  let shownView = null; // the view shown last: a step forward shows its cards arriving

  // Where to start: the step named, else the step of the version named, else the first deal.
  let version;
  let at = findStep(steps, start);
  if (at >= 0) version = steps[at].last;
  else if (/^\d+$/.test(start || "")) {
    version = Math.min(Math.max(Number(start), 1), head.game.version);
    at = stepAt(steps, version);
  } else {
    at = steps.length ? 0 : -1;
    version = at >= 0 ? steps[0].last : 1;
  }

  const slider = h("input", {
    type: "range", id: "step", min: 0, max: Math.max(steps.length - 1, 0), step: 1, value: Math.max(at, 0),
    oninput: () => goStep(Number(slider.value)),
  });
  const position = h("output", { for: "step", id: "position" });
  const button = (text, label, target, part) =>
    h("button", { type: "button", "aria-label": label, "data-step-to": part, onclick: () => goStep(target()) }, text);
  const audience = h("fieldset", { class: "row" }, h("legend", {}, t("replay.audience")));
  const roundLinks = h("nav", { class: "round-links", "aria-label": t("replay.rounds") });
  const shown = h("div", { class: "stack", "data-board": "" });
  const log = logPanel({ label: t("replay.log.label") });
  log.list.addEventListener("keydown", arrowKeys); // along the lines, each a link to its turn
  const rounds = h("div");
  const page = h("div", { class: "table-page", id: "replay" },
    h("div", { class: "stack" },
      h("section", { class: "panel", "aria-labelledby": "replay-title" },
        h("h1", { id: "replay-title" }, t("replay.title", { game: gameName(head.game) })),
        h("p", { class: "muted" }, t("replay.status", { edition: editionName(head.game.edition), status: head.game.status }),
          " · ", h("a", { href: `#/games/${encodeURIComponent(gameId)}` }, t("replay.back"))),
        audience,
        h("div", { class: "scrub" },
          roundLinks,
          h("label", { for: "step" }, t("replay.step")), slider,
          h("div", { class: "row" },
            button(t("replay.first"), t("replay.first.label"), () => 0, "first"),
            button(t("replay.previous"), t("replay.previous.label"), () => steps.findLastIndex((step) => step.last < version), "previous"),
            button(t("replay.next"), t("replay.next.label"), () => steps.findIndex((step) => step.last > version), "next"),
            button(t("replay.last"), t("replay.last.label"), () => steps.length - 1, "last")),
          position)),
      shown),
    h("div", { class: "side" }, log.element, rounds, reference(head.game.edition)));
  replace(root, page);
  document.title = t("app.title", { page: t("replay.page") });

  const address = (step) => `#/games/${encodeURIComponent(gameId)}/replay/${stepAddress(step)}`;

  function audienceChoices() {
    const over = head.game.status === "over";
    const options = [];
    if (held) options.push(["seat", t("replay.audience.seat", { name: held.name, over: over ? "yes" : "no" })]);
    options.push(["spectator", t("replay.audience.spectator")]);
    replace(audience, h("legend", {}, t("replay.audience")), options.map(([value, text]) => h("label", { class: "choice-label" },
      h("input", {
        type: "radio", name: "audience", value, checked: (value === "seat") === Boolean(token),
        onchange: () => switchAudience(value === "seat" ? held.token : null),
      }), text)));
  }

  async function switchAudience(newToken) {
    token = newToken;
    head = await api.game(gameId, token);
    events = await allEvents(gameId, token);
    steps = turnSteps(events);
    slider.max = Math.max(steps.length - 1, 0);
    shownView = null;
    await show(version, at);
  }

  /** Go to step `index` (none: stay). */
  function goStep(index) {
    if (!steps.length || index < 0) return Promise.resolve();
    const target = Math.min(Math.max(index, 0), steps.length - 1);
    return show(steps[target].last, target);
  }

  async function show(target, index) {
    if (!root.isConnected) return; // the reader went to another page
    version = target;
    at = index;
    slider.value = Math.max(at, 0);
    const exact = at < 0 || steps[at].last !== version; // a version inside a turn, or before the game
    history.replaceState(null, "", exact ? `#/games/${encodeURIComponent(gameId)}/replay/${version}` : address(steps[at]));
    const ask = ++asked;
    const key = `${token} ${version}`;
    if (!views.has(key)) views.set(key, api.version(gameId, version, token));
    let data;
    try {
      data = await views.get(key);
    } catch (problem) {
      views.delete(key);
      replace(shown, h("p", { class: "notice error", role: "alert" }, says(problem)));
      return;
    }
    if (ask !== asked || !root.isConnected) return; // a later step was asked for, or another page
    render(data);
  }

  function render(data) {
    const game = data.game;
    const names = seatNames(head.game.seats);
    const you = token ? held.seat : null;
    const step = steps[at];
    const several = steps.at(-1)?.game > 1 ? "yes" : "no"; // games at this table (rematches)
    const lines = logLines(events.filter((event) => event.version <= version), {
      edition: game.edition, names, aliases: botAliases(head.game.seats),
    });
    const latest = lines.at(-1);
    position.textContent = step
      ? t("replay.position", {
        game: step.game, several, round: step.round, turn: step.turn,
        turns: steps.filter((other) => other.game === step.game && other.round === step.round).length - 1,
        happened: latest ? "yes" : "no", line: latest?.text || "",
      })
      : t("replay.before_position", { version });
    slider.setAttribute("aria-valuetext", position.textContent);
    // A step forward in the same round shows its cards arriving.
    const forward = shownView && data.view && shownView.round === data.view.round && version > Number(page.dataset.version || 0);
    if (data.view) {
      const parts = board(data.view, game, { you, before: forward ? shownView : null });
      replace(shown, parts.table,
        parts.hand ? h("section", { class: "panel", "aria-labelledby": "hand-title" }, h("h2", { id: "hand-title" }, t("board.hand.title")), parts.hand) : null,
        parts.known);
    } else {
      replace(shown, h("section", { class: "panel" }, h("h2", {}, t("replay.before")),
        h("p", {}, t("replay.seats", { seats: listing(seatNames(game.seats).map((name) => name ?? t("seat.open"))) }))));
    }
    shownView = data.view;
    log.show(lines.map((line) => logItem(line, { current: step ? line.version >= step.first : line === latest, latest: line === latest })), { follow: true });
    replace(roundLinks, h("span", { class: "small" }, t("replay.rounds")), " ",
      steps.filter((other) => other.turn === 0).map((deal) => h("a", {
        href: address(deal), "data-round-link": stepAddress({ game: deal.game, round: deal.round }),
        "aria-current": step && deal.game === step.game && deal.round === step.round ? "true" : undefined,
        onclick: (event) => { event.preventDefault(); goStep(steps.indexOf(deal)); },
      }, t("replay.round", { game: deal.game, several, round: deal.round }))));
    replace(rounds, roundsPanel(roundSummaries(events), {
      edition: game.edition, names, upTo: version,
      href: (round) => address(round),
      go: (round) => goStep(findStep(steps, stepAddress(round))),
    }));
    page.dataset.version = version;
    page.dataset.step = step ? stepAddress(step) : "";
    page.dataset.audience = token ? "seat" : "spectator";
  }

  /** A line of the log: a link to its turn (the keyboard reaches the newest; the arrow keys
   *  the others), marked when it belongs to the turn shown. */
  function logItem(line, { current, latest }) {
    const index = stepAt(steps, line.version);
    return h("li", { class: `${line.kind}${current ? " current" : ""}`, "data-version": line.version, "aria-current": latest ? "step" : undefined },
      index >= 0
        ? h("a", {
          href: address(steps[index]), "data-step": index, tabindex: latest ? 0 : -1,
          onclick: (event) => { event.preventDefault(); goStep(index); },
        }, line.text)
        : line.text);
  }

  audienceChoices();
  await show(version, at);
}
