// The client's entry point: picks the language, then routes on the URL's fragment, which never
// holds a token.
//   #/                       the lobby
//   #/join/<game>            an invitation: take an open seat
//   #/me                     my games (as this browser's player), live from the inbox
//   #/queue/<entry>          waiting for a quick-play game (then its table)
//   #/games/<game>           the table (as your seat if this browser holds one, else watching)
//   #/games/<game>/replay[/r<round>[/t<turn>] | /<version>]   (g<game>/ before r after a rematch)
//   #/leaderboards[/<edition>[/<page>]]   an edition's leaderboard
//   #/players/<id>           a player's record and rating history
//   #/rules[/<edition>[#<card>]]   how to play, and an edition's cards (one card's address)
//   #/tutorial/<name>        a tutorial: a first round against a bot, with a guide
//   #/settings/notifications which notices are pushed, when not, and to this browser

import { says } from "./api.js";
import { loadCatalog } from "./cards.js";
import { h, replace } from "./dom.js";
import { currentLanguage, DEFAULT_LANGUAGE, LANGUAGES, preferredLanguage, t, useLanguage } from "./i18n.js";
import { showInvitation, showLobby } from "./lobby.js";
import { showMyGames } from "./mygames.js";
import { showQueue } from "./quickplay.js";
import { showLeaderboard, showPlayerRecord } from "./ratings.js";
import { showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { showNotificationSettings } from "./settings.js";
import { showTable } from "./table.js";
import { showTutorial } from "./tutorial.js";

const ROUTES = [
  [/^#?\/?$/, (root) => showLobby(root)],
  [/^#\/join\/([^/]+)$/, (root, id) => showInvitation(root, id)],
  [/^#\/me$/, (root) => showMyGames(root)],
  [/^#\/queue\/([^/]+)$/, (root, id) => showQueue(root, id)],
  [/^#\/games\/([^/]+)$/, (root, id) => showTable(root, id)],
  [/^#\/games\/([^/]+)\/replay(?:\/((?:g\d+\/)?r\d+(?:\/t\d+)?|\d+))?$/, (root, id, at) => showReplay(root, id, at)],
  [/^#\/leaderboards(?:\/([^/]+)(?:\/(\d+))?)?$/, (root, edition, page) => showLeaderboard(root, edition || undefined, page)],
  [/^#\/players\/([^/]+)$/, (root, id) => showPlayerRecord(root, id)],
  [/^#\/rules(?:\/([^/#]+))?(?:#([^/#]+))?$/, (root, edition, card) => showRules(root, edition, card)],
  [/^#\/tutorial\/([^/]+)$/, (root, name) => showTutorial(root, name)],
  [/^#\/settings\/notifications$/, (root) => showNotificationSettings(root)],
];

let leaving = null; // stops the current page's live updates or timers
let shown = 0;

/** The page's language: the one chosen before or the browser's (English if its catalogue
 *  can't be read). Every page waits for it. */
const speaking = useLanguage(preferredLanguage()).catch(() => useLanguage(DEFAULT_LANGUAGE));

async function route() {
  leaving?.();
  leaving = null;
  const page = ++shown;
  await speaking;
  if (page !== shown) return; // the reader moved on meanwhile
  // Each page draws into its own element: one still loading when the reader moves on draws
  // into an element no longer on the page.
  const root = h("div");
  replace(document.getElementById("main"), root);
  const hash = location.hash || "#/";
  const found = ROUTES.map(([pattern, show]) => [hash.match(pattern), show]).find(([match]) => match);
  document.title = t("app.brand");
  try {
    await loadCatalog();
    if (!found) {
      replace(root, h("section", { class: "panel" }, h("h1", {}, t("app.not_found")), h("p", {}, h("a", { href: "#/" }, t("app.back_to_lobby")))));
      return;
    }
    const [match, show] = found;
    const stop = await show(root, ...match.slice(1).map((part) => part && decodeURIComponent(part)));
    if (page !== shown) stop?.(); // the reader moved on while this page was loading
    else leaving = stop || null;
  } catch (problem) {
    if (page !== shown) return;
    replace(root, h("section", { class: "panel" }, h("h1", {}, t("app.error")),
      h("p", { class: "notice error", role: "alert" }, says(problem)),
      h("p", {}, h("a", { href: "#/" }, t("app.back_to_lobby")))));
  }
}

/** The language menu in the header: each language named in its own words. */
function languageMenu() {
  const select = document.getElementById("language");
  replace(select, Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, lang: code, selected: code === currentLanguage() }, name)));
  select.addEventListener("change", async () => {
    await useLanguage(select.value, { remember: true });
    manifestLanguage();
    route(); // the page again, in the new language
  });
}

document.querySelector(".skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  document.getElementById("main").focus();
});
window.addEventListener("hashchange", () => {
  route();
  document.getElementById("main").focus({ preventScroll: true });
});

/** The installable app's names in the page's language. */
function manifestLanguage() {
  document.querySelector('link[rel="manifest"]')?.setAttribute("href", `/manifest.webmanifest?lang=${currentLanguage()}`);
}

/** Say so while the browser is offline (the service worker keeps the page itself). */
function offlineNotice() {
  const notice = document.getElementById("offline-notice");
  const draw = () => {
    notice.hidden = navigator.onLine;
    notice.textContent = navigator.onLine ? "" : t("app.offline");
  };
  window.addEventListener("online", draw);
  window.addEventListener("offline", draw);
  draw();
}

// The service worker: the app shell offline, and the pushes (asking nothing of the player).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => null);

speaking.then(languageMenu).then(manifestLanguage).then(offlineNotice);
route();
