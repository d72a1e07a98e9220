// Drawing the page from `state.ui`: the app bar, the foreground app's frame and toolbar,
// Interact's IM, the question over a MiniApp, the dock, the banner, toasts and the announcer.
//
// What the person does is handed to `handlers` (filled in by app.js from actions.js), so this
// module draws and never sends.

import { h, replaceChildren } from "./dom.js";
import { appName, format, gettext, isFocus, ngettext, operationAppName, runningLabel, tx } from "./i18n.js";
import { frontInstance, instances, latestAgentMessage, leadingOperation, openInstances, operationOf, runningOperations, ui } from "./state.js";
import { blockView, interactionView, messageView, outgoingView, reconcile } from "./timeline.js";

const $ = (id) => document.getElementById(id);

export const el = {
  skipLink: $("skip-link"),
  banner: $("banner"),
  bannerText: $("banner-text"),
  bannerRetry: $("banner-retry"),
  bannerCountdown: $("banner-countdown"),
  openChips: $("open-chips"),
  closedMenu: $("closed-menu"),
  closedSummary: $("closed-summary"),
  closedChips: $("closed-chips"),
  launchers: $("launchers"),
  appbar: $("appbar"),
  moreOpenApps: $("more-open-apps"),
  moreToggle: $("more-toggle"),
  interactView: $("interact-view"),
  timeline: $("timeline"),
  timelineEmpty: $("timeline-empty"),
  newMessages: $("new-messages"),
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
  dockUnsent: $("dock-unsent"),
  dialog: $("leave-dialog"),
  dialogTitle: $("leave-title"),
  dialogText: $("leave-text"),
  dialogConfirm: $("leave-confirm"),
  dialogCancel: $("leave-cancel"),
  announcer: $("announcer"),
  toasts: $("toasts"),
};

/** What the drawn controls call: goTo, closeApp, openApp, revealBlock, answer, dismiss. */
export const handlers = {};
// The person's messages on their way (actions.js's Outbox), set by app.js: drawn after the timeline.
export const outgoing = { waiting: () => [] };

const CLOSED_IN_MENU = 8;
// Within this many pixels of the end counts as "at the newest entry" (a rounding-safe margin).
const STICK_PX = 48;

const view = {
  surfaces: null,
  stick: true, // follow new entries; false once the person scrolled up to read
  seenKeys: null, // timeline keys drawn so far (null before the first draw)
  lastAnnounced: null,
  interactWasHidden: null,
  unread: 0, // Agent messages that arrived while the tab was hidden
  hintTimeUp: false, // the focus hint says "Time is up" (00:00, the server's result not in yet)
};

export function attachSurfaces(surfaces) {
  view.surfaces = surfaces;
}

// Plain words for a chip (issue 40: "foreground/background" are the Runtime's words, not people's).
const STATE_LABEL = {
  foreground: () => gettext("in front"),
  background: () => gettext("open behind"),
  suspended: () => gettext("paused"),
  closed: () => gettext("closed"),
  launching: () => gettext("opening"),
};

function stateLabel(state) {
  return STATE_LABEL[state] ? STATE_LABEL[state]() : state;
}

export function render() {
  if (!ui.snapshot) {
    // Before the first snapshot only what the person wrote is known: it is shown all the same.
    renderTimeline();
    renderUnsent();
    return;
  }
  renderAppBar();
  renderStage();
  renderTimeline();
  renderOverlay();
  renderDock();
  renderUnsent();
  announce();
}

// Before the Runtime first touches a new conversation's workspace there is no Interact
// instance yet; Interact is in front all the same.
const INTERACT_PLACEHOLDER = { instance_id: "", app_id: "interact", name: "Interact", is_system: true, lifecycle_state: "foreground", restored: false };

function renderAppBar() {
  const open = openInstances().sort((a, b) => (a.is_system ? -1 : b.is_system ? 1 : a.opened_at.localeCompare(b.opened_at)));
  if (!open.some((i) => i.is_system)) open.unshift(INTERACT_PLACEHOLDER);
  const allClosed = instances().filter((i) => i.lifecycle_state === "closed");
  const closed = allClosed.sort((a, b) => (b.closed_at || "").localeCompare(a.closed_at || "")).slice(0, CLOSED_IN_MENU);
  const front = frontInstance();
  const chip = (instance) => {
    const isOpen = instance.lifecycle_state !== "closed";
    const isFront = front ? front.instance_id === instance.instance_id : instance === INTERACT_PLACEHOLDER;
    // Each app's chip says its own operation runs, in its manifest's word ("focusing", "running").
    const running = isOpen ? operationOf(instance.instance_id) : null;
    const name = appName(instance.app_id, instance.name);
    const label = h(
      "span",
      { class: "chip-label" },
      h("span", { class: "chip-name" }, name),
      h("span", { class: ["state", `state-${instance.lifecycle_state}`] }, stateLabel(instance.lifecycle_state)),
      instance.restored ? h("span", { class: "state state-restored", title: gettext("Recovered after a restart or reconnect") }, gettext("restored")) : null,
      running ? h("span", { class: "state state-focusing", dataset: { operationId: running.operation_id } }, runningLabel(instance.app_id, running.running_label)) : null,
    );
    let main;
    if (isOpen && !isFront) {
      main = h("button", { type: "button", class: "chip-main", onclick: () => handlers.goTo(instance), aria: { label: format(gettext("Switch to %(name)s (%(state)s)"), { name, state: stateLabel(instance.lifecycle_state) }) } }, label);
    } else if (!isOpen) {
      // A closed app is history: it opens its folded block in Interact, where its result is.
      main = h("button", { type: "button", class: "chip-main", onclick: () => handlers.revealBlock(instance), aria: { label: format(gettext("Show %(name)s (closed) in Interact"), { name }) } }, label);
    } else {
      main = h("span", { class: "chip-main", aria: { current: "true" } }, label);
    }
    const closeName = format(gettext("Close %(name)s"), { name });
    const close = isOpen && !instance.is_system ? h("button", { type: "button", class: "chip-close", aria: { label: closeName }, title: closeName, onclick: () => handlers.closeApp(instance) }, "×") : null;
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
      const { instance_id, name, lifecycle_state, restored, is_system } = instance;
      const running = operationOf(instance_id);
      return JSON.stringify([instance_id, name, lifecycle_state, restored, is_system, front && front.instance_id, running && running.operation_id]);
    },
    build: chip,
  };
  reconcile(el.openChips, open, chips);
  // On a phone the bar holds Interact and the app in front; the other open apps are in "More".
  const behind = open.filter((i) => !i.is_system && !(front && front.instance_id === i.instance_id));
  el.moreOpenApps.hidden = behind.length === 0;
  reconcile(el.moreOpenApps, behind, {
    key: (instance) => `m:${instance.instance_id}`,
    signature: (instance) => JSON.stringify([instance.instance_id, instance.name, instance.lifecycle_state, focus && focus.instance_id]),
    build: (instance) => {
      const name = appName(instance.app_id, instance.name);
      return h("li", {}, h("button", { type: "button", class: "launch", dataset: { appId: instance.app_id, instanceId: instance.instance_id }, onclick: () => handlers.goTo(instance) }, format(gettext("Switch to %(name)s"), { name })));
    },
  });
  reconcile(el.closedChips, closed, chips);
  revealFrontChip();
  el.closedMenu.hidden = closed.length === 0;
  // The count covers today, so it does not grow for ever; the menu lists the most recent ones
  // (older ones too), and every closed app's history is its block in Interact.
  const today = new Date().toDateString();
  const closedToday = allClosed.filter((i) => i.closed_at && new Date(i.closed_at).toDateString() === today).length;
  el.closedSummary.textContent = closedToday
    ? format(ngettext("%(count)s closed today", "%(count)s closed today", closedToday), { count: closedToday })
    : gettext("Closed earlier");
}

/** On a narrow screen the open apps scroll sideways in their row: keep the one in front visible. */
function revealFrontChip() {
  const chip = el.openChips.querySelector("li.chip.is-front");
  if (!chip) return;
  const row = el.openChips;
  const left = chip.offsetLeft - row.offsetLeft;
  if (left < row.scrollLeft) row.scrollLeft = left;
  else if (left + chip.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left + chip.offsetWidth - row.clientWidth;
}

export function renderLaunchers(apps) {
  replaceChildren(
    el.launchers,
    apps.map((app) => h("button", { type: "button", class: "launch", dataset: { appId: app.app_id }, onclick: () => handlers.openApp(app) }, `+ ${appName(app.app_id, app.name)}`)),
  );
}

function renderStage() {
  const front = frontInstance();
  const showApp = front && !front.is_system && view.surfaces.get(front.instance_id);
  document.body.dataset.front = front ? front.app_id : "";
  const returning = view.interactWasHidden === true && !showApp;
  el.interactView.hidden = Boolean(showApp);
  el.appView.hidden = !showApp;
  view.interactWasHidden = Boolean(showApp);
  // The skip link goes to the message box that is on screen.
  el.skipLink.setAttribute("href", showApp ? "#dock-input" : "#composer-input");
  if (returning) {
    // Back from a MiniApp: its result is the newest thing in the IM, so show the end of it and
    // give the keyboard back to the composer if it was left in the app that is gone now.
    view.stick = true;
    if (!document.activeElement || document.activeElement === document.body || el.appView.contains(document.activeElement)) {
      queueMicrotask(() => el.composerInput.focus({ preventScroll: true }));
    }
  }
  if (!showApp) {
    view.surfaces.show(null);
    return;
  }
  view.surfaces.show(front.instance_id);
  const name = appName(front.app_id, front.name);
  el.appTitle.textContent = name;
  // Only the app's own operation, and only one that leaving ends (its manifest: ends_when_left), gets the warning.
  const focus = operationOf(front.instance_id);
  const focusing = Boolean(focus && focus.ends_when_left !== false);
  el.focusHint.hidden = !focusing;
  view.hintTimeUp = Boolean(focusing && secondsLeft(focus) === 0);
  replaceChildren(el.focusHint, focusing ? focusHintText(focus) : []);
  el.back.title = !focusing
    ? gettext("Back to Interact")
    : isFocus(focus)
      ? gettext("Going back to Interact ends the running focus")
      : format(gettext("Going back to Interact ends %(name)s"), { name: operationAppName(focus, front.app_id) });
  // On a phone the button says only "Close" (its accessible name stays the full "Close Pomodoro").
  const closeName = format(gettext("Close %(name)s"), { name });
  el.close.setAttribute("aria-label", closeName);
  replaceChildren(el.close, h("span", { class: "label-long" }, closeName), h("span", { class: "label-short", aria: { hidden: "true" } }, gettext("Close")));
  const failed = ui.failed.has(front.instance_id);
  el.appFailed.hidden = !failed;
  if (failed && ui.thrown.has(front.instance_id)) {
    el.appFailedText.textContent = focus && isFocus(focus)
      ? format(gettext("%(name)s failed: its page hit an error. Your focus keeps running on the server; try loading it again."), { name })
      : format(gettext("%(name)s failed: its page hit an error. Try loading it again."), { name });
  } else if (failed) {
    el.appFailedText.textContent = !focus
      ? format(gettext("%(name)s did not start."), { name })
      : isFocus(focus)
        ? format(gettext("%(name)s did not start. Your focus keeps running on the server; try loading it again."), { name })
        : format(gettext("%(name)s did not start. It keeps running on the server; try loading it again."), { name });
  }
}

function itemKey(item) {
  if (item.type === "outgoing") return `o:${item.client_message_id}`;
  return item.type === "block" ? `b:${item.app_session_id}` : item.type === "message" ? `m:${item.message_id}` : `i:${item.id}`;
}

function atBottom() {
  const t = el.timeline;
  return t.scrollHeight - t.scrollTop - t.clientHeight < STICK_PX;
}

export function scrollToNewest() {
  view.stick = true;
  el.timeline.scrollTop = el.timeline.scrollHeight;
  el.newMessages.hidden = true;
}

el.timeline.addEventListener("scroll", () => {
  view.stick = atBottom();
  if (view.stick) el.newMessages.hidden = true;
});
// Turning a phone or resizing the window keeps the newest entry in view if it was.
window.addEventListener("resize", () => {
  if (view.stick && !el.interactView.hidden) el.timeline.scrollTop = el.timeline.scrollHeight;
  revealFrontChip();
});
el.newMessages.addEventListener("click", () => {
  scrollToNewest();
  el.composerInput.focus({ preventScroll: true });
});

function renderTimeline() {
  // A block shows its own sub-session's running operation, whichever app it is.
  const running = runningOperations();
  const opOf = (block) => running.find((op) => op.app_session_id === block.app_session_id) || null;
  // The person's messages not stored yet (pending, or refused) come last, as written.
  const timeline = ui.snapshot ? ui.snapshot.timeline : [];
  const items = [...timeline, ...unsent()];
  el.timelineEmpty.hidden = items.length > 0;
  const keys = items.map(itemKey);
  const arrived = view.seenKeys !== null && keys.some((k) => !view.seenKeys.has(k));
  view.seenKeys = new Set(keys);
  reconcile(el.timeline, items, {
    key: itemKey,
    signature: (item) => JSON.stringify(item.type === "block" ? [item, opOf(item)] : item),
    build: (item) => {
      if (item.type === "block") return blockView(item, { operation: opOf(item), openBlocks: ui.openBlocks, actions: handlers, drafts: ui.drafts });
      if (item.type === "message") return messageView(item);
      if (item.type === "outgoing") return outgoingView(item, handlers);
      return interactionView(item, handlers, { drafts: ui.drafts });
    },
  });
  if (el.interactView.hidden) return; // measured when it is shown again (renderStage sets stick)
  if (view.stick) scrollToNewest();
  else if (arrived) el.newMessages.hidden = false;
}

/**
 * The person's messages not stored yet (pending, or refused), as written, oldest first; each says
 * whether the page can send it now ("Sending…") or not ("Not sent yet": cut off).
 */
function unsent() {
  const timeline = ui.snapshot ? ui.snapshot.timeline : [];
  const onPage = new Set(timeline.filter((e) => e.type === "message" && e.client_message_id).map((e) => e.client_message_id));
  const offline = !connected();
  return outgoing
    .waiting(ui.conversationId)
    .filter((entry) => !onPage.has(entry.client_message_id))
    .map((entry) => ({ type: "outgoing", ...entry, offline }));
}

/** During a focus the IM is not on screen: what is not sent yet is shown in the dock, where the person typed it. */
function renderUnsent() {
  const items = el.appView.hidden ? [] : unsent().filter((item) => item.status !== "sent");
  el.dockUnsent.hidden = items.length === 0;
  reconcile(el.dockUnsent, items, {
    key: (item) => `u:${item.client_message_id}`,
    signature: (item) => JSON.stringify(item),
    build: (item) => h("li", { class: "dock-unsent-item", dataset: { clientMessageId: item.client_message_id } }, outgoingView(item, handlers)),
  });
}

/** Open the block of a closed app's sub-session and bring it into view. */
export function showBlockOf(instanceId) {
  const block = el.timeline.querySelector(`details.block[data-instance-id="${CSS.escape(instanceId)}"]`);
  if (!block) return false;
  block.open = true;
  view.stick = false;
  block.scrollIntoView({ block: "nearest" });
  block.querySelector("summary").focus({ preventScroll: true });
  return true;
}

/**
 * Interact's interactions above a foreground MiniApp: still Interact's, wherever shown.
 * One at a time, newest first: the latest question is the one about now. A question asked before
 * the running focus began was about an earlier moment (say, "another round?" of the focus before),
 * so it waits in the main IM and is never drawn over this focus.
 */
export function overlayQuestions(pending, focus) {
  const current = focus && focus.started_at
    ? pending.filter((i) => i.created_at >= focus.started_at || (i.app_session_id && i.app_session_id === focus.app_session_id))
    : pending.slice();
  return current.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

function renderOverlay() {
  const front = frontInstance();
  const pending = el.appView.hidden ? [] : overlayQuestions(ui.snapshot.pending_interactions, front && operationOf(front.instance_id));
  el.overlay.hidden = pending.length === 0;
  reconcile(el.overlayCard, pending.slice(0, 1), {
    key: (item) => `o:${item.id}`,
    signature: (item) => JSON.stringify(item),
    build: (item) => interactionView(item, handlers, { drafts: ui.drafts }),
  });
  const more = pending.length - 1;
  el.overlayMore.hidden = more < 1;
  el.overlayMore.textContent = format(ngettext("%(count)s more question after this one", "%(count)s more questions after this one", more), { count: more });
}

function renderDock() {
  const latest = latestAgentMessage();
  el.dockLast.textContent = latest ? latest.text : gettext("The Agent is here if you need it.");
  // "stop" names the app it would end: the one in front if its operation runs, else the only one
  // running; with several running and none in front, "stop" alone would not say which.
  const front = frontInstance();
  const all = runningOperations();
  const running = (front && operationOf(front.instance_id)) || (all.length === 1 ? all[0] : null);
  // A phone's box fits a short hint only (the long one was cut mid-word at 360 px).
  const narrow = window.matchMedia("(max-width: 640px)").matches;
  el.dockInput.placeholder = running
    ? format(narrow ? gettext("Say “stop” to end %(name)s") : gettext("Message the Agent — say “stop” to end %(name)s"), { name: operationAppName(running) })
    : gettext("Message the Agent");
}

/** Screen readers hear each new Agent message once (the timeline itself is not live: it is redrawn). */
function announce() {
  const latest = latestAgentMessage();
  const id = latest ? latest.message_id : null;
  if (view.lastAnnounced === null) {
    view.lastAnnounced = id || ""; // the history on load is not news
    return;
  }
  if (id && id !== view.lastAnnounced) {
    view.lastAnnounced = id;
    el.announcer.textContent = format(gettext("Agent: %(text)s"), { text: latest.text });
    if (document.hidden) view.unread += 1; // shown in the tab's title until the tab is seen
  }
  renderTitle();
}

// --- the tab's title: a running focus's time left, and what the Agent said while it was hidden ---

const BASE_TITLE = document.title;

function clockText(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0"), ss = String(s).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function secondsLeft(op) {
  return Math.max(0, Math.ceil((Date.parse(op.ends_at) - (Date.now() + ui.clockOffsetMs)) / 1000));
}

/** Over the focus screen: running, or — at 00:00, until the server's result arrives — being confirmed. */
function focusHintText(focus) {
  if (secondsLeft(focus) === 0) return gettext("Time is up. LineUp is confirming the result…");
  if (!isFocus(focus)) {
    return tx(gettext("%(name)s is %(label)s. Leaving this screen ends it."), {
      name: operationAppName(focus),
      label: runningLabel(focus.app_id, focus.running_label),
    });
  }
  return focus.activity
    ? tx(gettext("Focus running: %(activity)s. Leaving this screen ends it."), { activity: focus.activity })
    : gettext("Focus running. Leaving this screen ends it.");
}

export function renderTitle() {
  // The tab names the operation of the app in front, else the one that ends first.
  const op = ui.snapshot ? leadingOperation() : null;
  const front = ui.snapshot ? frontInstance() : null;
  const hinted = front && operationOf(front.instance_id);
  let title = BASE_TITLE;
  if (hinted && !el.focusHint.hidden && (secondsLeft(hinted) === 0) !== view.hintTimeUp) {
    view.hintTimeUp = secondsLeft(hinted) === 0;
    replaceChildren(el.focusHint, focusHintText(hinted));
  }
  if (op) {
    const left = secondsLeft(op);
    title = `${clockText(left)} · ${op.activity || op.title || operationAppName(op)} · ${BASE_TITLE}`;
  }
  if (view.unread > 0) title = `(${view.unread}) ${title}`;
  if (document.title !== title) document.title = title;
}

/** The person looks at the tab again: what the Agent said is seen. */
export function tabSeen() {
  view.unread = 0;
  renderTitle();
}

setInterval(renderTitle, 1000);

// The connection as the banner tells it: redrawn every half second while cut off, so the
// countdown to the next attempt counts (decision 0047).
const link = { status: "connecting", retryAt: null, ticker: null };

export function showConnection({ status, retryAt }) {
  link.status = status;
  link.retryAt = retryAt ?? null;
  document.body.dataset.connection = status;
  clearInterval(link.ticker);
  link.ticker = null;
  if (status === "reconnecting" || status === "offline") {
    link.ticker = setInterval(drawBanner, 500);
  }
  drawBanner();
  // What waits to be sent says "Not sent yet" while cut off, "Sending…" while connected.
  render();
}

/** Whether the page can reach LineUp now (what the person's unsent messages say depends on it). */
export function connected() {
  return link.status === "open";
}

function drawBanner() {
  const { status, retryAt } = link;
  if (status !== "reconnecting" && status !== "offline") {
    el.banner.hidden = true;
    return;
  }
  const lost = status === "offline" ? gettext("You are offline. What you write is kept and sent once you are back.") : gettext("Connection lost. Reconnecting…");
  // Honest about what the page can know while cut off: the focus keeps its end time (the
  // server settles it by its deadline, even after a restart), and its result comes when LineUp is back.
  const text =
    ui.snapshot === null && status !== "offline"
      ? gettext("Can't reach LineUp yet. Trying again…")
      : leadingOperation()
        ? `${lost} ${gettext("Your focus keeps its end time; its result is confirmed once LineUp is back.")}`
        : lost;
  // The banner is a live region: its words change only when the situation does. The countdown
  // beside them changes every second, so screen readers are not told it (aria-hidden).
  if (el.bannerText.textContent !== text) el.bannerText.textContent = text;
  const seconds = retryAt === null ? 0 : Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
  const countdown = seconds >= 1 ? format(gettext("Next try in %(seconds)s s"), { seconds }) : gettext("Trying now…");
  if (el.bannerCountdown.textContent !== countdown) el.bannerCountdown.textContent = countdown;
  el.bannerRetry.hidden = false;
  el.banner.hidden = false;
}

export function toast(text, tone = "info") {
  const node = h("div", { class: ["toast", `toast-${tone}`], role: tone === "error" ? "alert" : "status" }, text);
  el.toasts.append(node);
  setTimeout(() => node.remove(), tone === "error" ? 8000 : 4000);
}
