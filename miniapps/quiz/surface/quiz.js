/*
 * The practice quiz's Surface: the prompts and one answer box each, kept in the instance's
 * snapshot through the SDK (the Runtime scores the last snapshot when the quiz ends). The answer
 * key never comes here: the state holds only prompts and the person's answers. The Runtime owns
 * the deadline; this page only counts down. It runs sandboxed, with no network: its words are
 * here, in both languages, and the host says which one to use.
 */
(function () {
  "use strict";

  var DEBOUNCE_MS = 300;
  var WORDS = {
    en: {
      title: "Practice quiz", loading: "Loading…", running: "Type your answers; they are saved as you go.",
      ended: "The quiz has ended: your answers went to the Agent.",
      elsewhere: "This quiz is answered in the LineUp workspace.",
      saved: "Saved", saving: "Saving…", notSaved: "Not saved ({code}). Retrying…", closed: "Closed: read-only",
      answer: "Answer to {prompt}", timeLeft: "Time left", notLoaded: "Could not load the quiz ({code})",
    },
    "zh-hans": {
      title: "练习测验", loading: "正在加载…", running: "输入答案，会随时保存。",
      ended: "测验已结束：答案已交给助手。",
      elsewhere: "这个测验请在 LineUp 工作区作答。",
      saved: "已保存", saving: "正在保存…", notSaved: "没有保存（{code}），正在重试…", closed: "已关闭：只读",
      answer: "{prompt} 的答案", timeLeft: "剩余时间", notLoaded: "没能加载测验（{code}）",
    },
  };
  var words = WORDS.en;
  var state = null; // {title?, prompts, answers}
  var revision = 0;
  var operation = null;
  var offsetMs = 0;
  var readOnly = false;
  var timer = null;
  var inFlight = false;
  var dirty = false;
  var statusKey = null;
  var elsewhere = false; // a host that keeps no instance state (an MCP Apps host): no prompts here
  var els = {
    quiz: document.getElementById("quiz"),
    title: document.getElementById("title"),
    countdown: document.getElementById("countdown"),
    caption: document.getElementById("caption"),
    questions: document.getElementById("questions"),
    status: document.getElementById("status"),
  };

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function setStatus(key, code) {
    statusKey = key ? [key, code] : null;
    els.status.textContent = key ? words[key].replace("{code}", code || "") : "";
  }

  function inputs() {
    return Array.prototype.slice.call(els.questions.querySelectorAll("input"));
  }

  function build() {
    els.questions.textContent = "";
    if (!state) return;
    state.prompts.forEach(function (prompt, i) {
      var item = document.createElement("li");
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.id = "answer-" + i;
      input.type = "text";
      input.inputMode = "numeric";
      input.autocomplete = "off";
      input.maxLength = 32;
      input.value = state.answers[i] || "";
      input.disabled = readOnly;
      input.setAttribute("aria-label", words.answer.replace("{prompt}", prompt));
      input.addEventListener("input", function () {
        state.answers[i] = input.value.slice(0, 32);
        schedule();
      });
      label.htmlFor = input.id;
      label.textContent = prompt;
      item.appendChild(label);
      item.appendChild(input);
      els.questions.appendChild(item);
    });
  }

  function draw() {
    var key = readOnly ? "ended" : state ? "running" : elsewhere ? "elsewhere" : "loading";
    els.quiz.dataset.state = readOnly ? "ended" : operation ? operation.state : "waiting";
    els.title.textContent = (state && state.title) || (operation && operation.title) || words.title;
    els.caption.textContent = words[key] || "";
    if (readOnly || !operation || !operation.ends_at) {
      els.countdown.textContent = "--:--";
      return;
    }
    var ends = Date.parse(operation.ends_at);
    var now = operation.ended_at ? Date.parse(operation.ended_at) : Date.now() + offsetMs;
    var left = Math.max(0, Math.ceil((ends - now) / 1000));
    els.countdown.textContent = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
  }

  function close() {
    readOnly = true;
    clearTimeout(timer);
    inputs().forEach(function (input) {
      input.disabled = true;
    });
    draw();
  }

  function schedule() {
    dirty = true;
    setStatus("saving");
    clearTimeout(timer);
    timer = setTimeout(save, DEBOUNCE_MS);
  }

  function save() {
    if (readOnly || !dirty) return;
    if (inFlight) {
      timer = setTimeout(save, DEBOUNCE_MS);
      return;
    }
    inFlight = true;
    dirty = false;
    var sent = JSON.parse(JSON.stringify(state));
    LineUp.saveState(sent, { revision: revision })
      .then(function (saved) {
        revision = saved.revision;
        if (!dirty) setStatus("saved");
      })
      .catch(function (error) {
        dirty = true;
        if (error.code === "stale_revision") {
          // Another tab saved first: take its revision and send what is typed here.
          return LineUp.getState().then(function (held) {
            revision = held.revision;
            timer = setTimeout(save, 0);
          });
        }
        if (error.code === "instance_closed") {
          setStatus("closed");
          close();
          return;
        }
        setStatus("notSaved", error.code);
        timer = setTimeout(save, DEBOUNCE_MS * 4);
      })
      .then(function () {
        inFlight = false;
      });
  }

  LineUp.getState().then(
    function (held) {
      revision = held.revision;
      if (held.state && Array.isArray(held.state.prompts)) {
        state = held.state;
        build();
        var first = inputs().filter(function (input) { return !input.value; })[0];
        if (first && !readOnly) first.focus();
      } else {
        elsewhere = true;
      }
      draw();
    },
    function (error) {
      setStatus("notLoaded", error.code);
    }
  );

  LineUp.onProjection(function (projection) {
    var language = String(projection.language || "en").toLowerCase();
    var next = WORDS[language] || (language.indexOf("zh") === 0 ? WORDS["zh-hans"] : WORDS.en);
    if (next !== words) {
      words = next;
      document.documentElement.lang = language.indexOf("zh") === 0 ? "zh-Hans" : "en";
      document.title = words.title;
      els.countdown.setAttribute("aria-label", words.timeLeft);
      inputs().forEach(function (input, i) {
        input.setAttribute("aria-label", words.answer.replace("{prompt}", state.prompts[i]));
      });
      if (statusKey) setStatus(statusKey[0], statusKey[1]);
    }
    if (projection.clock && typeof projection.clock.offset_ms === "number") offsetMs = projection.clock.offset_ms;
    operation = projection.operation || operation;
    if (projection.snapshot && projection.snapshot.revision > revision) revision = projection.snapshot.revision;
    if ((projection.instance && projection.instance.read_only) || (operation && (operation.state === "completed" || operation.state === "interrupted"))) close();
    draw();
  });
  setInterval(draw, 1000);
  draw();
})();
