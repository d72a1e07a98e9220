// The page's one connection to the Runtime: /ws/workspace/ with automatic reconnect.
//
// Frames out carry a request_id; the server echoes it in its ok / error / snapshot reply, which
// resolves (or rejects) the promise `request()` returned. Frames in without a request_id are
// hints ("event"): the page answers them by asking for a fresh snapshot, because hints can be
// lost and the snapshot can not.
//
// Events dispatched: "status" (detail: {status, attempt, retryAt}), "hello", "event",
// "unauthenticated" (the session is gone: the page goes to the login).
//
// The page knows within seconds when it is cut off (decision 0047): the browser's offline event
// drops the socket at once (status "offline", no retries until "online"), and a heartbeat finds a
// connection that died silently (a server gone without a FIN, a Wi-Fi that stopped answering):
// after HEARTBEAT_QUIET_MS with no frame the page sends `ping`, and a connection that then
// stays silent for PONG_DEADLINE_MS is given up and reopened. A closed socket's "close" event can
// take a minute on a dead network, so the page does not wait for it.

const CLOSE_UNAUTHENTICATED = 4401;
const BACKOFF_MS = [250, 500, 1000, 2000, 3000, 5000];
const REQUEST_TIMEOUT_MS = 10000;
const HEARTBEAT_TICK_MS = 250;
const HEARTBEAT_QUIET_MS = 2000; // a visible page asks after 2 s of silence ...
const HEARTBEAT_QUIET_HIDDEN_MS = 20000; // ... a hidden one (nobody is looking) after 20 s
const PONG_DEADLINE_MS = 2000; // so a silent death is known within 4.5 s
const CLOSE_GIVEN_UP = 4000;

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
    this.lastHeard = 0; // when the current socket last said anything (performance.now())
    this.pingSentAt = 0;
    this.heartbeat = null;
  }

  start() {
    this.stopped = false;
    window.addEventListener("offline", () => this.wentOffline());
    window.addEventListener("online", () => this.retryNow());
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_TICK_MS);
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    if (this.socket) this.socket.close();
  }

  /** The browser says the network is gone: the socket is dead whatever it says. */
  wentOffline() {
    if (this.stopped) return;
    if (this.socket) this.giveUp(this.socket);
    else this.scheduleRetry();
  }

  /** Treat `socket` as closed now (its own "close" may come much later) and close it. */
  giveUp(socket) {
    this.onClose(socket, { code: CLOSE_GIVEN_UP });
    try {
      socket.close(CLOSE_GIVEN_UP, "no answer");
    } catch {
      // already closing
    }
  }

  /** The heartbeat: ping a quiet connection; give up on one that does not answer. */
  beat() {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || this.status !== "open") return;
    const now = performance.now();
    if (this.pingSentAt > this.lastHeard) {
      if (now - this.pingSentAt > PONG_DEADLINE_MS) this.giveUp(socket);
      return;
    }
    const quiet = document.visibilityState === "visible" ? HEARTBEAT_QUIET_MS : HEARTBEAT_QUIET_HIDDEN_MS;
    if (now - this.lastHeard < quiet) return;
    this.pingSentAt = now;
    socket.send(JSON.stringify({ type: "ping" }));
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN && this.status === "open";
  }

  open() {
    clearTimeout(this.retryTimer);
    const previous = this.socket;
    if (previous) {
      // "Retry now" while an attempt is still connecting: that one is dropped, not left open beside.
      this.socket = null;
      try {
        previous.close();
      } catch {
        // already closing
      }
    }
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    this.lastHeard = performance.now();
    this.pingSentAt = 0;
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return; // a socket given up on says nothing any more
      this.lastHeard = performance.now();
      this.onFrame(event.data);
    });
    socket.addEventListener("close", (event) => this.onClose(socket, event));
  }

  onFrame(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object" || frame.type === "pong") return;
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
    clearTimeout(this.retryTimer);
    // Offline (the browser says so) still retries, at the slowest pace: a browser's idea of
    // "online" can be wrong both ways, and an answer from the server settles it.
    const offline = navigator.onLine === false;
    const delay = offline ? BACKOFF_MS[BACKOFF_MS.length - 1] : BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    const status = offline ? "offline" : "reconnecting";
    this.attempt += 1;
    // The banner counts down to retryAt (a wall-clock time, so a throttled timer can not freeze it).
    this.setStatus(status, { retryAt: Date.now() + delay });
    this.retryTimer = setTimeout(() => {
      // Trying now: the banner says so until this attempt fails or succeeds.
      this.setStatus(status, { retryAt: null });
      this.open();
    }, delay);
  }

  /** Reconnect now instead of waiting for the next retry (the banner's "Retry now"). */
  retryNow() {
    if (this.status === "reconnecting" || this.status === "offline") {
      this.setStatus("reconnecting", { retryAt: null });
      this.open();
    }
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
