// What the page knows: the last workspace snapshot from the Runtime, and the few choices that
// are the person's own (which blocks they unfolded, what they typed into an input interaction).
// Everything here is a copy; the Runtime's snapshot is the truth, fetched again on (re)connect.
//
// `applyEvent` folds the simple hints (a main-IM message, an interaction created or resolved)
// into the snapshot in place; anything else says "fetch the snapshot again".

export const ui = {
  snapshot: null,
  conversationId: null,
  openBlocks: new Map(), // app_session_id -> the person's own open/closed choice
  drafts: new Map(), // interaction id -> text typed into an input interaction
  states: new Map(), // instance_id -> {revision, state}: the host's copy, for getState
  failed: new Set(), // instance ids whose Surface did not start, or whose script threw
  thrown: new Map(), // instance id -> the message of the error its Surface's script threw
  clockOffsetMs: 0,
  sentVisibility: null,
  pendingLeave: null,
};

export function instances() {
  return ui.snapshot ? ui.snapshot.instances : [];
}

export function instanceById(id) {
  return instances().find((i) => i.instance_id === id) || null;
}

export function openInstances() {
  return instances().filter((i) => i.lifecycle_state !== "closed");
}

/** The app in front: the foreground one, or the one suspended while the page was hidden. */
export function frontInstance() {
  const open = openInstances();
  return open.find((i) => i.lifecycle_state === "foreground") || open.find((i) => i.lifecycle_state === "suspended") || open.find((i) => i.is_system) || null;
}

/**
 * Every running operation, oldest first. Several apps' operations run at once; each names its
 * instance and app. A server of the previous release sends only the one ``operation``.
 */
export function runningOperations() {
  const snapshot = ui.snapshot;
  if (!snapshot) return [];
  if (snapshot.operations) return Object.values(snapshot.operations).sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0));
  const op = snapshot.operation;
  return op && !op.ended_at ? [op] : [];
}

/** The running operation of one instance (an instance runs at most one), or null. */
export function operationOf(instanceId) {
  if (!instanceId) return null;
  return runningOperations().find((op) => op.instance_id === instanceId) || null;
}

/** The app whose operation ``op`` is: it says so, or its instance does. */
export function operationAppId(op) {
  if (op.app_id) return op.app_id;
  const instance = instanceById(op.instance_id);
  return instance ? instance.app_id : null;
}

/** The running focus, if any: an operation its app calls "focusing" (what the notifications speak of). */
export function runningFocus() {
  return runningOperations().find((op) => !op.running_label || op.running_label === "focusing") || null;
}

/**
 * The operation the page speaks of when it names one (tab title, dock, connection banner): the one
 * of the app in front, else the one that ends first.
 */
export function leadingOperation() {
  const running = runningOperations();
  if (running.length === 0) return null;
  const front = frontInstance();
  const own = front && operationOf(front.instance_id);
  if (own) return own;
  return running.slice().sort((a, b) => (a.ends_at < b.ends_at ? -1 : a.ends_at > b.ends_at ? 1 : 0))[0];
}

export function latestAgentMessage() {
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

/** Take a new snapshot; returns nothing, the caller renders. */
export function takeSnapshot(snapshot) {
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
}

function sortTimeline(timeline) {
  timeline.sort((a, b) => (a.sort_key < b.sort_key ? -1 : a.sort_key > b.sort_key ? 1 : 0));
}

/**
 * Apply one hint to the snapshot in place. Returns true when it was applied, false when the page
 * has to fetch the snapshot again (everything touching apps, focuses or a block's contents).
 */
export function applyEvent(kind, payload) {
  const snapshot = ui.snapshot;
  if (!snapshot || !payload || payload.conversation_id !== snapshot.conversation.id) return false;
  if (kind === "message.created") {
    if (payload.app_session_id) return false;
    if (snapshot.timeline.some((e) => e.type === "message" && e.message_id === payload.message_id)) return true;
    snapshot.timeline.push({ type: "message", ...payload, sort_key: payload.created_at });
    sortTimeline(snapshot.timeline);
    return true;
  }
  if (kind === "interaction.created") {
    if (payload.app_session_id) return false;
    if (!snapshot.timeline.some((e) => e.type === "interaction" && e.id === payload.id)) {
      snapshot.timeline.push({ type: "interaction", ...payload, sort_key: payload.created_at });
      sortTimeline(snapshot.timeline);
    }
    if (payload.status === "pending" && !snapshot.pending_interactions.some((i) => i.id === payload.id)) {
      snapshot.pending_interactions.push(payload);
    }
    return true;
  }
  if (kind === "interaction.resolved") {
    const entry = snapshot.timeline.find((e) => e.type === "interaction" && e.id === payload.id);
    if (!entry) return false; // inside a block, or not loaded: let the snapshot place it
    Object.assign(entry, payload);
    snapshot.pending_interactions = snapshot.pending_interactions.filter((i) => i.id !== payload.id);
    return true;
  }
  return false;
}
