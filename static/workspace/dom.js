// Tiny DOM helpers. Text is always set with textContent, never parsed as HTML: everything the
// page shows comes from the server or from people (OWASP: no innerHTML with message data).

import { format, gettext, locale } from "./i18n.js";

/**
 * h("button", {class: "chip", onclick: fn, dataset: {id}}, "label", childNode, ...)
 * Attributes starting with "on" become listeners; `dataset` and `aria` objects expand;
 * false / null / undefined attributes and children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) el.dataset[k] = String(v);
    } else if (key === "aria") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) el.setAttribute(`aria-${k}`, String(v));
    } else if (key === "class") {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `el` with `children` (nodes or strings). */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

// English pages keep the browser's own English (24-hour in en-GB, 12-hour in en-US); other
// languages use the page's language, whatever the browser's.
const timeLocale = locale === "en" && /^en\b/i.test(navigator.language || "") ? navigator.language : locale;
const timeFormat = new Intl.DateTimeFormat(timeLocale, { hour: "2-digit", minute: "2-digit" });
const timeSecondsFormat = new Intl.DateTimeFormat(timeLocale, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

export function clockTime(iso, { seconds = false } = {}) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : (seconds ? timeSecondsFormat : timeFormat).format(date);
}

/** 1500 -> "25 min" / "25 分钟", 90 -> "1 min 30 s" / "1 分钟 30 秒", 3 -> "3 s" / "3 秒" */
export function durationText(totalSeconds) {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = [];
  if (hours) parts.push(format(gettext("%(n)s h"), { n: hours }));
  if (minutes) parts.push(format(gettext("%(n)s min"), { n: minutes }));
  if (rest || !parts.length) parts.push(format(gettext("%(n)s s"), { n: rest }));
  return parts.join(" ");
}

export function secondsBetween(startIso, endIso) {
  return (new Date(endIso).getTime() - new Date(startIso).getTime()) / 1000;
}
