/*
 * LineUp MiniApp SDK v1 — the only API a Surface has.
 *
 * A Surface runs in <iframe sandbox="allow-scripts"> with a CSP that forbids every network
 * request, so it can not reach the server, the Agent or the host page. What it can do goes over
 * one MessagePort that the host hands over after the Surface says it is ready:
 *
 *   LineUp.onProjection(cb)                 the Runtime's view of this instance, now and on every change
 *   LineUp.getState()                       -> Promise<{revision, state}>  (state is null before the first save)
 *   LineUp.saveState(state, {revision})     -> Promise<{revision}>         (compare-and-set on revision)
 *   LineUp.requestCapability(name, args)    -> Promise<{name, granted, reason}>
 *
 * A rejected call rejects its promise with an Error whose `code` is the Runtime's stable code
 * (stale_revision, state_too_large, state_schema_violation, instance_closed, ...).
 *
 * An uncaught error or unhandled rejection in the Surface is told to the host ("failed"), which
 * shows that the app failed and has the server log it.
 *
 * A classic script (not an ES module): a sandboxed document has an opaque origin, and module
 * scripts would be cross-origin CORS fetches from it. It defines one frozen global, `LineUp`.
 */
(function () {
  "use strict";

  var PROTOCOL = 1;
  var READY_RETRY_MS = 250;
  var READY_TRIES = 40; // ten seconds of asking, then the host has shown an error of its own
  var REQUEST_TIMEOUT_MS = 15000;

  var port = null;
  var nextId = 1;
  var pending = new Map(); // id -> {resolve, reject, timer}
  var waiting = []; // calls made before the host connected
  var listeners = [];
  var latestProjection = null;
  var readyTimer = null;
  // One id per loaded document: the host tells a repeated "ready" of this load from a reload.
  var loadId = Array.prototype.map
    .call(crypto.getRandomValues(new Uint8Array(8)), function (b) {
      return b.toString(16).padStart(2, "0");
    })
    .join("");

  function sdkError(code, detail) {
    var error = new Error(detail || code);
    error.code = code;
    return error;
  }

  function failPending(code, detail) {
    pending.forEach(function (entry) {
      clearTimeout(entry.timer);
      entry.reject(sdkError(code, detail));
    });
    pending.clear();
  }

  function onPortMessage(event) {
    var data = event.data;
    if (!data || typeof data !== "object") return;
    if (data.type === "projection" && data.projection && typeof data.projection === "object") {
      latestProjection = data.projection;
      listeners.slice().forEach(function (cb) {
        try {
          cb(latestProjection);
        } catch (err) {
          console.error("LineUp: onProjection callback failed", err);
        }
      });
    } else if (data.type === "reply" && pending.has(data.id)) {
      var entry = pending.get(data.id);
      pending.delete(data.id);
      clearTimeout(entry.timer);
      if (data.ok) entry.resolve(data.result);
      else entry.reject(sdkError((data.error && data.error.code) || "rejected", data.error && data.error.detail));
    }
  }

  function connect(newPort) {
    if (port) {
      port.close();
      failPending("disconnected", "the host connection was replaced");
    }
    port = newPort;
    port.onmessage = onPortMessage;
    port.start();
    var queued = waiting;
    waiting = [];
    queued.forEach(function (call) {
      call();
    });
  }

  window.addEventListener("message", function (event) {
    // Only the host that embeds this Surface may hand over the port.
    if (event.source !== window.parent || event.source === window) return;
    var data = event.data;
    if (!data || data.lineup !== PROTOCOL || data.type !== "connect" || event.ports.length !== 1) return;
    clearInterval(readyTimer);
    readyTimer = null;
    connect(event.ports[0]);
  });

  // A Surface script that throws is not silent: the host shows "this app failed" and the server
  // logs it (docs/miniapps.md, "When a Surface script throws"). A few per document, then quiet.
  var MAX_FAILURE_REPORTS = 3;
  var MAX_FAILURE_CHARS = 300;
  var failureReports = 0;
  function reportFailure(message) {
    if (failureReports >= MAX_FAILURE_REPORTS) return;
    failureReports += 1;
    var text = String(message || "error").slice(0, MAX_FAILURE_CHARS);
    window.parent.postMessage({ lineup: PROTOCOL, type: "failed", load: loadId, message: text }, "*");
  }
  window.addEventListener("error", function (event) {
    reportFailure(event.message || (event.error && event.error.message));
  });
  window.addEventListener("unhandledrejection", function (event) {
    var reason = event.reason;
    reportFailure((reason && reason.message) || String(reason));
  });

  function sayReady() {
    window.parent.postMessage({ lineup: PROTOCOL, type: "ready", load: loadId }, "*");
  }

  function request(type, fields) {
    return new Promise(function (resolve, reject) {
      function send() {
        var id = nextId++;
        var message = Object.assign({ id: id, type: type }, fields);
        var timer = setTimeout(function () {
          if (pending.delete(id)) reject(sdkError("timeout", type + " got no answer"));
        }, REQUEST_TIMEOUT_MS);
        pending.set(id, { resolve: resolve, reject: reject, timer: timer });
        try {
          port.postMessage(message);
        } catch (err) {
          pending.delete(id);
          clearTimeout(timer);
          reject(sdkError("invalid_message", String(err && err.message)));
        }
      }
      if (port) send();
      else waiting.push(send);
    });
  }

  var LineUp = {
    version: PROTOCOL,
    onProjection: function (cb) {
      if (typeof cb !== "function") throw new TypeError("onProjection needs a function");
      listeners.push(cb);
      if (latestProjection) cb(latestProjection);
      return function unsubscribe() {
        listeners = listeners.filter(function (other) {
          return other !== cb;
        });
      };
    },
    getState: function () {
      return request("getState", {});
    },
    saveState: function (state, options) {
      var revision = options && options.revision;
      if (!Number.isInteger(revision) || revision < 0) {
        return Promise.reject(sdkError("invalid_revision", "saveState needs {revision: the revision it read}"));
      }
      return request("saveState", { state: state, revision: revision });
    },
    requestCapability: function (name, args) {
      if (typeof name !== "string" || !name) return Promise.reject(sdkError("invalid_capability", "a name is needed"));
      return request("requestCapability", { name: name, args: args === undefined ? {} : args });
    },
  };

  Object.defineProperty(window, "LineUp", { value: Object.freeze(LineUp), enumerable: true });

  sayReady();
  var tries = 1;
  readyTimer = setInterval(function () {
    if (port || tries >= READY_TRIES) {
      clearInterval(readyTimer);
      return;
    }
    tries += 1;
    sayReady();
  }, READY_RETRY_MS);
})();
