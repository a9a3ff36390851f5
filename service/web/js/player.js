// This browser's player: a guest made once (its token kept in localStorage, never in a URL),
// and the player's calls to the API. Every page that acts as the player asks here.

import { api } from "./api.js";

const PLAYER = "loveletter.player";

const json = async (method, path, token, body) => {
  const init = { method, headers: { Accept: "application/json" }, cache: "no-store" };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return api.raw(path, init);
};

/** The player this browser plays as ({id, name, token}), or null. */
export function currentPlayer() {
  try {
    const text = localStorage.getItem(PLAYER);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The player's token, or null: sent when creating or joining a game binds the seat to it. */
export function playerToken() {
  return currentPlayer()?.token ?? null;
}

function keep(answer) {
  const player = { id: answer.player.id, name: answer.player.name, token: answer.token };
  try {
    localStorage.setItem(PLAYER, JSON.stringify(player));
  } catch {
    // storage unavailable: the player lasts as long as this page
  }
  return player;
}

/** Become a guest player under `name`. */
export async function becomeGuest(name) {
  return keep(await json("POST", "/players", null, { name }));
}

/** Take the player of another device, by its transfer code. */
export async function redeem(code) {
  return keep(await json("POST", "/players/tokens", null, { code }));
}

/** Forget this browser's player (after signing it out, see `playerApi.signOut`). */
export function forgetPlayer() {
  try {
    localStorage.removeItem(PLAYER);
  } catch {
    // nothing kept
  }
}

export const playerApi = {
  me: (token) => json("GET", "/players/me", token),
  games: (token, status) => json("GET", `/players/me/games?${new URLSearchParams(status ? { status, limit: 200 } : { limit: 200 })}`, token),
  transferCode: (token) => json("POST", "/players/me/transfer-codes", token),
  signOut: (token) => json("POST", "/players/me/sign-out", token),
  inboxTicket: (token) => json("POST", "/players/me/stream-tickets", token),
  enterQueue: (token, body) => json("POST", "/queue", token, body),
  queueEntry: (token, entry) => json("GET", `/queue/${encodeURIComponent(entry)}`, token),
  cancelQueue: (token, entry) => json("DELETE", `/queue/${encodeURIComponent(entry)}`, token),
  abandon: (gameId, seat, token) => json("POST", `/games/${encodeURIComponent(gameId)}/seats/${seat}/abandon`, token),
};
