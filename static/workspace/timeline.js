// Interact's IM: messages, App sub-session blocks (collapsible, read-only once ended) and the
// standard interactions (notice / choice / confirm / input). Pure rendering from the workspace
// snapshot's timeline; what a person does goes out through the `actions` given.
//
// Everything a person or the Agent wrote is shown isolated (`dir="auto"` + <bdi>), so its text
// direction can never reorder the page's own labels around it.

import { clockTime, durationText, h, secondsBetween } from "./dom.js";
import { appName, format, gettext, tx } from "./i18n.js";

export const REASONS = {
  returned_to_interact: () => gettext("you went back to Interact"),
  switched_app: () => gettext("you switched to another app"),
  app_closed: () => gettext("the app was closed"),
  // Any Agent may stop a focus (the built-in one when asked, or an external one over MCP): the page
  // says who did it, not why.
  agent_interrupt: () => gettext("the Agent stopped it"),
  host_interruption: () => gettext("the device interrupted it"),
  // An operator ended it from the admin during an incident; their note stays in the event log.
  operator: () => gettext("the service's operator stopped it"),
};

const STATUS_TEXT = {
  dismissed: () => gettext("Dismissed"),
  timed_out: () => gettext("Timed out"),
  failed: () => gettext("No longer available"),
  superseded: () => gettext("Replaced by a newer question"),
};

/**
 * Keyed rendering: reuse the element of an item whose content did not change, so typing in an
 * input interaction, keyboard focus and a block's open/closed state survive a new snapshot.
 */
export function reconcile(container, items, { key, signature, build }) {
  const existing = new Map();
  for (const child of container.children) existing.set(child.dataset.key, child);
  const nodes = items.map((item) => {
    const k = key(item);
    const sig = signature(item);
    const old = existing.get(k);
    if (old && old.dataset.sig === sig) return old;
    const node = build(item);
    node.dataset.key = k;
    node.dataset.sig = sig;
    return node;
  });
  // Only touch the DOM where the order or an item changed.
  nodes.forEach((node, index) => {
    if (container.children[index] !== node) container.insertBefore(node, container.children[index] || null);
  });
  while (container.children.length > nodes.length) container.lastElementChild.remove();
}

function author(entry) {
  if (entry.author_kind === "human") return gettext("You");
  if (entry.author_kind === "agent") return gettext("Agent");
  return "LineUp";
}

export function messageView(entry) {
  const sent = entry.author_kind === "human" && entry.client_message_id;
  return h(
    "article",
    { class: ["message", `from-${entry.author_kind}`], dataset: sent ? { messageId: entry.message_id, clientMessageId: entry.client_message_id, sendState: "sent" } : { messageId: entry.message_id } },
    h(
      "header",
      { class: "message-meta" },
      h("span", { class: "author" }, author(entry)),
      h("time", { datetime: entry.created_at }, clockTime(entry.created_at)),
      sent ? h("span", { class: "send-state" }, gettext("Sent")) : null,
    ),
    h("p", { class: "message-text", dir: "auto" }, entry.text),
  );
}

/**
 * One of the person's messages not stored yet: "Sending…" while connected, "Not sent yet" while cut
 * off (`entry.offline`; sent once the page is back), or refused.
 */
export function outgoingView(entry, actions) {
  const failed = entry.status === "failed";
  const sendState = failed ? "failed" : entry.status === "sent" ? "sent" : "pending";
  const pendingText = entry.offline ? gettext("Not sent yet") : gettext("Sending…");
  const state = failed
    ? h("span", { class: "send-state failed" }, format(gettext("Not sent: %(detail)s"), { detail: entry.error || "" }))
    : h("span", { class: `send-state ${sendState}` }, sendState === "sent" ? gettext("Sent") : pendingText);
  const card = h(
    "article",
    { class: ["message", "from-human", "outgoing", sendState], dataset: { clientMessageId: entry.client_message_id, sendState, offline: sendState === "pending" && entry.offline ? "true" : null } },
    h("header", { class: "message-meta" }, h("span", { class: "author" }, gettext("You")), state),
    h("p", { class: "message-text", dir: "auto" }, entry.text),
  );
  if (failed) {
    card.append(
      h(
        "div",
        { class: "interaction-actions" },
        h("button", { type: "button", onclick: () => actions.retryMessage(entry.client_message_id) }, gettext("Retry")),
        h("button", { type: "button", class: "quiet", onclick: () => actions.discardMessage(entry.client_message_id) }, gettext("Discard")),
      ),
    );
  }
  return card;
}

function answerText(interaction) {
  if (interaction.status !== "answered") return [STATUS_TEXT[interaction.status] ? STATUS_TEXT[interaction.status]() : interaction.status];
  if (interaction.kind === "notice") return [gettext("Acknowledged")];
  if (interaction.kind === "confirm") return [interaction.value === true ? gettext("You answered: Yes") : gettext("You answered: No")];
  if (interaction.kind === "choice") {
    const option = (interaction.options || []).find((o) => o.id === interaction.value);
    return tx(gettext("You chose: %(option)s"), { option: option ? option.label : String(interaction.value) });
  }
  return tx(gettext("You answered: %(answer)s"), { answer: String(interaction.value) });
}

const KIND_LABEL = {
  notice: () => gettext("Notice"),
  choice: () => gettext("Choose one"),
  confirm: () => gettext("Please confirm"),
  input: () => gettext("Your answer"),
};

/** One standard interaction; actionable while pending (and `live`), a read-only record after. */
export function interactionView(interaction, actions, { live = true, drafts } = {}) {
  const pending = interaction.status === "pending" && live;
  const kindLabel = KIND_LABEL[interaction.kind] ? KIND_LABEL[interaction.kind]() : interaction.kind;
  const promptId = `prompt-${interaction.id}`;
  const card = h("section", {
    class: ["interaction", `kind-${interaction.kind}`, pending ? "pending" : "resolved"],
    dataset: { interactionId: interaction.id, kind: interaction.kind, status: interaction.status },
    aria: { label: kindLabel, describedby: promptId },
  });
  card.append(h("header", { class: "interaction-head" }, h("span", { class: "interaction-kind" }, kindLabel), h("time", { datetime: interaction.created_at }, clockTime(interaction.created_at))));
  card.append(h("p", { class: "interaction-prompt", id: promptId, dir: "auto" }, interaction.prompt));
  if (!pending) {
    card.append(h("p", { class: "interaction-outcome" }, answerText(interaction)));
    return card;
  }
  const answer = (value) => actions.answer(interaction, value);
  const row = h("div", { class: "interaction-actions" });
  if (interaction.kind === "notice") {
    row.append(h("button", { type: "button", class: "primary", onclick: () => answer(null) }, gettext("OK")));
  } else if (interaction.kind === "confirm") {
    row.append(
      h("button", { type: "button", class: "primary", onclick: () => answer(true) }, gettext("Yes")),
      h("button", { type: "button", onclick: () => answer(false) }, gettext("No")),
    );
  } else if (interaction.kind === "choice") {
    for (const option of interaction.options || []) {
      row.append(h("button", { type: "button", dir: "auto", dataset: { optionId: option.id }, onclick: () => answer(option.id) }, option.label));
    }
  } else {
    const input = h("input", { type: "text", maxlength: "2000", dir: "auto", aria: { labelledby: promptId }, placeholder: gettext("Type your answer") });
    input.value = drafts?.get(interaction.id) || "";
    input.addEventListener("input", () => drafts?.set(interaction.id, input.value));
    const form = h(
      "form",
      {
        class: "interaction-input",
        onsubmit: (event) => {
          event.preventDefault();
          answer(input.value);
        },
      },
      input,
      h("button", { type: "submit", class: "primary" }, gettext("Send")),
    );
    row.append(form);
  }
  row.append(h("button", { type: "button", class: "quiet dismiss", onclick: () => actions.dismiss(interaction) }, gettext("Dismiss")));
  card.append(row);
  return card;
}

function plannedSeconds(block, operation) {
  if (block.result) return secondsBetween(block.result.started_at, block.result.ends_at);
  if (operation) return secondsBetween(operation.started_at, operation.ends_at);
  return null;
}

function blockStatus(block) {
  if (block.state === "open") return { label: block.app_id === "pomodoro" ? gettext("Focusing") : gettext("Open"), tone: "live" };
  const result = block.result;
  if (!result) return { label: gettext("Closed"), tone: "ended" };
  if (result.state === "completed") return { label: gettext("Completed"), tone: "completed" };
  return { label: gettext("Interrupted"), tone: "interrupted" };
}

/** The result line of an ended block, as nodes; the activity comes from the operation, so it survives restarts. */
export function resultLine(block) {
  const result = block.result;
  if (!result) return block.ended_at ? [format(gettext("Closed at %(time)s."), { time: clockTime(block.ended_at, { seconds: true }) })] : null;
  const planned = durationText(secondsBetween(result.started_at, result.ends_at));
  const ended = clockTime(result.ended_at, { seconds: true });
  if (result.state === "completed") {
    return block.activity
      ? tx(gettext("Completed: %(planned)s of %(activity)s, ended %(time)s."), { planned: text(planned), activity: block.activity, time: text(ended) })
      : tx(gettext("Completed: %(planned)s, ended %(time)s."), { planned: text(planned), time: text(ended) });
  }
  const done = text(durationText(secondsBetween(result.started_at, result.ended_at)));
  const why = text(REASONS[result.interruption_reason] ? REASONS[result.interruption_reason]() : result.interruption_reason || gettext("interrupted"));
  return block.activity
    ? tx(gettext("Interrupted after %(done)s of %(planned)s of %(activity)s: %(why)s."), { done, planned: text(planned), activity: block.activity, why })
    : tx(gettext("Interrupted after %(done)s of %(planned)s: %(why)s."), { done, planned: text(planned), why });
}

/** The page's own words as a text node (tx isolates strings, which is for other people's words). */
function text(words) {
  return document.createTextNode(words);
}

/** "Pomodoro · reading · 25 min" with the activity isolated. */
export function blockTitle(block, seconds) {
  const parts = [appName(block.app_id, block.app_name)];
  if (block.activity) parts.push(h("bdi", {}, block.activity));
  if (seconds !== null) parts.push(durationText(seconds));
  return parts.flatMap((part, index) => (index ? [" · ", part] : [part]));
}

/** An App sub-session as a collapsible block; folded by default once it has ended. */
export function blockView(block, { operation, openBlocks, actions, drafts }) {
  const status = blockStatus(block);
  const seconds = plannedSeconds(block, operation);
  // Open while the sub-session runs, folded once it has ended — unless the person chose otherwise.
  const byDefault = block.state === "open";
  const remembered = openBlocks.get(block.app_session_id);
  const details = h("details", {
    class: ["block", `block-${status.tone}`, block.read_only ? "read-only" : "live"],
    dataset: { appSessionId: block.app_session_id, appId: block.app_id, state: block.state, instanceId: block.instance_id },
    open: remembered ?? byDefault,
  });
  details.addEventListener("toggle", () => {
    // Creating an open <details> fires a toggle too; only a change away from the default is a choice.
    if (details.open === byDefault) openBlocks.delete(block.app_session_id);
    else openBlocks.set(block.app_session_id, details.open);
  });
  details.append(
    h(
      "summary",
      { class: "block-summary" },
      h("span", { class: "block-title" }, blockTitle(block, seconds)),
      h("span", { class: ["pill", `pill-${status.tone}`] }, status.label),
      block.read_only ? h("span", { class: "read-only-mark", title: gettext("This sub-session has ended; nothing can be added to it.") }, gettext("Read-only")) : null,
      h("time", { datetime: block.opened_at }, clockTime(block.opened_at)),
    ),
  );
  const body = h("div", { class: "block-body" });
  for (const entry of block.entries) {
    if (entry.type === "message") body.append(messageView(entry));
    else if (entry.type === "interaction") body.append(interactionView(entry, actions, { live: !block.read_only, drafts }));
  }
  // What a closed app kept (Scratch notes' text), shown as it was, read-only: not a field.
  if (block.read_only && block.kept_text && block.kept_text.length) {
    body.append(
      h(
        "figure",
        { class: "block-kept" },
        h("figcaption", { class: "block-kept-label" }, gettext("Kept when it closed (read-only):")),
        ...block.kept_text.map((kept) => h("p", { class: "block-kept-text", dir: "auto" }, kept)),
      ),
    );
  }
  const line = resultLine(block);
  if (line) body.append(h("p", { class: ["block-result", `result-${status.tone}`] }, line));
  if (!block.entries.length && !line) body.append(h("p", { class: "block-empty" }, gettext("Nothing here yet.")));
  details.append(body);
  return details;
}
