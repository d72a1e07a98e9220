// What the person does, as workspace frames: messages, answers, switching, opening and closing
// apps. Leaving an app whose running operation ends when left (a focus) ends it (interrupted), so
// that is said out loud in a dialog, naming what ends, before anything is sent.

import { RequestError } from "./connection.js";
import { Outbox } from "./outbox.js";
import { durationText, secondsBetween } from "./dom.js";
import { appName, format, gettext, isFocus, locale, operationAppName } from "./i18n.js";
import { el, render, scrollToNewest, showBlockOf, toast } from "./render.js";
import { frontInstance, openInstances, operationOf, ui } from "./state.js";

/** Filled in by app.js: the connection and "fetch the snapshot again". */
export const wiring = { conn: null, refresh: () => {} };

// The server's refusals worded for people; anything else is shown with its own detail.
function refusalText(error) {
  if (error.code === "interaction_resolved" && /superseded/.test(error.detail)) {
    return gettext("A newer question replaced this one; answer that one instead.");
  }
  if (error.code === "interaction_resolved") return gettext("This question has already been answered or has expired.");
  if (error.code === "invalid_arguments" && error.detail === "the message has no visible characters") {
    return gettext("it has no visible characters (only spaces or invisible ones); type something first.");
  }
  if (error.code === "offline") return gettext("You are offline; try again once LineUp is reconnected.");
  if (error.code === "timeout") return gettext("LineUp did not answer in time; try again.");
  return error instanceof RequestError ? error.detail || error.code : String(error);
}

async function send(type, body, failure) {
  try {
    return await wiring.conn.request(type, { conversation_id: ui.conversationId, ...body });
  } catch (error) {
    toast(format(gettext("%(failure)s: %(detail)s"), { failure, detail: refusalText(error) }), "error");
    return null;
  } finally {
    wiring.refresh();
  }
}

export function answer(interaction, value) {
  return wiring.conn.request("interaction.answer", { interaction_id: interaction.id, value }).then(
    () => {
      ui.drafts.delete(interaction.id);
      wiring.refresh();
    },
    (error) => {
      toast(format(gettext("Could not send your answer: %(detail)s"), { detail: refusalText(error) }), "error");
      wiring.refresh();
    },
  );
}

export function dismiss(interaction) {
  return wiring.conn.request("interaction.dismiss", { interaction_id: interaction.id }).then(
    () => wiring.refresh(),
    (error) => {
      toast(format(gettext("Could not dismiss: %(detail)s"), { detail: refusalText(error) }), "error");
      wiring.refresh();
    },
  );
}

function focusWords(op) {
  const planned = durationText(secondsBetween(op.started_at, op.ends_at));
  const phrase = document.createElement("span");
  if (op.activity) {
    // The activity is the person's (or the Agent's) words: isolated on its own, so a right-to-left
    // override in it can not reverse the app's words around it ("focus", "now", ...).
    const template = format(gettext("your %(planned)s %(activity)s focus"), { planned, activity: "%(activity)s" });
    phrase.replaceChildren(...isolatedFormat(template, { activity: op.activity }));
  } else {
    phrase.textContent = format(gettext("your %(planned)s focus"), { planned });
  }
  return phrase;
}

/**
 * ``template`` as nodes, each ``%(key)s`` or ``{key}`` replaced by ``values[key]``: a node as is, a
 * string in its own <bdi> (bidi isolation: an app name or a person's text keeps its direction to itself).
 */
function isolatedFormat(template, values) {
  const nodes = [];
  let last = 0;
  for (const match of template.matchAll(/%\((\w+)\)s|\{(\w+)\}/g)) {
    const key = match[1] || match[2];
    if (!(key in values)) continue;
    nodes.push(template.slice(last, match.index));
    const value = values[key];
    if (value instanceof Node) {
      nodes.push(value);
    } else {
      const bdi = document.createElement("bdi");
      bdi.textContent = String(value);
      nodes.push(bdi);
    }
    last = match.index + match[0].length;
  }
  nodes.push(template.slice(last));
  return nodes.filter((node) => node !== "");
}

/** An operation that is not a focus, in its app's words: "Reading timer (10 min)". */
function operationWords(op) {
  const planned = durationText(secondsBetween(op.started_at, op.ends_at));
  const phrase = document.createElement("span");
  phrase.replaceChildren(...isolatedFormat(gettext("%(app)s (%(planned)s)"), { app: operationAppName(op), planned }));
  return phrase;
}

/** "a, b and c" in the page's language, as nodes (each part kept as it is). */
function listNodes(parts) {
  const marks = parts.map((_, index) => `\u0000${index}\u0000`);
  const joined = new Intl.ListFormat(locale, { type: "conjunction" }).format(marks);
  const nodes = [];
  for (const piece of joined.split(/\u0000(\d+)\u0000/)) {
    if (/^\d+$/.test(piece) && parts[Number(piece)] !== undefined) nodes.push(parts[Number(piece)]);
    else if (piece) nodes.push(piece);
  }
  const span = document.createElement("span");
  span.replaceChildren(...nodes);
  return span;
}

// What the dialog says, per action: a focus in its own words (Pomodoro's "focus"), any other
// operation (or several) by its app's name. {focus} is what ends; %(app)s names its app(s).
const LEAVE_WORDS = {
  back: {
    focus: () => [
      gettext("End the focus and go back to Interact?"),
      gettext("Going back to Interact ends {focus} now. It is recorded as interrupted, and the Agent tells you how it went."),
      gettext("End focus and go back"),
    ],
    other: () => [
      gettext("End %(app)s and go back to Interact?"),
      gettext("Going back to Interact ends {focus} now. It is recorded as interrupted, and the Agent tells you how it went."),
      gettext("End and go back"),
    ],
  },
  switch: {
    focus: () => [gettext("End the focus and switch to %(name)s?"), gettext("Switching to %(name)s ends {focus} now. It is recorded as interrupted."), gettext("End focus and switch")],
    other: () => [gettext("End %(app)s and switch to %(name)s?"), gettext("Switching to %(name)s ends {focus} now. It is recorded as interrupted."), gettext("End and switch")],
  },
  open: {
    focus: () => [gettext("End the focus and open %(name)s?"), gettext("Opening %(name)s ends {focus} now. It is recorded as interrupted."), gettext("End focus and open %(name)s")],
    other: () => [gettext("End %(app)s and open %(name)s?"), gettext("Opening %(name)s ends {focus} now. It is recorded as interrupted."), gettext("End and open %(name)s")],
  },
  close: {
    focus: () => [gettext("End the focus and close %(name)s?"), gettext("Closing %(name)s ends {focus} now. It is recorded as interrupted."), gettext("End focus and close")],
    other: () => [gettext("End %(app)s and close it?"), gettext("Closing %(name)s ends {focus} now. It is recorded as interrupted."), gettext("End and close")],
  },
};

/**
 * The running operations that leaving ``instanceId`` ends: its own, when its manifest says leaving
 * ends it (ends_when_left; the server's lifecycle rule). Every other app's operation runs on: it is
 * not the one left, so it is neither ended nor asked about.
 */
function endedByLeaving(instanceId) {
  const op = operationOf(instanceId);
  return op && op.ends_when_left !== false ? [op] : [];
}

/**
 * Leaving an app ends its running operation when its manifest says so: say which (each by its
 * app's name, a focus in its own words) and let the person choose before anything is sent. With
 * nothing to end the action happens at once.
 */
function confirmLeaving({ leaving, action, values = {}, perform }) {
  const ending = endedByLeaving(leaving);
  if (ending.length === 0) {
    perform();
    return;
  }
  ui.pendingLeave = perform;
  const [title, text, confirmLabel] = LEAVE_WORDS[action][ending.length === 1 && isFocus(ending[0]) ? "focus" : "other"]();
  const app = new Intl.ListFormat(locale, { type: "conjunction" }).format(ending.map((op) => operationAppName(op)));
  const what = listNodes(ending.map((op) => (isFocus(op) ? focusWords(op) : operationWords(op))));
  el.dialog.dataset.ending = ending.map((op) => op.operation_id).join(" ");
  // Every value shown in the dialog (an app's name, the person's activity) is isolated: its direction
  // can not reorder the dialog's own words.
  el.dialogTitle.replaceChildren(...isolatedFormat(title, { ...values, app }));
  el.dialogText.replaceChildren(...isolatedFormat(text, { ...values, app, focus: what }));
  el.dialogConfirm.replaceChildren(...isolatedFormat(confirmLabel, { ...values, app }));
  el.dialog.returnValue = "";
  el.dialog.showModal();
  el.dialogCancel.focus();
}

el.dialog.addEventListener("close", () => {
  const perform = ui.pendingLeave;
  ui.pendingLeave = null;
  if (el.dialog.returnValue === "leave" && perform) perform();
});

export function returnToInteract() {
  const front = frontInstance();
  confirmLeaving({
    leaving: front && front.instance_id,
    action: "back",
    perform: () => send("return_to_interact", {}, gettext("Could not go back to Interact")),
  });
}

export function goTo(instance) {
  if (instance.is_system) {
    returnToInteract();
    return;
  }
  const front = frontInstance();
  const name = appName(instance.app_id, instance.name);
  confirmLeaving({
    leaving: front && front.instance_id,
    action: "switch",
    values: { name },
    perform: () => send("app.switch", { instance_id: instance.instance_id }, format(gettext("Could not switch to %(name)s"), { name })),
  });
}

export function openApp(app) {
  // One scratch pad is enough: an open instance of the app is switched to, not opened again.
  const open = openInstances().find((i) => i.app_id === app.app_id);
  if (open) {
    if (open !== frontInstance()) goTo(open);
    return;
  }
  const front = frontInstance();
  const name = appName(app.app_id, app.name);
  confirmLeaving({
    leaving: front && front.instance_id,
    action: "open",
    values: { name },
    // A refused launch changed nothing on the server: Interact (or whatever was in front) stays.
    perform: () => send("app.open", { app_id: app.app_id }, format(gettext("%(name)s could not be opened, so Interact stays in front"), { name })),
  });
}

export function closeApp(instance) {
  const name = appName(instance.app_id, instance.name);
  confirmLeaving({
    leaving: instance.instance_id,
    action: "close",
    values: { name },
    perform: () => send("app.close", { instance_id: instance.instance_id }, format(gettext("Could not close %(name)s"), { name })),
  });
}

/** A closed app's chip: its history is its block in Interact (going there first if need be). */
export function revealBlock(instance) {
  el.closedMenu.open = false;
  const front = frontInstance();
  if (front && !front.is_system) {
    returnToInteract();
    return;
  }
  render();
  if (!showBlockOf(instance.instance_id)) toast(gettext("That app's history is older than what this page shows."));
}

export function reloadFront() {
  const front = frontInstance();
  if (front) wiring.surfaces?.get(front.instance_id)?.reload();
}

export function failedLaunch(instance) {
  // A failed launch puts Interact back in front; nothing is lost by leaving.
  toast(format(gettext("%(name)s did not start, so you are back in Interact."), { name: appName(instance.app_id, instance.name) }), "error");
  send("return_to_interact", {}, gettext("Could not go back to Interact"));
}

// --- the person's messages: client-made ids, kept until stored (outbox.js) -------------------------

export const outbox = new Outbox();

function postMessage(body) {
  return wiring.conn.request("message.send", body);
}

function sent() {
  render();
  wiring.refresh();
}

/** Send one outbox entry now if connected (else it waits for the next hello); a refusal is said once. */
function dispatch(entry) {
  if (!wiring.conn.isOpen) return Promise.resolve();
  return outbox.send(entry, postMessage, () => {
    if (entry.status === "failed") {
      toast(format(gettext("%(failure)s: %(detail)s"), { failure: gettext("Your message was not sent"), detail: refusalText(new RequestError("invalid_arguments", entry.error)) }), "error");
    }
    sent();
  });
}

/** After every hello: the pending messages of the user's conversations go (again), oldest first. */
export function flushOutbox(conversationIds) {
  return outbox.flush(conversationIds, postMessage, sent);
}

export function retryMessage(clientId) {
  const entry = outbox.retry(clientId);
  render();
  if (entry) dispatch(entry);
}

export function discardMessage(clientId) {
  outbox.discard(clientId);
  render();
}

/** Enter sends (Shift+Enter is a new line); the box keeps the keyboard for the next message. */
export function wireComposer(form, input) {
  const submit = () => {
    const text = input.value.trim();
    if (!text || !ui.conversationId) return;
    // Kept (pending) before it is sent: a reload or a lost connection can not lose it, and the
    // server stores it once whatever how often it is sent.
    const entry = outbox.add(ui.conversationId, text, document.documentElement.lang || "");
    input.value = "";
    scrollToNewest();
    render();
    dispatch(entry);
    // Sending disables nothing, but a redraw may have moved the focus: give it back.
    if (!input.disabled && input.offsetParent !== null) input.focus({ preventScroll: true });
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
}
