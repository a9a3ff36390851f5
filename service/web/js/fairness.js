// Checking a deal's commitment in the browser: SHA-256 of "<salt>:<dealt order, comma-separated>"
// (the service's game.fairness) must equal the commitment published when the round was dealt.

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether this browser can check commitments (WebCrypto needs https or localhost). */
export function canVerify() {
  return Boolean(globalThis.crypto?.subtle);
}

/** Whether the revealed salt and dealt order open the commitment. */
export async function opens(commitment, salt, dealt) {
  return (await sha256(`${salt}:${dealt.join(",")}`)) === commitment;
}
