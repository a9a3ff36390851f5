// #/settings/notifications: which notices this player wants pushed and when not (quiet hours
// in the player's time zone), and whether this browser receives them. The browser is asked
// for its permission only when the player turns notifications on here, never before.

import { api, says } from "./api.js";
import { h, replace } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { currentPlayer } from "./player.js";

const NOTICES = ["your_turn", "game_started", "game_over", "match_found", "chat"];

const call = (method, path, token, body) => {
  const init = { method, cache: "no-store", headers: { Accept: "application/json", Authorization: `Bearer ${token}` } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return api.raw(path, init);
};

/** Whether this browser can receive pushes at all. */
function pushable() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The application server key as PushManager takes it. */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function browserState() {
  if (!pushable()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && Notification.permission === "granted" ? "on" : "off";
}

/** Subscribe this browser (asking for permission now, as the player just chose to). */
async function turnOn(token) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return;
  const registration = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const { publicKey } = await call("GET", "/push/vapid-public-key", token);
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  await call("POST", "/players/me/push-subscriptions", token, subscription.toJSON());
}

async function turnOff(token) {
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  const { subscriptions } = await call("GET", "/players/me/push-subscriptions", token);
  const mine = subscriptions.find((found) => found.endpoint === subscription.endpoint);
  await subscription.unsubscribe();
  if (mine) await call("DELETE", `/players/me/push-subscriptions/${encodeURIComponent(mine.id)}`, token);
}

export async function showNotificationSettings(root) {
  const player = currentPlayer();
  if (!player) {
    replace(root, h("section", { class: "panel", id: "notification-settings" }, h("h1", {}, t("settings.title")),
      h("p", {}, t("settings.no_player")), h("p", {}, h("a", { href: "#/me" }, t("app.nav.mygames")))));
    return;
  }
  const token = player.token;
  const prefs = await call("GET", "/players/me/notification-preferences", token);
  const status = h("p", { class: "notice", role: "status", id: "settings-status" });
  const boxes = NOTICES.map((notice) => {
    const box = h("input", { type: "checkbox", id: `notice-${notice}`, name: notice, checked: Boolean(prefs.notices[notice]) });
    return h("div", { class: "checkbox-field" }, box, h("label", { for: box.id }, t("settings.notice", { notice })));
  });
  const hours = prefs.quiet_hours;
  const quietOn = h("input", { type: "checkbox", id: "quiet-on", checked: Boolean(hours) });
  const start = h("input", { type: "time", id: "quiet-start", value: hours?.start ?? "22:00" });
  const end = h("input", { type: "time", id: "quiet-end", value: hours?.end ?? "08:00" });
  const zone = h("input", { type: "text", id: "time-zone", autocomplete: "off",
    value: hours?.time_zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC" });
  const form = h("form", { id: "notification-preferences" },
    h("fieldset", {}, h("legend", {}, t("settings.notices")), ...boxes),
    h("fieldset", {}, h("legend", {}, t("settings.quiet")),
      h("div", { class: "checkbox-field" }, quietOn, h("label", { for: "quiet-on" }, t("settings.quiet_on"))),
      h("p", {}, h("label", { for: "quiet-start" }, t("settings.quiet_start")), " ", start, " ",
        h("label", { for: "quiet-end" }, t("settings.quiet_end")), " ", end),
      h("p", {}, h("label", { for: "time-zone" }, t("settings.time_zone")), " ", zone)),
    h("p", {}, h("button", { type: "submit" }, t("settings.save"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const notices = Object.fromEntries(NOTICES.map((notice) => [notice, form.querySelector(`#notice-${notice}`).checked]));
    const body = { notices, lang: currentLanguage(),
      quiet_hours: quietOn.checked ? { start: start.value, end: end.value, time_zone: zone.value.trim() } : null };
    try {
      await call("PUT", "/players/me/notification-preferences", token, body);
      status.textContent = t("settings.saved");
    } catch (problem) {
      status.textContent = says(problem);
    }
  });
  const state = h("p", { id: "browser-state" });
  const toggle = h("button", { type: "button", id: "browser-toggle" });
  const draw = async () => {
    const now = await browserState();
    state.textContent = t("settings.browser_state", { state: now });
    state.dataset.state = now;
    toggle.textContent = now === "on" ? t("settings.turn_off") : t("settings.turn_on");
    toggle.hidden = now === "unsupported" || now === "denied";
  };
  toggle.addEventListener("click", async () => {
    try {
      if ((await browserState()) === "on") await turnOff(token);
      else await turnOn(token);
    } catch (problem) {
      status.textContent = problem?.status ? says(problem) : String(problem?.message ?? problem);
    }
    await draw();
  });
  await draw();
  replace(root, h("section", { class: "panel", id: "notification-settings" },
    h("h1", {}, t("settings.title")),
    h("section", {}, h("h2", {}, t("settings.browser")), state, h("p", {}, toggle)),
    form, status));
}
