// Window close = close the open MiniApps, over the page's own workspace connection.
//
// Run by the Desktop Host in the workspace page (the top document, never a Surface) when the
// person closes the window, BEFORE the window goes away and before the server it started stops.
// It sends one `workspace.close` frame on the page's /ws/workspace/ socket: the Runtime's
// lifecycle.close_workspace closes every open MiniApp of the conversation in one transaction, and
// a running focus ends interrupted(app_closed) with its one result — the same settlement as the
// app bar's × (`app.close`). The outcome is left in window.__lineupDesktopClose for the host to
// read (runJavaScript does not await promises).
(() => {
  const done = (outcome) => {
    window.__lineupDesktopClose = outcome;
  };
  window.__lineupDesktopClose = null;
  const workspace = window.lineupWorkspace;
  if (!workspace || !workspace.connection.isOpen || !workspace.ui.conversationId) {
    // Offline or still loading: nothing can be closed now; a running focus keeps its ends_at.
    done({ closed: null, skipped: "not connected" });
    return;
  }
  const conversationId = workspace.ui.conversationId;
  workspace.connection
    .request("workspace.close", { conversation_id: conversationId })
    .then((reply) => done({ closed: reply.closed, conversation_id: conversationId }))
    .catch((error) => done({ closed: null, skipped: String((error && error.code) || error) }));
})();
