// Every page asks for the service worker (web/worker/sw.js, served at /sw.js), which
// lets the tables open from a phone's home screen and say when the server cannot be
// reached. Browsers without one, or a page not served over HTTPS or from localhost,
// simply go without.

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((e) => console.warn("service worker:", e));
}
