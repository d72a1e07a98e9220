// The Web Reference Host: the workspace page. This module wires the parts together:
//
//   state.js    what the page knows (the Runtime's last snapshot and the person's own choices)
//   render.js   drawing it: app bar, foreground app, Interact's IM, the overlay, the dock
//   timeline.js the IM's messages, blocks and interactions
//   actions.js  what the person does, as workspace frames (with the "this ends your focus" dialog)
//   surfaces.js the sandboxed MiniApp frames and their MessagePorts
//   connection.js the /ws/workspace/ socket
//
// The page holds no state of its own that matters: it asks the Runtime for the workspace snapshot
// on load and on every reconnect, and folds the simple hints (a message, a question asked or
// answered) into it; any other hint fetches the snapshot again, because hints can be lost and the
// snapshot can not.

import * as actions from "./actions.js";
import { RequestError, WorkspaceConnection } from "./connection.js";
import { appName, format, gettext, language } from "./i18n.js";
import { attachSurfaces, el, handlers, outgoing, render, renderLaunchers, showConnection, tabSeen, toast } from "./render.js";
import { applyEvent, frontInstance, instanceById, instances, openInstances, operationOf, runningFocus, takeSnapshot, ui } from "./state.js";
import { SurfaceHost } from "./surfaces.js";
import * as notify from "./notify.js";

const boot = JSON.parse(document.getElementById("lineup-boot").textContent);

// --- connection -------------------------------------------------------------------------------

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/workspace/`;
const conn = new WorkspaceConnection(wsUrl);
window.lineupWorkspace = { connection: conn, ui }; // for devtools, tests and the Desktop Host (lineup/desktop/close_apps.js)

let snapshotInFlight = false;
let snapshotAgain = false;
let firstDraw = true;

conn.addEventListener("status", (event) => {
  if (event.detail.status !== "open") actions.outbox.disconnected();
  showConnection(event.detail);
});
conn.addEventListener("hello", (event) => {
  ui.sentVisibility = null;
  refresh();
  // What the person wrote that is not known to be stored goes again, with its own id: the server
  // answers a message it already has with that message, so nothing is doubled.
  actions.flushOutbox(event.detail.conversations || []);
});
conn.addEventListener("event", (event) => {
  const { kind, payload } = event.detail;
  if (kind === "message.created" && payload.client_message_id) actions.outbox.stored(new Set([payload.client_message_id]));
  // While a snapshot is on its way it may predate this hint: take one more rather than patch it.
  if (!snapshotInFlight && applyEvent(kind, payload)) render();
  else refresh();
});
conn.addEventListener("unauthenticated", () => {
  location.assign(`/accounts/login/?next=${encodeURIComponent(location.pathname)}`);
});

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
      if (error.code !== "offline") toast(format(gettext("Could not load the workspace: %(detail)s"), { detail: error.detail || error.code }), "error");
    })
    .finally(() => {
      snapshotInFlight = false;
      if (snapshotAgain) {
        snapshotAgain = false;
        refresh();
      }
    });
}

el.bannerRetry.addEventListener("click", () => conn.retryNow());

// The focus running at the last snapshot: when it is gone from the next one, it ended.
let lastFocus = null;

function applySnapshot(snapshot) {
  takeSnapshot(snapshot);
  const focus = runningFocus();
  if (lastFocus && (!focus || focus.operation_id !== lastFocus.operation_id)) {
    const block = snapshot.timeline.find((e) => e.type === "block" && e.app_session_id === lastFocus.app_session_id);
    notify.focusEnded(lastFocus, block);
  }
  lastFocus = focus;
  notify.drawOffer(null, Boolean(focus) && document.visibilityState === "visible");
  actions.outbox.stored(new Set(snapshot.timeline.filter((e) => e.type === "message" && e.client_message_id).map((e) => e.client_message_id)));
  surfaces.sync(openInstances().filter((i) => !i.is_system && i.surface));
  // A Surface closed for navigating its frame stays failed while it is open (it is not framed again).
  for (const id of [...ui.failed]) if (!surfaces.get(id) && !surfaces.navigated.has(id)) ui.failed.delete(id);
  for (const instance of openInstances()) if (!instance.is_system && instance.surface) project(instance);
  render();
  document.body.dataset.ready = "true";
  if (firstDraw) {
    firstDraw = false;
    // The page is for talking to the Agent: the keyboard starts in the message box.
    const input = el.interactView.hidden ? el.dockInput : el.composerInput;
    if (document.activeElement === document.body || document.activeElement === null) input.focus({ preventScroll: true });
  }
  syncVisibility();
}

function projectionFor(instance) {
  // Each Surface is handed the running operation of its own instance, never another app's.
  const op = operationOf(instance.instance_id);
  const held = ui.states.get(instance.instance_id) || { revision: 0, state: null };
  return {
    instance: {
      instance_id: instance.instance_id,
      app_id: instance.app_id,
      name: appName(instance.app_id, instance.name), // in the page's language, as the chips say it
      lifecycle_state: instance.lifecycle_state,
      restored: instance.restored,
      read_only: instance.lifecycle_state === "closed",
    },
    operation: op,
    snapshot: { revision: held.revision, state: held.state },
    clock: { offset_ms: ui.clockOffsetMs },
    visible: document.visibilityState === "visible",
    // A Surface has no network, so no catalog: it words itself from its own table in this language.
    language,
  };
}

function project(instance) {
  surfaces.get(instance.instance_id)?.project(projectionFor(instance));
}

// --- what the person does -------------------------------------------------------------------

actions.wiring.conn = conn;
actions.wiring.refresh = refresh;
outgoing.waiting = (conversationId) => actions.outbox.waiting(conversationId);
Object.assign(handlers, {
  goTo: actions.goTo,
  closeApp: actions.closeApp,
  openApp: actions.openApp,
  revealBlock: actions.revealBlock,
  answer: actions.answer,
  dismiss: actions.dismiss,
  retryMessage: actions.retryMessage,
  discardMessage: actions.discardMessage,
});

// --- the app bar's "More" menu (phones: the bar is one row; what does not fit is in it) -------

function setMoreOpen(open) {
  el.appbar.classList.toggle("more-open", open);
  el.moreToggle.setAttribute("aria-expanded", String(open));
}
el.moreToggle.addEventListener("click", () => setMoreOpen(!el.appbar.classList.contains("more-open")));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && el.appbar.classList.contains("more-open")) {
    setMoreOpen(false);
    el.moreToggle.focus();
  }
});
document.addEventListener("click", (event) => {
  if (!el.appbar.contains(event.target)) setMoreOpen(false);
});
// Opening an app (or a closed one's history) from the menu closes it; the leave warning still comes first.
el.launchers.addEventListener("click", () => setMoreOpen(false));
el.closedChips.addEventListener("click", () => setMoreOpen(false));
el.moreOpenApps.addEventListener("click", () => setMoreOpen(false));

el.back.addEventListener("click", actions.returnToInteract);
el.close.addEventListener("click", () => {
  const front = frontInstance();
  if (front && !front.is_system) actions.closeApp(front);
});
el.reload.addEventListener("click", actions.reloadFront);
el.appFailedReload.addEventListener("click", actions.reloadFront);
el.appFailedBack.addEventListener("click", actions.returnToInteract);
el.skipLink.addEventListener("click", (event) => {
  event.preventDefault();
  (el.interactView.hidden ? el.dockInput : el.composerInput).focus();
});
actions.wireComposer(el.composer, el.composerInput);
actions.wireComposer(el.dock, el.dockInput);

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
    // Not an exit: recorded, and the Surface redraws from its snapshot.
    if (conn.isOpen) conn.request("surface.reloaded", { conversation_id: ui.conversationId, instance_id: instanceId }).catch(() => {});
  },
  onFailed: (instanceId, { thrown } = {}) => {
    ui.failed.add(instanceId);
    if (thrown !== undefined) {
      // It started, then a script threw: it stays where it is, says so, and the server logs it.
      ui.thrown.set(instanceId, thrown);
      if (conn.isOpen) conn.request("surface.failed", { conversation_id: ui.conversationId, instance_id: instanceId, message: thrown }).catch(() => {});
      render();
      return;
    }
    const instance = instanceById(instanceId);
    const front = frontInstance();
    if (instance && front && front.instance_id === instanceId && !operationOf(instanceId)) actions.failedLaunch(instance);
    render();
  },
  onRecovered: (instanceId) => {
    ui.failed.delete(instanceId);
    ui.thrown.delete(instanceId);
    render();
  },
});
attachSurfaces(surfaces);
actions.wiring.surfaces = surfaces;

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
  if (visible) tabSeen();
  if (conn.isOpen && ui.conversationId) sendVisibility(visible);
  for (const instance of openInstances()) if (!instance.is_system && instance.surface) project(instance);
});

renderLaunchers(boot.launchable_apps);
notify.drawSetting(document.getElementById("notify-setting-slot"));
notify.drawOffer(document.getElementById("notify-offer"));
// The message boxes work from the first paint (early.js keeps what is sent before this module
// runs, in the same outbox): the conversation is known from the page itself, so nothing waits
// for the socket, and what is written while cut off waits in the outbox, shown "Not sent yet".
ui.conversationId = ui.conversationId || boot.conversation_id || null;
window.lineupEarly?.adopt();
render();
conn.start();
