// The service's HTTP API: every call the client makes, with problems (RFC 9457) as errors.

/** A refused request: the problem's status, `detail` sentence, and slug (`code` of a rule). */
export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || `The service answered ${status}.`);
    this.status = status;
    this.detail = this.message;
    this.slug = (body?.type || "").split("/").pop();
    this.body = body || {};
  }
}

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
  const response = await fetch(path, init);
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

/** What went wrong, in a sentence: a problem's `detail`, or the browser's own message. */
export function says(error) {
  return error.detail || error.message;
}

const game = (id) => `/games/${encodeURIComponent(id)}`;

export const api = {
  raw,
  editions: () => call("GET", "/editions"),
  lobby: (query) => call("GET", `/games?${new URLSearchParams(query)}`),
  create: (body, token) => call("POST", "/games", { body, token }), // token: a player's
  game: (id, token) => call("GET", game(id), { token }),
  version: (id, version, token) => call("GET", `${game(id)}/versions/${version}`, { token }),
  events: (id, token, { after = 0, wait = 0, limit = 1000, signal } = {}) =>
    call("GET", `${game(id)}/events?${new URLSearchParams({ after, wait, limit })}`, { token, signal }),
  streamTicket: (id, token) => call("POST", `${game(id)}/stream-tickets`, { token }),
  join: (id, name, token) => call("POST", `${game(id)}/seats`, { body: { name }, token }),
  leave: (id, seat, token) => call("DELETE", `${game(id)}/seats/${seat}`, { token }),
  rematch: (id, token) => call("POST", `${game(id)}/rematch`, { token }),
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
