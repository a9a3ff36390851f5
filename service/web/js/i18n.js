// The client's languages: every word the page shows comes from the catalogue of the chosen
// language (service/web/i18n/<language>.json: one ICU MessageFormat message per key, read by the
// vendored intl-messageformat), and numbers, lists and times from the browser's Intl.
// docs/i18n.md tells how a page adds its strings.

import { IntlMessageFormat } from "/vendor/intl-messageformat/intl-messageformat.iife.js";

/** The languages of the client, each named in its own words (for the language menu). */
export const LANGUAGES = { en: "English", ja: "日本語", ko: "한국어", vi: "Tiếng Việt" };
export const DEFAULT_LANGUAGE = "en";

const STORED = "loveletter.language";

/**
 * Where the chosen language is kept: this browser's localStorage. A player's own setting on the
 * server can take over by replacing `read` and `write` (e.g. `write` also saves it to the
 * player's profile) and calling `useLanguage` with the player's language once it is known.
 */
export const languageStore = {
  read() {
    try {
      return localStorage.getItem(STORED);
    } catch {
      return null; // storage unavailable (some private modes)
    }
  },
  write(language) {
    try {
      localStorage.setItem(STORED, language);
    } catch {
      // kept for this page's life only
    }
  },
};

let language = DEFAULT_LANGUAGE;
let messages = {};
let fallback = {}; // English, for a key a catalogue lacks (the tests make sure none does)
const compiled = new Map(); // key -> IntlMessageFormat of the current language
const listeners = new Set();
const catalogues = new Map(); // language -> Promise of its messages

/** The supported language that best matches `tags` (BCP 47, most preferred first), if any. */
export function matchLanguage(tags) {
  for (const tag of tags || []) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (primary in LANGUAGES) return primary;
  }
  return null;
}

/** The language to start with: the one chosen before, else the browser's, else English. */
export function preferredLanguage() {
  const chosen = languageStore.read();
  if (chosen in LANGUAGES) return chosen;
  return matchLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]) || DEFAULT_LANGUAGE;
}

function catalogue(code) {
  if (!catalogues.has(code)) {
    catalogues.set(code, fetch(`/web/i18n/${code}.json`, { headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(`The ${code} catalogue answered ${response.status}.`);
        return response.json();
      })
      .catch((error) => {
        catalogues.delete(code); // asked again next time
        throw error;
      }));
  }
  return catalogues.get(code);
}

/** Switch the page to `code` (loading its catalogue); `remember`: keep it as the choice. */
export async function useLanguage(code, { remember = false } = {}) {
  const wanted = code in LANGUAGES ? code : DEFAULT_LANGUAGE;
  const [found, english] = await Promise.all([catalogue(wanted), catalogue(DEFAULT_LANGUAGE)]);
  language = wanted;
  messages = found;
  fallback = english;
  compiled.clear();
  if (remember) languageStore.write(wanted);
  document.documentElement.lang = wanted;
  translateStatic(document);
  for (const listener of listeners) listener(wanted);
  return wanted;
}

/** The language the page speaks now. */
export function currentLanguage() {
  return language;
}

/** Hear of every language switch (e.g. to draw the page again); returns the unsubscriber. */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the catalogue has a message for `key` (for keys made from the API's codes). */
export function has(key) {
  return key in messages || key in fallback;
}

/** The message `key` with its parameters filled in: t("lobby.players", {count: 3}). */
export function t(key, values = {}) {
  let format = compiled.get(key);
  if (!format) {
    const text = key in messages ? messages[key] : fallback[key];
    if (text === undefined) {
      console.error(`No message ${key} in the ${language} catalogue.`);
      return key;
    }
    format = new IntlMessageFormat(text, language);
    compiled.set(key, format);
  }
  try {
    return String(format.format(values));
  } catch (error) {
    console.error(`The message ${key} (${language}) could not be formatted: ${error.message}`);
    return key;
  }
}

/** Fill the elements of the page's own HTML that name their message: `data-i18n` (text) and
 *  `data-i18n-label` (aria-label). */
export function translateStatic(root) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-i18n-label]")) element.setAttribute("aria-label", t(element.dataset.i18nLabel));
}

/** A number in the page's language: 1,234 / 1.234. */
export function formatNumber(value, options) {
  return new Intl.NumberFormat(language, options).format(value);
}

/** A duration in seconds, in the largest whole unit: "30 seconds", "5分", "1 ngày". */
export function formatDuration(seconds) {
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => seconds >= size && seconds % size === 0) || ["second", 1];
  return formatNumber(seconds / size, { style: "unit", unit, unitDisplay: "long" });
}

/** "a, b and c" (or "a or b": type "disjunction") in the page's language. */
export function formatList(items, type = "conjunction") {
  return new Intl.ListFormat(language, { style: "long", type }).format(items.map(String));
}

/** How long ago (or in how long) an instant is: "3 minutes ago", "3 分前", "3분 전". */
export function formatRelative(milliseconds, now = Date.now()) {
  const seconds = Math.round((milliseconds - now) / 1000);
  const steps = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(seconds, "second"); // "now", "12 seconds ago"
}

/** A date and time in the page's language, for a title or a tooltip. */
export function formatDateTime(milliseconds) {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(milliseconds));
}

/** The time of day of an instant (Unix ms), short: "10:02 AM", "10:02". */
export function formatTime(milliseconds) {
  return new Intl.DateTimeFormat(language, { timeStyle: "short" }).format(new Date(milliseconds));
}
