// Replay: any game you may see, version by version, as your seat or as a spectator (after the
// end, your seat sees every card), with the log so far and every deal checked.

import { allEvents, api, says } from "./api.js";
import { board, reference } from "./board.js";
import { botAliases, editionName, gameName, seatNames } from "./cards.js";
import { h, listing, replace } from "./dom.js";
import { t } from "./i18n.js";
import { roundsPanel } from "./rounds.js";
import { seatAt } from "./seats.js";
import { logLines, roundSummaries } from "./words.js";

/** Show the replay of `gameId` at `start` (default: the first version). */
export async function showReplay(root, gameId, start) {
  const held = seatAt(gameId);
  let token = held?.token ?? null;
  let head = await api.game(gameId, token).catch(async (problem) => {
    if (!token) throw problem;
    token = null; // a token this game does not know
    return api.game(gameId, null);
  });
  let events = await allEvents(gameId, token);
  const views = new Map(); // "token version" -> the view then
  let version = Math.min(Math.max(Number(start) || 1, 1), head.game.version);
  let asked = 0;

  const slider = h("input", {
    type: "range", id: "version", min: 1, max: head.game.version, step: 1, value: version,
    oninput: () => go(Number(slider.value)),
  });
  const position = h("output", { for: "version", id: "position" });
  const button = (text, label, target) =>
    h("button", { type: "button", "aria-label": label, onclick: () => go(target()) }, text);
  const audience = h("fieldset", { class: "row" }, h("legend", {}, t("replay.audience")));
  const shown = h("div", { class: "stack", "data-board": "" });
  const log = h("ol", { class: "log", id: "log", tabindex: "0", "aria-label": t("replay.log.label") });
  const rounds = h("div");
  const page = h("div", { class: "table-page", id: "replay" },
    h("div", { class: "stack" },
      h("section", { class: "panel", "aria-labelledby": "replay-title" },
        h("h1", { id: "replay-title" }, t("replay.title", { game: gameName(head.game) })),
        h("p", { class: "muted" }, t("replay.status", { edition: editionName(head.game.edition), status: head.game.status }),
          " · ", h("a", { href: `#/games/${encodeURIComponent(gameId)}` }, t("replay.back"))),
        audience,
        h("div", { class: "scrub" },
          h("label", { for: "version" }, t("replay.version")), slider,
          h("div", { class: "row" },
            button(t("replay.first"), t("replay.first.label"), () => 1),
            button(t("replay.previous"), t("replay.previous.label"), () => version - 1),
            button(t("replay.next"), t("replay.next.label"), () => version + 1),
            button(t("replay.last"), t("replay.last.label"), () => head.game.version)),
          position)),
      shown),
    h("div", { class: "side" },
      h("section", { class: "panel", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, t("log.title")), log),
      rounds, reference(head.game.edition)));
  replace(root, page);
  document.title = t("app.title", { page: t("replay.page") });

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
    slider.max = head.game.version;
    await go(version);
  }

  async function go(target) {
    if (!root.isConnected) return; // the reader went to another page
    version = Math.min(Math.max(target, 1), head.game.version);
    slider.value = version;
    history.replaceState(null, "", `#/games/${encodeURIComponent(gameId)}/replay/${version}`);
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
    const upTo = events.filter((event) => event.version <= version);
    const lines = logLines(upTo, { edition: game.edition, names, aliases: botAliases(head.game.seats) });
    const latest = lines.at(-1);
    position.textContent = t("replay.position", { version, last: head.game.version, happened: latest ? "yes" : "no", line: latest?.text || "" });
    slider.setAttribute("aria-valuetext", position.textContent);
    replace(shown, data.view
      ? board(data.view, game, { you })
      : h("section", { class: "panel" }, h("h2", {}, t("replay.before")),
        h("p", {}, t("replay.seats", { seats: listing(seatNames(game.seats).map((name) => name ?? t("seat.open"))) }))));
    replace(log, lines.map((line) => h("li", {
      class: `${line.kind}${line === latest ? " current" : ""}`, "data-version": line.version,
      "aria-current": line === latest ? "step" : undefined,
    }, line.text)));
    log.scrollTop = log.scrollHeight;
    replace(rounds, roundsPanel(roundSummaries(events), { edition: game.edition, names, upTo: version }));
    page.dataset.version = version;
    page.dataset.audience = token ? "seat" : "spectator";
  }

  audienceChoices();
  await go(version);
}
