// The Web Reference Host: the workspace page.
//
// The page holds no state of its own that matters: it asks the Runtime for the workspace
// snapshot on load, on every reconnect and after every hint the server sends, and draws
// everything from it — the app bar, the foreground app, Interact's IM and the interactions.
// What the person does goes out as one workspace frame each; leaving a running focus
// (back to Interact, switching, opening or closing an app) is said out loud before it is sent.

import { RequestError, WorkspaceConnection } from "./connection.js";
import { durationText, h, replaceChildren, secondsBetween } from "./dom.js";
import { SurfaceHost } from "./surfaces.js";
import { blockView, interactionView, messageView, reconcile } from "./timeline.js";

const boot = JSON.parse(document.getElementById("lineup-boot").textContent);
const $ = (id) => document.getElementById(id);

const el = {
  banner: $("banner"),
  bannerText: $("banner-text"),
  bannerRetry: $("banner-retry"),
  apps: $("apps"),
  openChips: $("open-chips"),
  closedChips: $("closed-chips"),
  launchers: $("launchers"),
  interactView: $("interact-view"),
  timeline: $("timeline"),
  timelineEmpty: $("timeline-empty"),
  composer: $("composer"),
  composerInput: $("composer-input"),
  appView: $("app-view"),
  appTitle: $("app-title"),
  focusHint: $("focus-hint"),
  back: $("back-to-interact"),
  reload: $("reload-app"),
  close: $("close-app"),
  frames: $("frames"),
  appFailed: $("app-failed"),
  appFailedText: $("app-failed-text"),
  appFailedReload: $("app-failed-reload"),
  appFailedBack: $("app-failed-back"),
  overlay: $("overlay"),
  overlayCard: $("overlay-card"),
  overlayMore: $("overlay-more"),
  dock: $("dock"),
  dockInput: $("dock-input"),
  dockLast: $("dock-last"),
  dialog: $("leave-dialog"),
  dialogTitle: $("leave-title"),
  dialogText: $("leave-text"),
  dialogConfirm: $("leave-confirm"),
  toasts: $("toasts"),
};

const ui = {
  snapshot: null,
  conversationId: null,
  openBlocks: new Map(), // app_session_id -> the person's own open/closed choice
  drafts: new Map(), // interaction id -> text typed into an input interaction
  states: new Map(), // instance_id -> {revision, state}: the host's copy, for getState
  failed: new Set(), // instance ids whose Surface did not start
  clockOffsetMs: 0,
  sentVisibility: null,
  pendingLeave: null,
};

// --- connection -------------------------------------------------------------------------------

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/workspace/`;
const conn = new WorkspaceConnection(wsUrl);
window.lineupWorkspace = { connection: conn, ui }; // for devtools, tests and the Desktop Host (lineup/desktop/close_apps.js)

conn.addEventListener("status", (event) => showConnection(event.detail));
conn.addEventListener("hello", () => {
  ui.sentVisibility = null;
  refresh();
});
conn.addEventListener("event", () => refresh());
conn.addEventListener("unauthenticated", () => {
  location.assign(`/accounts/login/?next=${encodeURIComponent(location.pathname)}`);
});

let snapshotInFlight = false;
let snapshotAgain = false;

/** Ask for a fresh snapshot; hints arriving while one is in flight coalesce into one more. */
function refresh() {
  if (!conn.isOpen) return;
  if (snapshotInFlight) {
    snapshotAgain = true;
    return;
  }
  snapshotInFlight = true;
  const body = ui.conversationId ? { conversation_id: ui.conversationId } : {};
  conn
    .request("snapshot.get", body)
    .then((frame) => applySnapshot(frame.snapshot))
    .catch((error) => {
      if (error.code !== "offline") toast(`Could not load the workspace: ${error.detail || error.code}`, "error");
    })
    .finally(() => {
      snapshotInFlight = false;
      if (snapshotAgain) {
        snapshotAgain = false;
        refresh();
      }
    });
}

function showConnection({ status, retryInMs }) {
  document.body.dataset.connection = status;
  if (status !== "open") setComposersEnabled(false);
  if (status === "open") {
    el.banner.hidden = true;
    return;
  }
  if (status === "reconnecting") {
    el.bannerText.textContent =
      ui.snapshot === null
        ? "Can't reach LineUp yet. Trying again…"
        : `Connection lost. Reconnecting${retryInMs >= 1000 ? ` in ${Math.round(retryInMs / 1000)} s` : ""}… Your focus keeps running on the server.`;
    el.bannerRetry.hidden = false;
    el.banner.hidden = false;
  }
}
el.bannerRetry.addEventListener("click", () => conn.retryNow());

// --- snapshot -> page -------------------------------------------------------------------------

function instances() {
  return ui.snapshot ? ui.snapshot.instances : [];
}

function instanceById(id) {
  return instances().find((i) => i.instance_id === id) || null;
}

function openInstances() {
  return instances().filter((i) => i.lifecycle_state !== "closed");
}

/** The app in front: the foreground one, or the one suspended while the page was hidden. */
function frontInstance() {
  const open = openInstances();
  return open.find((i) => i.lifecycle_state === "foreground") || open.find((i) => i.lifecycle_state === "suspended") || open.find((i) => i.is_system) || null;
}

function runningFocus() {
  const op = ui.snapshot && ui.snapshot.operation;
  return op && op.state === "focusing" ? op : null;
}

function applySnapshot(snapshot) {
  ui.snapshot = snapshot;
  ui.conversationId = snapshot.conversation.id;
  const offset = Date.parse(snapshot.server_time) - Date.now();
  if (Math.abs(offset - ui.clockOffsetMs) > 500) ui.clockOffsetMs = offset;
  for (const instance of snapshot.instances) {
    const held = ui.states.get(instance.instance_id);
    const theirs = instance.snapshot;
    // A snapshot requested before a save was answered must not roll the host's copy back.
    if (theirs && (!held || theirs.revision >= held.revision)) {
      ui.states.set(instance.instance_id, { revision: theirs.revision, state: theirs.state });
    }
  }
  surfaces.sync(openInstances().filter((i) => !i.is_system && i.surface));
  for (const id of [...ui.failed]) if (!surfaces.get(id)) ui.failed.delete(id);
  for (const instance of openInstances()) if (!instance.is_system && instance.surface) project(instance);
  render();
  document.body.dataset.ready = "true";
  setComposersEnabled(true);
  syncVisibility();
}

/** Nothing can be sent before the page knows its conversation, or while it is offline. */
function setComposersEnabled(enabled) {
  for (const form of [el.composer, el.dock]) {
    for (const control of form.querySelectorAll("textarea, input, button")) control.disabled = !enabled;
  }
}

function projectionFor(instance) {
  const op = runningFocus();
  const held = ui.states.get(instance.instance_id) || { revision: 0, state: null };
  return {
    instance: {
      instance_id: instance.instance_id,
      app_id: instance.app_id,
      name: instance.name,
      lifecycle_state: instance.lifecycle_state,
      restored: instance.restored,
      read_only: instance.lifecycle_state === "closed",
    },
    operation: op && op.instance_id === instance.instance_id ? op : null,
    snapshot: { revision: held.revision, state: held.state },
    clock: { offset_ms: ui.clockOffsetMs },
    visible: document.visibilityState === "visible",
  };
}

function project(instance) {
  surfaces.get(instance.instance_id)?.project(projectionFor(instance));
}

// --- rendering ----------------------------------------------------------------------------

const STATE_LABEL = { foreground: "foreground", background: "background", suspended: "suspended", closed: "closed", launching: "launching" };

function render() {
  if (!ui.snapshot) return;
  renderAppBar();
  renderStage();
  renderTimeline();
  renderOverlay();
  renderDock();
}

// Before the Runtime first touches a new conversation's workspace there is no Interact
// instance yet; Interact is in front all the same.
const INTERACT_PLACEHOLDER = { instance_id: "", app_id: "interact", name: "Interact", is_system: true, lifecycle_state: "foreground", restored: false };

function renderAppBar() {
  const open = openInstances().sort((a, b) => (a.is_system ? -1 : b.is_system ? 1 : a.opened_at.localeCompare(b.opened_at)));
  if (!open.some((i) => i.is_system)) open.unshift(INTERACT_PLACEHOLDER);
  const closed = instances()
    .filter((i) => i.lifecycle_state === "closed")
    .sort((a, b) => (b.closed_at || "").localeCompare(a.closed_at || ""))
    .slice(0, 4);
  const focus = runningFocus();
  const chip = (instance) => {
    const isOpen = instance.lifecycle_state !== "closed";
    const front = frontInstance();
    const isFront = front ? front.instance_id === instance.instance_id : instance === INTERACT_PLACEHOLDER;
    const focusing = focus && focus.instance_id === instance.instance_id;
    const label = h(
      "span",
      { class: "chip-label" },
      h("span", { class: "chip-name" }, instance.name),
      h("span", { class: ["state", `state-${instance.lifecycle_state}`] }, STATE_LABEL[instance.lifecycle_state] || instance.lifecycle_state),
      instance.restored ? h("span", { class: "state state-restored", title: "Recovered after a restart or reconnect" }, "restored") : null,
      focusing ? h("span", { class: "state state-focusing" }, "focusing") : null,
    );
    const main =
      isOpen && !isFront
        ? h("button", { type: "button", class: "chip-main", onclick: () => goTo(instance), aria: { label: `Switch to ${instance.name} (${instance.lifecycle_state})` } }, label)
        : h("span", { class: "chip-main", aria: { current: isFront ? "true" : null } }, label);
    const close =
      isOpen && !instance.is_system
        ? h("button", { type: "button", class: "chip-close", aria: { label: `Close ${instance.name}` }, title: `Close ${instance.name}`, onclick: () => closeApp(instance) }, "×")
        : null;
    return h(
      "li",
      { class: ["chip", isFront ? "is-front" : null, isOpen ? null : "is-closed"], dataset: { instanceId: instance.instance_id, appId: instance.app_id, state: instance.lifecycle_state } },
      main,
      close,
    );
  };
  // Keyed, so a chip that did not change keeps its element (and the keyboard focus on it).
  const chips = {
    key: (instance) => `c:${instance.instance_id}`,
    signature: (instance) => {
      const front = frontInstance();
      const { instance_id, name, lifecycle_state, restored, is_system } = instance;
      return JSON.stringify([instance_id, name, lifecycle_state, restored, is_system, front && front.instance_id, focus && focus.instance_id]);
    },
    build: chip,
  };
  reconcile(el.openChips, open, chips);
  reconcile(el.closedChips, closed, chips);
  el.closedChips.hidden = closed.length === 0;
}

function renderLaunchers() {
  replaceChildren(
    el.launchers,
    boot.launchable_apps.map((app) =>
      h("button", { type: "button", class: "launch", dataset: { appId: app.app_id }, onclick: () => openApp(app) }, `+ ${app.name}`),
    ),
  );
}

function renderStage() {
  const front = frontInstance();
  const showApp = front && !front.is_system && surfaces.get(front.instance_id);
  document.body.dataset.front = front ? front.app_id : "";
  el.interactView.hidden = Boolean(showApp);
  el.appView.hidden = !showApp;
  if (!showApp) {
    surfaces.show(null);
    return;
  }
  surfaces.show(front.instance_id);
  el.appTitle.textContent = front.name;
  const focus = runningFocus();
  const focusing = focus && focus.instance_id === front.instance_id;
  el.focusHint.hidden = !focusing;
  el.focusHint.textContent = focusing ? `Focus running${focus.activity ? `: ${focus.activity}` : ""}. Leaving this screen ends it.` : "";
  el.back.title = focusing ? "Going back to Interact ends the running focus" : "Back to Interact";
  el.close.textContent = `Close ${front.name}`;
  const failed = ui.failed.has(front.instance_id);
  el.appFailed.hidden = !failed;
  if (failed) {
    el.appFailedText.textContent = focusing
      ? `${front.name} did not start. Your focus keeps running on the server; try loading it again.`
      : `${front.name} did not start.`;
  }
}

function latestAgentMessage() {
  let latest = null;
  const consider = (entry) => {
    if (entry.type === "message" && entry.author_kind === "agent" && (!latest || entry.sort_key >= latest.sort_key)) latest = entry;
  };
  for (const entry of ui.snapshot.timeline) {
    consider(entry);
    if (entry.type === "block") entry.entries.forEach(consider);
  }
  return latest;
}

function renderTimeline() {
  const stick = el.timeline.scrollHeight - el.timeline.scrollTop - el.timeline.clientHeight < 48;
  const op = runningFocus();
  const items = ui.snapshot.timeline;
  el.timelineEmpty.hidden = items.length > 0;
  reconcile(el.timeline, items, {
    key: (item) => (item.type === "block" ? `b:${item.app_session_id}` : item.type === "message" ? `m:${item.message_id}` : `i:${item.id}`),
    signature: (item) => JSON.stringify(item.type === "block" ? [item, op && op.app_session_id === item.app_session_id ? op : null] : item),
    build: (item) => {
      if (item.type === "block") return blockView(item, { operation: op && op.app_session_id === item.app_session_id ? op : null, openBlocks: ui.openBlocks, actions, drafts: ui.drafts });
      if (item.type === "message") return messageView(item);
      return interactionView(item, actions, { drafts: ui.drafts });
    },
  });
  if (stick) el.timeline.scrollTop = el.timeline.scrollHeight;
}

/**
 * Interact's interactions above a foreground MiniApp: still Interact's, wherever shown (R-4.3.4).
 * One at a time, oldest first: a quiet card over the focus screen, and nothing shifting under
 * the pointer when one is answered.
 */
function renderOverlay() {
  const pending = el.appView.hidden ? [] : ui.snapshot.pending_interactions;
  el.overlay.hidden = pending.length === 0;
  reconcile(el.overlayCard, pending.slice(0, 1), {
    key: (item) => `o:${item.id}`,
    signature: (item) => JSON.stringify(item),
    build: (item) => interactionView(item, actions, { drafts: ui.drafts }),
  });
  el.overlayMore.hidden = pending.length < 2;
  el.overlayMore.textContent = pending.length === 2 ? "1 more question after this one" : `${pending.length - 1} more questions after this one`;
}

function renderDock() {
  const latest = latestAgentMessage();
  el.dockLast.textContent = latest ? latest.text : "The Agent is here if you need it.";
  el.dockInput.placeholder = runningFocus() ? "Message the Agent — say “stop” to end the focus" : "Message the Agent";
}

// --- actions ------------------------------------------------------------------------------

function toast(text, tone = "info") {
  const node = h("div", { class: ["toast", `toast-${tone}`], role: tone === "error" ? "alert" : "status" }, text);
  el.toasts.append(node);
  setTimeout(() => node.remove(), tone === "error" ? 8000 : 4000);
}

async function send(type, body, failure) {
  try {
    return await conn.request(type, { conversation_id: ui.conversationId, ...body });
  } catch (error) {
    const detail = error instanceof RequestError ? error.detail || error.code : String(error);
    toast(`${failure}: ${detail}`, "error");
    return null;
  } finally {
    refresh();
  }
}

const actions = {
  answer: (interaction, value) =>
    conn.request("interaction.answer", { interaction_id: interaction.id, value }).then(
      () => {
        ui.drafts.delete(interaction.id);
        refresh();
      },
      (error) => {
        toast(`Could not send your answer: ${error.detail || error.code}`, "error");
        refresh();
      },
    ),
  dismiss: (interaction) =>
    conn.request("interaction.dismiss", { interaction_id: interaction.id }).then(
      () => refresh(),
      (error) => {
        toast(`Could not dismiss: ${error.detail || error.code}`, "error");
        refresh();
      },
    ),
};

function focusWords(op) {
  const planned = durationText(secondsBetween(op.started_at, op.ends_at));
  return op.activity ? `your ${planned} ${op.activity} focus` : `your ${planned} focus`;
}

/**
 * Leaving the app that runs a focus ends it (interrupted): say so and let the person choose
 * before anything is sent. Without a running focus the action happens at once.
 */
function confirmLeaving({ focusInstanceId, title, text, confirmLabel, perform }) {
  const op = runningFocus();
  if (!op || op.instance_id !== focusInstanceId) {
    perform();
    return;
  }
  ui.pendingLeave = perform;
  el.dialogTitle.textContent = title;
  el.dialogText.textContent = text.replace("{focus}", focusWords(op));
  el.dialogConfirm.textContent = confirmLabel;
  el.dialog.returnValue = "";
  el.dialog.showModal();
  $("leave-cancel").focus();
}

el.dialog.addEventListener("close", () => {
  const perform = ui.pendingLeave;
  ui.pendingLeave = null;
  if (el.dialog.returnValue === "leave" && perform) perform();
});

function returnToInteract() {
  const front = frontInstance();
  confirmLeaving({
    focusInstanceId: front && front.instance_id,
    title: "End the focus and go back to Interact?",
    text: "Going back to Interact ends {focus} now. It is recorded as interrupted, and the Agent tells you how it went.",
    confirmLabel: "End focus and go back",
    perform: () => send("return_to_interact", {}, "Could not go back to Interact"),
  });
}

function goTo(instance) {
  if (instance.is_system) {
    returnToInteract();
    return;
  }
  const front = frontInstance();
  confirmLeaving({
    focusInstanceId: front && front.instance_id,
    title: `End the focus and switch to ${instance.name}?`,
    text: `Switching to ${instance.name} ends {focus} now. It is recorded as interrupted.`,
    confirmLabel: `End focus and switch`,
    perform: () => send("app.switch", { instance_id: instance.instance_id }, `Could not switch to ${instance.name}`),
  });
}

function openApp(app) {
  // One scratch pad is enough: an open instance of the app is switched to, not opened again.
  const open = openInstances().find((i) => i.app_id === app.app_id);
  if (open) {
    if (open !== frontInstance()) goTo(open);
    return;
  }
  const front = frontInstance();
  confirmLeaving({
    focusInstanceId: front && front.instance_id,
    title: `End the focus and open ${app.name}?`,
    text: `Opening ${app.name} ends {focus} now. It is recorded as interrupted.`,
    confirmLabel: `End focus and open ${app.name}`,
    // A refused launch changed nothing on the server: Interact (or whatever was in front) stays.
    perform: () => send("app.open", { app_id: app.app_id }, `${app.name} could not be opened, so Interact stays in front`),
  });
}

function closeApp(instance) {
  confirmLeaving({
    focusInstanceId: instance.instance_id,
    title: `End the focus and close ${instance.name}?`,
    text: `Closing ${instance.name} ends {focus} now. It is recorded as interrupted.`,
    confirmLabel: `End focus and close`,
    perform: () => send("app.close", { instance_id: instance.instance_id }, `Could not close ${instance.name}`),
  });
}

el.back.addEventListener("click", returnToInteract);
el.close.addEventListener("click", () => {
  const front = frontInstance();
  if (front && !front.is_system) closeApp(front);
});
el.reload.addEventListener("click", () => {
  const front = frontInstance();
  if (front) surfaces.get(front.instance_id)?.reload();
});
el.appFailedReload.addEventListener("click", () => {
  const front = frontInstance();
  if (front) surfaces.get(front.instance_id)?.reload();
});
el.appFailedBack.addEventListener("click", returnToInteract);

function wireComposer(form, input) {
  const submit = async () => {
    const text = input.value.trim();
    if (!text || !ui.conversationId) return;
    const reply = await send("message.send", { text }, "Your message was not sent");
    if (reply !== null) input.value = "";
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
wireComposer(el.composer, el.composerInput);
wireComposer(el.dock, el.dockInput);

// --- Surfaces -----------------------------------------------------------------------------

async function onSurfaceRequest(instanceId, message) {
  const instance = instanceById(instanceId);
  if (!instance || instance.lifecycle_state === "closed") {
    throw new RequestError("instance_closed", "this app instance is closed");
  }
  if (message.type === "getState") {
    const held = ui.states.get(instanceId) || { revision: 0, state: null };
    return { revision: held.revision, state: held.state };
  }
  if (message.type === "saveState") {
    const reply = await conn.request("state.save", { conversation_id: ui.conversationId, instance_id: instanceId, state: message.state, revision: message.revision });
    const held = ui.states.get(instanceId);
    if (!held || reply.revision > held.revision) ui.states.set(instanceId, { revision: reply.revision, state: message.state });
    const current = instanceById(instanceId);
    if (current) project(current);
    return { revision: reply.revision };
  }
  const reply = await conn.request("capability.request", { conversation_id: ui.conversationId, instance_id: instanceId, name: message.name, args: message.args });
  return { name: reply.name, granted: reply.granted, reason: reply.reason };
}

const surfaces = new SurfaceHost(el.frames, {
  onRequest: onSurfaceRequest,
  onReloaded: (instanceId) => {
    // Not an exit (R-4.2.2): recorded, and the Surface redraws from its snapshot.
    if (conn.isOpen) conn.request("surface.reloaded", { conversation_id: ui.conversationId, instance_id: instanceId }).catch(() => {});
  },
  onFailed: (instanceId) => {
    ui.failed.add(instanceId);
    const instance = instanceById(instanceId);
    const focus = runningFocus();
    const front = frontInstance();
    if (instance && front && front.instance_id === instanceId && !(focus && focus.instance_id === instanceId)) {
      // A failed launch puts Interact back in front (R-4.1.4); nothing is lost by leaving.
      toast(`${instance.name} did not start, so you are back in Interact.`, "error");
      send("return_to_interact", {}, "Could not go back to Interact");
    }
    render();
  },
  onRecovered: (instanceId) => {
    ui.failed.delete(instanceId);
    render();
  },
});

// --- visibility: dim / lock / hidden tab is never an exit (R-4.2.2) -------------------------

function serverThinksVisible() {
  return instances().some((i) => i.lifecycle_state === "foreground") || !instances().some((i) => i.lifecycle_state === "suspended");
}

function syncVisibility() {
  if (!conn.isOpen || !ui.conversationId) return;
  const visible = document.visibilityState === "visible";
  if (visible === serverThinksVisible() || ui.sentVisibility === visible) return;
  sendVisibility(visible);
}

function sendVisibility(visible) {
  ui.sentVisibility = visible;
  conn.request("visibility", { conversation_id: ui.conversationId, visible }).then(refresh, () => {});
}

document.addEventListener("visibilitychange", () => {
  const visible = document.visibilityState === "visible";
  document.body.dataset.visible = String(visible);
  if (conn.isOpen && ui.conversationId) sendVisibility(visible);
  for (const instance of openInstances()) if (!instance.is_system && instance.surface) project(instance);
});

renderLaunchers();
setComposersEnabled(false);
conn.start();
