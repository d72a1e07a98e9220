/*
 * Pomodoro's Surface: the activity and a countdown, nothing to press.
 *
 * The countdown is drawn from ends_at - now and decides nothing: the Runtime owns the deadline
 * (ends_at in its database) and closes this app itself when the focus ends, so there is no
 * completion prompt here either. What the screen needs to redraw
 * itself after a reload (activity, operation, started_at, ends_at, display state) is saved
 * through the SDK and restored from it first thing.
 *
 * The same file runs in an MCP Apps host (the MCP endpoint's ui://lineup/pomodoro), where the SDK
 * is lineup-sdk-mcp-apps.js: there no one closes the app at the end, so a final state the Runtime
 * reports (completed, interrupted) is shown as a quiet word, with the countdown stopped where the
 * focus ended. In the workspace the projection only ever carries the focusing operation.
 */
(function () {
  "use strict";

  var RING = 339.292; // circumference of the r=54 ring
  // The host says the page's language in each projection; a Surface has no network for a catalog.
  var WORDS = {
    en: { title: "Pomodoro", timer: "Time left in this focus", waiting: "Getting your focus ready…", focus: "focus", stay: "Stay with it.", time: "Time.", completed: "Completed.", interrupted: "Interrupted." },
    "zh-hans": { title: "番茄钟", timer: "本次专注的剩余时间", waiting: "正在准备你的专注…", focus: "专注", stay: "保持专注。", time: "时间到。", completed: "已完成。", interrupted: "已中断。" },
  };
  var words = WORDS.en;
  var els = {
    focus: document.getElementById("focus"),
    activity: document.getElementById("activity"),
    countdown: document.getElementById("countdown"),
    caption: document.getElementById("caption"),
    ring: document.getElementById("ring"),
  };
  var display = null; // {operation_id, activity?, started_at, ends_at, display_state, ...}
  var offsetMs = 0; // server clock - this clock, from the host's projection
  var revision = 0;
  var saving = false;
  var ticker = null;

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function formatRemaining(ms) {
    var total = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function draw() {
    if (!display) return;
    var now = Date.now() + offsetMs;
    var ends = Date.parse(display.ends_at);
    var starts = Date.parse(display.started_at);
    var final = display.display_state === "completed" || display.display_state === "interrupted";
    // A final focus stops where it ended (an interrupted one with the time it had left).
    var ended = Date.parse(display.ended_at || "");
    if (final) now = isNaN(ended) ? ends : Math.min(ended, ends);
    var remaining = ends - now;
    els.activity.textContent = display.activity || words.focus;
    els.countdown.textContent = formatRemaining(remaining);
    var fraction = ends > starts ? Math.min(1, Math.max(0, (now - starts) / (ends - starts))) : 1;
    els.ring.style.strokeDashoffset = String(RING * fraction);
    var state = final ? display.display_state : display.display_state !== "focusing" ? "ended" : remaining > 0 ? "focusing" : "due";
    els.focus.dataset.state = state;
    // Quiet words only; the result is Interact's to tell (no completion prompt here).
    els.caption.textContent = state === "focusing" ? words.stay : state === "due" ? words.time : final ? words[state] : "";
  }

  function show(next) {
    display = next;
    els.focus.dataset.operationId = next.operation_id;
    draw();
    if (!ticker) ticker = setInterval(draw, 250);
  }

  // The Runtime stores the snapshot as JSON and may hand it back with its keys reordered.
  function canonical(value) {
    if (!value || typeof value !== "object") return JSON.stringify(value);
    return "{" + Object.keys(value).sort().map(function (key) {
      return JSON.stringify(key) + ":" + JSON.stringify(value[key]);
    }).join(",") + "}";
  }

  function sameDisplay(a, b) {
    return canonical(a) === canonical(b);
  }

  function displayFrom(operation) {
    var next = {
      operation_id: operation.operation_id,
      started_at: operation.started_at,
      ends_at: operation.ends_at,
      display_state: operation.state,
    };
    if (operation.activity) next.activity = operation.activity;
    if (operation.ended_at) next.ended_at = operation.ended_at;
    if (operation.interruption_reason) next.interruption_reason = operation.interruption_reason;
    return next;
  }

  function save(next) {
    if (saving) return;
    saving = true;
    LineUp.saveState(next, { revision: revision })
      .then(function (saved) {
        revision = saved.revision;
      })
      .catch(function (error) {
        // A stale revision means another copy of this screen saved first: the next projection
        // carries the current revision. A closed instance is read-only history: nothing to do.
        if (error.code !== "stale_revision" && error.code !== "instance_closed") {
          console.warn("pomodoro: display snapshot not saved:", error.code);
        }
      })
      .then(function () {
        saving = false;
      });
  }

  // 1. After a reload, redraw at once from the saved display snapshot.
  LineUp.getState().then(
    function (held) {
      if (held.revision > revision) revision = held.revision;
      if (held.state && !display) show(held.state);
    },
    function () {}
  );

  // 2. The Runtime's projection is the truth; keep the snapshot in step with it.
  function speak(language) {
    if (!WORDS[language] || words === WORDS[language]) return;
    words = WORDS[language];
    document.documentElement.lang = language;
    document.title = words.title;
    els.countdown.setAttribute("aria-label", words.timer);
    if (!display) els.caption.textContent = words.waiting;
    draw();
  }

  LineUp.onProjection(function (projection) {
    speak(projection.language);
    if (projection.clock && typeof projection.clock.offset_ms === "number") offsetMs = projection.clock.offset_ms;
    var snapshot = projection.snapshot || { revision: 0, state: null };
    if (snapshot.revision > revision) revision = snapshot.revision;
    if (projection.operation) {
      var next = displayFrom(projection.operation);
      show(next);
      if (!projection.instance.read_only && !sameDisplay(snapshot.state, next)) save(next);
    } else if (snapshot.state && !display) {
      show(snapshot.state);
    }
  });
})();
