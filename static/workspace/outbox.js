// The person's messages on their way to the server: nothing written is lost or doubled.
//
// Each message gets an id made here (`client_message_id`) before it is sent, and waits in this
// outbox — kept in localStorage, so a reload keeps it — until the server has stored it. The server
// stores one message per id (a unique constraint), so the page may send it again whenever it is in
// doubt: after a dropped connection, a timeout, a reload. It is "pending" until the server's answer
// (then "sent") or the stored message itself (an event or a snapshot carrying its id) is seen (then
// it is the stored message, marked "Sent"); "failed" only when the server refused it (it stays, with Retry
// and Discard), never because the connection was lost.

const STORAGE_KEY = "lineup.outbox.v1"; // early.js writes here too, before these modules run
const RETRYABLE = new Set(["offline", "timeout", "internal_error"]);

function randomId() {
  // crypto.randomUUID needs a secure context; getRandomValues works on a plain-http LAN address too.
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return "m" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "[]");
    return Array.isArray(stored) ? stored.filter((e) => e && typeof e.client_message_id === "string" && typeof e.text === "string") : [];
  } catch {
    return [];
  }
}

export class Outbox {
  constructor() {
    this.entries = load();
    this.sending = new Set(); // ids with a request in flight on the current connection
  }

  save() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(this.entries));
    } catch {
      // Storage full or disabled: the outbox still works for this page's lifetime.
    }
  }

  /** A new message from the person: pending from now on. */
  add(conversationId, text, language) {
    const entry = { client_message_id: randomId(), conversation_id: conversationId, text, language, status: "pending", created_at: new Date().toISOString() };
    this.entries.push(entry);
    this.save();
    return entry;
  }

  /** What the timeline shows after the stored messages of this conversation. */
  waiting(conversationId) {
    return this.entries.filter((e) => e.conversation_id === conversationId);
  }

  /**
   * The stored messages with these ids are on the page now (an event or a snapshot): they leave the
   * outbox. One the server answered for ("sent") but no snapshot showed within a minute leaves too.
   */
  stored(ids) {
    const stale = Date.now() - 60_000;
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => !ids.has(e.client_message_id) && !(e.status === "sent" && e.sent_at < stale));
    if (this.entries.length !== before) this.save();
    return this.entries.length !== before;
  }

  discard(clientId) {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.client_message_id !== clientId);
    this.save();
    return this.entries.length !== before;
  }

  /**
   * Send every pending message of the conversations the server lists (oldest first), each at most
   * once per connection at a time. `request(body)` is the connection's message.send.
   */
  async flush(conversationIds, request, onChange) {
    for (const entry of this.entries.filter((e) => e.status === "pending" && conversationIds.includes(e.conversation_id))) {
      if (this.sending.has(entry.client_message_id)) continue;
      await this.send(entry, request, onChange);
    }
  }

  async send(entry, request, onChange) {
    this.sending.add(entry.client_message_id);
    try {
      await request({ conversation_id: entry.conversation_id, text: entry.text, client_message_id: entry.client_message_id, language: entry.language });
      // Stored (or it already was: a resend is answered with the stored message). Shown "sent"
      // until the stored message itself reaches the page.
      entry.status = "sent";
      entry.sent_at = Date.now();
      this.save();
    } catch (error) {
      if (!RETRYABLE.has(error.code)) {
        // Refused (e.g. no visible characters): resending would be refused again.
        entry.status = "failed";
        entry.error = error.detail || error.code;
        this.save();
      }
      // offline / timeout: still pending; sent again after the next hello.
    } finally {
      this.sending.delete(entry.client_message_id);
      onChange();
    }
  }

  /** "Retry" on a failed one: pending again, sent now. */
  retry(clientId) {
    const entry = this.entries.find((e) => e.client_message_id === clientId);
    if (!entry) return null;
    entry.status = "pending";
    delete entry.error;
    this.save();
    return entry;
  }

  /** The connection is gone: nothing is in flight on it any more. */
  disconnected() {
    this.sending.clear();
  }
}
