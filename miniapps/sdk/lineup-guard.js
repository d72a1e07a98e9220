/*
 * The first script of every MiniApp Surface document (the Web host's and the MCP Apps one).
 *
 * Neither the Content-Security-Policy nor the iframe sandbox covers WebRTC: a Surface could build an
 * RTCPeerConnection with an ICE server of its choosing and send UDP anywhere (SPEC says it
 * reaches only the SDK port). Chromium has no `webrtc 'block'` CSP directive (it reports it as
 * unrecognized), so the WebRTC constructors are removed from the Surface's realm before any of its own
 * code runs. No other realm can hand them back: nested frames of any kind are refused by
 * `frame-src 'none'` / `child-src 'none'` (they become cross-origin error pages), popups by the
 * sandbox, workers by `worker-src 'none'` (and workers have no WebRTC).
 *
 * Not covered by anything here: the frame navigating itself. The host refuses the page and closes the
 * Surface, but Chromium resolves and connects to the named host first (docs/decisions/0006-surface-
 * sandbox-and-csp.md: a residual, measured); a sandboxed document gets no Navigation API events to
 * cancel it with.
 */
(function () {
  "use strict";
  const names = Object.getOwnPropertyNames(globalThis).filter((name) => /^(webkit|moz)?RTC/.test(name));
  for (const name of names.concat(["MediaStreamTrackProcessor", "MediaStreamTrackGenerator"])) {
    try {
      delete globalThis[name];
    } catch (error) {
      // A non-configurable global is left; the test of the sandbox would then fail loudly.
    }
  }
  // getUserMedia is denied by the Permissions-Policy already; without mediaDevices there is nothing to ask.
  try {
    Object.defineProperty(Navigator.prototype, "mediaDevices", { get: () => undefined, configurable: false });
  } catch (error) {
    // Already gone in this browser.
  }
})();
