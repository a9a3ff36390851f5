// The seats this browser holds: each game's seat and secret token, kept in localStorage
// (never in a URL), and the player's name for the next game.

const SEATS = "loveletter.seats";
const NAME = "loveletter.name";
const memory = new Map(); // when storage is unavailable (some private modes)

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return memory.has(key) ? memory.get(key) : fallback;
  }
}

function write(key, value) {
  memory.set(key, value);
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // memory keeps it for this page's life
  }
}

/** Every held seat: {gameId: {seat, token, name, edition, at}}. */
export function heldSeats() {
  return read(SEATS, {});
}

/** This browser's seat at a game, or null. */
export function seatAt(gameId) {
  return heldSeats()[gameId] || null;
}

/** Keep a seat's token. */
export function remember(gameId, entry) {
  write(SEATS, { ...heldSeats(), [gameId]: { ...entry, at: Date.now() } });
}

/** Drop a seat (left, or no longer valid). */
export function forget(gameId) {
  const seats = heldSeats();
  delete seats[gameId];
  write(SEATS, seats);
}

export function playerName() {
  return read(NAME, "");
}

export function rememberName(name) {
  write(NAME, name);
}
