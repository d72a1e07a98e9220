// The page's words in its language: Django's JavaScript catalog (/jsi18n/, loaded before the
// modules as a classic script, so `django.gettext` is global) and Intl for times and numbers.
//
// `tx(template, values)` fills "%(name)s" placeholders and returns nodes, so what people and the
// Agent wrote goes in as an isolated <bdi> (a right-to-left override in an activity can not
// reorder the page's own words around it) and never as HTML.

const catalog = window.django || {};

export const gettext = catalog.gettext || ((text) => text);
export const ngettext = catalog.ngettext || ((singular, plural, count) => (count === 1 ? singular : plural));
export const pgettext = catalog.pgettext || ((_context, text) => text);

/** The page's language ("en", "zh-hans"), as the server rendered <html lang>. */
export const language = (document.documentElement.lang || "en").toLowerCase();
/** The BCP 47 tag Intl wants: Django's "zh-hans" is "zh-Hans". */
export const locale = language === "zh-hans" ? "zh-Hans" : language;

/** "%(name)s" -> values.name, as a plain string (for attributes such as aria-label and title). */
export function format(template, values = {}) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}

/** Text someone else wrote, isolated from the page's text direction (UAX #9, HTML <bdi>). */
export function isolate(text) {
  const node = document.createElement("bdi");
  node.textContent = text;
  return node;
}

/**
 * "%(name)s" -> values.name, as a list of strings and nodes to append: a string value is
 * isolated (it came from a person or the Agent), a node goes in as it is.
 */
export function tx(template, values = {}) {
  const out = [];
  let last = 0;
  for (const match of template.matchAll(/%\((\w+)\)s/g)) {
    if (match.index > last) out.push(template.slice(last, match.index));
    const value = values[match[1]];
    out.push(value instanceof Node ? value : isolate(String(value ?? "")));
    last = match.index + match[0].length;
  }
  if (last < template.length) out.push(template.slice(last));
  return out;
}

// MiniApp names come from their manifests; the server translates them (interact.views.app_names)
// into the page's boot data, since the snapshot over the socket carries the manifest's own.
const boot = document.getElementById("lineup-boot");
const APP_NAMES = (boot && JSON.parse(boot.textContent).app_names) || {};

const RUNNING_LABELS = (boot && JSON.parse(boot.textContent).running_labels) || {};

/**
 * What the app is called while its operation runs (its manifest's running_label), translated by the
 * server; an app the page's boot data does not know shows its manifest's own word (``fallback``).
 */
export function runningLabel(appId, fallback) {
  return RUNNING_LABELS[appId] || (fallback ? gettext(fallback) : gettext("running"));
}

export function appName(appId, fallback) {
  return APP_NAMES[appId] || fallback || appId;
}

/** The name of the app that runs ``op`` (the snapshot says which app, and its manifest's name). */
export function operationAppName(op, appId) {
  return appName(op.app_id || appId, op.app_name);
}

/**
 * Whether ``op`` is a focus, in its app's own words: its manifest calls it "focusing" while it runs
 * (Pomodoro's). A focus is spoken of as "your 25 min reading focus"; any other operation by its
 * app's name. A server of the previous release sent no label: there the one operation was a focus.
 */
export function isFocus(op) {
  return !op.running_label || op.running_label === "focusing";
}
