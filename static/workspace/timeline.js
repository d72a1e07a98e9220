// Interact's IM: messages, App sub-session blocks (collapsible, read-only once ended) and the
// standard interactions (notice / choice / confirm / input). Pure rendering from the workspace
// snapshot's timeline; what a person does goes out through the `actions` given.

import { clockTime, durationText, h, secondsBetween } from "./dom.js";

export const REASONS = {
  returned_to_interact: "you went back to Interact",
  switched_app: "you switched to another app",
  app_closed: "the app was closed",
  agent_interrupt: "stopped at your request",
  host_interruption: "the device interrupted it",
};

const STATUS_TEXT = { dismissed: "Dismissed", timed_out: "Timed out", failed: "No longer available" };

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
  if (entry.author_kind === "human") return "You";
  if (entry.author_kind === "agent") return "Agent";
  return "LineUp";
}

export function messageView(entry) {
  return h(
    "article",
    { class: ["message", `from-${entry.author_kind}`], dataset: { messageId: entry.message_id } },
    h("header", { class: "message-meta" }, h("span", { class: "author" }, author(entry)), h("time", { datetime: entry.created_at }, clockTime(entry.created_at))),
    h("p", { class: "message-text" }, entry.text),
  );
}

function answerText(interaction) {
  if (interaction.status !== "answered") return STATUS_TEXT[interaction.status] || interaction.status;
  if (interaction.kind === "notice") return "Acknowledged";
  if (interaction.kind === "confirm") return interaction.value === true ? "You answered: Yes" : "You answered: No";
  if (interaction.kind === "choice") {
    const option = (interaction.options || []).find((o) => o.id === interaction.value);
    return `You chose: ${option ? option.label : interaction.value}`;
  }
  return `You answered: ${interaction.value}`;
}

/** One standard interaction; actionable while pending (and `live`), a read-only record after. */
export function interactionView(interaction, actions, { live = true, drafts } = {}) {
  const pending = interaction.status === "pending" && live;
  const kindLabel = { notice: "Notice", choice: "Choose one", confirm: "Please confirm", input: "Your answer" }[interaction.kind];
  const card = h("section", {
    class: ["interaction", `kind-${interaction.kind}`, pending ? "pending" : "resolved"],
    dataset: { interactionId: interaction.id, kind: interaction.kind, status: interaction.status },
    aria: { label: `${kindLabel}: ${interaction.prompt}` },
  });
  card.append(h("header", { class: "interaction-head" }, h("span", { class: "interaction-kind" }, kindLabel), h("time", { datetime: interaction.created_at }, clockTime(interaction.created_at))));
  card.append(h("p", { class: "interaction-prompt" }, interaction.prompt));
  if (!pending) {
    card.append(h("p", { class: "interaction-outcome" }, answerText(interaction)));
    return card;
  }
  const answer = (value) => actions.answer(interaction, value);
  const row = h("div", { class: "interaction-actions" });
  if (interaction.kind === "notice") {
    row.append(h("button", { type: "button", class: "primary", onclick: () => answer(null) }, "OK"));
  } else if (interaction.kind === "confirm") {
    row.append(
      h("button", { type: "button", class: "primary", onclick: () => answer(true) }, "Yes"),
      h("button", { type: "button", onclick: () => answer(false) }, "No"),
    );
  } else if (interaction.kind === "choice") {
    for (const option of interaction.options || []) {
      row.append(h("button", { type: "button", dataset: { optionId: option.id }, onclick: () => answer(option.id) }, option.label));
    }
  } else {
    const input = h("input", { type: "text", maxlength: "2000", aria: { label: interaction.prompt }, placeholder: "Type your answer" });
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
      h("button", { type: "submit", class: "primary" }, "Send"),
    );
    row.append(form);
  }
  row.append(h("button", { type: "button", class: "quiet dismiss", aria: { label: "Dismiss" }, onclick: () => actions.dismiss(interaction) }, "Dismiss"));
  card.append(row);
  return card;
}

function plannedSeconds(block, operation) {
  if (block.result) return secondsBetween(block.result.started_at, block.result.ends_at);
  if (operation) return secondsBetween(operation.started_at, operation.ends_at);
  return null;
}

function blockStatus(block) {
  if (block.state === "open") return { label: block.app_id === "pomodoro" ? "Focusing" : "Open", tone: "live" };
  const result = block.result;
  if (!result) return { label: "Closed", tone: "ended" };
  if (result.state === "completed") return { label: "Completed", tone: "completed" };
  return { label: "Interrupted", tone: "interrupted" };
}

function resultLine(block) {
  const result = block.result;
  if (!result) return block.ended_at ? `Closed at ${clockTime(block.ended_at, { seconds: true })}.` : null;
  const planned = durationText(secondsBetween(result.started_at, result.ends_at));
  const what = block.activity ? `${planned} of ${block.activity}` : planned;
  if (result.state === "completed") return `Completed: ${what}, ended ${clockTime(result.ended_at, { seconds: true })}.`;
  const done = durationText(secondsBetween(result.started_at, result.ended_at));
  const why = REASONS[result.interruption_reason] || result.interruption_reason || "interrupted";
  return `Interrupted after ${done} of ${what}: ${why}.`;
}

/** An App sub-session as a collapsible block; folded by default once it has ended. */
export function blockView(block, { operation, openBlocks, actions, drafts }) {
  const status = blockStatus(block);
  const seconds = plannedSeconds(block, operation);
  const title = [block.app_name, block.activity, seconds !== null ? durationText(seconds) : null].filter(Boolean).join(" · ");
  // Open while the sub-session runs, folded once it has ended — unless the person chose otherwise.
  const byDefault = block.state === "open";
  const remembered = openBlocks.get(block.app_session_id);
  const details = h("details", {
    class: ["block", `block-${status.tone}`, block.read_only ? "read-only" : "live"],
    dataset: { appSessionId: block.app_session_id, appId: block.app_id, state: block.state },
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
      h("span", { class: "block-title" }, title),
      h("span", { class: ["pill", `pill-${status.tone}`] }, status.label),
      block.read_only ? h("span", { class: "read-only-mark", title: "This sub-session has ended; nothing can be added to it." }, "Read-only") : null,
      h("time", { datetime: block.opened_at }, clockTime(block.opened_at)),
    ),
  );
  const body = h("div", { class: "block-body" });
  for (const entry of block.entries) {
    if (entry.type === "message") body.append(messageView(entry));
    else if (entry.type === "interaction") body.append(interactionView(entry, actions, { live: !block.read_only, drafts }));
  }
  const line = resultLine(block);
  if (line) body.append(h("p", { class: ["block-result", `result-${status.tone}`] }, line));
  if (!block.entries.length && !line) body.append(h("p", { class: "block-empty" }, "Nothing here yet."));
  details.append(body);
  return details;
}
