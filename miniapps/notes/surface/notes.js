/*
 * Scratch notes: a text area kept in the instance's snapshot through the SDK. Saves are
 * debounced; the text is restored from the snapshot when the Surface (re)loads.
 */
(function () {
  "use strict";

  var DEBOUNCE_MS = 400;
  var MAX_LENGTH = 2000; // the manifest's state_schema: text maxLength
  // The manifest's instance_state.max_bytes: the Runtime measures the state as compact UTF-8 JSON
  // (runtime.services.snapshots.encoded_size), so ~1 300 Chinese characters fill it long before
  // MAX_LENGTH. The Surface measures the same way and takes no more than fits.
  var MAX_BYTES = 4096;
  var MAX_ATTEMPTS = 3; // a save that keeps failing stops retrying (the next edit tries again)
  var encoder = new TextEncoder();
  var attempts = 0;
  var text = document.getElementById("text");
  var status = document.getElementById("status");
  var revision = 0;
  var savedText = "";
  var timer = null;
  var inFlight = false;
  var readOnly = false;
  // The host says the page's language in each projection; a Surface has no network for a catalog.
  var WORDS = {
    en: {
      title: "Scratch notes", placeholder: "A few lines to keep while you work…", loading: "Loading…", editing: "Editing…",
      saved: "Saved", restored: "Restored", closed: "Closed: read-only", notSaved: "Not saved ({code}). Retrying…",
      notSavedStopped: "Not saved ({code}). Edit the note to try again.",
      notLoaded: "Could not load the notes ({code})",
      usage: "{used} of {max} bytes", full: "The note is full ({max} bytes): nothing more fits. Delete some text to add more.",
    },
    "zh-hans": {
      title: "便签", placeholder: "工作时记下几行…", loading: "正在加载…", editing: "编辑中…",
      saved: "已保存", restored: "已恢复", closed: "已关闭：只读", notSaved: "没有保存（{code}），正在重试…",
      notSavedStopped: "没有保存（{code}）。再编辑一下便签会重新尝试。",
      notLoaded: "没能加载便签（{code}）",
      usage: "已用 {used} / {max} 字节", full: "便签已满（{max} 字节），放不下更多内容了。删掉一些文字才能继续添加。",
    },
  };
  var words = WORDS.en;
  var shown = ["loading"]; // the key of the status shown, so a language change can reword it
  var label = document.querySelector("label[for=text]");
  var usage = document.getElementById("usage");
  var full = false;

  function bytesOf(value) {
    return encoder.encode(JSON.stringify({ text: value })).length;
  }

  /** The longest start of ``value`` whose state fits MAX_BYTES (whole characters, never half a pair). */
  function fitting(value) {
    if (bytesOf(value) <= MAX_BYTES) return value;
    var chars = Array.from(value);
    var low = 0, high = chars.length;
    while (low < high) {
      var mid = Math.ceil((low + high) / 2);
      if (bytesOf(chars.slice(0, mid).join("")) <= MAX_BYTES) low = mid;
      else high = mid - 1;
    }
    return chars.slice(0, low).join("");
  }

  function showUsage() {
    var used = bytesOf(text.value);
    usage.textContent = full ? words.full.replace("{max}", MAX_BYTES) : words.usage.replace("{used}", used).replace("{max}", MAX_BYTES);
    usage.classList.toggle("full", full);
    usage.classList.toggle("near", !full && used > MAX_BYTES * 0.9);
  }

  function setStatus(key, code) {
    shown = key ? [key, code] : null;
    status.textContent = key ? words[key].replace("{code}", code || "") : "";
  }

  function speak(language) {
    if (!WORDS[language] || words === WORDS[language]) return;
    words = WORDS[language];
    document.documentElement.lang = language;
    document.title = words.title;
    label.textContent = words.title;
    text.placeholder = words.placeholder;
    if (shown) setStatus(shown[0], shown[1]);
    showUsage();
  }

  /** Keep the note within its quota: what does not fit is not taken, and the person is told so. */
  function limitInput() {
    var value = text.value;
    var kept = fitting(value);
    full = kept !== value; // something typed or pasted did not fit
    if (kept !== value) {
      var caret = Math.min(text.selectionStart, kept.length);
      text.value = kept;
      text.setSelectionRange(caret, caret);
    }
    showUsage();
  }

  function scheduleSave() {
    clearTimeout(timer);
    limitInput();
    attempts = 0;
    setStatus("editing");
    timer = setTimeout(save, DEBOUNCE_MS);
  }

  function save() {
    if (readOnly) return;
    if (inFlight) {
      timer = setTimeout(save, DEBOUNCE_MS);
      return;
    }
    var value = fitting(text.value.slice(0, MAX_LENGTH));
    if (value === savedText) {
      setStatus("saved");
      return;
    }
    inFlight = true;
    LineUp.saveState({ text: value }, { revision: revision })
      .then(function (saved) {
        revision = saved.revision;
        savedText = value;
        setStatus(text.value === value ? "saved" : "editing");
      })
      .catch(function (error) {
        if (error.code === "stale_revision") {
          // Someone else saved first (the Agent's notes.append, another tab): take their revision
          // and keep what is typed here, with what they added after the text this one had saved.
          return LineUp.getState().then(function (held) {
            revision = held.revision;
            var theirs = (held.state && held.state.text) || "";
            if (theirs !== savedText && theirs.indexOf(savedText) === 0) {
              text.value = fitting(text.value + theirs.slice(savedText.length));
            }
            savedText = theirs;
            timer = setTimeout(save, 0);
          });
        }
        if (error.code === "instance_closed") {
          readOnly = true;
          text.disabled = true;
          setStatus("closed");
          return;
        }
        attempts += 1;
        if (error.code === "state_too_large" || attempts >= MAX_ATTEMPTS) {
          // Sending the same state again would be refused again: wait for the next edit.
          setStatus("notSavedStopped", error.code);
          return;
        }
        setStatus("notSaved", error.code);
        timer = setTimeout(save, DEBOUNCE_MS * 4);
      })
      .then(function () {
        inFlight = false;
      });
  }

  text.addEventListener("input", scheduleSave);

  LineUp.getState().then(
    function (held) {
      revision = held.revision;
      savedText = (held.state && held.state.text) || "";
      text.value = savedText;
      text.disabled = readOnly;
      limitInput();
      setStatus(savedText ? "restored" : null);
      text.focus();
    },
    function (error) {
      setStatus("notLoaded", error.code);
    }
  );

  LineUp.onProjection(function (projection) {
    speak(projection.language);
    var snapshot = projection.snapshot;
    if (snapshot && snapshot.revision > revision) {
      var theirs = (snapshot.state && snapshot.state.text) || "";
      if (!inFlight && text.value === savedText) {
        // Nothing typed here is waiting: show what was saved elsewhere (the Agent's notes.append).
        text.value = theirs;
        savedText = theirs;
        revision = snapshot.revision;
        limitInput();
      }
      // Otherwise the next save meets stale_revision and merges what they added (above).
    }
    if (projection.instance && projection.instance.read_only) {
      readOnly = true;
      text.disabled = true;
    }
  });
})();
