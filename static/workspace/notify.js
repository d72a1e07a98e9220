// The end of a focus reaches a person who is not looking (issue 40): when an operation ends while
// the page is hidden, a system notification says how it ended; the message in the IM stays the
// record. Asked for at a sensible moment, never on load: the first time a focus is running and the
// person is on the page, a small offer appears beside the app bar's "More"; a setting there turns
// it off. The choice is the browser's (Notification.permission) plus the person's own switch here.
// Phones get no offer (lineup.css): their browsers show page notifications only through a service
// worker (Chrome on Android) or an installed app (Safari), which LineUp's page does not have yet.

import { h, replaceChildren } from "./dom.js";
import { appName, format, gettext } from "./i18n.js";

const SETTING_KEY = "lineup.notify.v1"; // "on" | "off" (absent: not asked yet)
const supported = typeof window.Notification === "function";

function setting() {
  try {
    return localStorage.getItem(SETTING_KEY);
  } catch {
    return null;
  }
}

function remember(value) {
  try {
    localStorage.setItem(SETTING_KEY, value);
  } catch {
    // storage disabled: the choice lasts for this page
  }
}

/** Notifications will be shown: supported, allowed by the browser, and not turned off here. */
export function enabled() {
  return supported && Notification.permission === "granted" && setting() !== "off";
}

/** The switch in "More": a checkbox, drawn once. */
export function drawSetting(container) {
  if (!supported) return;
  const box = h("input", { type: "checkbox", id: "notify-setting" });
  box.checked = enabled();
  box.addEventListener("change", async () => {
    if (box.checked) {
      remember("on");
      if (Notification.permission !== "granted") {
        const answer = await Notification.requestPermission();
        box.checked = answer === "granted";
        if (answer !== "granted") remember("off");
      }
    } else {
      remember("off");
    }
    drawOffer(null);
  });
  replaceChildren(container, h("label", { class: "notify-setting" }, box, " ", gettext("Tell me when a focus ends while this page is hidden")));
}

let offerSlot = null;

/**
 * The offer, shown while a focus runs if the person was never asked: a button (the browser asks
 * for permission only after a click), and "No thanks".
 */
export function drawOffer(slot, focusRunning = false) {
  if (slot) offerSlot = slot;
  if (!offerSlot) return;
  const ask = supported && focusRunning && setting() === null && Notification.permission === "default";
  offerSlot.hidden = !ask;
  if (!ask) {
    offerSlot.replaceChildren();
    return;
  }
  if (offerSlot.childElementCount) return;
  replaceChildren(
    offerSlot,
    h("span", {}, gettext("Get a notification when this focus ends?")),
    h(
      "button",
      {
        type: "button",
        class: "primary",
        onclick: async () => {
          remember("on");
          const answer = await Notification.requestPermission();
          if (answer !== "granted") remember("off");
          syncSetting();
          drawOffer(null);
        },
      },
      gettext("Notify me"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "quiet",
        onclick: () => {
          remember("off");
          syncSetting();
          drawOffer(null);
        },
      },
      gettext("No thanks"),
    ),
  );
}

function syncSetting() {
  const box = document.getElementById("notify-setting");
  if (box) box.checked = enabled();
}

/**
 * An operation ended while the page was hidden or not in front (another window has the focus): say
 * how, once (tagged by the operation). In the desktop host the same Notification is shown by the
 * desktop (lineup/desktop/notifications.py).
 */
export function focusEnded(op, block) {
  if (!enabled() || (document.visibilityState === "visible" && document.hasFocus())) return null;
  const name = appName(block ? block.app_id : "pomodoro");
  const result = block && block.result;
  const title =
    result && result.state === "completed" ? format(gettext("%(name)s: focus completed"), { name }) : format(gettext("%(name)s: focus ended"), { name });
  const body = op.activity ? op.activity : gettext("Open LineUp to see how it went.");
  try {
    const note = new Notification(title, { body, tag: `lineup-op-${op.operation_id || op.id || ""}`, lang: document.documentElement.lang });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
    return note;
  } catch {
    return null; // e.g. a platform that only allows notifications from a service worker
  }
}
