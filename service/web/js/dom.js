// Building the page: h("button", {class: "primary", onclick}, t("moves.restart")) and friends.

import { formatList } from "./i18n.js";

/** An element with properties (class, text, on*, data-*, aria-*, other attributes) and children. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") element.className = value;
    else if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name in element && !name.includes("-")) element[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/** Append children: elements, strings, arrays of them; null and false are skipped. */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replace an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

/** "a", "a and b", "a, b and c", in the page's language. */
export function listing(items) {
  return formatList(items);
}

/** Whether the keyboard focus is inside `element`. */
export function holdsFocus(element) {
  return element.contains(document.activeElement);
}

/** A keydown listener for a group of choices: the arrow keys move the focus along the group's
 *  buttons or links (and Home/End to its ends), wrapping around. */
export function arrowKeys(event) {
  const buttons = [...event.currentTarget.querySelectorAll("button, a[href]")];
  const at = buttons.indexOf(document.activeElement);
  const moves = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 };
  if (at < 0 || !(event.key in moves)) return;
  event.preventDefault();
  buttons[(moves[event.key] + buttons.length) % buttons.length].focus();
}
