// The page's one connection to the Runtime: /ws/workspace/ with automatic reconnect.
//
// Frames out carry a request_id; the server echoes it in its ok / error / snapshot reply, which
// resolves (or rejects) the promise `request()` returned. Frames in without a request_id are
// hints ("event"): the page answers them by asking for a fresh snapshot, because hints can be
// lost and the snapshot can not.
//
// Events dispatched: "status" (detail: {status, attempt, retryInMs}), "hello", "event",
// "unauthenticated" (the session is gone: the page goes to the login).

const CLOSE_UNAUTHENTICATED = 4401;
const BACKOFF_MS = [250, 500, 1000, 2000, 3000, 5000];
const REQUEST_TIMEOUT_MS = 10000;

export class RequestError extends Error {
  constructor(code, detail) {
    super(detail || code);
    this.code = code;
    this.detail = detail || "";
  }
}

export class WorkspaceConnection extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.socket = null;
    this.status = "connecting";
    this.attempt = 0;
    this.pending = new Map();
    this.counter = 0;
    this.retryTimer = null;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN && this.status === "open";
  }

  open() {
    clearTimeout(this.retryTimer);
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("message", (event) => this.onFrame(event.data));
    socket.addEventListener("close", (event) => this.onClose(socket, event));
  }

  onFrame(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object") return;
    if (frame.type === "hello") {
      this.attempt = 0;
      this.setStatus("open");
      this.dispatchEvent(new CustomEvent("hello", { detail: frame }));
      return;
    }
    if (frame.type === "event") {
      this.dispatchEvent(new CustomEvent("event", { detail: frame }));
      return;
    }
    const waiter = frame.request_id ? this.pending.get(frame.request_id) : undefined;
    if (waiter === undefined) {
      if (frame.type === "error") console.warn("lineup: the server refused a frame", frame.code, frame.detail);
      return;
    }
    this.pending.delete(frame.request_id);
    clearTimeout(waiter.timer);
    if (frame.type === "error") waiter.reject(new RequestError(frame.code, frame.detail));
    else waiter.resolve(frame);
  }

  onClose(socket, event) {
    if (socket !== this.socket) return;
    this.socket = null;
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new RequestError("offline", "the connection was lost before the server answered"));
    }
    this.pending.clear();
    if (event.code === CLOSE_UNAUTHENTICATED) {
      this.setStatus("unauthenticated");
      this.dispatchEvent(new CustomEvent("unauthenticated"));
      return;
    }
    if (!this.stopped) this.scheduleRetry();
  }

  scheduleRetry() {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.setStatus("reconnecting", { retryInMs: delay });
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  /** Reconnect now instead of waiting for the next retry (the banner's "Retry now"). */
  retryNow() {
    if (this.status === "reconnecting") this.open();
  }

  setStatus(status, extra = {}) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, attempt: this.attempt, ...extra } }));
  }

  /** Send one frame; resolves with the server's reply frame, rejects with a RequestError. */
  request(type, body = {}, { timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
    if (!this.isOpen) return Promise.reject(new RequestError("offline", "not connected to the server"));
    this.counter += 1;
    const requestId = `r${this.counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(requestId)) reject(new RequestError("timeout", `${type} got no answer`));
      }, timeoutMs);
      this.pending.set(requestId, { resolve, reject, timer });
      this.socket.send(JSON.stringify({ type, request_id: requestId, ...body }));
    });
  }
}
