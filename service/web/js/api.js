// The service's HTTP API: every call the client makes, with problems (RFC 9457) as errors.
// The API speaks English with stable codes; the page says each problem in its own language.

import { has, t } from "./i18n.js";

/** A refused request: the problem's status, `detail` sentence (English), and slug (its `type`'s
 *  last part: the rule's `code` for a refusal). */
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || `The service answered ${status}.`);
    this.status = status;
    this.detail = this.message;
    this.slug = (body?.type || "").split("/").pop();
    this.body = body || {};
  }
}

/** The service could not be reached (no answer at all). */
export class NetworkError extends Error {}

async function call(method, path, { token, body, headers = {}, signal } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers }, signal, cache: "no-store" };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return raw(path, init);
}

/** Fetch `path` with a prepared `init`: its JSON, or a Problem. */
async function raw(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new NetworkError(error.message);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text };
  }
  if (!response.ok) throw new Problem(response.status, data);
  return data;
}

// Cards a refusal may name; the table passes their names in its edition (cards.cardWords).
export const NAMED_CARDS = ["guard", "handmaid", "countess", "chancellor", "bishop", "sycophant"];

/** What went wrong, in a sentence of the page's language: the catalogue's message for the
 *  problem's slug (`problem.<slug>`, with the problem's members and `words` as parameters);
 *  for a slug newer than this page, the service's own `detail`; for a lost connection, that. */
export function says(error, words = {}) {
  if (error instanceof NetworkError) return t("app.network");
  if (!(error instanceof Problem)) {
    console.error(error); // a fault of the page itself
    return t("app.fault");
  }
  const key = `problem.${error.slug}`;
  if (!has(key)) return error.detail;
  const values = { status: error.status };
  for (const [name, value] of Object.entries(error.body)) {
    if (typeof value === "string" || typeof value === "number") values[name] = value;
  }
  for (const id of NAMED_CARDS) values[id] = words[id] ?? t("card.generic");
  return t(key, values);
}

/** Show what went wrong in `notice`, keeping the API's code and English detail as data. */
export function tell(notice, error, words = {}) {
  notice.textContent = says(error, words);
  notice.dataset.code = error?.slug || "";
  notice.dataset.detail = error?.detail || error?.message || "";
}

const game = (id) => `/games/${encodeURIComponent(id)}`;

export const api = {
  raw,
  editions: (lang) => call("GET", `/editions?${new URLSearchParams({ lang })}`),
  leaderboard: (edition, query) =>
    call("GET", `/leaderboards/${encodeURIComponent(edition)}?${new URLSearchParams(query)}`),
  playerRecord: (id) => call("GET", `/players/${encodeURIComponent(id)}`),
  lobby: (query) => call("GET", `/games?${new URLSearchParams(query)}`),
  tutorial: (name) => call("GET", `/tutorials/${encodeURIComponent(name)}`),
  startTutorial: (body) => call("POST", "/tutorials", { body }),
  create: (body, token) => call("POST", "/games", { body, token }), // token: a player's
  game: (id, token) => call("GET", game(id), { token }),
  version: (id, version, token) => call("GET", `${game(id)}/versions/${version}`, { token }),
  events: (id, token, { after = 0, wait = 0, limit = 1000, signal } = {}) =>
    call("GET", `${game(id)}/events?${new URLSearchParams({ after, wait, limit })}`, { token, signal }),
  streamTicket: (id, token) => call("POST", `${game(id)}/stream-tickets`, { token }),
  join: (id, name, token) => call("POST", `${game(id)}/seats`, { body: { name }, token }),
  leave: (id, seat, token) => call("DELETE", `${game(id)}/seats/${seat}`, { token }),
  rematch: (id, token) => call("POST", `${game(id)}/rematch`, { token }),
  chat: (id, token, after = "0-0") => call("GET", `${game(id)}/chat?${new URLSearchParams({ after, limit: 500 })}`, { token }),
  postChat: (id, token, body) => call("POST", `${game(id)}/chat`, { token, body }),
  mutes: (id, token) => call("GET", `${game(id)}/chat/mutes`, { token }),
  mute: (id, token, target, on) => call(on ? "PUT" : "DELETE", `${game(id)}/chat/mutes/${encodeURIComponent(target)}`, { token }),
  command: (id, token, version, key, body) =>
    call("POST", `${game(id)}/commands`, {
      token,
      body,
      headers: { "If-Match": `"${version}"`, "Idempotency-Key": key },
    }),
};

/** Every event of a game this audience may see, from the start (pages of the feed). */
export async function allEvents(id, token) {
  const events = [];
  for (;;) {
    const after = events.length ? events.at(-1).version : 0;
    const page = await api.events(id, token, { after, limit: 1000 });
    events.push(...page.events);
    if (page.events.length < 1000) return events;
  }
}
