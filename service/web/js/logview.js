// The log of a table or a replay: it follows the newest line unless the reader scrolled up to
// read, and then a "newest" button brings it back. It scrolls at once, never smoothly: a smooth
// scroll still on its way when the next line arrives looks like a reader who scrolled up.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

const SLACK_PX = 2; // rounding of fractional scroll positions

/** The log's panel: {element, list, show(items, {follow})}. */
export function logPanel({ label }) {
  const list = h("ol", { class: "log", id: "log", tabindex: "0", "aria-label": label, "data-part": "log" });
  let following = true;
  const newest = h("button", {
    type: "button", class: "newest", "data-newest": "", hidden: true,
    onclick: () => {
      following = true;
      toBottom();
      list.focus({ preventScroll: true });
    },
  }, t("log.newest"));
  const atBottom = () => list.scrollHeight - list.scrollTop - list.clientHeight <= SLACK_PX;
  function toBottom() {
    list.scrollTo({ top: list.scrollHeight, behavior: "instant" });
    newest.hidden = true;
  }
  // Only the reader moves the log away from its bottom: the page's own scrolls end there.
  list.addEventListener("scroll", () => {
    following = atBottom();
    newest.hidden = following;
  });

  /** Show these lines; at the newest one if the reader had not scrolled up (or `follow`). */
  function show(items, { follow = false } = {}) {
    replace(list, items);
    if (follow) following = true;
    if (following) toBottom();
    else newest.hidden = false;
  }

  const element = h("section", { class: "panel log-panel", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("log.title")), h("div", { class: "log-box" }, list, newest));
  return { element, list, show };
}
