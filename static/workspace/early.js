// The message box from the first paint (decision 0047). A classic script in <head>, before the
// page's modules: those are deferred, so for a moment after the page is drawn a person can type,
// and Enter used to add a new line and send nothing. Until app.js says it is ready (`adopt`), a
// message sent from the box goes into the same outbox the page's modules use (outbox.js: the
// localStorage key and the entry's shape are the same), and is shown in the IM as not sent yet.
// app.js's outbox reads it when it starts and sends it once after the first hello, with its own
// client id, so the server stores it once whatever happens in between.
(function () {
  "use strict";
  var STORAGE_KEY = "lineup.outbox.v1"; // outbox.js's
  var ready = false;
  var kept = [];

  function gettext(text) {
    return window.django && window.django.gettext ? window.django.gettext(text) : text;
  }

  function conversationId() {
    try {
      return JSON.parse(document.getElementById("lineup-boot").textContent).conversation_id || null;
    } catch (error) {
      return null;
    }
  }

  function randomId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "m" + Array.prototype.map.call(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function keep(input) {
    var text = input.value.trim();
    var conversation = conversationId();
    if (!text || !conversation) return;
    var entry = {
      client_message_id: randomId(),
      conversation_id: conversation,
      text: text,
      language: document.documentElement.lang || "",
      status: "pending",
      created_at: new Date().toISOString(),
    };
    try {
      var stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "[]");
      stored = Array.isArray(stored) ? stored : [];
      stored.push(entry);
      localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
    } catch (error) {
      return; // no storage: the text stays in the box rather than vanish
    }
    input.value = "";
    show(entry);
  }

  function show(entry) {
    var timeline = document.getElementById("timeline");
    if (!timeline) return;
    var article = document.createElement("article");
    article.className = "message from-human outgoing pending";
    article.dataset.clientMessageId = entry.client_message_id;
    article.dataset.sendState = "pending";
    article.dataset.offline = "true";
    var meta = document.createElement("header");
    meta.className = "message-meta";
    var who = document.createElement("span");
    who.className = "author";
    who.textContent = gettext("You");
    var state = document.createElement("span");
    state.className = "send-state pending";
    state.textContent = gettext("Not sent yet");
    meta.append(who, state);
    var body = document.createElement("p");
    body.className = "message-text";
    body.dir = "auto";
    body.textContent = entry.text;
    article.append(meta, body);
    timeline.append(article);
    kept.push(article);
  }

  function isBox(node) {
    return node && (node.id === "composer-input" || node.id === "dock-input");
  }

  document.addEventListener(
    "keydown",
    function (event) {
      if (ready || !isBox(event.target)) return;
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        keep(event.target);
      }
    },
    true,
  );
  document.addEventListener(
    "submit",
    function (event) {
      if (ready) return;
      var form = event.target;
      if (!form || (form.id !== "composer" && form.id !== "dock")) return;
      event.preventDefault();
      var input = form.querySelector("#composer-input, #dock-input");
      if (input) keep(input);
    },
    true,
  );

  window.lineupEarly = {
    /** app.js is ready: its outbox has read what was kept here, and draws it from now on. */
    adopt: function () {
      ready = true;
      kept.forEach(function (node) { node.remove(); });
      kept = [];
    },
  };
})();
