// The page's browser secret (anywidget front end of tokens_edu/widgets/browser.py).
//
// Without a class list, a name typed on a lesson page is not proof of who is there, so a page
// shows only the saved work its own browser wrote. This is how the kernel learns which browser
// it is: a random secret made once, kept in this browser's localStorage (private to this
// lesson server's address), and sent to the kernel when the widget is drawn. The kernel stores
// only a hash of it with each answer, draft and game. Nothing is shown on the page.

const KEY = "tokens-edu-browser";
const VALID = /^[A-Za-z0-9_-]{22,128}$/;

function makeSecret() {
  const bytes = new Uint8Array(24); // 192 random bits
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function browserSecret() {
  try {
    let secret = window.localStorage.getItem(KEY);
    if (!secret || !VALID.test(secret)) {
      secret = makeSecret();
      window.localStorage.setItem(KEY, secret);
    }
    return secret;
  } catch (e) {
    // No localStorage (blocked by the browser's settings): one secret for this page's life,
    // so the page still shows what it saved until it is reloaded.
    if (!window.__tokensEduBrowser) window.__tokensEduBrowser = makeSecret();
    return window.__tokensEduBrowser;
  }
}

function render({ model, el }) {
  el.style.display = "none";
  try {
    model.send({ type: "browser", browser: browserSecret() });
  } catch (e) {
    /* the kernel is gone: the page's lost-contact banner says so */
  }
}

export default { render };
