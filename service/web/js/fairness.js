// Checking a deal's commitment in the browser: SHA-256 of "<salt>:<dealt order, comma-separated>"
// (the service's game.fairness) must equal the commitment published when the round was dealt;
// and how a page tells it: a plain mark, the fingerprint itself behind a details control.

import { h } from "./dom.js";
import { t } from "./i18n.js";

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

/** What a deal's commitment is, for whoever asks: "How we know", then the fingerprint. */
export function fairnessDetails(commitment) {
  return h("details", { class: "fairness" },
    h("summary", {}, t("fairness.how")),
    h("p", {}, t("fairness.explain")),
    h("p", {}, t("fairness.fingerprint"), " ", h("code", { class: "commitment" }, commitment)));
}
