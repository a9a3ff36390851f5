// The table's chat, beside the log: preset phrases (sent as codes, each shown in the reader's
// own language) and a line of free text; muting a seat for yourself. Messages come from the
// game's stream (`chat` events, through live.js) and, as a backstop (the stream ends with the
// game), from the chat's own page every few seconds.

import { api, says } from "./api.js";
import { h, replace } from "./dom.js";
import { formatTime, t } from "./i18n.js";

// The preset phrases' codes, in the order of their buttons (the API's, see docs/chat.md).
export const PRESETS = ["hello", "good_luck", "thinking", "your_turn", "nice_guess", "well_played",
  "wow", "oops", "sorry", "thanks", "good_game", "rematch"];
const TEXT_MAX = 200;
const POLL_MS = 5000;

/** A message's words: a preset in this page's language, or its text as written. */
export function said(message) {
  return message.preset ? t(`preset.${message.preset}`) : message.text;
}

/**
 * The chat panel of game `gameId` for seat `you` (null: a spectator) with `token`; null when this
 * reader may not read it. `hear(message)` adds a message heard elsewhere (the stream);
 * `lastId()` is the newest message shown; `stop()` ends its polling.
 */
export function chatPanel(gameId, { token, you, game }) {
  if (you === null && !game.spectator_chat) return null;
  const canPost = you !== null || Boolean(token);
  const messages = new Map(); // id -> message, in the order heard
  let muted = [];
  let timer = null;
  let stopped = false;

  const list = h("ol", { class: "log chat-log", id: "chat-log", tabindex: "0", role: "log",
    "aria-live": "polite", "aria-label": t("chat.label") });
  const notice = h("p", { class: "notice error", role: "alert", "data-chat-notice": "" });
  const mutedArea = h("div", { "data-chat-muted": "" });
  const input = h("input", { id: "chat-text", name: "text", type: "text", maxLength: TEXT_MAX,
    autocomplete: "off", "aria-describedby": "chat-hint" });
  const form = h("form", { class: "chat-form", "data-chat-form": "", onsubmit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) send({ text }, () => (input.value = ""));
  } },
  h("label", { for: "chat-text" }, t("chat.text")),
  h("div", { class: "row" }, input, h("button", { type: "submit" }, t("chat.send"))),
  h("p", { class: "muted hint", id: "chat-hint" }, t("chat.hint", { max: TEXT_MAX })));
  const presets = h("div", { class: "chat-presets", role: "group", "aria-label": t("chat.presets") },
    PRESETS.map((code) => h("button", { type: "button", "data-preset": code, onclick: () => send({ preset: code }) },
      t(`preset.${code}`))));
  const element = h("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-title" },
    h("h2", { id: "chat-title" }, t("chat.title")), list, notice,
    canPost ? [presets, form] : h("p", { class: "muted" }, t("chat.read_only")), mutedArea);

  function nameOf(message) {
    return message.seat === null ? t("chat.spectator", { name: message.name }) : message.name;
  }

  function render() {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    replace(list, [...messages.values()].map((message) => h("li", { "data-chat-id": message.id, "data-preset": message.preset || null },
      h("span", { class: "chat-name" }, t("chat.line", { name: nameOf(message) })), " ",
      h("span", { class: "chat-said", lang: message.preset ? null : "" }, said(message)), " ",
      h("time", { class: "muted", dateTime: message.at }, formatTime(Date.parse(message.at))),
      canPost && message.seat !== you && message.seat !== null
        ? [" ", h("button", { type: "button", class: "link", "data-mute": message.seat,
          "aria-label": t("chat.mute", { name: message.name }), onclick: () => mute(String(message.seat), true) }, t("chat.mute_short"))]
        : null)));
    if (atBottom) list.scrollTop = list.scrollHeight;
    replace(mutedArea, muted.length
      ? h("p", { class: "muted" }, t("chat.muted"), " ", muted.map((target) => h("button", { type: "button", class: "link", "data-unmute": target,
        onclick: () => mute(target, false) }, t("chat.unmute", { name: target === "spectators" ? t("chat.spectators") : game.seats[Number(target)]?.name ?? target }))))
      : null);
  }

  function hear(message) {
    const sender = message.seat === null ? "spectators" : String(message.seat);
    if (messages.has(message.id) || muted.includes(sender)) return;
    messages.set(message.id, message);
    render();
  }

  const lastId = () => (messages.size ? [...messages.keys()].at(-1) : "0-0");

  async function load() {
    try {
      const page = await api.chat(gameId, token, lastId());
      page.messages.forEach(hear);
      notice.textContent = "";
    } catch (problem) {
      notice.textContent = says(problem);
    }
  }

  async function send(body, done) {
    try {
      hear(await api.postChat(gameId, token, body));
      notice.textContent = "";
      done?.();
    } catch (problem) {
      notice.textContent = says(problem);
      notice.dataset.code = problem?.slug || "";
    }
  }

  async function mute(target, on) {
    try {
      await api.mute(gameId, token, target, on);
      muted = (await api.mutes(gameId, token)).muted;
      messages.clear();
      await load(); // what this reader gets now, from the start
      render();
    } catch (problem) {
      notice.textContent = says(problem);
    }
  }

  async function poll() {
    if (stopped || !element.isConnected && timer !== null) return;
    await load();
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  }

  (async () => {
    if (canPost) {
      try {
        muted = (await api.mutes(gameId, token)).muted;
      } catch {
        muted = [];
      }
    }
    poll();
  })();

  return {
    element,
    hear,
    lastId,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
