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

  function setStatus(words) {
    status.textContent = words;
  }

  function scheduleSave() {
    clearTimeout(timer);
    setStatus("Editing…");
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
      setStatus("Saved");
      return;
    }
    inFlight = true;
    LineUp.saveState({ text: value }, { revision: revision })
      .then(function (saved) {
        revision = saved.revision;
        savedText = value;
        setStatus(text.value === value ? "Saved" : "Editing…");
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
          setStatus("Closed: read-only");
          return;
        }
        setStatus("Not saved (" + error.code + "). Retrying…");
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
      setStatus(savedText ? "Restored" : "");
      text.focus();
    },
    function (error) {
      setStatus("Could not load the notes (" + error.code + ")");
    }
  );

  LineUp.onProjection(function (projection) {
    if (projection.snapshot && projection.snapshot.revision > revision) revision = projection.snapshot.revision;
    if (projection.instance && projection.instance.read_only) {
      readOnly = true;
      text.disabled = true;
    }
  });
})();
