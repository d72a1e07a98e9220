// The host side of the MiniApp SDK: one sandboxed <iframe> per open MiniApp instance and the
// MessagePort it talks through.
//
// A Surface is served with a CSP that leaves it no network, and framed with
// sandbox="allow-scripts" (never allow-same-origin), so its origin is opaque ("null"). The
// handshake therefore goes to "*" and is accepted only from the frame's own window
// (event.source === iframe.contentWindow, event.origin === "null"); after it everything goes over
// a transferred MessageChannel port. Every message on that port is validated here — plain JSON
// data only, exact fields, bounded size and rate — and only three requests are relayed:
// getState (answered from the host's copy of the snapshot), saveState (-> state.save) and
// requestCapability (-> capability.request). The instance a request acts on is the frame's own,
// fixed by the host; a Surface can not name another. Anything else is refused and counted.

import { appName } from "./i18n.js";

const PROTOCOL = 1;
const MAX_MESSAGE_BYTES = 16 * 1024; // generous over the 4 KiB state quota the Runtime enforces
const MAX_DEPTH = 16;
const RATE_PER_SECOND = 20;
const READY_TIMEOUT_MS = 10000; // a load that never finishes
const MAX_FAILURE_REPORTS = 6; // per frame, over its reloads: the server is told no more than this
const MAX_FAILURE_CHARS = 300; // the SDK's own bound on a failure's message
const READY_AFTER_LOAD_MS = 1500; // the SDK says "ready" while the document loads; after it, a page without it failed
const CAPABILITY_NAME = /^[a-z][a-z0-9._-]{0,127}$/i;
const LOAD_ID = /^[0-9a-f]{16}$/;

const REQUEST_FIELDS = {
  getState: ["id", "type"],
  saveState: ["id", "type", "state", "revision"],
  requestCapability: ["id", "type", "name", "args"],
};

function isPlainObject(value) {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/** Only JSON values survive: no Dates, Maps, Blobs, typed arrays, NaN, cycles or deep nesting. */
function isJsonValue(value, depth = 0) {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  return false;
}

function sameKeys(object, expected) {
  const keys = Object.keys(object);
  return keys.length === expected.length && expected.every((key) => Object.hasOwn(object, key));
}

/** Why `data` is not an acceptable Surface request, or null when it is. */
export function checkSurfaceMessage(data) {
  if (!isPlainObject(data)) return "a message must be a plain object";
  if (!Number.isSafeInteger(data.id) || data.id < 1) return "a message needs a positive integer id";
  const fields = REQUEST_FIELDS[data.type];
  if (!fields) return `unknown message type ${JSON.stringify(String(data.type)).slice(0, 80)}`;
  if (!sameKeys(data, fields)) return `${data.type} takes exactly ${fields.join(", ")}`;
  if (!isJsonValue(data)) return "a message may hold JSON data only";
  if (new TextEncoder().encode(JSON.stringify(data)).length > MAX_MESSAGE_BYTES) {
    return `a message may be at most ${MAX_MESSAGE_BYTES} bytes`;
  }
  if (data.type === "saveState" && (!Number.isSafeInteger(data.revision) || data.revision < 0)) {
    return "saveState needs a non-negative integer revision";
  }
  if (data.type === "requestCapability") {
    if (typeof data.name !== "string" || !CAPABILITY_NAME.test(data.name)) return "a capability name is a short identifier";
    if (!isPlainObject(data.args)) return "capability args are an object";
  }
  return null;
}

class SurfaceFrame {
  constructor(host, instance) {
    this.host = host;
    this.instanceId = instance.instance_id;
    this.appId = instance.app_id;
    this.port = null;
    this.loadId = null;
    this.loads = 0;
    this.lastProjection = null;
    this.projectionKey = null;
    this.tokens = RATE_PER_SECOND;
    this.tokensAt = performance.now();
    this.rejected = 0;
    this.failed = false;
    this.failureReports = 0; // "failed" reports taken from this frame (the SDK sends at most 3 a load)

    this.iframe = document.createElement("iframe");
    // Scripts only: no same-origin (so no cookies, storage or host DOM), no forms, popups,
    // top navigation, downloads or modals. The CSP of the Surface response says the same.
    this.iframe.setAttribute("sandbox", "allow-scripts");
    this.iframe.setAttribute("allow", "");
    this.iframe.setAttribute("referrerpolicy", "no-referrer");
    this.iframe.setAttribute("title", appName(instance.app_id, instance.name));
    this.iframe.className = "surface-frame";
    this.iframe.dataset.instanceId = this.instanceId;
    this.iframe.dataset.appId = this.appId;
    this.iframe.hidden = true;
    // An error page (the server down, a 404) loads too, but never says "ready".
    // A load the host did not ask for is the Surface's own doing. Reloading its own document is
    // allowed (R-4.2.2: the focus runs on): that document's SDK says "ready" while it loads, before
    // this event. Any other page never does — it is the Surface navigating its frame, which the
    // host's frame-src refuses, but a navigation is how a Surface could name a host on the network
    // (its DNS lookup) — so such a frame is closed for good, never reloaded
    // (docs/decisions/0006-surface-sandbox-and-csp.md).
    this.loadsAsked = 1;
    this.loadsSeen = 0;
    this.iframe.addEventListener("load", () => {
      this.loadsSeen += 1;
      if (this.loadsSeen > this.loadsAsked) {
        if (this.loads >= this.loadsSeen) {
          this.loadsAsked = this.loadsSeen; // its own document again: a reload
        } else {
          clearTimeout(this.navigationTimer);
          this.navigationTimer = setTimeout(() => {
            if (this.loads < this.loadsSeen) this.host.closeNavigated(this);
            else this.loadsAsked = this.loadsSeen;
          }, READY_AFTER_LOAD_MS);
        }
        return;
      }
      if (this.awaitingReady) this.armReadyTimeout(READY_AFTER_LOAD_MS);
    });
    this.iframe.src = instance.surface;
    this.armReadyTimeout(READY_TIMEOUT_MS);
  }

  armReadyTimeout(ms) {
    this.awaitingReady = true;
    clearTimeout(this.readyTimer);
    this.readyTimer = setTimeout(() => {
      if (this.awaitingReady && !this.failed) {
        this.failed = true;
        this.host.callbacks.onFailed(this.instanceId);
      }
    }, ms);
  }

  /** The Surface's SDK says one of its scripts threw: show that the app failed, and tell the server. */
  onScriptFailed(data) {
    if (typeof data.message !== "string" || data.message.length > MAX_FAILURE_CHARS || this.failureReports >= MAX_FAILURE_REPORTS) {
      this.refuse("an unexpected failure report");
      return;
    }
    this.failureReports += 1;
    this.failed = true;
    this.host.callbacks.onFailed(this.instanceId, { thrown: data.message });
  }

  /** The frame's window said "ready": hand it a fresh port (a new load means a reload). */
  onReady(data) {
    if (isPlainObject(data) && data.lineup === PROTOCOL && data.type === "failed" && LOAD_ID.test(data.load || "")) {
      this.onScriptFailed(data);
      return;
    }
    if (!isPlainObject(data) || data.lineup !== PROTOCOL || data.type !== "ready" || !LOAD_ID.test(data.load || "")) {
      this.refuse("an unexpected window message (only the SDK's ready handshake is accepted)");
      return;
    }
    if (data.load === this.loadId && this.port) return; // the SDK repeats "ready" until connected
    const reloaded = this.loadId !== null && data.load !== this.loadId;
    this.loadId = data.load;
    this.loads += 1;
    if (this.port) this.port.close();
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event) => this.onPortMessage(event);
    this.iframe.contentWindow.postMessage({ lineup: PROTOCOL, type: "connect" }, "*", [channel.port2]);
    this.awaitingReady = false;
    clearTimeout(this.readyTimer);
    if (this.failed) {
      this.failed = false;
      this.host.callbacks.onRecovered(this.instanceId);
    }
    if (this.lastProjection) this.post({ type: "projection", projection: this.lastProjection });
    if (reloaded) this.host.callbacks.onReloaded(this.instanceId);
  }

  refuse(reason, id) {
    this.rejected += 1;
    console.warn(`lineup: refused a message from the ${this.appId} Surface: ${reason}`);
    if (Number.isSafeInteger(id) && id > 0) {
      this.post({ type: "reply", id, ok: false, error: { code: "rejected_message", detail: reason } });
    }
  }

  takeToken() {
    const now = performance.now();
    this.tokens = Math.min(RATE_PER_SECOND, this.tokens + ((now - this.tokensAt) / 1000) * RATE_PER_SECOND);
    this.tokensAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  async onPortMessage(event) {
    const data = event.data;
    const id = isPlainObject(data) ? data.id : undefined;
    if (event.ports && event.ports.length) {
      this.refuse("ports can not be passed to the host", id);
      return;
    }
    if (!this.takeToken()) {
      this.refuse("too many messages", id);
      return;
    }
    const problem = checkSurfaceMessage(data);
    if (problem) {
      this.refuse(problem, id);
      return;
    }
    try {
      const result = await this.host.callbacks.onRequest(this.instanceId, data);
      this.post({ type: "reply", id: data.id, ok: true, result });
    } catch (error) {
      const code = (error && error.code) || "failed";
      this.post({ type: "reply", id: data.id, ok: false, error: { code, detail: String(error && error.detail || error.message || code) } });
    }
  }

  post(message) {
    if (this.port) this.port.postMessage(message);
  }

  project(projection) {
    const key = JSON.stringify(projection);
    if (key === this.projectionKey) return;
    this.projectionKey = key;
    this.lastProjection = projection;
    this.post({ type: "projection", projection });
  }

  reload() {
    // A new document in the same frame: the SDK's next "ready" carries a new load id.
    this.port?.close();
    this.port = null;
    this.armReadyTimeout(READY_TIMEOUT_MS);
    this.loadsAsked = this.loadsSeen + 1;
    this.iframe.src = this.iframe.src;
  }

  destroy() {
    clearTimeout(this.readyTimer);
    clearTimeout(this.navigationTimer);
    this.port?.close();
    this.port = null;
    this.iframe.remove();
  }
}

export class SurfaceHost {
  /**
   * callbacks: onRequest(instanceId, message) -> Promise<result>, onReloaded(instanceId),
   * onFailed(instanceId, {thrown}?) (thrown: a script's error message), onRecovered(instanceId)
   */
  constructor(container, callbacks) {
    this.container = container;
    this.callbacks = callbacks;
    this.frames = new Map();
    this.navigated = new Set(); // instances whose Surface navigated its frame: never framed again on this page
    window.addEventListener("message", (event) => this.onWindowMessage(event));
  }

  /** The Surface navigated away from its document: close its frame and report it failed. */
  closeNavigated(frame) {
    console.warn(`lineup: the ${frame.appId} Surface navigated its frame; it is closed and not loaded again`);
    this.navigated.add(frame.instanceId);
    frame.destroy();
    this.frames.delete(frame.instanceId);
    frame.failed = true;
    this.callbacks.onFailed(frame.instanceId);
  }

  onWindowMessage(event) {
    if (event.source === null || event.source === window) return;
    for (const frame of this.frames.values()) {
      if (event.source === frame.iframe.contentWindow) {
        if (event.origin !== "null") {
          frame.refuse(`a window message from origin ${event.origin}; a sandboxed Surface has none`);
          return;
        }
        frame.onReady(event.data);
        return;
      }
    }
    // Not one of our frames: nothing on this page listens to anyone else.
  }

  /** Make the frames match the open instances (creating and removing iframes as needed). */
  sync(instances) {
    const wanted = new Map(instances.map((instance) => [instance.instance_id, instance]));
    for (const [id, frame] of this.frames) {
      if (!wanted.has(id)) {
        frame.destroy();
        this.frames.delete(id);
      }
    }
    for (const [id, instance] of wanted) {
      if (!this.frames.has(id) && !this.navigated.has(id)) {
        const frame = new SurfaceFrame(this, instance);
        this.frames.set(id, frame);
        this.container.append(frame.iframe);
      }
    }
  }

  show(instanceId) {
    for (const [id, frame] of this.frames) frame.iframe.hidden = id !== instanceId;
  }

  get(instanceId) {
    return this.frames.get(instanceId);
  }
}
