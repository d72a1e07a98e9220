// The Agents page's copy buttons: each copies the text of the element its data-copy names, says
// "Copied" on the button for a moment and announces it. Without the Clipboard API (an insecure
// origin) it selects the text and uses the older copy command; if that fails too it says so.

const status = document.getElementById("copy-status");

function announce(text) {
  status.textContent = "";
  // A new text node each time, so screen readers announce a repeated "Copied" again.
  requestAnimationFrame(() => { status.textContent = text; });
}

function copyBySelection(source) {
  const range = document.createRange();
  range.selectNodeContents(source);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

async function copy(button) {
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  let copied = false;
  try {
    await navigator.clipboard.writeText(source.textContent);
    copied = true;
  } catch {
    copied = copyBySelection(source);
  }
  if (!copied) {
    announce(status.dataset.failed);
    return;
  }
  const label = button.querySelector(".copy-label");
  const before = label.textContent;
  label.textContent = status.dataset.copied;
  button.dataset.copied = "true";
  announce(status.dataset.copied);
  setTimeout(() => {
    label.textContent = before;
    delete button.dataset.copied;
  }, 2000);
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  button.addEventListener("click", () => copy(button));
}
