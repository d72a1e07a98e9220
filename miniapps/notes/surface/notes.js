/*
 * Scratch notes: a text area kept in the instance's snapshot through the SDK. Saves are
 * debounced; the text is restored from the snapshot when the Surface (re)loads.
 */
(function () {
  "use strict";

  var DEBOUNCE_MS = 400;
  var MAX_LENGTH = 2000; // the manifest's state_schema: text maxLength
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
      notLoaded: "Could not load the notes ({code})",
    },
    "zh-hans": {
      title: "便签", placeholder: "工作时记下几行…", loading: "正在加载…", editing: "编辑中…",
      saved: "已保存", restored: "已恢复", closed: "已关闭：只读", notSaved: "没有保存（{code}），正在重试…",
      notLoaded: "没能加载便签（{code}）",
    },
  };
  var words = WORDS.en;
  var shown = ["loading"]; // the key of the status shown, so a language change can reword it
  var label = document.querySelector("label[for=text]");

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
  }

  function scheduleSave() {
    clearTimeout(timer);
    setStatus("editing");
    timer = setTimeout(save, DEBOUNCE_MS);
  }

  function save() {
    if (readOnly) return;
    if (inFlight) {
      timer = setTimeout(save, DEBOUNCE_MS);
      return;
    }
    var value = text.value.slice(0, MAX_LENGTH);
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
          // Someone else saved first: take their revision, keep what is typed here, try again.
          return LineUp.getState().then(function (held) {
            revision = held.revision;
            timer = setTimeout(save, 0);
          });
        }
        if (error.code === "instance_closed") {
          readOnly = true;
          text.disabled = true;
          setStatus("closed");
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
      text.disabled = false;
      setStatus(savedText ? "restored" : null);
      text.focus();
    },
    function (error) {
      setStatus("notLoaded", error.code);
    }
  );

  LineUp.onProjection(function (projection) {
    speak(projection.language);
    if (projection.snapshot && projection.snapshot.revision > revision) revision = projection.snapshot.revision;
    if (projection.instance && projection.instance.read_only) {
      readOnly = true;
      text.disabled = true;
    }
  });
})();
