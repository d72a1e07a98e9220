/*
 * LineUp MiniApp SDK v1 in an MCP Apps host — the same `LineUp` API as lineup-sdk.js, over the
 * official MCP Apps guest `App` (@modelcontextprotocol/ext-apps, vendored in mcp-apps/) instead of
 * the workspace's MessagePort.
 *
 * The MCP endpoint inlines this file (after mcp-apps/ext-apps-app.js) into the Surface document it
 * serves as ui://lineup/<app>; the workspace never loads it. The host renders that document for a
 * call of one of the app's tools and sends the call's arguments (ui/notifications/tool-input) and
 * result (ui/notifications/tool-result). From them and from the Runtime this builds the projection
 * a Surface already knows:
 *
 *   operation   from the result (a pomodoro.start receipt, or the operation_id of an interrupt),
 *               then as the Runtime says through the host: the app-only status tool named in the
 *               document's config, asked at once, at ends_at and every few seconds until the
 *               operation is final. The Surface never decides an end itself.
 *   clock       offset_ms from the status tool's server_time.
 *   language    the host context's locale (zh… is zh-hans, else en).
 *   instance    read_only: an MCP host holds no instance snapshot, so there is nothing to save.
 *
 * getState() answers {revision: 0, state: null}; saveState() rejects with `unsupported_here`;
 * requestCapability() answers granted: false. Nothing here can reach the network: the document's
 * CSP allows no connection, and every call goes to the host as an MCP Apps JSON-RPC message.
 */
(function () {
  "use strict";

  var POLL_MAX_MS = 5000; // an interrupt can end a focus at any time: ask at least this often
  var POLL_MIN_MS = 250; // a settlement lands within milliseconds of ends_at
  var config = JSON.parse(document.getElementById("lineup-mcp-app").textContent);
  var listeners = [];
  var latest = null;
  var operation = null; // as the projection carries it
  var activity = null; // from the tool's arguments
  var offsetMs = 0;
  var language = "en";
  var pollTimer = null;
  var asking = false;

  function sdkError(code, detail) {
    var error = new Error(detail || code);
    error.code = code;
    return error;
  }

  function languageOf(locale) {
    return typeof locale === "string" && /^zh\b/i.test(locale) ? "zh-hans" : "en";
  }

  // An operation runs until it is completed or interrupted; while it runs its state is the app's
  // own word (its manifest's running_label, config.running_label here).
  function final(op) {
    return op.state === "completed" || op.state === "interrupted";
  }

  function publish() {
    latest = {
      instance: {
        instance_id: null,
        app_id: config.app_id,
        lifecycle_state: operation && final(operation) ? "closed" : "active",
        restored: false,
        read_only: true,
      },
      operation: operation,
      snapshot: { revision: 0, state: null },
      clock: { offset_ms: offsetMs },
      visible: document.visibilityState === "visible",
      language: language,
      host: "mcp-apps",
    };
    listeners.slice().forEach(function (cb) {
      try {
        cb(latest);
      } catch (err) {
        console.error("LineUp: onProjection callback failed", err);
      }
    });
  }

  function take(status) {
    // Only fields the Runtime said; activity from the status when it has one, else from the input.
    var next = {
      operation_id: status.operation_id,
      state: status.state,
      started_at: status.started_at,
      ends_at: status.ends_at,
    };
    var named = status.activity || activity;
    if (named) next.activity = named;
    if (status.ended_at) next.ended_at = status.ended_at;
    if (status.interruption_reason) next.interruption_reason = status.interruption_reason;
    operation = next;
    publish();
  }

  function schedule() {
    clearTimeout(pollTimer);
    pollTimer = null;
    if (!operation || final(operation)) return;
    var untilEnd = Date.parse(operation.ends_at) - (Date.now() + offsetMs);
    if (isNaN(untilEnd)) untilEnd = POLL_MAX_MS;
    pollTimer = setTimeout(ask, Math.max(POLL_MIN_MS, Math.min(POLL_MAX_MS, untilEnd)));
  }

  function ask() {
    if (!operation || asking) return;
    asking = true;
    var sent = Date.now();
    app
      .callServerTool({ name: config.status_tool, arguments: { operation_id: operation.operation_id } })
      .then(function (result) {
        var status = result && !result.isError ? result.structuredContent : null;
        if (status && status.operation_id === operation.operation_id) {
          var serverTime = Date.parse(status.server_time);
          if (!isNaN(serverTime)) offsetMs = serverTime - (sent + Date.now()) / 2;
          take(status);
        }
      })
      .catch(function (error) {
        console.warn("LineUp: the host could not ask the Runtime:", error && error.message);
      })
      .then(function () {
        asking = false;
        schedule();
      });
  }

  function fromResult(result) {
    var content = result && result.structuredContent;
    if (!content || typeof content !== "object" || result.isError) return;
    if (content.started_at && content.ends_at && content.operation_id) {
      // A start's receipt: the countdown can show at once; a replay after the end carries the result.
      take(content.result && content.result.state ? content.result : content);
    } else if (typeof content.operation_id === "string") {
      // An interrupt's receipt names the operation; its times come from the Runtime.
      operation = { operation_id: content.operation_id, state: config.running_label, started_at: "", ends_at: "" };
    } else {
      return;
    }
    ask();
  }

  var app = new McpApps.App({ name: "LineUp " + config.app_id, version: "1" }, {}, { autoResize: true });
  app.ontoolinput = function (params) {
    var args = (params && params.arguments) || {};
    activity = typeof args.activity === "string" && args.activity ? args.activity : null;
    if (activity && operation && operation.ends_at && !operation.activity) {
      operation.activity = activity; // a host that sent the result first
      publish();
    }
  };
  app.ontoolresult = fromResult;
  app.onhostcontextchanged = function (context) {
    if (context && context.locale) {
      language = languageOf(context.locale);
      publish();
    }
  };
  app.onteardown = function () {
    clearTimeout(pollTimer);
    pollTimer = null;
    return {};
  };
  app.connect().then(
    function () {
      var context = app.getHostContext();
      language = languageOf(context && context.locale);
      publish();
    },
    function (error) {
      console.error("LineUp: no MCP Apps host answered", error);
    }
  );

  var LineUp = {
    version: 1,
    onProjection: function (cb) {
      if (typeof cb !== "function") throw new TypeError("onProjection needs a function");
      listeners.push(cb);
      if (latest) cb(latest);
      return function unsubscribe() {
        listeners = listeners.filter(function (other) {
          return other !== cb;
        });
      };
    },
    getState: function () {
      return Promise.resolve({ revision: 0, state: null });
    },
    saveState: function () {
      return Promise.reject(sdkError("unsupported_here", "an MCP Apps host keeps no instance state"));
    },
    requestCapability: function (name) {
      return Promise.resolve({ name: name, granted: false, reason: "not_offered_in_mcp_apps_hosts" });
    },
  };

  Object.defineProperty(window, "LineUp", { value: Object.freeze(LineUp), enumerable: true });
})();
